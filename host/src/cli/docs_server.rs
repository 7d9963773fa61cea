//! The flags of `quire docs-server`, each with the environment variable the Helm chart sets.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use quire::deployment_type::{DeploymentType, FeatureRequests};
use quire::docs_server::{DocsServerConfig, FetchLimits, UnpackLimits};

#[derive(Args)]
pub struct DocsServerArgs {
    /// Link to the bundle to serve (a static export's `bundleUrl`).
    #[arg(long, env = "QUIRE_BUNDLE_URL")]
    bundle_url: Option<String>,
    /// Link to the delta of that bundle against the one this server already serves (the
    /// bundle response's `delta.url`): only the changed files are downloaded, checked against
    /// the new manifest, and the rest taken from the served version. When it cannot be used
    /// (nothing served yet, another base, a bad delta) the whole bundle is fetched.
    #[arg(long, env = "QUIRE_DELTA_URL")]
    delta_url: Option<String>,
    /// Serve this content version only: used from disk when already unpacked, and a downloaded
    /// bundle of another version is refused.
    #[arg(long = "version", env = "QUIRE_BUNDLE_VERSION")]
    pin: Option<String>,
    /// Deployment type: which features exist (cloud, client-hosted, air-gapped).
    #[arg(long, env = "QUIRE_DEPLOYMENT", default_value = "cloud", value_parser = parse_deployment)]
    deployment: DeploymentType,
    /// Search API switch (client-hosted; always on in cloud, off when air-gapped). The bundle's
    /// offline search box works everywhere.
    #[arg(long, env = "QUIRE_FEATURE_SEARCH")]
    search: Option<bool>,
    /// Assistant widget switch (client-hosted; always on in cloud, off when air-gapped).
    #[arg(long, env = "QUIRE_FEATURE_ASSISTANT")]
    assistant: Option<bool>,
    /// Analytics beacon switch (client-hosted; always on in cloud, off when air-gapped).
    #[arg(long, env = "QUIRE_FEATURE_ANALYTICS")]
    analytics: Option<bool>,
    /// "Try it" playground switch (air-gapped; always on elsewhere).
    #[arg(long, env = "QUIRE_FEATURE_PLAYGROUND")]
    playground: Option<bool>,
    /// The MCP endpoint (`/mcp`) agents search and read the served bundle through (on in cloud
    /// and client-hosted deployments; on by default when air-gapped, where this switches it).
    #[arg(long, env = "QUIRE_FEATURE_MCP")]
    mcp: Option<bool>,
    /// The assistant the bundle carries, answering in the reader's browser where the API's
    /// assistant is not on (on by default when client-hosted or air-gapped, off in cloud).
    #[arg(long, env = "QUIRE_FEATURE_BUNDLE_ASSISTANT")]
    bundle_assistant: Option<bool>,
    /// `Host` names the MCP endpoint answers besides loopback and the bundle's domain, comma
    /// separated (`*` takes any): the names agents reach this server by.
    #[arg(long, env = "QUIRE_MCP_ALLOWED_HOSTS", value_delimiter = ',')]
    mcp_allowed_hosts: Vec<String>,
    /// Address to listen on.
    #[arg(long, env = "QUIRE_LISTEN", default_value = "0.0.0.0:8080")]
    listen: SocketAddr,
    /// Base URL of the API host (`quire serve`) the assistant widget and analytics talk to.
    #[arg(long, env = "QUIRE_API_URL")]
    api_url: Option<String>,
    /// A public assistant key for the widget and the analytics beacon.
    #[arg(long, env = "QUIRE_ASSISTANT_KEY", hide_env_values = true)]
    assistant_key: Option<String>,
    /// Largest bundle accepted, in MiB.
    #[arg(long, env = "QUIRE_BUNDLE_MAX_MIB", default_value_t = 2048)]
    max_bundle_mib: u64,
    /// Seconds allowed for one download attempt.
    #[arg(long, env = "QUIRE_BUNDLE_TIMEOUT_SECS", default_value_t = 300)]
    download_timeout_secs: u64,
    /// Download attempts before giving up (with exponential backoff between them).
    #[arg(long, env = "QUIRE_BUNDLE_ATTEMPTS", default_value_t = 4)]
    download_attempts: u32,
}

impl DocsServerArgs {
    pub fn into_config(self, data_dir: PathBuf) -> DocsServerConfig {
        DocsServerConfig {
            bundle_url: self.bundle_url.filter(|u| !u.trim().is_empty()),
            delta_url: self.delta_url.filter(|u| !u.trim().is_empty()),
            pin: self.pin.filter(|v| !v.trim().is_empty()),
            deployment: self.deployment,
            features: FeatureRequests {
                search: self.search,
                assistant: self.assistant,
                analytics: self.analytics,
                playground: self.playground,
                mcp: self.mcp,
                bundle_assistant: self.bundle_assistant,
            },
            data_dir,
            listen: self.listen,
            api_url: self.api_url.filter(|u| !u.trim().is_empty()),
            assistant_key: self.assistant_key.filter(|k| !k.trim().is_empty()),
            fetch: FetchLimits {
                max_bytes: self.max_bundle_mib << 20,
                timeout: Duration::from_secs(self.download_timeout_secs),
                attempts: self.download_attempts.max(1),
                ..FetchLimits::default()
            },
            unpack: UnpackLimits::default(),
            mcp_allowed_hosts: self.mcp_allowed_hosts,
        }
    }
}

fn parse_deployment(s: &str) -> Result<DeploymentType, String> {
    s.parse()
}
