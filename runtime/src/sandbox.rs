//! The per-store state every plugin runs with: an empty WASI context (no files, network,
//! environment or arguments; a frozen clock), a memory limiter that remembers why it refused,
//! and the host's logging interface.

use std::time::Duration;

use wasmtime::ResourceLimiter;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

use super::bindings::LogLevel;
use super::bindings::renderer::quire::plugins::host;

/// Limits applied to one store.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest linear memory, in bytes, any one instance may grow to.
    pub memory_bytes: usize,
    /// CPU time one call may take before it is interrupted.
    pub cpu_time: Duration,
    /// Largest output, in bytes, one call may return.
    pub output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            memory_bytes: 256 << 20,
            cpu_time: Duration::from_secs(10),
            output_bytes: 32 << 20,
        }
    }
}

/// The data of one plugin store.
pub struct PluginState {
    wasi: WasiCtx,
    table: ResourceTable,
    limiter: MemoryLimiter,
    /// Which plugin this is and for what, prefixed to its log lines.
    label: String,
}

impl PluginState {
    pub fn new(label: String, limits: Limits) -> Self {
        let wasi = WasiCtx::builder()
            .wall_clock(FrozenClock)
            .monotonic_clock(FrozenClock)
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .build();
        Self {
            wasi,
            table: ResourceTable::new(),
            limiter: MemoryLimiter {
                max_bytes: limits.memory_bytes,
                refused: false,
            },
            label,
        }
    }

    pub fn limiter(&mut self) -> &mut dyn ResourceLimiter {
        &mut self.limiter
    }

    /// Whether a memory growth was refused in this store: turns an opaque trap into
    /// "exceeded its memory limit".
    pub fn memory_refused(&self) -> bool {
        self.limiter.refused
    }
}

impl WasiView for PluginState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl host::Host for PluginState {
    fn log(&mut self, level: LogLevel, message: String) {
        let plugin = self.label.as_str();
        match level {
            LogLevel::Debug => tracing::debug!(plugin, "{message}"),
            LogLevel::Info => tracing::info!(plugin, "{message}"),
            LogLevel::Warn => tracing::warn!(plugin, "{message}"),
            LogLevel::Error => tracing::error!(plugin, "{message}"),
        }
    }
}

impl super::bindings::renderer::quire::plugins::types::Host for PluginState {}

/// Refuses memory growth past a fixed size and records that it did.
struct MemoryLimiter {
    max_bytes: usize,
    refused: bool,
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.max_bytes {
            self.refused = true;
            return Ok(false);
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 1_000_000)
    }
}

/// Plugins have no use for the time; a fixed clock keeps their output reproducible.
struct FrozenClock;

impl HostWallClock for FrozenClock {
    fn resolution(&self) -> Duration {
        Duration::from_secs(1)
    }
    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

impl HostMonotonicClock for FrozenClock {
    fn resolution(&self) -> u64 {
        1_000_000_000
    }
    fn now(&self) -> u64 {
        0
    }
}
