//! Configuration: defaults, then an optional TOML file, then `QUIRE_*` environment variables
//! (`QUIRE_SERVER__LISTEN=127.0.0.1:9000`, `QUIRE_STORAGE__BACKEND=s3`, ...).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

use quire_runtime::{Limits, Role};

/// Everything an operator can set.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub server: ServerConfig,
    pub database: DatabaseConfig,
    pub storage: StorageConfig,
    pub jobs: JobsConfig,
    pub links: LinksConfig,
    pub plugins: PluginsConfig,
    pub publish: PublishConfig,
    pub search: SearchConfig,
    pub limits: LimitsConfig,
    pub assistant: AssistantConfig,
    pub deployment: DeploymentConfig,
    pub mcp: McpConfig,
}

/// The deployment type and the switches it leaves to the operator (see `deployment`): in an
/// air-gapped deployment the search and assistant endpoints answer 404.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeploymentConfig {
    /// `cloud` (default), `client-hosted` or `air-gapped`.
    #[serde(rename = "type")]
    pub kind: crate::deployment_type::DeploymentType,
    /// Switches for client-hosted deployments (ignored where the type decides).
    pub search: Option<bool>,
    pub assistant: Option<bool>,
    pub analytics: Option<bool>,
}

impl DeploymentConfig {
    /// The features this configuration turns on.
    pub fn features(&self) -> crate::deployment_type::Features {
        crate::deployment_type::Features::resolve(
            self.kind,
            crate::deployment_type::FeatureRequests {
                search: self.search,
                assistant: self.assistant,
                analytics: self.analytics,
                playground: None,
                mcp: None,
                bundle_assistant: None,
            },
        )
    }
}

/// Which generator writes the assistant's answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GeneratorKind {
    /// Built in and offline: quotes the retrieved sentences with links.
    #[default]
    Extractive,
    /// Any OpenAI-compatible chat-completions server.
    Openai,
}

/// The docs assistant's answer generator.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AssistantConfig {
    pub generator: GeneratorKind,
    /// For `openai`: the API base, up to and including the version (`https://host/v1`).
    pub base_url: Option<String>,
    /// For `openai`: the model name.
    pub model: Option<String>,
    /// For `openai`: the API key. Set it in the environment: `QUIRE_ASSISTANT__API_KEY`.
    pub api_key: Option<String>,
    /// For `openai`: how long to wait for the model's next bytes, in seconds.
    pub timeout_secs: u64,
}

impl Default for AssistantConfig {
    fn default() -> Self {
        Self {
            generator: GeneratorKind::Extractive,
            base_url: None,
            model: None,
            api_key: None,
            timeout_secs: 60,
        }
    }
}

/// Rate limits of the discovery endpoints: per organization per hour and per client IP per hour.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// Requests per organization per hour.
    pub organization_per_hour: u64,
    /// Requests per client IP address per day.
    pub ip_per_day: u64,
    /// Reverse proxies whose `X-Forwarded-For` is believed (exact addresses).
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            organization_per_hour: 10_000,
            ip_per_day: 10_000,
            trusted_proxies: Vec::new(),
        }
    }
}

/// The sites' MCP servers (`/mcp/{domain}`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct McpConfig {
    /// Domains whose MCP server answers without a key, as public docs MCP servers do (an agent
    /// then needs only the URL). The others take the site's assistant key, as search does.
    /// Requests are counted against the same rate limits either way.
    pub open_sites: Vec<String>,
    /// `Host` names the MCP endpoint answers besides loopback and `server.public_url`'s host
    /// (the MCP specification's protection against DNS rebinding); `["*"]` takes any host.
    pub allowed_hosts: Vec<String>,
}

/// Documentation search.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Warm retriever instances per site, each holding the site's loaded index: searches of
    /// one site run this many at a time.
    pub instances_per_site: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            instances_per_site: 2,
        }
    }
}

/// The HTTP server.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// The URL clients reach this server at, used in download links. Default: `http://{listen}`.
    pub public_url: Option<String>,
    /// Largest request body, in MiB (site uploads).
    pub max_upload_mib: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: None,
            max_upload_mib: 256,
        }
    }
}

impl ServerConfig {
    pub fn public_url(&self) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.listen))
            .trim_end_matches('/')
            .to_string()
    }
}

/// Which object storage holds content versions and bundles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StorageBackend {
    /// A folder on the local filesystem (default: `{data_dir}/storage`).
    #[default]
    Fs,
    /// Any S3-compatible service.
    S3,
}

/// Object storage settings; the S3 fields apply to the `s3` backend only.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StorageConfig {
    pub backend: StorageBackend,
    /// Folder (fs) or key prefix (s3) under which everything is stored.
    pub root: Option<String>,
    pub endpoint: Option<String>,
    pub bucket: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
}

/// The export job queue.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JobsConfig {
    /// Jobs exported at the same time.
    pub workers: usize,
    /// Starts a job may have before it is failed (a crash mid-job costs one).
    pub max_attempts: u32,
    /// Largest number of pages one export may hold.
    pub max_pages: usize,
    /// How long a running job stays its server's without a heartbeat, in seconds. With a
    /// shared database, a job whose server died is taken over by another this long after its
    /// last heartbeat (sent every third of it).
    pub lease_secs: u64,
}

impl Default for JobsConfig {
    fn default() -> Self {
        Self {
            workers: 2,
            max_attempts: 3,
            max_pages: 100_000,
            lease_secs: 30,
        }
    }
}

impl JobsConfig {
    pub fn lease(&self) -> Duration {
        Duration::from_secs(self.lease_secs.max(1))
    }
}

/// Where the host keeps its records.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// `postgres://user:password@host:port/database` to share one PostgreSQL database between
    /// several servers (`QUIRE_DATABASE__URL`); unset, the embedded redb file in the data
    /// folder, which one server opens.
    pub url: Option<String>,
}

/// Download links.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinksConfig {
    /// How long a `bundleUrl` works, in seconds.
    pub lifetime_secs: u64,
}

impl Default for LinksConfig {
    fn default() -> Self {
        Self {
            lifetime_secs: 3600,
        }
    }
}

impl LinksConfig {
    pub fn lifetime(&self) -> Duration {
        Duration::from_secs(self.lifetime_secs.max(1))
    }
}

/// Which component serves each role, and the sandbox limits. Relative component paths are
/// resolved against `dir`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PluginsConfig {
    /// Folder holding the built-in plugins. Default: `plugins/` beside the executable, else the
    /// workspace's `target/wasm32-wasip2/release`.
    pub dir: Option<PathBuf>,
    /// Renderer component. Default: `quire_renderer.wasm` in `dir`.
    pub renderer: Option<PathBuf>,
    /// Packager component, writing the default archive format. Default:
    /// `quire_packager.wasm` in `dir` (`.tar.gz`).
    pub packager: Option<PathBuf>,
    /// Retriever component. Default: `quire_retriever.wasm` in `dir`.
    pub retriever: Option<PathBuf>,
    /// Packagers for more archive formats, by the format's extension
    /// (`zip = "quire_zip_packager.wasm"`); an export picks one with its `format` field.
    pub formats: BTreeMap<String, PathBuf>,
    /// Components for one deployment type, overriding the ones above
    /// (`[plugins.deployments.air-gapped] renderer = "..."`).
    pub deployments: DeploymentPlugins,
    /// Largest memory one plugin instance may use, in MiB.
    pub memory_limit_mib: usize,
    /// CPU time one plugin call may take, in milliseconds.
    pub cpu_time_limit_ms: u64,
    /// Largest output one plugin call may return, in MiB.
    pub output_limit_mib: usize,
    /// Limits for one role, overriding the three above (`[plugins.limits.renderer]`).
    pub limits: RoleLimits,
    /// How often component files are checked for replacement while the server runs, in
    /// milliseconds; 0 turns the check off.
    pub watch_interval_ms: u64,
    /// Folder keeping compiled components between runs. Default: `plugin-cache` in the data
    /// folder. Several data folders may share one: artifacts are keyed by the component's bytes
    /// and the engine, and written atomically.
    pub cache_dir: Option<PathBuf>,
    /// Renderer instances one export (or one index build at publish) runs at once, each on a
    /// thread of its own; 0, the default, is one per CPU core.
    pub render_threads: usize,
    /// Keep each rendered page in object storage (under `render-cache/`) and reuse it while
    /// its inputs are unchanged: the export after a publish, and the next release of a site,
    /// render only the pages that changed. On by default.
    pub render_cache: bool,
    /// The most the render cache may hold, in MiB (`quire build`'s folder, or the API host's
    /// `render-cache/` in storage); past it, the least recently used entries go.
    pub render_cache_max_mib: u64,
    /// The assistant exported sites carry (`quire_bundle_assistant.wasm`, a WebAssembly module
    /// for browsers). Default: in `dir`, else the workspace's
    /// `target/wasm32-unknown-unknown/release`; an empty path ships no assistant.
    pub bundle_assistant: Option<PathBuf>,
}

/// Component files chosen for one deployment type; unset roles keep the general choice.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoleOverrides {
    pub renderer: Option<PathBuf>,
    pub packager: Option<PathBuf>,
    pub retriever: Option<PathBuf>,
}

/// Component overrides per deployment type.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct DeploymentPlugins {
    pub cloud: RoleOverrides,
    pub client_hosted: RoleOverrides,
    pub air_gapped: RoleOverrides,
}

impl DeploymentPlugins {
    pub fn for_type(&self, kind: crate::deployment_type::DeploymentType) -> &RoleOverrides {
        use crate::deployment_type::DeploymentType;
        match kind {
            DeploymentType::Cloud => &self.cloud,
            DeploymentType::ClientHosted => &self.client_hosted,
            DeploymentType::AirGapped => &self.air_gapped,
        }
    }
}

/// Limits for one role; unset ones keep the general limit.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitOverrides {
    pub memory_limit_mib: Option<usize>,
    pub cpu_time_limit_ms: Option<u64>,
    pub output_limit_mib: Option<usize>,
}

/// Limit overrides per role.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoleLimits {
    pub renderer: LimitOverrides,
    pub packager: LimitOverrides,
    pub retriever: LimitOverrides,
}

impl Default for PluginsConfig {
    fn default() -> Self {
        Self {
            dir: None,
            renderer: None,
            packager: None,
            retriever: None,
            formats: BTreeMap::new(),
            deployments: DeploymentPlugins::default(),
            memory_limit_mib: 256,
            cpu_time_limit_ms: 10_000,
            output_limit_mib: 32,
            limits: RoleLimits::default(),
            watch_interval_ms: 1_000,
            cache_dir: None,
            render_threads: 0,
            render_cache: true,
            render_cache_max_mib: 4096,
            bundle_assistant: None,
        }
    }
}

impl PluginsConfig {
    /// The folder `quire build` and `quire dev` keep rendered pages in, by default.
    pub fn render_cache_dir(&self, data_dir: &Path) -> PathBuf {
        data_dir.join("render-cache")
    }

    /// Where compiled components are kept: `cache_dir`, else `plugin-cache` in `data_dir`.
    pub fn cache_dir(&self, data_dir: &Path) -> PathBuf {
        self.cache_dir
            .clone()
            .unwrap_or_else(|| data_dir.join("plugin-cache"))
    }

    /// The general limits.
    pub fn limits(&self) -> Limits {
        Limits {
            memory_bytes: self.memory_limit_mib << 20,
            cpu_time: Duration::from_millis(self.cpu_time_limit_ms.max(1)),
            output_bytes: self.output_limit_mib << 20,
        }
    }

    /// The limits of `role`: its overrides, else the general limits.
    pub fn role_limits(&self, role: Role) -> Limits {
        let overrides = match role {
            Role::Renderer => self.limits.renderer,
            Role::Packager => self.limits.packager,
            Role::Retriever => self.limits.retriever,
        };
        Limits {
            memory_bytes: overrides.memory_limit_mib.unwrap_or(self.memory_limit_mib) << 20,
            cpu_time: Duration::from_millis(
                overrides
                    .cpu_time_limit_ms
                    .unwrap_or(self.cpu_time_limit_ms)
                    .max(1),
            ),
            output_bytes: overrides.output_limit_mib.unwrap_or(self.output_limit_mib) << 20,
        }
    }

    /// Where the built-in plugins are.
    pub fn dir(&self) -> PathBuf {
        if let Some(dir) = &self.dir {
            return dir.clone();
        }
        let exe_dir = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let beside = exe_dir.join("plugins");
        if beside.is_dir() {
            return beside;
        }
        // target/{release,debug}/quire (and target/release/deps/* for tests) -> target/wasm32-wasip2/release
        exe_dir
            .ancestors()
            .find(|d| d.join("wasm32-wasip2").is_dir())
            .map(|target| target.join("wasm32-wasip2").join("release"))
            .unwrap_or(beside)
    }

    /// The bundle assistant's module: the configured file (`None` for an empty path), else the
    /// default one where it is (`None` if it is nowhere), and whether it was configured.
    pub fn bundle_assistant(&self) -> (Option<PathBuf>, bool) {
        const FILE: &str = "quire_bundle_assistant.wasm";
        match &self.bundle_assistant {
            Some(path) if path.as_os_str().is_empty() => (None, true),
            Some(path) => (Some(self.resolve(path)), true),
            None => {
                let dir = self.dir();
                // Built by scripts/build-plugins for browsers, beside the components' target.
                let built = dir
                    .parent()
                    .and_then(Path::parent)
                    .map(|target| target.join("wasm32-unknown-unknown/release").join(FILE));
                let found = std::iter::once(dir.join(FILE))
                    .chain(built)
                    .find(|p| p.is_file());
                (found, false)
            }
        }
    }

    /// `path` as given if absolute, else inside `dir`.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.dir().join(path)
        }
    }
}

/// Limits on published sites.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PublishConfig {
    /// Most files one site may hold.
    pub max_files: usize,
    /// Largest total size of one site, in MiB.
    pub max_site_mib: u64,
}

impl Default for PublishConfig {
    fn default() -> Self {
        Self {
            max_files: 200_000,
            max_site_mib: 1024,
        }
    }
}

/// The configuration could not be read.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {0}")]
pub struct ConfigError(String);

impl Config {
    /// Defaults, overridden by `file` (if given), overridden by `QUIRE_*` variables.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        if let Some(file) = file {
            if !file.is_file() {
                return Err(ConfigError(format!("{} does not exist", file.display())));
            }
            figment = figment.merge(Toml::file(file));
        }
        figment
            // Only nested keys (`QUIRE_SECTION__KEY`): single-level `QUIRE_*` variables belong
            // to the command line (`QUIRE_DATA_DIR`, `QUIRE_CONFIG`).
            .merge(
                Env::prefixed("QUIRE_")
                    .filter(|key| key.as_str().contains("__"))
                    .split("__"),
            )
            .extract()
            .map_err(|e| ConfigError(e.to_string()))
    }
}
