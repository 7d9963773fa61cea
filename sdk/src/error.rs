//! The error a plugin returns for a unit of work it cannot do. The host shows its message to the
//! operator (job error, API error, log line), so say which page or input is at fault.

/// Why a plugin could not do a unit of work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The input is malformed in a way the plugin cannot work around.
    InvalidInput(String),
    /// The plugin does not support what was asked (a feature, a format, a setting).
    Unsupported(String),
    /// Anything else that went wrong inside the plugin.
    Internal(String),
}

/// `Result` with the plugin [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::InvalidInput(message.into())
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::Unsupported(message.into())
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::Internal(message.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::InvalidInput(m) => write!(f, "invalid input: {m}"),
            Self::Unsupported(m) => write!(f, "unsupported: {m}"),
            Self::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

/// Generated error types of each world, converted from [`Error`].
macro_rules! into_wit_error {
    ($feature:literal, $path:path) => {
        #[cfg(feature = $feature)]
        impl From<Error> for $path {
            fn from(error: Error) -> Self {
                use $path as Wit;
                match error {
                    Error::InvalidInput(m) => Wit::InvalidInput(m),
                    Error::Unsupported(m) => Wit::Unsupported(m),
                    Error::Internal(m) => Wit::Internal(m),
                }
            }
        }
    };
}

into_wit_error!(
    "renderer",
    crate::bindings::renderer::quire::plugins::types::Error
);
into_wit_error!(
    "retriever",
    crate::bindings::retriever::quire::plugins::types::Error
);
into_wit_error!(
    "packager",
    crate::bindings::packager::quire::plugins::types::Error
);
