//! The archives export jobs keep for the next export of a site: for each site and packager,
//! a record of the last archive written (the job, the archive, its index), so that the next
//! export copies unchanged files' entries from it and writes the delta a docs server serving it
//! downloads (`export::assembly`). All of it lives in object storage, so replicas share it.
//! Anything missing or unreadable only means packing every file again.
//!
//! The process also keeps the indexes it wrote, until an export takes one back: the next
//! export of a site on the same process reads its earlier archive's index from there instead
//! of reading and parsing megabytes of JSON at its start (BENCHMARKS.md). An index is written
//! once under its job's path and never changed, so the path names it.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::{LazyLock, Mutex, MutexGuard};

use futures::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::runtime::Handle;

use super::ExportContext;
use crate::export::assembly::{ArchiveIndex, EarlierArchive};
use crate::storage::{location, paths};

/// A site's last archive by one packager.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LastArchive {
    pub job: String,
    pub archive: String,
    pub index: String,
    pub content_version: String,
}

/// Indexes kept after they were written: one per site exported last on this process, up to
/// a few sites.
const KEPT_INDEXES: usize = 4;

/// An index this process wrote, by where it was stored (the storage and the path).
struct KeptIndex {
    at: String,
    index: ArchiveIndex,
}

fn kept_indexes() -> MutexGuard<'static, VecDeque<KeptIndex>> {
    static KEPT: LazyLock<Mutex<VecDeque<KeptIndex>>> = LazyLock::new(Mutex::default);
    // Every change is whole before the lock is let go, so a poisoned lock is still right.
    KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The index written at `path` of `operator`'s storage, if this process kept it; taken out,
/// as the export that asks consumes it.
fn take_kept_index(operator: &opendal::Operator, path: &str) -> Option<ArchiveIndex> {
    let at = location(operator, path);
    let mut kept = kept_indexes();
    let found = kept.iter().position(|k| k.at == at)?;
    kept.remove(found).map(|k| k.index)
}

fn keep_index(operator: &opendal::Operator, path: &str, index: ArchiveIndex) {
    let mut kept = kept_indexes();
    if kept.len() >= KEPT_INDEXES {
        kept.pop_front();
    }
    kept.push_back(KeptIndex {
        at: location(operator, path),
        index,
    });
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
        let index = match take_kept_index(operator, &last.index) {
            Some(index) => index,
            None => {
                let index = operator.read(&last.index).await.ok()?;
                match ArchiveIndex::from_json(&index.to_vec()) {
                    Ok(index) => index,
                    Err(e) => {
                        tracing::warn!(job = %last.job, "{e}; packing every file");
                        return None;
                    }
                }
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
/// packager, and keeps the index in this process for the next export. The index of the
/// archive it replaces is removed: only the last one is ever read.
pub fn keep(
    context: &ExportContext,
    runtime: &Handle,
    (domain, job): (&str, &str),
    archive: &str,
    index: ArchiveIndex,
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
        keep_index(operator, &index_path, index);
        if let Some(replaced) = replaced.filter(|r| r.index != index_path)
            && let Err(e) = operator.delete(&replaced.index).await
        {
            tracing::warn!(job = %replaced.job, "cannot remove a replaced archive index: {e}");
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn storage(root: &std::path::Path) -> opendal::Operator {
        let root = root.to_string_lossy();
        opendal::Operator::new(opendal::services::Fs::default().root(&root)).expect("storage")
    }

    fn index(content_version: &str) -> ArchiveIndex {
        ArchiveIndex {
            packager: "p".into(),
            content_version: content_version.into(),
            entries: Vec::new(),
        }
    }

    #[test]
    fn a_kept_index_is_taken_once_and_only_from_the_storage_it_was_written_to() {
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (one, two) = (storage(one.path()), storage(two.path()));
        keep_index(&one, "jobs/a/archive-index.json", index("v1"));
        assert!(take_kept_index(&two, "jobs/a/archive-index.json").is_none());
        assert!(take_kept_index(&one, "jobs/b/archive-index.json").is_none());
        let taken = take_kept_index(&one, "jobs/a/archive-index.json").expect("kept");
        assert_eq!(taken.content_version, "v1");
        assert!(
            take_kept_index(&one, "jobs/a/archive-index.json").is_none(),
            "an export consumes what it takes"
        );
    }
}
