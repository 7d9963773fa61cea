//! Why an export failed: the site as a whole could not be processed (one page never fails an
//! export), storage or the store failed, or the server is stopping.

use crate::plugins::PluginError;
use crate::rendering::RenderError;

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Plugin(#[from] PluginError),
    #[error("storage error: {0}")]
    Storage(#[from] opendal::Error),
    #[error("content version {0} is unreadable: {1}")]
    Manifest(String, String),
    #[error("the export has {pages} pages, more than the limit of {limit}")]
    TooManyPages { pages: usize, limit: usize },
    #[error("{0}")]
    Format(String),
    #[error("cannot write {path}: {source}")]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write the delta archive: {0}")]
    Delta(std::io::Error),
    /// An entry checked in the earlier archive could not be copied out of it after all.
    #[error("cannot copy an entry of the earlier archive: {0}")]
    EarlierArchive(std::io::Error),
    #[error("the server is shutting down")]
    Cancelled,
    #[error("cannot record progress: {0}")]
    Store(#[from] crate::store::StoreError),
    /// One side of the render-to-pack pipeline stopped; the other side's error is the cause.
    #[error("the export pipeline stopped")]
    PipelineClosed,
    /// A page's source could not be read from the content version.
    #[error("{0}")]
    Sources(RenderError),
}

impl From<RenderError> for ExportError {
    fn from(e: RenderError) -> Self {
        match e {
            RenderError::Plugin(e) => ExportError::Plugin(e),
            RenderError::Storage(e) => ExportError::Storage(e),
            RenderError::Cancelled => ExportError::Cancelled,
            other => ExportError::Sources(other),
        }
    }
}
