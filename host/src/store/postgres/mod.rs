//! The PostgreSQL store, which several API servers share: a connection pool, the schema
//! migrations in `host/migrations/postgres` applied on start under an advisory lock (so racing
//! replicas apply each one once), and the server-wide settings. Records are JSON documents as in
//! the embedded store, with the columns that queries select, lock and order by beside them.

mod analytics;
mod dump;
mod jobs;
mod organizations;
mod rate_counts;
mod sites;
mod threads;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio_postgres::NoTls;

use super::{SettingStore, Store, StoreError};

/// The migrations, in order: (version, name, SQL). A new one goes at the end; applied ones are
/// never edited.
const MIGRATIONS: &[(i32, &str, &str)] = &[
    (
        1,
        "initial",
        include_str!("../../../migrations/postgres/0001_initial.sql"),
    ),
    (
        2,
        "take_rates",
        include_str!("../../../migrations/postgres/0002_take_rates.sql"),
    ),
];

/// The advisory lock held while migrating: any fixed number, the same in every replica.
const MIGRATION_LOCK: i64 = 0x7175_6972_655f_6462; // "quire_db"

/// Connections each server keeps open at most.
const POOL_SIZE: usize = 16;

/// The PostgreSQL store, cheap to clone.
#[derive(Clone)]
pub struct PostgresStore {
    pool: Pool,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`), and brings the schema
    /// up to date.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::Database(format!("database.url is not a PostgreSQL URL: {e}"))
        })?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .build()
            .map_err(|e| StoreError::Database(format!("cannot make a connection pool: {e}")))?;
        let store = Self { pool };
        store.migrate().await?;
        Ok(store)
    }

    pub(crate) async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(|e| {
            StoreError::Database(format!("cannot reach the database: {}", describe_pool(&e)))
        })
    }

    /// Applies the migrations this database has not seen, each in its own transaction, while
    /// holding the migration lock.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        let applied = async {
            client
                .batch_execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (
                         version    integer PRIMARY KEY,
                         name       text NOT NULL,
                         applied_at timestamptz NOT NULL DEFAULT now())",
                )
                .await?;
            for (version, name, sql) in MIGRATIONS {
                let txn = client.transaction().await?;
                let done = txn
                    .query_opt(
                        "SELECT 1 FROM schema_migrations WHERE version = $1",
                        &[version],
                    )
                    .await?
                    .is_some();
                if !done {
                    txn.batch_execute(sql).await?;
                    txn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                        &[version, name],
                    )
                    .await?;
                    tracing::info!(version, name, "database migration applied");
                }
                txn.commit().await?;
            }
            Ok::<_, StoreError>(())
        }
        .await;
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
            .await?;
        applied
    }
}

#[async_trait]
impl SettingStore for PostgresStore {
    async fn setting_or_init(&self, name: &str, initial: Vec<u8>) -> Result<Vec<u8>, StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                &[&name, &initial],
            )
            .await?;
        let row = client
            .query_one("SELECT value FROM settings WHERE name = $1", &[&name])
            .await?;
        Ok(row.get(0))
    }
}

impl Store for PostgresStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        StoreError::Database(describe(&e))
    }
}

/// The server's own message when there is one ("relation ... does not exist"), not just
/// "db error".
fn describe(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => match std::error::Error::source(e) {
            Some(source) => format!("{e}: {source}"),
            None => e.to_string(),
        },
    }
}

fn describe_pool(e: &deadpool_postgres::PoolError) -> String {
    match e {
        deadpool_postgres::PoolError::Backend(e) => describe(e),
        other => other.to_string(),
    }
}

/// A record as a `jsonb` parameter.
pub(crate) fn json<T: Serialize>(value: &T) -> serde_json::Value {
    // Serializing these plain records cannot fail: no maps with non-string keys, no I/O.
    serde_json::to_value(value).unwrap_or_default()
}

/// A `jsonb` column back into a record.
pub(crate) fn record<T: DeserializeOwned>(
    table: &str,
    value: serde_json::Value,
) -> Result<T, StoreError> {
    serde_json::from_value(value).map_err(|e| StoreError::Corrupt {
        table: table.to_string(),
        message: e.to_string(),
    })
}

/// Every row's `record` column of a query, decoded.
pub(crate) fn records<T: DeserializeOwned>(
    table: &str,
    rows: Vec<tokio_postgres::Row>,
) -> Result<Vec<T>, StoreError> {
    rows.into_iter()
        .map(|row| record(table, row.get("record")))
        .collect()
}
