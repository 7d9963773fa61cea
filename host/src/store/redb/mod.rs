//! The embedded store: one redb file, `{data-dir}/quire.redb`, that one process opens. Every
//! change is one write transaction; nothing else holds job state. Rate-limit counts stay in
//! this process's memory, which is all of the server there is.
//!
//! redb is a blocking API (reads from the file, a commit waits for `fsync`), so every method
//! runs its transaction through [`blocking`], off the async worker it was called on.

mod analytics;
mod dump;
mod jobs;
mod organizations;
mod rate_counts;
mod sites;
mod threads;

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition, TableHandle};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{SettingStore, Store, StoreError};

pub(crate) const ORGANIZATIONS: TableDefinition<&str, &[u8]> =
    TableDefinition::new("organizations");
/// Keyed by the SHA-256 of the key, hex.
pub(crate) const KEYS: TableDefinition<&str, &[u8]> = TableDefinition::new("api_keys");
pub(crate) const SITES: TableDefinition<&str, &[u8]> = TableDefinition::new("sites");
/// Keyed by `domain/label`.
pub(crate) const VERSIONS: TableDefinition<&str, &[u8]> = TableDefinition::new("content_versions");
pub(crate) const JOBS: TableDefinition<&str, &[u8]> = TableDefinition::new("jobs");
/// Queued jobs in the order they were queued: `{created-at nanos, zero padded}/{job id}`.
pub(crate) const QUEUE: TableDefinition<&str, ()> = TableDefinition::new("job_queue");
pub(crate) const SETTINGS: TableDefinition<&str, &[u8]> = TableDefinition::new("settings");
pub(crate) const THREADS: TableDefinition<&str, &[u8]> = TableDefinition::new("threads");
/// Analytics counts: (domain, hour since the epoch, page path) -> (views, helpful, not helpful).
pub(crate) const ANALYTICS: TableDefinition<(&str, u64, &str), (u64, u64, u64)> =
    TableDefinition::new("page_analytics");

macro_rules! database_errors {
    ($($t:ty),*) => {$(
        impl From<$t> for StoreError {
            fn from(e: $t) -> Self {
                StoreError::Database(e.to_string())
            }
        }
    )*};
}
database_errors!(
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError
);

/// The embedded store, cheap to clone.
#[derive(Clone)]
pub struct RedbStore {
    db: Arc<Database>,
    rate_counts: Arc<rate_counts::MemoryCounts>,
}

impl RedbStore {
    /// Opens (or creates) `{data_dir}/quire.redb`. Fails with [`StoreError::InUse`] if another
    /// process has it open.
    pub fn open(data_dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| {
            StoreError::Database(format!("cannot create {}: {e}", data_dir.display()))
        })?;
        let path = data_dir.join("quire.redb");
        let db = Database::create(&path).map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => StoreError::InUse(data_dir.to_path_buf()),
            other => StoreError::Database(format!("cannot open {}: {other}", path.display())),
        })?;
        let txn = db.begin_write()?;
        for table in [
            ORGANIZATIONS,
            KEYS,
            SITES,
            VERSIONS,
            JOBS,
            SETTINGS,
            THREADS,
        ] {
            txn.open_table(table)?;
        }
        txn.open_table(QUEUE)?;
        txn.open_table(ANALYTICS)?;
        txn.commit()?;
        Ok(Self {
            db: Arc::new(db),
            rate_counts: Arc::default(),
        })
    }

    pub(crate) fn db(&self) -> &Database {
        &self.db
    }

    /// One record of `table`, decoded.
    pub(crate) fn get<T: DeserializeOwned>(
        &self,
        table: TableDefinition<&str, &[u8]>,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        let txn = self.db.begin_read()?;
        let table_handle = txn.open_table(table)?;
        table_handle
            .get(key)?
            .map(|v| decode(table, v.value()))
            .transpose()
    }
}

#[async_trait]
impl SettingStore for RedbStore {
    async fn setting_or_init(&self, name: &str, initial: Vec<u8>) -> Result<Vec<u8>, StoreError> {
        blocking(|| {
            let txn = self.db.begin_write()?;
            let value = {
                let mut table = txn.open_table(SETTINGS)?;
                let existing = table.get(name)?.map(|v| v.value().to_vec());
                match existing {
                    Some(v) => v,
                    None => {
                        table.insert(name, initial.as_slice())?;
                        initial
                    }
                }
            };
            txn.commit()?;
            Ok(value)
        })
    }
}

impl Store for RedbStore {
    fn backend(&self) -> &'static str {
        "redb"
    }
}

/// Runs `work` (a redb transaction) without stalling the async tasks of the thread it is called
/// on. On the server's multi-threaded runtime the worker hands its other tasks to another
/// thread while `work` blocks (`block_in_place`, which unlike `spawn_blocking` lets `work`
/// borrow its arguments and costs no thread hand-off); on a current-thread runtime (a test's)
/// or outside any runtime, there are no other workers to keep free and `work` runs here.
pub(crate) fn blocking<R>(work: impl FnOnce() -> R) -> R {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(work)
        }
        _ => work(),
    }
}

pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serializing these plain records cannot fail: no maps with non-string keys, no I/O.
    serde_json::to_vec(value).unwrap_or_default()
}

pub(crate) fn decode<T: DeserializeOwned>(
    table: TableDefinition<&str, &[u8]>,
    bytes: &[u8],
) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        table: table.name().to_string(),
        message: e.to_string(),
    })
}

/// Every record of `table`, decoded, in key order.
pub(crate) fn scan<T: DeserializeOwned>(
    table_handle: &impl ReadableTable<&'static str, &'static [u8]>,
    table: TableDefinition<&str, &[u8]>,
) -> Result<Vec<(String, T)>, StoreError> {
    let mut out = Vec::new();
    for entry in table_handle.iter()? {
        let (k, v) = entry?;
        out.push((k.value().to_string(), decode(table, v.value())?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// A transaction that waits (here, for another writer's lock) on a worker thread leaves the
    /// runtime's other tasks running, even with a single worker.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_waiting_transaction_does_not_stall_other_tasks() {
        let dir = tempfile::tempdir().unwrap();
        let store = RedbStore::open(dir.path()).unwrap();
        let held = store.db().begin_write().unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(400));
            held.commit().unwrap();
        });
        // Both tasks run on the one worker: the other one first, which waits on a timer.
        let other = tokio::spawn(async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Instant::now()
        });
        let transaction = tokio::spawn(async move {
            let value = store.setting_or_init("waited", b"v".to_vec()).await;
            (value, Instant::now())
        });
        let (value, transaction_done) = transaction.await.unwrap();
        assert_eq!(value.unwrap(), b"v");
        let other_done = other.await.unwrap();
        assert!(
            other_done < transaction_done,
            "the other task waited for the transaction to finish"
        );
        release.join().unwrap();
    }
}
