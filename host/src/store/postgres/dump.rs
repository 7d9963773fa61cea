//! Reading every record out of the database in one snapshot, and loading a dump into an empty
//! database in one transaction.

use async_trait::async_trait;

use super::{PostgresStore, json, records};
use crate::store::{AnalyticsRow, Dump, DumpStore, StoreError};

#[async_trait]
impl DumpStore for PostgresStore {
    async fn dump(&self) -> Result<Dump, StoreError> {
        let mut client = self.client().await?;
        let txn = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let all = |table: &'static str| {
            let txn = &txn;
            async move {
                let rows = txn
                    .query(&format!("SELECT record FROM {table}"), &[])
                    .await?;
                Ok::<_, StoreError>(rows)
            }
        };
        let keys = txn
            .query("SELECT hash, record FROM api_keys ORDER BY hash", &[])
            .await?
            .into_iter()
            .map(|row| Ok((row.get(0), super::record("api_keys", row.get(1))?)))
            .collect::<Result<_, StoreError>>()?;
        let analytics = txn
            .query(
                "SELECT domain, hour, path, views, helpful, not_helpful FROM page_analytics",
                &[],
            )
            .await?
            .into_iter()
            .map(|row| AnalyticsRow {
                domain: row.get(0),
                hour: row.get::<_, i64>(1).max(0) as u64,
                path: row.get(2),
                views: row.get::<_, i64>(3).max(0) as u64,
                helpful: row.get::<_, i64>(4).max(0) as u64,
                not_helpful: row.get::<_, i64>(5).max(0) as u64,
            })
            .collect();
        let settings = txn
            .query("SELECT name, value FROM settings ORDER BY name", &[])
            .await?
            .into_iter()
            .map(|row| (row.get(0), row.get(1)))
            .collect();
        let dump = Dump {
            organizations: records("organizations", all("organizations").await?)?,
            keys,
            sites: records("sites", all("sites").await?)?,
            versions: records("content_versions", all("content_versions").await?)?,
            jobs: records("jobs", all("jobs").await?)?,
            threads: records("threads", all("threads").await?)?,
            analytics,
            settings,
        };
        txn.commit().await?;
        Ok(dump)
    }

    async fn load(&self, dump: &Dump) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let txn = client.transaction().await?;
        let existing = txn
            .query_one("SELECT count(*) FROM organizations", &[])
            .await?;
        if existing.get::<_, i64>(0) > 0 {
            return Err(StoreError::Conflict(
                "the target database already has organizations; migrate into an empty one".into(),
            ));
        }
        for org in &dump.organizations {
            txn.execute(
                "INSERT INTO organizations (name, record) VALUES ($1, $2)",
                &[&org.name, &json(org)],
            )
            .await?;
        }
        for (hash, key) in &dump.keys {
            txn.execute(
                "INSERT INTO api_keys (hash, id, organization, record) VALUES ($1, $2, $3, $4)",
                &[hash, &key.id, &key.organization, &json(key)],
            )
            .await?;
        }
        for site in &dump.sites {
            txn.execute(
                "INSERT INTO sites (domain, organization, record) VALUES ($1, $2, $3)",
                &[&site.domain, &site.organization, &json(site)],
            )
            .await?;
        }
        for version in &dump.versions {
            txn.execute(
                "INSERT INTO content_versions (domain, label, created_at, record)
                 VALUES ($1, $2, $3, $4)",
                &[
                    &version.domain,
                    &version.label,
                    &version.created_at,
                    &json(version),
                ],
            )
            .await?;
        }
        for job in &dump.jobs {
            // A job the old server left running is claimable at once: its lease has expired.
            let status = job.status.name();
            txn.execute(
                "INSERT INTO jobs (id, organization, status, queued_at, lease_owner,
                                   lease_expires_at, record)
                 VALUES ($1, $2, $3, $4, $5, CASE WHEN $3 = 'running' THEN now() END, $6)",
                &[
                    &job.id,
                    &job.organization,
                    &status,
                    &job.created_at,
                    &job.lease_owner,
                    &json(job),
                ],
            )
            .await?;
        }
        for thread in &dump.threads {
            txn.execute(
                "INSERT INTO threads (id, organization, record) VALUES ($1, $2, $3)",
                &[&thread.id, &thread.organization, &json(thread)],
            )
            .await?;
        }
        for row in &dump.analytics {
            txn.execute(
                "INSERT INTO page_analytics (domain, hour, path, views, helpful, not_helpful)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &row.domain,
                    &(row.hour as i64),
                    &row.path,
                    &(row.views as i64),
                    &(row.helpful as i64),
                    &(row.not_helpful as i64),
                ],
            )
            .await?;
        }
        for (name, value) in &dump.settings {
            txn.execute(
                "INSERT INTO settings (name, value) VALUES ($1, $2)",
                &[name, value],
            )
            .await?;
        }
        txn.commit().await?;
        Ok(())
    }
}
