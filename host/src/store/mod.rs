//! The embedded database (redb): organizations, keys, sites, content versions and jobs.
//! Every change is one write transaction; nothing else holds job state.

mod analytics;
mod jobs;
mod model;
mod organizations;
mod sites;
mod threads;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition, TableHandle};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use analytics::{PageCounts, PageEvent};
pub use jobs::JobUpdate;
pub use model::*;

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

/// A database failure, or a request the data does not allow.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the data directory {0} is in use by another Quire process (a running server?): stop it, or use the HTTP API"
    )]
    InUse(PathBuf),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("database error: {0}")]
    Database(String),
    #[error("corrupt record in {table}: {message}")]
    Corrupt { table: String, message: String },
}

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

/// The database handle, cheap to clone.
#[derive(Clone)]
pub struct Store {
    db: Arc<Database>,
}

impl Store {
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
        Ok(Self { db: Arc::new(db) })
    }

    pub(crate) fn db(&self) -> &Database {
        &self.db
    }

    /// A setting's bytes, created with `init` on first use (in the same transaction).
    pub fn setting_or_init(
        &self,
        name: &str,
        init: impl FnOnce() -> Vec<u8>,
    ) -> Result<Vec<u8>, StoreError> {
        let txn = self.db.begin_write()?;
        let value = {
            let mut table = txn.open_table(SETTINGS)?;
            let existing = table.get(name)?.map(|v| v.value().to_vec());
            match existing {
                Some(v) => v,
                None => {
                    let v = init();
                    table.insert(name, v.as_slice())?;
                    v
                }
            }
        };
        txn.commit()?;
        Ok(value)
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
