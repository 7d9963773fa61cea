//! Sites (domains owned by organizations) and their published content versions.

use async_trait::async_trait;

use super::{PostgresStore, json, record, records};
use crate::store::record_rules::{domain_taken, version_taken};
use crate::store::{ContentVersion, SiteRecord, SiteStore, StoreError};

#[async_trait]
impl SiteStore for PostgresStore {
    async fn site(&self, domain: &str) -> Result<Option<SiteRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt("SELECT record FROM sites WHERE domain = $1", &[&domain])
            .await?;
        row.map(|row| record("sites", row.get(0))).transpose()
    }

    async fn site_of(
        &self,
        organization: &str,
        domain: &str,
    ) -> Result<Option<SiteRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT record FROM sites WHERE domain = $1 AND organization = $2",
                &[&domain, &organization],
            )
            .await?;
        row.map(|row| record("sites", row.get(0))).transpose()
    }

    async fn add_version(
        &self,
        organization: &str,
        version: &ContentVersion,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let txn = client.transaction().await?;
        let existing = txn
            .query_opt(
                "SELECT record FROM sites WHERE domain = $1 FOR UPDATE",
                &[&version.domain],
            )
            .await?
            .map(|row| record::<SiteRecord>("sites", row.get(0)))
            .transpose()?;
        let site = SiteRecord::publishing(existing, organization, version)?;
        // A publisher racing to create the same new domain loses here, with the same answer.
        let upserted = txn
            .execute(
                "INSERT INTO sites (domain, organization, record) VALUES ($1, $2, $3)
                 ON CONFLICT (domain) DO UPDATE SET record = EXCLUDED.record
                 WHERE sites.organization = EXCLUDED.organization",
                &[&version.domain, &organization, &json(&site)],
            )
            .await?;
        if upserted == 0 {
            return Err(domain_taken(&version.domain));
        }
        let inserted = txn
            .execute(
                "INSERT INTO content_versions (domain, label, created_at, record)
                 VALUES ($1, $2, $3, $4) ON CONFLICT (domain, label) DO NOTHING",
                &[
                    &version.domain,
                    &version.label,
                    &version.created_at,
                    &json(version),
                ],
            )
            .await?;
        if inserted == 0 {
            return Err(version_taken(version));
        }
        txn.commit().await?;
        Ok(())
    }

    async fn version(
        &self,
        domain: &str,
        label: &str,
    ) -> Result<Option<ContentVersion>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT record FROM content_versions WHERE domain = $1 AND label = $2",
                &[&domain, &label],
            )
            .await?;
        row.map(|row| record("content_versions", row.get(0)))
            .transpose()
    }

    async fn versions(&self, domain: &str) -> Result<Vec<ContentVersion>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT record FROM content_versions WHERE domain = $1 ORDER BY created_at, label",
                &[&domain],
            )
            .await?;
        records("content_versions", rows)
    }

    async fn sites(&self) -> Result<Vec<SiteRecord>, StoreError> {
        let rows = self
            .client()
            .await?
            .query("SELECT record FROM sites ORDER BY domain", &[])
            .await?;
        records("sites", rows)
    }
}
