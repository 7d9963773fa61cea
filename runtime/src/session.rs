//! One unit of work's store: created fresh, limited, and never reused after a failure.

use wasmtime::{Store, Trap};

use super::sandbox::{Limits, PluginState};
use super::{EPOCH_TICK, LoadedPlugin, PluginError, PluginRuntime, TrapObserver};

/// A store plus the bookkeeping that turns wasmtime errors into [`PluginError`]s.
pub(super) struct Session {
    pub store: Store<PluginState>,
    pub plugin: String,
    limits: Limits,
    poisoned: bool,
    trap_observer: Option<TrapObserver>,
}

impl Session {
    /// A fresh store for `plugin`; `work` names the unit of work in the plugin's log lines.
    pub fn new(runtime: &PluginRuntime, plugin: &LoadedPlugin, work: &str) -> Self {
        let limits = plugin.limits;
        let label = format!("{} ({work})", plugin.name);
        let mut store = Store::new(&runtime.engine, PluginState::new(label, limits));
        store.limiter(|state| state.limiter());
        // What one call may hand the host is bounded by the instance's memory, which the
        // limiter caps: wasmtime's own default (128 MiB) refused the finished search index of a
        // large site that the memory limit allowed.
        store.set_hostcall_fuel(limits.memory_bytes.max(store.hostcall_fuel()));
        store.epoch_deadline_trap();
        Self {
            store,
            plugin: plugin.name.clone(),
            limits,
            poisoned: false,
            trap_observer: runtime.trap_observer.clone(),
        }
    }

    /// Runs `call` under the CPU deadline. Any failure poisons the session: a store whose
    /// plugin trapped is in an unknown state and is never called again.
    pub fn call<R>(
        &mut self,
        task: &str,
        call: impl FnOnce(&mut Store<PluginState>) -> wasmtime::Result<R>,
    ) -> Result<R, PluginError> {
        if self.poisoned {
            return Err(PluginError::Poisoned {
                plugin: self.plugin.clone(),
            });
        }
        let ticks = self.limits.cpu_time.as_millis() / EPOCH_TICK.as_millis() + 1;
        self.store
            .set_epoch_deadline(u64::try_from(ticks).unwrap_or(u64::MAX));
        call(&mut self.store).map_err(|e| {
            self.poisoned = true;
            self.classify(task, e)
        })
    }

    pub fn is_poisoned(&self) -> bool {
        self.poisoned
    }

    /// Fails the session with a plugin-reported error (the contract's `error` variant).
    pub fn reported(&mut self, task: &str, message: String) -> PluginError {
        PluginError::Reported {
            plugin: self.plugin.clone(),
            task: task.to_string(),
            message,
        }
    }

    /// Checks a call's output against the output limit.
    pub fn check_output(&mut self, task: &str, size: usize) -> Result<(), PluginError> {
        if size > self.limits.output_bytes {
            self.poisoned = true;
            return Err(PluginError::OutputTooLarge {
                plugin: self.plugin.clone(),
                task: task.to_string(),
                size,
                limit: self.limits.output_bytes,
            });
        }
        Ok(())
    }

    fn classify(&self, task: &str, error: wasmtime::Error) -> PluginError {
        let classified = self.classify_inner(task, error);
        let kind = match &classified {
            PluginError::Timeout { .. } => "timeout",
            PluginError::Memory { .. } => "memory",
            _ => "trap",
        };
        if let Some(observer) = &self.trap_observer {
            observer(&self.plugin, kind);
        }
        classified
    }

    fn classify_inner(&self, task: &str, error: wasmtime::Error) -> PluginError {
        let plugin = self.plugin.clone();
        let task = task.to_string();
        if error.downcast_ref::<Trap>() == Some(&Trap::Interrupt) {
            return PluginError::Timeout {
                plugin,
                task,
                limit: self.limits.cpu_time,
            };
        }
        if self.store.data().memory_refused() {
            return PluginError::Memory {
                plugin,
                task,
                limit_mib: self.limits.memory_bytes >> 20,
            };
        }
        PluginError::Trap {
            plugin,
            task,
            message: trap_summary(&error),
        }
    }
}

/// The first line of the error chain that says what happened, without the wasm backtrace.
fn trap_summary(error: &wasmtime::Error) -> String {
    let full = format!("{error:#}");
    full.lines().next().unwrap_or(&full).to_string()
}
