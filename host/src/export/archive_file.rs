//! An archive written to a file on disk: `quire build`'s, and an export job's on local
//! filesystem storage. It is written beside its path until complete, then renamed into place,
//! so a failed export leaves the earlier file whole and nothing half-written (and a kept link
//! to the earlier file is never overwritten in place).
//!
//! A job's archive is written here rather than through the storage layer: an archive is most
//! of an export's bytes (a 25,000-page site's is 180 MB, nearly all copied from the earlier
//! archive on a one-page release), and the storage layer's local writes copy every chunk once
//! more and hand it to another thread (BENCHMARKS.md).
//!
//! A synced archive is flushed to disk while it is written, on a thread of its own, so that
//! closing it waits only for its last megabytes: syncing a large archive whole at the end
//! was a serial part of a one-page release's tail (BENCHMARKS.md).
//!
//! Entries copied from an earlier archive's file go from file to file in the kernel
//! (`copy_file_range`), consecutive ones in one run of a few megabytes at most: read into memory
//! and written out again, they were most of the writer's time on a one-page release
//! (BENCHMARKS.md).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::earlier_archive::Span;
use super::{ArchiveOutput, ExportError};

/// What is gathered before a write to the file: most entries are a few kilobytes.
const WRITE_BUFFER_BYTES: usize = 1 << 20;

/// A run of copied entries is copied once it is this long, rather than when the next written
/// chunk comes: on a one-page release the entries after the changed page are one run, and the
/// next chunk comes only with the site's files at the end of the export, so copying the run then
/// was a serial part of the release's tail (BENCHMARKS.md).
const RUN_COPIED_AT_BYTES: u64 = 4 << 20;

/// A synced archive asks for what it holds to be flushed to disk each time this much more
/// has been written.
const FLUSH_EVERY_BYTES: u64 = 16 << 20;

/// An archive being written to a file.
pub struct ArchiveFile {
    path: PathBuf,
    partial: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    /// Whether closing waits for the file to be on disk before it is renamed into place.
    synced: bool,
    /// For a synced file, the thread that flushes it while it is written, when a second
    /// handle on the file could be had.
    flusher: Option<Flusher>,
    /// Bytes written since the last flush was asked for.
    unflushed: u64,
    /// Bytes of an earlier archive still to copy: a run of consecutive entries.
    run: Option<Run>,
}

/// Consecutive bytes of one file, to be appended.
struct Run {
    source: Arc<File>,
    span: Span,
}

/// Flushes a file to disk on a thread of its own whenever asked, while it is being written.
struct Flusher {
    /// Asks for a flush; a full channel means one is asked for already.
    ask: SyncSender<()>,
    thread: JoinHandle<std::io::Result<()>>,
}

impl Flusher {
    fn start(file: std::fs::File) -> Self {
        let (ask, asked) = sync_channel(1);
        let thread = std::thread::spawn(move || flush_when_asked(&file, asked));
        Self { ask, thread }
    }

    /// Asks for the bytes written so far to be flushed, unless a flush is asked for already
    /// (or the thread stopped on a failure, which `finish` reports).
    fn ask(&self) {
        let _ = self.ask.try_send(());
    }

    /// Waits for the flushes asked for; the first that failed is the error.
    fn finish(self) -> std::io::Result<()> {
        drop(self.ask);
        self.thread
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("flushing the archive stopped")))
    }
}

/// Flushes `file` each time `asked` says so, until it closes. The first failure ends it and
/// is kept for closing to report: a failed flush is not always reported again by the next.
fn flush_when_asked(file: &std::fs::File, asked: Receiver<()>) -> std::io::Result<()> {
    for () in asked {
        file.sync_data()?;
    }
    Ok(())
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
            flusher: None,
            unflushed: 0,
            run: None,
        })
    }

    /// Makes closing wait until the archive is on disk, as object storage would have it
    /// when it says the write is complete: a job records its bundle as ready only then.
    pub fn synced(mut self) -> Self {
        self.synced = true;
        // Without a second handle, closing flushes the whole file.
        self.flusher = self.file.get_ref().try_clone().ok().map(Flusher::start);
        self
    }

    /// The file as a plain writer, for what is written outside the `ArchiveOutput` calls (a
    /// delta written as the archive is). Bytes given to `copy_from` are not written yet: an
    /// output written both ways would have them out of order, so one that copies runs is
    /// never handed out.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        debug_assert!(
            self.run.is_none(),
            "an archive copying runs written as a plain file"
        );
        &mut self.file
    }

    /// Appends the run of copied bytes, if there is one, after what the buffer holds.
    fn copy_run(&mut self) -> Result<(), ExportError> {
        let Some(Run { source, span }) = self.run.take() else {
            return Ok(());
        };
        self.file.flush().map_err(|e| self.error(e))?;
        // A flush is asked for along the way, as for written chunks: a one-page release's run is
        // most of the archive, and syncing it whole at the end would be its serial tail.
        let end = span.offset + span.length;
        let mut offset = span.offset;
        while offset < end {
            let piece = Span {
                offset,
                length: (end - offset).min(FLUSH_EVERY_BYTES),
            };
            copy_file_to_file(&source, piece, self.file.get_mut()).map_err(|e| self.error(e))?;
            self.written(piece.length);
            offset += piece.length;
        }
        Ok(())
    }

    /// Counts `bytes` more in the file, asking for a flush every [`FLUSH_EVERY_BYTES`].
    fn written(&mut self, bytes: u64) {
        if let Some(flusher) = &self.flusher {
            self.unflushed += bytes;
            // What the buffer holds is not the file's yet: flushed with the next.
            if self.unflushed >= FLUSH_EVERY_BYTES {
                self.unflushed = 0;
                flusher.ask();
            }
        }
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
        self.copy_run()?;
        self.file.write_all(&chunk).map_err(|e| self.error(e))?;
        self.written(chunk.len() as u64);
        Ok(())
    }

    fn copy_from(&mut self, source: &Arc<File>, span: Span) -> Result<(), ExportError> {
        if let Some(run) = &mut self.run
            && Arc::ptr_eq(&run.source, source)
            && run.span.offset + run.span.length == span.offset
        {
            run.span.length += span.length;
            if run.span.length >= RUN_COPIED_AT_BYTES {
                self.copy_run()?;
            }
            return Ok(());
        }
        self.copy_run()?;
        self.run = Some(Run {
            source: Arc::clone(source),
            span,
        });
        Ok(())
    }

    fn close(&mut self) -> Result<(), ExportError> {
        self.copy_run()?;
        self.file.flush().map_err(|e| self.error(e))?;
        if let Some(flusher) = self.flusher.take() {
            flusher.finish().map_err(|e| self.error(e))?;
        }
        if self.synced {
            self.file.get_ref().sync_all().map_err(|e| self.error(e))?;
        }
        std::fs::rename(&self.partial, &self.path).map_err(|e| self.error(e))
    }

    fn abort(&mut self) {
        if let Some(flusher) = self.flusher.take() {
            let _ = flusher.finish();
        }
        let _ = std::fs::remove_file(&self.partial);
    }
}

/// Appends the bytes `span` covers in `source` to `target`, at its position, in the kernel where
/// it can (the two on one file system), else through a buffer.
fn copy_file_to_file(source: &File, span: Span, target: &mut File) -> std::io::Result<()> {
    let (mut offset, end) = (span.offset, span.offset + span.length);
    while offset < end {
        let left = usize::try_from(end - offset).unwrap_or(usize::MAX);
        match rustix::fs::copy_file_range(source, Some(&mut offset), &*target, None, left) {
            Ok(0) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the earlier archive ends before the entries it lists",
                ));
            }
            Ok(_) => {}
            // Not between these two files (other file systems, an old kernel): copied through
            // a buffer from where the kernel stopped.
            Err(
                rustix::io::Errno::XDEV
                | rustix::io::Errno::NOSYS
                | rustix::io::Errno::INVAL
                | rustix::io::Errno::OPNOTSUPP,
            ) => {
                let rest = Span {
                    offset,
                    length: end - offset,
                };
                return copy_through_buffer(source, rest, target);
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Appends the bytes `span` covers in `source` to `target` a megabyte at a time.
fn copy_through_buffer(source: &File, span: Span, target: &mut File) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    let mut buffer = vec![0; WRITE_BUFFER_BYTES];
    let (mut offset, end) = (span.offset, span.offset + span.length);
    while offset < end {
        let take =
            usize::try_from(end - offset).map_or(buffer.len(), |left| left.min(buffer.len()));
        source.read_exact_at(&mut buffer[..take], offset)?;
        target.write_all(&buffer[..take])?;
        offset += take as u64;
    }
    Ok(())
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

    #[test]
    fn copied_runs_and_written_chunks_land_in_order() {
        let folder = tempfile::tempdir().unwrap();
        let earlier_path = folder.path().join("earlier.tar.gz");
        let earlier: Vec<u8> = (0..3 * WRITE_BUFFER_BYTES)
            .map(|i| (i % 253) as u8)
            .collect();
        std::fs::write(&earlier_path, &earlier).unwrap();
        let source = Arc::new(File::open(&earlier_path).unwrap());
        let other = Arc::new(File::open(&earlier_path).unwrap());
        let span = |offset: usize, length: usize| Span {
            offset: offset as u64,
            length: length as u64,
        };
        let path = folder.path().join("d.tar.gz");
        let mut archive = ArchiveFile::create(&path).unwrap().synced();
        let mut expected = Vec::new();
        // Consecutive spans (one run), a chunk, a span elsewhere, the same bytes through
        // another handle (a run of its own), then a span past the file's end.
        for (offset, length) in [(0, 10), (10, 5000), (5010, WRITE_BUFFER_BYTES)] {
            archive.copy_from(&source, span(offset, length)).unwrap();
            expected.extend_from_slice(&earlier[offset..offset + length]);
        }
        archive.write(b"packed".to_vec()).unwrap();
        expected.extend_from_slice(b"packed");
        archive.copy_from(&source, span(7, 100)).unwrap();
        archive.copy_from(&other, span(107, 50)).unwrap();
        expected.extend_from_slice(&earlier[7..157]);
        archive.close().unwrap();
        assert!(std::fs::read(&path).unwrap() == expected);

        let mut short = ArchiveFile::create(&folder.path().join("e.tar.gz")).unwrap();
        short
            .copy_from(&source, span(earlier.len() - 5, 10))
            .unwrap();
        assert!(
            short.close().is_err(),
            "an earlier archive shorter than its index"
        );
    }

    #[test]
    fn a_long_run_is_copied_before_the_next_chunk_comes() {
        let folder = tempfile::tempdir().unwrap();
        let earlier_path = folder.path().join("earlier.tar.gz");
        let piece = 1usize << 20;
        let earlier: Vec<u8> = (0..10 * piece).map(|i| (i % 251) as u8).collect();
        std::fs::write(&earlier_path, &earlier).unwrap();
        let source = Arc::new(File::open(&earlier_path).unwrap());
        let path = folder.path().join("f.tar.gz");
        let mut archive = ArchiveFile::create(&path).unwrap();
        let partial = folder.path().join("f.tar.gz.partial");
        for n in 0..10 {
            let span = Span {
                offset: (n * piece) as u64,
                length: piece as u64,
            };
            archive.copy_from(&source, span).unwrap();
        }
        // The run reached its length twice: 8 of its 10 megabytes are in the file already.
        let copied = std::fs::metadata(&partial).unwrap().len();
        assert_eq!(copied, 2 * RUN_COPIED_AT_BYTES);
        archive.close().unwrap();
        assert!(std::fs::read(&path).unwrap() == earlier);
    }

    #[test]
    fn a_synced_archive_flushed_while_written_is_whole() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("c.tar.gz");
        let mut archive = ArchiveFile::create(&path).unwrap().synced();
        let mut expected = Vec::new();
        // Chunks of several sizes, past three flushes.
        for n in 0..(3 * FLUSH_EVERY_BYTES as usize / 700_000 + 2) {
            let chunk = vec![(n % 251) as u8; 700_000 + n];
            expected.extend_from_slice(&chunk);
            archive.write(chunk).unwrap();
        }
        archive.close().unwrap();
        assert!(std::fs::read(&path).unwrap() == expected);
    }
}
