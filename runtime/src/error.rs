//! What can go wrong loading or running a plugin, in words for operators and plugin authors.

use std::path::PathBuf;
use std::time::Duration;

/// A plugin could not be loaded, or failed a unit of work.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    #[error("cannot read plugin {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a valid WebAssembly component: {message}")]
    Compile { path: PathBuf, message: String },
    #[error("{path} does not satisfy the {role} contract: {}", problems.join("; "))]
    Contract {
        path: PathBuf,
        role: &'static str,
        problems: Vec<String>,
    },
    #[error("plugin {plugin} could not start: {message}")]
    Instantiate { plugin: String, message: String },
    #[error("plugin {plugin} crashed (trapped) while {task}: {message}")]
    Trap {
        plugin: String,
        task: String,
        message: String,
    },
    #[error("plugin {plugin} exceeded its CPU time limit of {limit:?} while {task}")]
    Timeout {
        plugin: String,
        task: String,
        limit: Duration,
    },
    #[error("plugin {plugin} exceeded its memory limit of {limit_mib} MiB while {task}")]
    Memory {
        plugin: String,
        task: String,
        limit_mib: usize,
    },
    #[error(
        "plugin {plugin} returned {size} bytes while {task}, more than its output limit of {limit} bytes"
    )]
    OutputTooLarge {
        plugin: String,
        task: String,
        size: usize,
        limit: usize,
    },
    #[error("plugin {plugin} reported an error while {task}: {message}")]
    Reported {
        plugin: String,
        task: String,
        message: String,
    },
    #[error("plugin {plugin} is unusable after an earlier failure")]
    Poisoned { plugin: String },
    #[error("cannot set up the plugin runtime: {0}")]
    Engine(String),
}

/// The message of an error a plugin returned through its contract.
pub fn fault_message(fault: super::bindings::PluginFault) -> String {
    use super::bindings::PluginFault;
    match fault {
        PluginFault::InvalidInput(m) => format!("invalid input: {m}"),
        PluginFault::Unsupported(m) => format!("unsupported: {m}"),
        PluginFault::Internal(m) => m,
    }
}
