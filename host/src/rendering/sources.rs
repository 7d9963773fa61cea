//! Where a site's files come from when its pages are rendered: a site folder on disk
//! (publishing, `quire build`, `quire dev`) or a published content version in object storage
//! (an export job), whose page sources are read ahead of the renderer so storage latency
//! overlaps rendering instead of adding to it.

use std::path::Path;

use futures::StreamExt;
use opendal::Operator;
use tokio::runtime::Handle;

use super::RenderError;
use crate::storage::paths;

/// Page sources read from storage at the same time, and read ahead of the renderer.
const PREFETCH_CONCURRENCY: usize = 16;
const PREFETCH_AHEAD: usize = 64;

/// Where a site's files are read from.
#[derive(Clone, Copy)]
pub enum Sources<'a> {
    /// A site folder on disk.
    Folder(&'a Path),
    /// Content version `version` of `domain`, in object storage; `runtime` runs the reads.
    Version {
        operator: &'a Operator,
        runtime: &'a Handle,
        domain: &'a str,
        version: &'a str,
    },
}

impl Sources<'_> {
    /// The bytes of `file` (a path relative to the site root).
    pub fn read(&self, file: &str) -> Result<Vec<u8>, RenderError> {
        match self {
            Sources::Folder(root) => read_from_folder(root, file),
            Sources::Version {
                operator,
                runtime,
                domain,
                version,
            } => runtime
                .block_on(operator.read(&paths::version_file(domain, version, file)))
                .map(|bytes| bytes.to_vec())
                .map_err(RenderError::Storage),
        }
    }

    /// The text of `file`, if it can be read and is UTF-8.
    pub fn read_text(&self, file: &str) -> Option<String> {
        String::from_utf8(self.read(file).ok()?).ok()
    }

    /// Reads `files` in order, the way that suits the source: one after another from a folder,
    /// several at a time and ahead of the caller from storage.
    pub(super) fn read_in_order(&self, files: Vec<String>) -> InOrder {
        match self {
            Sources::Folder(root) => InOrder::Folder {
                root: root.to_path_buf(),
                files: files.into_iter(),
            },
            Sources::Version {
                operator,
                runtime,
                domain,
                version,
            } => {
                let (sender, receiver) = tokio::sync::mpsc::channel(PREFETCH_AHEAD);
                let operator = (*operator).clone();
                let paths: Vec<String> = files
                    .into_iter()
                    .map(|file| paths::version_file(domain, version, &file))
                    .collect();
                runtime.spawn(async move {
                    let mut reads = futures::stream::iter(paths)
                        .map(|path| {
                            let operator = operator.clone();
                            async move { operator.read(&path).await.map(|b| b.to_vec()) }
                        })
                        .buffered(PREFETCH_CONCURRENCY);
                    while let Some(read) = reads.next().await {
                        if sender.send(read).await.is_err() {
                            break; // the run stopped; nobody wants the rest
                        }
                    }
                });
                InOrder::Storage(receiver)
            }
        }
    }
}

/// Files being read in the order asked for.
pub(super) enum InOrder {
    Folder {
        root: std::path::PathBuf,
        files: std::vec::IntoIter<String>,
    },
    Storage(tokio::sync::mpsc::Receiver<Result<Vec<u8>, opendal::Error>>),
}

impl InOrder {
    /// The next file's bytes. Call from a thread outside the async runtime (the pipeline's).
    pub(super) fn next_file(&mut self) -> Result<Vec<u8>, RenderError> {
        match self {
            InOrder::Folder { root, files } => {
                let file = files.next().ok_or(RenderError::SourcesEnded)?;
                read_from_folder(root, &file)
            }
            InOrder::Storage(receiver) => receiver
                .blocking_recv()
                .ok_or(RenderError::SourcesEnded)?
                .map_err(RenderError::Storage),
        }
    }
}

/// The bytes of `file` under the site folder `root`.
fn read_from_folder(root: &Path, file: &str) -> Result<Vec<u8>, RenderError> {
    std::fs::read(root.join(file)).map_err(|e| RenderError::Read {
        file: file.to_string(),
        message: e.to_string(),
    })
}
