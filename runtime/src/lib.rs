//! Quire's WebAssembly plugin runtime: one engine and linker for the process, each component
//! checked against its role's contract, compiled once (cached on disk) and pre-instantiated
//! once, and a fresh sandboxed store for every unit of work.
//!
//! The host uses it to run its renderer, packager and retriever; the plugin SDK's test harness
//! uses it so that a plugin's own tests run it exactly as the host will.

mod bindings;
mod compile;
mod contract;
mod error;
mod highlighting;
mod packager;
mod renderer;
mod retriever;
mod sandbox;
mod session;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use sha2::Digest;
use wasmtime::component::{HasSelf, InstancePre, Linker};
use wasmtime::{Config, Engine};

pub use bindings::renderer::exports::quire::plugins::render::{
    Heading, NavEntry, NavKind, PageInput, RenderedPage, Section, SiteFile, SiteInfo, SiteOutput,
};
pub use bindings::retriever::exports::quire::plugins::retrieve::{
    Filter as SearchFilter, Hit as SearchHit, Query as SearchQuery, Section as IndexSection,
};
pub use bindings::{OutputFile, Warning};
pub use contract::{CONTRACT_VERSION, Role, SUPPORTED_CONTRACT_VERSIONS};
pub use error::PluginError;
pub use packager::ArchiveSession;
pub use renderer::RendererSession;
pub use retriever::{IndexBuilderSession, IndexSession};
pub use sandbox::Limits;

/// What the code renderers highlight through this host depends on besides the code (the
/// grammars' release): part of what a rendered page depends on, beside the component's digest.
pub const HIGHLIGHTER: &str = quire_highlight::FINGERPRINT;

use sandbox::PluginState;

/// How often the CPU deadline clock ticks. Deadlines are whole ticks, so this is their precision.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Told about every failed plugin call: the plugin's name and the kind of failure (`trap`,
/// `timeout` or `memory`), for metrics.
pub type TrapObserver = Arc<dyn Fn(&str, &str) + Send + Sync>;

/// The process-wide runtime: engine, linker, default limits and the compiled-artifact cache.
#[derive(Clone)]
pub struct PluginRuntime {
    engine: Engine,
    linker: Arc<Linker<PluginState>>,
    limits: Limits,
    cache_dir: Option<PathBuf>,
    trap_observer: Option<TrapObserver>,
}

/// Whether a component satisfies one role: `Ok`, or the contract error saying why not.
pub type RoleVerdict = (Role, Result<(), PluginError>);

/// A component checked against its role's contract and ready to instantiate.
pub struct LoadedPlugin {
    pub role: Role,
    /// The file name without extension; prefixes the plugin's log lines and errors.
    pub name: String,
    pub path: PathBuf,
    pub size_bytes: u64,
    /// SHA-256 of the component file, hex: tells two builds of one plugin apart.
    pub sha256: String,
    /// The sandbox limits every store of this plugin runs under.
    pub limits: Limits,
    pre: InstancePre<PluginState>,
}

impl PluginRuntime {
    /// Creates the engine and starts its deadline clock. `cache_dir` keeps compiled artifacts.
    pub fn new(limits: Limits, cache_dir: Option<PathBuf>) -> Result<Self, PluginError> {
        let mut config = Config::new();
        config.wasm_component_model(true);
        config.epoch_interruption(true);
        let engine = Engine::new(&config).map_err(|e| PluginError::Engine(format!("{e:#}")))?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
            .map_err(|e| PluginError::Engine(format!("{e:#}")))?;
        bindings::renderer::quire::plugins::host::add_to_linker::<_, HasSelf<PluginState>>(
            &mut linker,
            |state| state,
        )
        .map_err(|e| PluginError::Engine(format!("{e:#}")))?;
        bindings::renderer::quire::plugins::highlighting::add_to_linker::<_, HasSelf<PluginState>>(
            &mut linker,
            |state| state,
        )
        .map_err(|e| PluginError::Engine(format!("{e:#}")))?;
        start_epoch_clock(&engine);
        Ok(Self {
            engine,
            linker: Arc::new(linker),
            limits,
            cache_dir,
            trap_observer: None,
        })
    }

    /// Calls `observer` for every plugin call that traps, times out or runs out of memory.
    pub fn with_trap_observer(mut self, observer: TrapObserver) -> Self {
        self.trap_observer = Some(observer);
        self
    }

    /// The limits plugins get unless they are loaded with their own.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Loads the component at `path` for `role` under the runtime's default limits.
    pub fn load(&self, role: Role, path: &Path) -> Result<LoadedPlugin, PluginError> {
        self.load_with_limits(role, path, self.limits)
    }

    /// Loads the component at `path` for `role`: compiles it (or reuses the cached artifact),
    /// checks it against the role's contract and pre-instantiates it. Every store it gets
    /// runs under `limits`.
    pub fn load_with_limits(
        &self,
        role: Role,
        path: &Path,
        limits: Limits,
    ) -> Result<LoadedPlugin, PluginError> {
        let bytes = read_file(path)?;
        let component = compile::compile(&self.engine, path, &bytes, self.cache_dir.as_deref())?;
        let pre = contract::check(&self.engine, &self.linker, &component, role, path)?;
        Ok(LoadedPlugin {
            role,
            name: plugin_name(path),
            path: path.to_path_buf(),
            size_bytes: bytes.len() as u64,
            sha256: hex::encode(sha2::Sha256::digest(&bytes)),
            limits,
            pre,
        })
    }

    /// Says which roles the component at `path` satisfies, and for the others, why not.
    pub fn check_file(&self, path: &Path) -> Result<Vec<RoleVerdict>, PluginError> {
        let bytes = read_file(path)?;
        let component = compile::compile(&self.engine, path, &bytes, self.cache_dir.as_deref())?;
        Ok(Role::ALL
            .iter()
            .map(|&role| {
                let verdict =
                    contract::check(&self.engine, &self.linker, &component, role, path).map(|_| ());
                (role, verdict)
            })
            .collect())
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, PluginError> {
    std::fs::read(path).map_err(|source| PluginError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The plugin's name for logs and errors: its file name without extension.
fn plugin_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Ticks the engine's epoch so that calls past their deadline are interrupted. The thread
/// ends when the engine is dropped.
fn start_epoch_clock(engine: &Engine) {
    let weak = engine.weak();
    let spawned = std::thread::Builder::new()
        .name("quire-plugin-clock".into())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        });
    if let Err(e) = spawned {
        tracing::error!("cannot start the plugin deadline clock: {e}");
    }
}
