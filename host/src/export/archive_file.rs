//! An archive written to a file on disk: `quire build`'s, and an export job's on local
//! filesystem storage. It is written beside its path until complete, then renamed into place,
//! so a failed export leaves the earlier file whole and nothing half-written (and a kept link
//! to the earlier file is never overwritten in place).
//!
//! A job's archive is written here rather than through the storage layer: an archive is most
//! of an export's bytes (a 25,000-page site's is 180 MB, nearly all copied from the earlier
//! archive on a one-page release), and the storage layer's local writes copy every chunk once
//! more and hand it to another thread (BENCHMARKS.md).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{ArchiveOutput, ExportError};

/// What is gathered before a write to the file: most entries are a few kilobytes.
const WRITE_BUFFER_BYTES: usize = 1 << 20;

/// An archive being written to a file.
pub struct ArchiveFile {
    path: PathBuf,
    partial: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    /// Whether closing waits for the file to be on disk before it is renamed into place.
    synced: bool,
}

impl ArchiveFile {
    /// Starts the archive at `path` (its folder made if missing).
    pub fn create(path: &Path) -> Result<Self, ExportError> {
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let error = |source| ExportError::Write {
            path: path.to_path_buf(),
            source,
        };
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(error)?;
        }
        let file = std::fs::File::create(&partial).map_err(error)?;
        Ok(Self {
            path: path.to_path_buf(),
            partial,
            file: std::io::BufWriter::with_capacity(WRITE_BUFFER_BYTES, file),
            synced: false,
        })
    }

    /// Makes closing wait until the archive is on disk, as object storage would have it
    /// when it says the write is complete: a job records its bundle as ready only then.
    pub fn synced(mut self) -> Self {
        self.synced = true;
        self
    }

    /// The file as a plain writer, for what is written outside the `ArchiveOutput` calls (a
    /// delta written as the archive is).
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        &mut self.file
    }

    fn error(&self, source: std::io::Error) -> ExportError {
        ExportError::Write {
            path: self.path.clone(),
            source,
        }
    }
}

impl ArchiveOutput for ArchiveFile {
    fn write(&mut self, chunk: Vec<u8>) -> Result<(), ExportError> {
        self.file.write_all(&chunk).map_err(|e| self.error(e))
    }

    fn close(&mut self) -> Result<(), ExportError> {
        self.file.flush().map_err(|e| self.error(e))?;
        if self.synced {
            self.file.get_ref().sync_all().map_err(|e| self.error(e))?;
        }
        std::fs::rename(&self.partial, &self.path).map_err(|e| self.error(e))
    }

    fn abort(&mut self) {
        let _ = std::fs::remove_file(&self.partial);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_appears_only_when_closed_and_an_aborted_one_never() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("bundles/a.tar.gz");
        let mut archive = ArchiveFile::create(&path).unwrap().synced();
        archive.write(b"abc".to_vec()).unwrap();
        archive.write(vec![7; WRITE_BUFFER_BYTES + 1]).unwrap();
        assert!(!path.exists(), "not in place before it is complete");
        archive.close().unwrap();
        let written = std::fs::read(&path).unwrap();
        assert_eq!(written.len(), 3 + WRITE_BUFFER_BYTES + 1);
        assert_eq!(&written[..3], b"abc");

        let other = folder.path().join("bundles/b.tar.gz");
        let mut aborted = ArchiveFile::create(&other).unwrap();
        aborted.write(b"half".to_vec()).unwrap();
        aborted.abort();
        let left: Vec<_> = std::fs::read_dir(folder.path().join("bundles"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("a.tar.gz")]);
    }
}
