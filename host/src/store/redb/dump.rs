//! Reading every record out of the redb file, and writing a dump into an empty one.

use async_trait::async_trait;
use redb::{ReadableDatabase, ReadableTable, ReadableTableMetadata};

use super::{
    ANALYTICS, JOBS, KEYS, ORGANIZATIONS, QUEUE, RedbStore, SETTINGS, SITES, THREADS, VERSIONS,
    blocking, encode, scan,
};
use crate::store::{AnalyticsRow, Dump, DumpStore, JobStatus, StoreError};

/// Every record of `table`, decoded, without their keys.
fn values<T: serde::de::DeserializeOwned>(
    txn: &redb::ReadTransaction,
    table: redb::TableDefinition<&str, &[u8]>,
) -> Result<Vec<T>, StoreError> {
    Ok(scan(&txn.open_table(table)?, table)?
        .into_iter()
        .map(|(_, v)| v)
        .collect())
}

#[async_trait]
impl DumpStore for RedbStore {
    async fn dump(&self) -> Result<Dump, StoreError> {
        blocking(|| {
            let txn = self.db().begin_read()?;
            let mut analytics = Vec::new();
            for row in txn.open_table(ANALYTICS)?.iter()? {
                let (key, value) = row?;
                let (domain, hour, path) = key.value();
                let (views, helpful, not_helpful) = value.value();
                analytics.push(AnalyticsRow {
                    domain: domain.to_string(),
                    hour,
                    path: path.to_string(),
                    views,
                    helpful,
                    not_helpful,
                });
            }
            let mut settings = Vec::new();
            for row in txn.open_table(SETTINGS)?.iter()? {
                let (name, value) = row?;
                settings.push((name.value().to_string(), value.value().to_vec()));
            }
            Ok(Dump {
                organizations: values(&txn, ORGANIZATIONS)?,
                keys: scan(&txn.open_table(KEYS)?, KEYS)?,
                sites: values(&txn, SITES)?,
                versions: values(&txn, VERSIONS)?,
                jobs: values(&txn, JOBS)?,
                threads: values(&txn, THREADS)?,
                analytics,
                settings,
            })
        })
    }

    async fn load(&self, dump: &Dump) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            {
                if !txn.open_table(ORGANIZATIONS)?.is_empty()? {
                    return Err(StoreError::Conflict(
                        "the target data folder already has organizations; migrate into an empty one"
                            .into(),
                    ));
                }
                let mut table = txn.open_table(ORGANIZATIONS)?;
                for org in &dump.organizations {
                    table.insert(org.name.as_str(), encode(org).as_slice())?;
                }
                let mut table = txn.open_table(KEYS)?;
                for (hash, key) in &dump.keys {
                    table.insert(hash.as_str(), encode(key).as_slice())?;
                }
                let mut table = txn.open_table(SITES)?;
                for site in &dump.sites {
                    table.insert(site.domain.as_str(), encode(site).as_slice())?;
                }
                let mut table = txn.open_table(VERSIONS)?;
                for version in &dump.versions {
                    let key = super::sites::version_key(&version.domain, &version.label);
                    table.insert(key.as_str(), encode(version).as_slice())?;
                }
                let mut table = txn.open_table(JOBS)?;
                let mut queue = txn.open_table(QUEUE)?;
                for job in &dump.jobs {
                    table.insert(job.id.as_str(), encode(job).as_slice())?;
                    if job.status == JobStatus::Queued {
                        queue.insert(super::jobs::queue_key(job).as_str(), ())?;
                    }
                }
                let mut table = txn.open_table(THREADS)?;
                for thread in &dump.threads {
                    table.insert(thread.id.as_str(), encode(thread).as_slice())?;
                }
                let mut table = txn.open_table(ANALYTICS)?;
                for row in &dump.analytics {
                    let key = (row.domain.as_str(), row.hour, row.path.as_str());
                    table.insert(key, (row.views, row.helpful, row.not_helpful))?;
                }
                let mut table = txn.open_table(SETTINGS)?;
                for (name, value) in &dump.settings {
                    table.insert(name.as_str(), value.as_slice())?;
                }
            }
            txn.commit()?;
            Ok(())
        })
    }
}
