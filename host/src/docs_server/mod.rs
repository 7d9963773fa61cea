//! The self-hosted docs server (`quire docs-server`, what the Helm chart runs): on startup it
//! fetches a bundle link, verifies and unpacks the bundle as a version under the data directory,
//! switches the active version atomically and serves it, with the features its deployment type
//! allows. A failed download or a bad bundle never replaces what is being served.

mod bundle_rules;
mod fetch;
mod listing;
mod serve;
mod unpack;
mod versions;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use bundle_rules::{BundleError, UnpackLimits};
pub use fetch::{FetchError, FetchLimits};
pub use versions::Versions;

use crate::deployment_type::{DeploymentType, FeatureRequests, Features};

/// What the docs server is told (flags and environment; see `quire docs-server --help`).
#[derive(Debug, Clone)]
pub struct DocsServerConfig {
    pub bundle_url: Option<String>,
    /// The delta of that bundle against the served version, tried first.
    pub delta_url: Option<String>,
    /// Serve exactly this content version: from disk if unpacked, else only if the downloaded
    /// bundle is this version.
    pub pin: Option<String>,
    pub deployment: DeploymentType,
    pub features: FeatureRequests,
    pub data_dir: PathBuf,
    pub listen: SocketAddr,
    /// The API host's base URL, for the assistant widget and the analytics beacon.
    pub api_url: Option<String>,
    /// A public assistant key for the widget and beacon.
    pub assistant_key: Option<String>,
    pub fetch: FetchLimits,
    pub unpack: UnpackLimits,
    /// `Host` names the MCP endpoint answers besides loopback and the bundle's domain (`*`
    /// takes any).
    pub mcp_allowed_hosts: Vec<String>,
}

/// Why the docs server could not start at all.
#[derive(Debug, thiserror::Error)]
pub enum DocsServerError {
    #[error("cannot use the data directory: {0}")]
    DataDir(#[from] BundleError),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// Shared by the request handlers. Fixed once the server listens: bundles are installed only
/// at startup.
pub struct DocsState {
    pub versions: Versions,
    pub features_script: String,
    /// Air-gapped: the Content-Security-Policy every response carries, so that pages load
    /// nothing from off this server.
    pub content_security_policy: Option<axum::http::HeaderValue>,
    /// Why the startup install failed, if it did (what `/readyz` says when nothing is served).
    pub problem: Option<String>,
    /// The MCP endpoint of the served bundle, where the deployment type has one.
    pub mcp: Option<McpEndpoint>,
    /// The served bundle's `llms.txt` naming the MCP endpoint, where there is one.
    pub llms_index: Option<axum::body::Bytes>,
}

/// The active version's `llms.txt` with a section naming the MCP endpoint, so agents that read
/// the site's index find the server too.
fn advertised_llms_index(versions: &Versions) -> Option<axum::body::Bytes> {
    let active = versions.active()?;
    let index = std::fs::read_to_string(active.dir.join(crate::bundle::LLMS_INDEX_FILE)).ok()?;
    Some((index + &crate::bundle::llms::mcp_section(MCP_PATH)).into())
}

/// The docs server's MCP endpoint (`/mcp`): the served bundle's docs for agents, open to
/// whoever can read the pages.
pub struct McpEndpoint {
    pub transport: crate::mcp::HttpTransport,
    pub site: Arc<crate::mcp::BundleSite>,
}

/// The largest MCP request body the docs server takes, as the API host's discovery endpoints.
const MCP_BODY_LIMIT: usize = 256 << 10;

/// Where the docs server answers MCP.
pub const MCP_PATH: &str = "/mcp";

/// The MCP endpoint for the active version, if `features` has one and the bundle can be read
/// as a library (a bundle from before `pages.json` cannot; the pages are served anyway).
fn mcp_endpoint(
    config: &DocsServerConfig,
    features: &Features,
    versions: &Versions,
) -> Option<McpEndpoint> {
    if !features.mcp {
        return None;
    }
    let active = versions.active()?;
    match crate::mcp::BundleSite::open(&active.dir, None) {
        Ok(site) => {
            let mut hosts = config.mcp_allowed_hosts.clone();
            hosts.extend(active.domain.clone());
            Some(McpEndpoint {
                transport: crate::mcp::HttpTransport::new(&hosts, MCP_BODY_LIMIT),
                site: Arc::new(site),
            })
        }
        Err(e) => {
            tracing::warn!(version = %active.label, "no MCP endpoint: {e}");
            None
        }
    }
}

/// Why installing a bundle did not happen.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error("the bundle was refused: {0}")]
    Bundle(#[from] BundleError),
    #[error(
        "the bundle is content version {found:?}, but the deployment is pinned to {pinned:?}; it was not installed"
    )]
    WrongVersion { found: String, pinned: String },
}

/// Brings the wanted version in: the pinned one from disk, else the delta link's when it
/// applies to the served version, else the bundle link's.
async fn install(config: &DocsServerConfig, versions: &Versions) -> Result<String, InstallError> {
    if let Some(pin) = &config.pin
        && versions.has(pin)
    {
        tracing::info!(version = %pin, "the pinned version is already unpacked; not downloading");
        versions.activate(pin)?;
        return Ok(pin.clone());
    }
    if let Some(delta_url) = &config.delta_url {
        match versions.active() {
            Some(active) => {
                match fetch_and_install(config, versions, delta_url, Some(&active.dir)).await {
                    Ok(label) => {
                        crate::metrics::count_outcome(
                            &crate::metrics::get().bundle_fetches,
                            "delta-used",
                        );
                        tracing::info!(version = %label, from = %active.label, "installed from the delta");
                        return Ok(label);
                    }
                    Err(e) => {
                        crate::metrics::count_outcome(
                            &crate::metrics::get().bundle_fetches,
                            "delta-refused",
                        );
                        tracing::warn!(error = %e, "the delta cannot be used; fetching the whole bundle");
                    }
                }
            }
            None => tracing::info!(
                "no version is served yet for the delta to apply to; fetching the whole bundle"
            ),
        }
    }
    let Some(url) = &config.bundle_url else {
        return Err(InstallError::Bundle(BundleError::NotAnArchive(
            "no --bundle-url was given".into(),
        )));
    };
    fetch_and_install(config, versions, url, None).await
}

/// Downloads the archive at `url`, unpacks and verifies it (as a delta completed from the
/// version in `base`, when given) and makes it the served version. Nothing served changes
/// unless all of it succeeds.
async fn fetch_and_install(
    config: &DocsServerConfig,
    versions: &Versions,
    url: &str,
    base: Option<&Path>,
) -> Result<String, InstallError> {
    let staging = versions.staging()?;
    let archive = staging.path().join(".download");
    let size = fetch::download(url, &archive, &config.fetch).await?;
    tracing::info!(bytes = size, delta = base.is_some(), "bundle downloaded");
    let unpacked = staging.path().join("bundle");
    std::fs::create_dir_all(&unpacked).map_err(BundleError::from)?;
    let (limits, archive_path, target) = (config.unpack, archive.clone(), unpacked.clone());
    let base = base.map(Path::to_path_buf);
    let bundle = tokio::task::spawn_blocking(move || match base {
        Some(base) => unpack::unpack_delta_and_verify(&archive_path, &target, limits, &base),
        None => unpack::unpack_and_verify(&archive_path, &target, limits),
    })
    .await
    .map_err(|e| BundleError::Io(std::io::Error::other(e)))??;
    if let Some(pin) = &config.pin
        && pin != &bundle.content_version
    {
        return Err(InstallError::WrongVersion {
            found: bundle.content_version,
            pinned: pin.clone(),
        });
    }
    versions.install(&unpacked, &bundle)?;
    versions.activate(&bundle.content_version)?;
    // Dropping `staging` removes the download.
    drop(staging);
    Ok(bundle.content_version)
}

/// The feature file for the served site; `mcp`, the MCP endpoint it serves, if any;
/// `carries_assistant`, whether the served bundle has its own assistant.
fn features_script(
    config: &DocsServerConfig,
    features: &Features,
    domain: Option<&str>,
    mcp: Option<&McpEndpoint>,
    carries_assistant: bool,
) -> String {
    let api = config.api_url.as_deref().map(|u| u.trim_end_matches('/'));
    let key = config.assistant_key.as_deref().unwrap_or("");
    let online = match (api, domain) {
        (Some(api), Some(domain)) if !key.is_empty() => Some(OnlineApi { api, domain, key }),
        _ => None,
    };
    let mcp = mcp.map(|endpoint| McpAdvert {
        endpoint: MCP_PATH,
        name: endpoint.site.name(),
    });
    feature_file(features, online.as_ref(), mcp.as_ref(), carries_assistant)
}

/// The API host a served site's assistant and analytics reach, with its public key.
pub struct OnlineApi<'a> {
    pub api: &'a str,
    pub domain: &'a str,
    pub key: &'a str,
}

/// An MCP endpoint as pages name it to their readers' editors (the contextual menu's
/// "Connect to Cursor" and "Connect to VS Code").
pub struct McpAdvert<'a> {
    /// The endpoint's address, absolute or relative to the page (`/mcp` on a docs server).
    pub endpoint: &'a str,
    /// The name an editor lists the server under: the site's.
    pub name: &'a str,
}

/// The feature file (`quire-features.js`) of a site served with `features`; the assistant
/// and analytics are on only where `online` names an API host to reach, the MCP options only
/// where `mcp` names an endpoint, and the bundle's own assistant where the deployment allows it
/// and `carries_assistant` says the bundle has one.
pub fn feature_file(
    features: &Features,
    online: Option<&OnlineApi<'_>>,
    mcp: Option<&McpAdvert<'_>>,
    carries_assistant: bool,
) -> String {
    let endpoint = |on: bool, path: &str| match online {
        Some(o) if on => serde_json::json!({
            "enabled": true,
            "endpoint": format!("{}{}", o.api, path.replace("{domain}", o.domain)),
            "key": o.key,
        }),
        _ => serde_json::json!({"enabled": false, "endpoint": "", "key": ""}),
    };
    let mut assistant = endpoint(
        features.assistant,
        "/discovery/v1/assistant/{domain}/message",
    );
    assistant["offline"] = (features.bundle_assistant && carries_assistant).into();
    let json = serde_json::json!({
        // The bundle's own offline search needs no server: on in every deployment.
        "search": true,
        "playground": features.playground,
        "assistant": assistant,
        "analytics": endpoint(features.analytics, "/discovery/v1/analytics/{domain}/events"),
        // The site's own analytics integrations (docs.json `integrations`): web analytics, so
        // off wherever the deployment type or the operator switches web analytics off.
        "integrations": features.analytics,
        "deployment": features.deployment.as_str(),
        "mcp": match mcp {
            Some(mcp) => serde_json::json!({"enabled": true, "endpoint": mcp.endpoint, "name": mcp.name}),
            None => serde_json::json!({"enabled": false, "endpoint": "", "name": ""}),
        },
    });
    crate::bundle::features_script(&json.to_string())
}

/// Unpacks a bundle archive (`.tar.gz` or `.zip`) into the new or empty folder `dest`,
/// checking every file against its manifest, as a docs server installs one.
pub fn unpack_bundle(archive: &[u8], dest: &Path) -> Result<(), BundleError> {
    let scratch = tempfile::NamedTempFile::new()?;
    std::fs::write(scratch.path(), archive)?;
    std::fs::create_dir_all(dest)?;
    unpack::unpack_and_verify(scratch.path(), dest, UnpackLimits::default())?;
    Ok(())
}

/// Unpacks a delta archive into the new or empty folder `dest` against the bundle unpacked in
/// `base`, checking the result against the rebuilt manifest, as a docs server updates from one.
pub fn apply_delta(delta: &[u8], base: &Path, dest: &Path) -> Result<(), BundleError> {
    let scratch = tempfile::NamedTempFile::new()?;
    std::fs::write(scratch.path(), delta)?;
    std::fs::create_dir_all(dest)?;
    unpack::unpack_delta_and_verify(scratch.path(), dest, UnpackLimits::default(), base)?;
    Ok(())
}

/// Runs the docs server until SIGTERM or Ctrl-C.
pub async fn run(config: DocsServerConfig) -> Result<(), DocsServerError> {
    let features = Features::resolve(config.deployment, config.features);
    features.log();
    let versions = Versions::open(&config.data_dir)?;
    let installed = install(&config, &versions).await;
    let outcome = match &installed {
        Ok(_) => "installed",
        Err(InstallError::Fetch(FetchError::Expired { .. })) => "expired",
        Err(InstallError::Fetch(_)) => "failed",
        Err(_) => "refused",
    };
    crate::metrics::count_outcome(&crate::metrics::get().bundle_fetches, outcome);
    let problem = match installed {
        Ok(label) => {
            tracing::info!(version = %label, "serving");
            None
        }
        Err(e) => {
            match versions.active() {
                Some(active) => tracing::error!(
                    error = %e,
                    version = %active.label,
                    "could not install the bundle; still serving the previous version"
                ),
                None => tracing::error!(error = %e, "could not install the bundle; not ready"),
            }
            Some(e.to_string())
        }
    };
    let domain = versions.active().and_then(|a| a.domain.clone());
    let carries_assistant = versions
        .active()
        .is_some_and(|a| a.dir.join(crate::bundle::assistant::DATA_FILE).is_file());
    if (features.assistant || features.analytics)
        && (config.api_url.is_none() || config.assistant_key.is_none())
    {
        tracing::warn!(
            "the assistant and analytics need --api-url and --assistant-key; without them the widget and beacon stay off"
        );
    }
    let mcp = mcp_endpoint(&config, &features, &versions);
    let llms_index = mcp.as_ref().and_then(|_| advertised_llms_index(&versions));
    let state = Arc::new(DocsState {
        features_script: features_script(
            &config,
            &features,
            domain.as_deref(),
            mcp.as_ref(),
            carries_assistant,
        ),
        llms_index,
        versions,
        content_security_policy: serve::content_security_policy(&features),
        problem,
        mcp,
    });
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| DocsServerError::Listen {
            addr: config.listen,
            source,
        })?;
    tracing::info!(addr = %config.listen, "docs server listening");
    axum::serve(listener, serve::router(state))
        .with_graceful_shutdown(crate::server::shutdown_requested())
        .await
        .map_err(|source| DocsServerError::Listen {
            addr: config.listen,
            source,
        })
}
