//! Where a site's files come from when its pages are rendered: a site folder on disk
//! (publishing, `quire build`, `quire dev`) or a published content version in object storage
//! (an export job). Either way page sources are read ahead of the renderer, several at once,
//! so that storage latency (or a disk's, when the page cache no longer holds a large site)
//! overlaps rendering instead of adding to it.

use std::path::Path;
use std::sync::mpsc::{Receiver, sync_channel};

use futures::StreamExt;
use opendal::Operator;
use tokio::runtime::Handle;

use super::RenderError;
use crate::storage::paths;

/// Page sources read from storage at the same time, and read ahead of the renderer.
const PREFETCH_CONCURRENCY: usize = 16;
const PREFETCH_AHEAD: usize = 64;
/// Threads reading a folder's files ahead of the renderer, and how far ahead each reads.
const FOLDER_READERS: usize = 4;
const FOLDER_AHEAD_PER_READER: usize = 16;

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
            Sources::Folder(root) => InOrder::Folder(FolderReads::start(root, files)),
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
    Folder(FolderReads),
    Storage(tokio::sync::mpsc::Receiver<Result<Vec<u8>, opendal::Error>>),
}

/// A folder's files read by [`FOLDER_READERS`] threads, the `n`th file by reader `n %
/// FOLDER_READERS`: each reader sends its files in order, so taking from the readers in turn
/// gives every file in order. A reader stops at its last file, or when its files are no longer
/// wanted (the run stopped and dropped this).
pub(super) struct FolderReads {
    readers: Vec<Receiver<Result<Vec<u8>, RenderError>>>,
    next: usize,
}

impl FolderReads {
    fn start(root: &Path, files: Vec<String>) -> Self {
        let readers = FOLDER_READERS.min(files.len()).max(1);
        let mut shares: Vec<Vec<String>> = vec![Vec::new(); readers];
        for (n, file) in files.into_iter().enumerate() {
            shares[n % readers].push(file);
        }
        let readers = shares
            .into_iter()
            .map(|share| {
                let (sender, receiver) = sync_channel(FOLDER_AHEAD_PER_READER);
                let root = root.to_path_buf();
                std::thread::spawn(move || {
                    for file in share {
                        if sender.send(read_from_folder(&root, &file)).is_err() {
                            break; // the run stopped; nobody wants the rest
                        }
                    }
                });
                receiver
            })
            .collect();
        Self { readers, next: 0 }
    }

    fn next_file(&mut self) -> Result<Vec<u8>, RenderError> {
        let reader = &self.readers[self.next % self.readers.len()];
        self.next += 1;
        reader.recv().map_err(|_| RenderError::SourcesEnded)?
    }
}

impl InOrder {
    /// The next file's bytes. Call from a thread outside the async runtime (the pipeline's).
    pub(super) fn next_file(&mut self) -> Result<Vec<u8>, RenderError> {
        match self {
            InOrder::Folder(reads) => reads.next_file(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_s_files_come_in_the_order_asked_whatever_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let names: Vec<String> = (0..103).map(|n| format!("pages/{n}.mdx")).collect();
        std::fs::create_dir(dir.path().join("pages")).unwrap();
        for (n, name) in names.iter().enumerate() {
            // Sizes that differ, so that readers finish their files at different times.
            std::fs::write(
                dir.path().join(name),
                format!("{n}").repeat(n * 97 % 13 + 1),
            )
            .unwrap();
        }
        let mut asked = names.clone();
        asked.insert(50, "pages/missing.mdx".into());
        let mut reads = Sources::Folder(dir.path()).read_in_order(asked.clone());
        for (n, name) in asked.iter().enumerate() {
            let read = reads.next_file();
            if name.contains("missing") {
                assert!(matches!(read, Err(RenderError::Read { ref file, .. }) if file == name));
                continue;
            }
            let expected = std::fs::read(dir.path().join(name)).unwrap();
            assert_eq!(read.unwrap(), expected, "file {n}");
        }
        assert!(matches!(reads.next_file(), Err(RenderError::SourcesEnded)));

        // A run that stops early drops its reads; the readers stop with it.
        let mut early = Sources::Folder(dir.path()).read_in_order(names);
        assert!(early.next_file().is_ok());
        drop(early);
        assert!(matches!(
            Sources::Folder(dir.path())
                .read_in_order(Vec::new())
                .next_file(),
            Err(RenderError::SourcesEnded)
        ));
    }
}
