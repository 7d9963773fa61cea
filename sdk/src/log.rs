//! Logging to the host's log. Each line is tagged by the host with the plugin's name and the
//! unit of work (`my_renderer (job 42)`), so it can be found among the server's own lines.
//! Outside a component (in native unit tests) lines go to standard error.

#[cfg(target_arch = "wasm32")]
macro_rules! wit_level {
    ($wit:ident, $level:expr) => {
        match $level {
            Level::Debug => $wit::Debug,
            Level::Info => $wit::Info,
            Level::Warn => $wit::Warn,
            Level::Error => $wit::Error,
        }
    };
}

/// How much a log line matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

/// Writes `message` to the host's log at `level`.
pub fn write(level: Level, message: &str) {
    #[cfg(all(target_arch = "wasm32", feature = "renderer"))]
    {
        use crate::bindings::renderer::quire::plugins::host::{LogLevel, log};
        log(wit_level!(LogLevel, level), message);
    }
    #[cfg(all(
        target_arch = "wasm32",
        feature = "retriever",
        not(feature = "renderer")
    ))]
    {
        use crate::bindings::retriever::quire::plugins::host::{LogLevel, log};
        log(wit_level!(LogLevel, level), message);
    }
    #[cfg(all(
        target_arch = "wasm32",
        feature = "packager",
        not(feature = "renderer"),
        not(feature = "retriever")
    ))]
    {
        use crate::bindings::packager::quire::plugins::host::{LogLevel, log};
        log(wit_level!(LogLevel, level), message);
    }
    #[cfg(not(all(
        target_arch = "wasm32",
        any(feature = "renderer", feature = "retriever", feature = "packager")
    )))]
    eprintln!("[{level:?}] {message}");
}

/// Logs at debug level, `format!`-style.
#[macro_export]
macro_rules! debug {
    ($($arg:tt)*) => { $crate::log::write($crate::log::Level::Debug, &format!($($arg)*)) };
}

/// Logs at info level, `format!`-style.
#[macro_export]
macro_rules! info {
    ($($arg:tt)*) => { $crate::log::write($crate::log::Level::Info, &format!($($arg)*)) };
}

/// Logs at warn level, `format!`-style.
#[macro_export]
macro_rules! warn {
    ($($arg:tt)*) => { $crate::log::write($crate::log::Level::Warn, &format!($($arg)*)) };
}

/// Logs at error level, `format!`-style.
#[macro_export]
macro_rules! error {
    ($($arg:tt)*) => { $crate::log::write($crate::log::Level::Error, &format!($($arg)*)) };
}
