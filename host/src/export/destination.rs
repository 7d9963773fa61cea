//! Where an export's files go: through the packager component into one archive (an export
//! job's goes to object storage, `quire build`'s to a file), or straight into a folder on disk
//! (`quire build --format dir` and `quire dev`, which would only unpack the archive again).
//! Either runs on a thread of its own, fed by the render side; a file at a path already
//! written is left out, so the result is unambiguous. Both end with the bundle's manifest.

use std::collections::HashSet;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::ExportError;
use super::assembly::{Assembled, Assembler, Entry, Reuse};
use super::earlier_archive::Span;
use super::files::BundleFile;
use super::pack_ahead::PackAhead;
use super::parted;
use crate::bundle::{MANIFEST_PATCH_FILE, ManifestBuilder};
use crate::plugins::{ArchiveSession, Plugins};

/// A file that takes longer than this to pack is named in the debug log.
const SLOW_FILE: Duration = Duration::from_millis(5);

/// Where an archive's bytes go as the packager gives them.
pub trait ArchiveOutput {
    /// Appends a chunk of the archive.
    fn write(&mut self, chunk: Vec<u8>) -> Result<(), ExportError>;
    /// Appends the bytes `span` covers in `source`, an earlier archive's file: an entry
    /// checked there already. Read and appended as a chunk, unless the output copies from
    /// file to file.
    fn copy_from(&mut self, source: &Arc<File>, span: Span) -> Result<(), ExportError> {
        self.write(read_span(source, span)?)
    }
    /// The archive is complete.
    fn close(&mut self) -> Result<(), ExportError>;
    /// The export stopped: what was written is of no use.
    fn abort(&mut self);
}

/// An archive written.
pub struct Packed<O> {
    pub output: O,
    pub size_bytes: u64,
    /// The archive's file name extension (`tar.gz`) and media type, as the packager says.
    pub extension: String,
    pub media_type: String,
    /// The archive's index, entries reused and delta, when the packager's entries are
    /// reusable.
    pub assembled: Option<Assembled>,
}

/// The packager side: files in, archive chunks out to the output `open` gives for the
/// packager's file name extension. `format` chooses the packager (`None`: the default);
/// `domain` and `version` are written into the bundle's manifest. Where the packager's
/// entries are reusable, an unchanged file's entry is copied from `reuse`'s earlier archive
/// instead of packed, and the delta against it is written.
#[allow(clippy::too_many_arguments)]
pub fn pack<O: ArchiveOutput>(
    plugins: &Plugins,
    format: Option<&str>,
    (domain, version): (&str, &str),
    receiver: Receiver<Vec<BundleFile>>,
    aborted: &AtomicBool,
    work: &str,
    open: impl FnOnce(&str) -> Result<O, ExportError>,
    reuse: Reuse<'_>,
) -> Result<Packed<O>, ExportError> {
    let packager = plugins
        .packagers
        .choose(format)
        .map_err(|e| ExportError::Format(e.to_string()))?
        .current();
    let mut archive = ArchiveSession::start(&plugins.runtime, &packager, work)?;
    let (extension, media_type) = (archive.extension.clone(), archive.media_type.clone());
    let mut assembler = archive
        .reusable_entries
        .then(|| Assembler::new(reuse, &packager.sha256, version));
    let mut output = open(&extension)?;
    let mut size = 0u64;
    let mut manifest = ManifestBuilder::default();
    // Each path goes in once: a later file at a path already written (a plugin naming two
    // files alike, a site file where a page is) is left out, so the archive stays unambiguous.
    let mut written = HashSet::new();
    let mut timings = WriterTimings::default();
    let reusable = archive.reusable_entries;
    let result = std::thread::scope(|scope| {
        let second_session = reusable
            .then(|| scope.spawn(|| ArchiveSession::start(&plugins.runtime, &packager, work)));
        let mut pack_ahead = PackAhead::new(second_session);
        (|| -> Result<(), ExportError> {
            let mut waited = Instant::now();
            for batch in receiver {
                timings.waiting += waited.elapsed();
                // The files of the batch the writer would pack whole, some packed ahead.
                let picked: Vec<usize> = match &assembler {
                    Some(_) => batch
                        .iter()
                        .enumerate()
                        .filter(|(_, file)| match file {
                            BundleFile::Hashed { file, .. }
                            | BundleFile::Made(file)
                            | BundleFile::Laid { file, .. } => {
                                !parted::in_parts(&archive, file.contents.len())
                            }
                            BundleFile::Kept { .. } => false,
                        })
                        .map(|(place, _)| place)
                        .collect(),
                    None => Vec::new(),
                };
                pack_ahead.run(&batch, picked, |ahead| {
                for (place, file) in batch.iter().enumerate() {
                    let started = Instant::now();
                    if !written.insert(file.path().to_string()) {
                        tracing::warn!(work, path = %file.path(), "a second file at this path is left out");
                        continue;
                    }
                    // A large file's layout, where it came laid out.
                    let mut layout = None;
                    let (file, sha256) = match file {
                        BundleFile::Kept {
                            path,
                            size: file_size,
                            sha256,
                            entry,
                        } => {
                            // Checked against this archive's own assembler: an entry of another
                            // packager's archive is never copied.
                            let Some(assembler) = assembler.as_mut().and_then(|assembler| {
                                assembler.reuses(path, sha256).then_some(assembler)
                            }) else {
                                return Err(ExportError::Format(format!(
                                    "{path}: the earlier archive's entry does not fit this archive (its packager changed during the export); export again"
                                )));
                            };
                            manifest.add_hashed(path, *file_size, sha256.clone());
                            // Unchanged: neither the delta nor a patch needs its contents.
                            assembler
                                .record(path, (&[], sha256), entry)
                                .map_err(ExportError::Delta)?;
                            size += entry.length();
                            let source = assembler.earlier_file().cloned();
                            timings.writing(|| put_entry(&mut output, entry, source.as_ref()))?;
                            timings.copying += started.elapsed();
                            continue;
                        }
                        BundleFile::Hashed { file, sha256 } => {
                            manifest.add_hashed(
                                &file.path,
                                file.contents.len() as u64,
                                sha256.clone(),
                            );
                            (file, sha256.clone())
                        }
                        BundleFile::Laid { file, sha256, laid } => {
                            manifest.add_hashed(
                                &file.path,
                                file.contents.len() as u64,
                                sha256.clone(),
                            );
                            layout = Some(laid.clone());
                            (file, sha256.clone())
                        }
                        BundleFile::Made(file) => {
                            let sha256 = manifest.add(&file.path, &file.contents).to_string();
                            (file, sha256)
                        }
                    };
                    let sha256 = sha256.as_str();
                    timings.hashing += started.elapsed();
                    let started = Instant::now();
                    let chunk = match assembler.as_mut() {
                        Some(assembler) => {
                            let entry = match assembler.kept(&file.path, sha256) {
                                Some(kept) => kept,
                                None if parted::in_parts(&archive, file.contents.len()) => {
                                    let laid = layout.get_or_insert_with(|| {
                                        parted::lay_out(assembler, &file.path, &file.contents)
                                    });
                                    parted::pack(
                                        &mut archive,
                                        assembler,
                                        &file.path,
                                        &file.contents,
                                        &laid.now.layout,
                                    )?
                                }
                                None => Entry::new(match ahead.take(place) {
                                    Some(packed) => packed?,
                                    None => archive.add_file(&file.path, &file.contents)?,
                                }),
                            };
                            // A file laid out from its earlier contents is patched from them.
                            let base = layout.as_ref().and_then(parted::Laid::base);
                            let patch = assembler
                                .record_from(&file.path, (&file.contents, sha256), &entry, base)
                                .map_err(ExportError::Delta)?;
                            // Like the manifest patch below, a file's patch is packed for the
                            // delta only.
                            if let Some(patch) = patch {
                                let packed = archive.add_file(&patch.entry, &patch.patch)?;
                                assembler
                                    .patch_packed(&packed)
                                    .map_err(ExportError::Delta)?;
                            }
                            if entry.in_earlier.is_some() {
                                size += entry.length();
                                let source = assembler.earlier_file().cloned();
                                timings
                                    .writing(|| put_entry(&mut output, &entry, source.as_ref()))?;
                                Vec::new()
                            } else {
                                entry.bytes
                            }
                        }
                        None => archive.add_file(&file.path, &file.contents)?,
                    };
                    if !chunk.is_empty() {
                        size += chunk.len() as u64;
                        timings.writing(|| output.write(chunk))?;
                    }
                    let took = started.elapsed();
                    timings.packing += took;
                    if took >= SLOW_FILE {
                        tracing::debug!(work, path = %file.path, bytes = file.contents.len(), ms = took.as_millis() as u64, "a slow file to pack");
                    }
                }
                Ok::<_, ExportError>(())
            })?;
                waited = Instant::now();
            }
            if aborted.load(Ordering::SeqCst) {
                return Err(ExportError::PipelineClosed);
            }
            let started = Instant::now();
            let listing = manifest.finish(domain, version, time::OffsetDateTime::now_utc());
            // The manifest's patch for the delta is made while the manifest is packed: both
            // are the archive's serial end.
            let patcher = assembler.as_ref().and_then(Assembler::manifest_patcher);
            let (chunk, patch) = std::thread::scope(|scope| {
                let patch = patcher.map(|patcher| scope.spawn(|| patcher.patch(&listing)));
                // The manifest of a large site is large, and a release changes a few of its lines.
                let (path, contents) = (&listing.file.path, &listing.file.contents);
                let chunk = match assembler.as_mut() {
                    Some(assembler) if parted::in_parts(&archive, contents.len()) => {
                        let laid = parted::lay_out(assembler, path, contents);
                        parted::pack(&mut archive, assembler, path, contents, &laid.now.layout)
                    }
                    _ => archive
                        .add_file(path, contents)
                        .map(Entry::new)
                        .map_err(Into::into),
                };
                let patch = patch.map(|made| made.join()).transpose().map_err(|_| {
                    ExportError::Delta(std::io::Error::other("making the manifest patch stopped"))
                });
                (chunk, patch)
            });
            let chunk = chunk?;
            // A reusable packager's entries stand alone: the patch's entry is packed for the
            // delta only.
            let patch_entry = match patch? {
                Some(patch) => Some(archive.add_file(MANIFEST_PATCH_FILE, &patch)?),
                None => None,
            };
            let last = archive.finish()?;
            if let Some(assembler) = assembler.as_mut() {
                assembler
                    .record(
                        &listing.file.path,
                        (&listing.file.contents, &listing.sha256),
                        &chunk,
                    )
                    .and_then(|_| assembler.end(patch_entry.as_deref(), &last))
                    .map_err(ExportError::Delta)?;
            }
            size += chunk.bytes.len() as u64;
            output.write(chunk.bytes)?;
            size += last.len() as u64;
            output.write(last)?;
            timings.manifest = started.elapsed();
            let started = Instant::now();
            output.close()?;
            timings.closing = started.elapsed();
            Ok(())
        })()
    });
    if let Err(e) = &result {
        tracing::debug!(work, "archive abandoned: {e}");
        output.abort();
    }
    result?;
    timings.log(work, written.len());
    let assembled = assembler
        .map(Assembler::finish)
        .transpose()
        .map_err(ExportError::Delta)?;
    Ok(Packed {
        output,
        size_bytes: size,
        extension,
        media_type,
        assembled,
    })
}

/// Copies `entry`, an entry the earlier archive holds (every kept entry is left in its file,
/// `EarlierArchive::entry`), out of `earlier`, that archive's file, into `output`.
fn put_entry<O: ArchiveOutput>(
    output: &mut O,
    entry: &Entry,
    earlier: Option<&Arc<File>>,
) -> Result<(), ExportError> {
    match (entry.in_earlier, earlier) {
        (Some(span), Some(source)) => output.copy_from(source, span),
        _ => Err(ExportError::EarlierArchive(std::io::Error::other(
            "an entry of an earlier archive came without the archive it lies in",
        ))),
    }
}

/// The bytes `span` covers in `source`.
pub fn read_span(source: &File, span: Span) -> Result<Vec<u8>, ExportError> {
    let length = usize::try_from(span.length)
        .map_err(|_| ExportError::EarlierArchive(std::io::Error::other("an entry too long")))?;
    let mut bytes = vec![0; length];
    source
        .read_exact_at(&mut bytes, span.offset)
        .map_err(ExportError::EarlierArchive)?;
    Ok(bytes)
}

/// Where the archive writer's time went, logged when it ends: what of an export's tail is
/// waiting on the render side, and what is the writer's own (copying kept entries, packing and
/// patching changed files, the manifest and the archive's end).
#[derive(Default)]
struct WriterTimings {
    /// Waiting for the render side's next batch.
    waiting: Duration,
    /// Kept entries checked against the index and written out. An output that copies
    /// consecutive entries as one run copies it when the next packed chunk comes (or at the
    /// end), so that time is counted with the chunk's packing (or the manifest).
    copying: Duration,
    /// Changed files hashed into the manifest.
    hashing: Duration,
    /// Changed files packed (or copied when unchanged after all), patched for the delta and
    /// written out.
    packing: Duration,
    /// Of copying and packing, handing the bytes to the output.
    written: Duration,
    /// The manifest made, packed and patched, and the archive's end written.
    manifest: Duration,
    /// The output closed (on local storage, the file synced to disk).
    closing: Duration,
}

impl WriterTimings {
    /// Runs `write`, counting its time as `written`.
    fn writing<T>(&mut self, write: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = write();
        self.written += started.elapsed();
        result
    }

    fn log(&self, work: &str, files: usize) {
        let ms = |d: Duration| d.as_millis() as u64;
        tracing::info!(
            work,
            files,
            waiting_ms = ms(self.waiting),
            copying_ms = ms(self.copying),
            hashing_ms = ms(self.hashing),
            packing_ms = ms(self.packing),
            written_ms = ms(self.written),
            manifest_ms = ms(self.manifest),
            closing_ms = ms(self.closing),
            "archive written"
        );
    }
}

/// The folder side: files in, written under `folder` with the bundle's manifest, as unpacking
/// the archive would give them. Returns the bytes written.
pub fn write_folder(
    (domain, version): (&str, &str),
    folder: &Path,
    receiver: Receiver<Vec<BundleFile>>,
    aborted: &AtomicBool,
) -> Result<u64, ExportError> {
    let write = |relative: &Path, contents: &[u8]| -> Result<(), ExportError> {
        let target = folder.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| folder_error(&target, e))?;
        }
        std::fs::write(&target, contents).map_err(|e| folder_error(&target, e))
    };
    let mut size = 0u64;
    let mut manifest = ManifestBuilder::default();
    let mut written = HashSet::new();
    for batch in receiver {
        for file in batch {
            let file = match file {
                BundleFile::Made(file) => {
                    manifest.add(&file.path, &file.contents);
                    file
                }
                BundleFile::Hashed { file, sha256 } | BundleFile::Laid { file, sha256, .. } => {
                    manifest.add_hashed(&file.path, file.contents.len() as u64, sha256);
                    file
                }
                // Only an archive has entries to keep; a folder is given contents.
                BundleFile::Kept { path, .. } => {
                    return Err(ExportError::Format(format!(
                        "{path}: an archive entry cannot be written to a folder"
                    )));
                }
            };
            // A plugin's path is checked as the docs server checks an archive's: relative,
            // with no `..`, so nothing lands outside the folder.
            let Some(relative) = crate::sites::safe_relative(Path::new(&file.path)) else {
                tracing::warn!(path = %file.path, "a file outside the bundle is left out");
                continue;
            };
            if relative.as_os_str().is_empty() || !written.insert(file.path.clone()) {
                tracing::warn!(path = %file.path, "a second file at this path is left out");
                continue;
            }
            write(&relative, &file.contents)?;
            size += file.contents.len() as u64;
        }
    }
    if aborted.load(Ordering::SeqCst) {
        return Err(ExportError::PipelineClosed);
    }
    let listing = manifest
        .finish(domain, version, time::OffsetDateTime::now_utc())
        .file;
    write(Path::new(&listing.path), &listing.contents)?;
    tracing::info!(folder = %folder.display(), files = written.len(), "folder written");
    Ok(size + listing.contents.len() as u64)
}

fn folder_error(path: &Path, source: std::io::Error) -> ExportError {
    ExportError::Write {
        path: path.to_path_buf(),
        source,
    }
}
