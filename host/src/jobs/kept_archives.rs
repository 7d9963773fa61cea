//! The archives export jobs keep for the next export of a site: for each site and packager,
//! a record of the last archive written (the job, the archive, its index), so that the next
//! export copies unchanged files' entries from it and writes the delta a docs server serving it
//! downloads (`export::assembly`). All of it lives in object storage, so replicas share it.
//! Anything missing or unreadable only means packing every file again.

use std::io::Write;

use futures::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::runtime::Handle;

use super::ExportContext;
use crate::export::assembly::{ArchiveIndex, EarlierArchive};
use crate::storage::paths;

/// A site's last archive by one packager.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LastArchive {
    pub job: String,
    pub archive: String,
    pub index: String,
    pub content_version: String,
}

/// An earlier archive read back, with the job that wrote it.
pub struct Earlier {
    pub job: String,
    pub archive: EarlierArchive,
}

/// The last archive the packager hashing to `packager` wrote for `domain`, as a local file to
/// read entries from (copied there from object storage, opened in place on a local disk);
/// `None` when there is none or it cannot be read.
pub fn earlier(
    context: &ExportContext,
    runtime: &Handle,
    domain: &str,
    packager: &str,
) -> Option<Earlier> {
    let operator = &context.operator;
    let read = async {
        let pointer = operator
            .read(&paths::last_archive(domain, packager))
            .await
            .ok()?;
        let last: LastArchive = serde_json::from_slice(&pointer.to_vec()).ok()?;
        let index = operator.read(&last.index).await.ok()?;
        let index = match ArchiveIndex::from_json(&index.to_vec()) {
            Ok(index) => index,
            Err(e) => {
                tracing::warn!(job = %last.job, "{e}; packing every file");
                return None;
            }
        };
        // On local filesystem storage the archive is a file already: read in place, not
        // copied (a large site's archive is hundreds of megabytes).
        if let Some(path) = crate::storage::local_path(operator, &last.archive) {
            return match std::fs::File::open(&path) {
                Ok(file) => Some(Earlier {
                    job: last.job,
                    archive: EarlierArchive::new(index, file),
                }),
                Err(e) => {
                    tracing::warn!(job = %last.job, "cannot open the earlier archive; packing every file: {e}");
                    None
                }
            };
        }
        let mut file = tempfile::tempfile().ok()?;
        let copied = async {
            let reader = operator.reader(&last.archive).await?;
            let mut stream = reader.into_bytes_stream(..).await?;
            while let Some(chunk) = stream.next().await {
                file.write_all(&chunk?)?;
            }
            Ok::<_, std::io::Error>(())
        };
        if let Err(e) = copied.await {
            tracing::warn!(job = %last.job, "cannot read the earlier archive; packing every file: {e}");
            return None;
        }
        Some(Earlier {
            job: last.job,
            archive: EarlierArchive::new(index, file),
        })
    };
    runtime.block_on(read)
}

/// Records the archive of `job` at `archive`, with `index`, as the last one of `domain` by its
/// packager. The index of the archive it replaces is removed: only the last one is ever read.
pub fn keep(
    context: &ExportContext,
    runtime: &Handle,
    (domain, job): (&str, &str),
    archive: &str,
    index: &ArchiveIndex,
) -> Result<(), opendal::Error> {
    let index_path = paths::archive_index(job);
    let last = LastArchive {
        job: job.to_string(),
        archive: archive.to_string(),
        index: index_path.clone(),
        content_version: index.content_version.clone(),
    };
    let operator = &context.operator;
    let pointer_path = paths::last_archive(domain, &index.packager);
    runtime.block_on(async {
        let replaced = match operator.read(&pointer_path).await {
            Ok(bytes) => serde_json::from_slice::<LastArchive>(&bytes.to_vec()).ok(),
            Err(_) => None,
        };
        operator.write(&index_path, index.to_json()).await?;
        let pointer = serde_json::to_vec(&last).unwrap_or_default();
        operator.write(&pointer_path, pointer).await?;
        if let Some(replaced) = replaced.filter(|r| r.index != index_path)
            && let Err(e) = operator.delete(&replaced.index).await
        {
            tracing::warn!(job = %replaced.job, "cannot remove a replaced archive index: {e}");
        }
        Ok(())
    })
}
