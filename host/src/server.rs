//! `quire serve`: open the store and storage, load the plugins, recover interrupted jobs,
//! start the export workers and serve the API until SIGTERM or Ctrl-C.

use std::path::Path;
use std::sync::Arc;

use rand::Rng;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::api::{self, AppState};
use crate::assistant::{
    Assistant, ExtractiveGenerator, Generator, OpenAiGenerator, OpenAiSettings,
};
use crate::config::Config;
use crate::config::{AssistantConfig, GeneratorKind};
use crate::jobs::{ExportContext, spawn_workers};
use crate::limits::RateLimiter;
use crate::plugins::{
    Packagers, PluginError, PluginRuntime, PluginSlot, Plugins, Role, resolve_files,
    watch_plugin_files,
};
use crate::search::SearchService;
use crate::storage::{self, LinkSigner, StorageError};
use crate::store::StoreError;

/// The server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Plugin(#[from] PluginError),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: std::net::SocketAddr,
        source: std::io::Error,
    },
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
    #[error("invalid configuration: {0}")]
    Config(String),
}

/// Loads the runtime and the component for each role that the configuration chooses for its
/// deployment type, each checked against its role; shared by `serve`, `site publish` and
/// `plugins list`. A server never starts with a component that does not satisfy its role.
pub fn load_plugins(config: &Config, data_dir: &Path) -> Result<Plugins, PluginError> {
    let runtime = PluginRuntime::new(
        config.plugins.limits(),
        Some(config.plugins.cache_dir(data_dir)),
    )?
    .with_trap_observer(Arc::new(|plugin, kind| {
        crate::metrics::get().plugin_trap(plugin, kind)
    }));
    let files = resolve_files(&config.plugins, config.deployment.kind);
    let limits = |role| config.plugins.role_limits(role);
    let renderer = PluginSlot::load(
        &runtime,
        Role::Renderer,
        &files.renderer,
        limits(Role::Renderer),
        None,
    )?;
    let retriever = PluginSlot::load(
        &runtime,
        Role::Retriever,
        &files.retriever,
        limits(Role::Retriever),
        None,
    )?;
    let packagers = Packagers::load(&runtime, &files, limits(Role::Packager))?;
    let bundle_assistant = match config.plugins.bundle_assistant() {
        (Some(path), configured) => match crate::bundle::assistant::read_module(&path) {
            Ok(bytes) => Some(Arc::new(bytes)),
            Err(e) if configured => {
                return Err(PluginError::Engine(format!(
                    "plugins.bundle_assistant: {e}"
                )));
            }
            Err(e) => {
                tracing::warn!("exported sites will carry no assistant: {e}");
                None
            }
        },
        (None, true) => None,
        (None, false) => {
            tracing::warn!(
                "exported sites will carry no assistant: quire_bundle_assistant.wasm is not \
                 beside the plugins (scripts/build-plugins builds it)"
            );
            None
        }
    };
    Ok(Plugins {
        runtime,
        renderer: Arc::new(renderer),
        retriever: Arc::new(retriever),
        packagers: Arc::new(packagers),
        render_threads: crate::rendering::render_threads(config.plugins.render_threads),
        render_cache: config.plugins.render_cache,
        render_cache_max_bytes: config.plugins.render_cache_max_mib.saturating_mul(1 << 20),
        bundle_assistant,
    })
}

/// The configured answer generator.
fn generator(config: &AssistantConfig) -> Result<Arc<dyn Generator>, ServeError> {
    match config.generator {
        GeneratorKind::Extractive => Ok(Arc::new(ExtractiveGenerator)),
        GeneratorKind::Openai => {
            let missing = |key: &str| {
                ServeError::Config(format!(
                    "assistant.{key} is required when assistant.generator is \"openai\""
                ))
            };
            let settings = OpenAiSettings {
                base_url: config.base_url.clone().ok_or_else(|| missing("base_url"))?,
                model: config.model.clone().ok_or_else(|| missing("model"))?,
                api_key: config.api_key.clone(),
                timeout: std::time::Duration::from_secs(config.timeout_secs.max(1)),
            };
            let generator =
                OpenAiGenerator::new(settings).map_err(|e| ServeError::Config(e.to_string()))?;
            Ok(Arc::new(generator))
        }
    }
}

/// Runs the API server on `config.server.listen` until SIGTERM or Ctrl-C: [`Server::start`],
/// then [`run`] on the bound socket, then [`Server::stop`].
pub async fn serve(config: Config, data_dir: &Path) -> Result<(), ServeError> {
    let server = Server::start(config, data_dir).await?;
    let listen = server.state.config.server.listen;
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|source| ServeError::Listen {
            addr: listen,
            source,
        })?;
    tracing::info!("listening on http://{}", listener.local_addr()?);
    run(
        listener,
        shutdown_signal(server.stop.clone()),
        server.state.clone(),
    )
    .await?;
    server.stop().await;
    tracing::info!("stopped");
    Ok(())
}

/// A started API server, not yet listening: its state (store, storage, plugins, search, the
/// assistant) and its export workers.
pub struct Server {
    /// What every request handler is given.
    pub state: Arc<AppState>,
    workers: Vec<tokio::task::JoinHandle<()>>,
    /// Cancelled to stop the workers and the plugin watcher.
    stop: CancellationToken,
}

impl Server {
    /// Opens the store and storage, loads the plugins, recovers interrupted jobs and starts the
    /// export workers (and the plugin watcher, if configured).
    pub async fn start(config: Config, data_dir: &Path) -> Result<Self, ServeError> {
        let store = crate::store::open(config.database.url.as_deref(), data_dir).await?;
        tracing::info!(backend = store.backend(), "store open");
        let operator = storage::operator(&config.storage, data_dir)?;
        let plugins = load_plugins(&config, data_dir)?;
        for slot in plugins.slots() {
            let plugin = slot.current();
            tracing::info!(
                role = slot.role().name(),
                plugin = %plugin.name,
                path = %plugin.path.display(),
                sha256 = %plugin.sha256,
                memory_limit_mib = plugin.limits.memory_bytes >> 20,
                cpu_time_limit_ms = plugin.limits.cpu_time.as_millis() as u64,
                "plugin loaded"
            );
        }
        tracing::info!(
            deployment = %config.deployment.kind,
            formats = %plugins.packagers.formats().join(", "),
            "plugins ready"
        );
        config.deployment.features().log();

        let secret = store
            .setting_or_init(
                "download-link-secret",
                rand::rng().random::<[u8; 32]>().to_vec(),
            )
            .await?;
        let signer = LinkSigner::new(secret, config.server.public_url());
        let (requeued, failed) = store
            .recover_interrupted_jobs(config.jobs.max_attempts)
            .await?;
        if requeued + failed > 0 {
            tracing::warn!(
                requeued,
                failed,
                "recovered jobs interrupted by the last stop"
            );
        }

        let search = Arc::new(SearchService::new(
            store.clone(),
            operator.clone(),
            plugins.clone(),
            config.search.instances_per_site,
        ));
        let assistant = Arc::new(Assistant::new(
            store.clone(),
            search.clone(),
            generator(&config.assistant)?,
        ));
        let stop = CancellationToken::new();
        if config.plugins.watch_interval_ms > 0 {
            tokio::spawn(watch_plugin_files(
                plugins.clone(),
                std::time::Duration::from_millis(config.plugins.watch_interval_ms),
                stop.clone(),
            ));
        }
        let exports = Arc::new(ExportContext {
            store: store.clone(),
            server_id: server_id(),
            operator: operator.clone(),
            plugins,
            config: config.jobs.clone(),
            queued: Notify::new(),
        });
        let workers = spawn_workers(exports.clone(), stop.clone());
        let limits = RateLimiter::new(&config.limits, store.clone());
        let mcp = crate::api::mcp_transport(&config);
        let state = Arc::new(AppState {
            store,
            operator,
            signer,
            config,
            exports,
            search,
            assistant,
            limits,
            mcp,
        });
        Ok(Self {
            state,
            workers,
            stop,
        })
    }

    /// The API as a service, for requests made in-process (`tower::ServiceExt::oneshot`) as
    /// well as over a socket by [`run`].
    pub fn router(&self) -> axum::Router {
        api::router(self.state.clone())
    }

    /// Stops the export workers (a running job goes back to the queue) and waits for them.
    pub async fn stop(self) {
        self.stop.cancel();
        for worker in self.workers {
            let _ = worker.await;
        }
    }
}

/// Serves the API for `state` on `listener` until `shutdown` resolves, then finishes the
/// requests under way. The caller binds the socket (a test binds port 0 and reads the address
/// back), as mini-redis's `server::run` does.
pub async fn run(
    listener: TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    state: Arc<AppState>,
) -> std::io::Result<()> {
    let app = api::router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    // Streams end with a small final part; without TCP_NODELAY, Nagle's algorithm holds it back
    // until the client's delayed ACK (about 40 ms).
    let listener = axum::serve::ListenerExt::tap_io(listener, |stream| {
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {e}");
        }
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

/// This process among the servers sharing a store: host name, process id and a random part
/// (a restarted container may reuse both of the first two).
fn server_id() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "quire".into());
    format!(
        "{host}-{}-{}",
        std::process::id(),
        hex::encode(rand::rng().random::<[u8; 3]>())
    )
}

/// Resolves on SIGTERM or Ctrl-C, and cancels `token` so the workers stop too.
async fn shutdown_signal(token: CancellationToken) {
    shutdown_requested().await;
    tracing::info!("shutting down: finishing requests, returning running jobs to the queue");
    token.cancel();
}

/// Resolves on SIGTERM or Ctrl-C: when a server should stop taking connections and finish the
/// requests it has.
pub async fn shutdown_requested() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
