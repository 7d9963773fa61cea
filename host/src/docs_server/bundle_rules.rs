//! What a bundle may hold (the limits unpacking counts against) and the reasons one is refused.

/// Largest unpacked bundle and number of files accepted.
#[derive(Debug, Clone, Copy)]
pub struct UnpackLimits {
    pub max_bytes: u64,
    pub max_files: usize,
}

impl Default for UnpackLimits {
    fn default() -> Self {
        Self {
            max_bytes: 8 << 30,
            max_files: 1_000_000,
        }
    }
}

/// Why a bundle was refused.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("the download is not a readable bundle archive: {0}")]
    NotAnArchive(String),
    #[error("the entry {0:?} would be written outside the bundle folder")]
    Escapes(String),
    #[error("the entry {0:?} is a link; bundles hold only files and folders")]
    Link(String),
    #[error("the bundle is larger than the limit ({0})")]
    TooLarge(String),
    #[error("the bundle has no manifest.json")]
    NoManifest,
    #[error("manifest.json is not valid: {0}")]
    BadManifest(String),
    #[error("the delta cannot be applied: {0}")]
    BadDelta(String),
    #[error("{path}: {problem} (the bundle was changed after it was made, or is damaged)")]
    Mismatch { path: String, problem: String },
    #[error("cannot unpack the bundle: {0}")]
    Io(#[from] std::io::Error),
}
