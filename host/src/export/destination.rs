//! Where an export's files go: through the packager component into one archive in object
//! storage (every export job), or straight into a folder on disk (`quire build --format dir`
//! and `quire dev`, which would only unpack the archive again). Either runs on a thread of its
//! own, fed by the render side; a file at a path already written is left out, so the result is
//! unambiguous.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;

use tokio::runtime::Handle;

use super::{ExportContext, ExportError};
use crate::bundle::ManifestBuilder;
use crate::plugins::{ArchiveSession, OutputFile};
use crate::storage::paths;
use crate::store::{BundleRecord, Job};

/// The packager side: files in, archive chunks out to storage.
pub(super) fn pack(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
    receiver: Receiver<Vec<OutputFile>>,
    aborted: &AtomicBool,
    work: &str,
) -> Result<BundleRecord, ExportError> {
    let plugins = &context.plugins;
    let packager = plugins
        .packagers
        .choose(job.format.as_deref())
        .map_err(|e| ExportError::Format(e.to_string()))?
        .current();
    let mut archive = ArchiveSession::start(&plugins.runtime, &packager, work)?;
    let path = paths::bundle(&job.id, &archive.extension);
    let media_type = archive.media_type.clone();
    let mut writer = runtime.block_on(context.operator.writer(&path))?;
    let mut size = 0u64;
    let mut manifest = ManifestBuilder::default();
    // Each path goes in once: a later file at a path already written (a plugin naming two
    // files alike, a site file where a page is) is left out, so the archive stays unambiguous.
    let mut written = std::collections::HashSet::new();
    let result = (|| -> Result<(), ExportError> {
        for batch in receiver {
            for file in batch {
                if !written.insert(file.path.clone()) {
                    tracing::warn!(job = %job.id, path = %file.path, "a second file at this path is left out");
                    continue;
                }
                manifest.add(&file.path, &file.contents);
                let chunk = archive.add_file(&file.path, &file.contents)?;
                if !chunk.is_empty() {
                    size += chunk.len() as u64;
                    runtime.block_on(writer.write(chunk))?;
                }
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = runtime.block_on(writer.abort());
        return Err(e);
    }
    if aborted.load(Ordering::SeqCst) {
        let _ = runtime.block_on(writer.abort());
        return Err(ExportError::PipelineClosed);
    }
    let listing = manifest.finish(&job.domain, &job.version, time::OffsetDateTime::now_utc());
    let chunk = archive.add_file(&listing.path, &listing.contents)?;
    size += chunk.len() as u64;
    runtime.block_on(writer.write(chunk))?;
    let last = archive.finish()?;
    size += last.len() as u64;
    runtime.block_on(writer.write(last))?;
    runtime.block_on(writer.close())?;
    Ok(BundleRecord {
        path,
        size_bytes: size,
        media_type,
    })
}

/// The folder side: files in, written under `folder` with the bundle's manifest, as unpacking
/// the archive would give them. Returns the bytes written.
pub(super) fn write_folder(
    job: &Job,
    folder: &Path,
    receiver: Receiver<Vec<OutputFile>>,
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
            // A plugin's path is checked as the docs server checks an archive's: relative,
            // with no `..`, so nothing lands outside the folder.
            let Some(relative) = crate::sites::safe_relative(Path::new(&file.path)) else {
                tracing::warn!(job = %job.id, path = %file.path, "a file outside the bundle is left out");
                continue;
            };
            if relative.as_os_str().is_empty() || !written.insert(file.path.clone()) {
                tracing::warn!(job = %job.id, path = %file.path, "a second file at this path is left out");
                continue;
            }
            manifest.add(&file.path, &file.contents);
            write(&relative, &file.contents)?;
            size += file.contents.len() as u64;
        }
    }
    if aborted.load(Ordering::SeqCst) {
        return Err(ExportError::PipelineClosed);
    }
    let listing = manifest.finish(&job.domain, &job.version, time::OffsetDateTime::now_utc());
    write(Path::new(&listing.path), &listing.contents)?;
    tracing::info!(job = %job.id, files = written.len(), "folder written");
    Ok(size + listing.contents.len() as u64)
}

fn folder_error(path: &Path, source: std::io::Error) -> ExportError {
    ExportError::Write {
        path: path.to_path_buf(),
        source,
    }
}
