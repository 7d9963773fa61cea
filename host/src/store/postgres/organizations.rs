//! Organizations and their API keys.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::{PostgresStore, json, record, records};
use crate::store::{ApiKeyRecord, Organization, OrganizationStore, Plan, StoreError};

#[async_trait]
impl OrganizationStore for PostgresStore {
    async fn create_organization(
        &self,
        name: &str,
        plan: Plan,
    ) -> Result<Organization, StoreError> {
        let org = Organization::new(name, plan);
        let inserted = self
            .client()
            .await?
            .execute(
                "INSERT INTO organizations (name, record) VALUES ($1, $2)
                 ON CONFLICT (name) DO NOTHING",
                &[&name, &json(&org)],
            )
            .await?;
        if inserted == 0 {
            return Err(StoreError::Conflict(format!(
                "organization {name:?} already exists"
            )));
        }
        Ok(org)
    }

    async fn organization(&self, name: &str) -> Result<Option<Organization>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt("SELECT record FROM organizations WHERE name = $1", &[&name])
            .await?;
        row.map(|row| record("organizations", row.get(0)))
            .transpose()
    }

    async fn organizations(&self) -> Result<Vec<Organization>, StoreError> {
        let rows = self
            .client()
            .await?
            .query("SELECT record FROM organizations ORDER BY name", &[])
            .await?;
        records("organizations", rows)
    }

    async fn add_key(&self, key_hash: &str, key: &ApiKeyRecord) -> Result<(), StoreError> {
        let inserted = self
            .client()
            .await?
            .execute(
                "INSERT INTO api_keys (hash, id, organization, record)
                 SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM organizations WHERE name = $3)",
                &[&key_hash, &key.id, &key.organization, &json(key)],
            )
            .await?;
        if inserted == 0 {
            return Err(StoreError::NotFound(format!(
                "no organization {:?}",
                key.organization
            )));
        }
        Ok(())
    }

    async fn key_by_hash(&self, key_hash: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt("SELECT record FROM api_keys WHERE hash = $1", &[&key_hash])
            .await?;
        row.map(|row| record("api_keys", row.get(0))).transpose()
    }

    async fn key_with_organization(
        &self,
        key_hash: &str,
    ) -> Result<Option<(ApiKeyRecord, Organization)>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT k.record, o.record FROM api_keys k
                 JOIN organizations o ON o.name = k.organization WHERE k.hash = $1",
                &[&key_hash],
            )
            .await?;
        row.map(|row| {
            Ok((
                record("api_keys", row.get(0))?,
                record("organizations", row.get(1))?,
            ))
        })
        .transpose()
    }

    async fn revoke_key(
        &self,
        key_hash: Option<&str>,
        id: &str,
    ) -> Result<ApiKeyRecord, StoreError> {
        let mut client = self.client().await?;
        let txn = client.transaction().await?;
        let row = txn
            .query_opt(
                "SELECT hash, record FROM api_keys WHERE hash = $1 OR id = $2
                 ORDER BY hash = $1 DESC LIMIT 1 FOR UPDATE",
                &[&key_hash.unwrap_or_default(), &id],
            )
            .await?;
        let Some(row) = row else {
            return Err(StoreError::NotFound(format!("no API key {id:?}")));
        };
        let hash: String = row.get(0);
        let mut key: ApiKeyRecord = record("api_keys", row.get(1))?;
        if key.revoked_at.is_none() {
            key.revoked_at = Some(OffsetDateTime::now_utc());
        }
        txn.execute(
            "UPDATE api_keys SET record = $2 WHERE hash = $1",
            &[&hash, &json(&key)],
        )
        .await?;
        txn.commit().await?;
        Ok(key)
    }

    async fn keys_of(&self, organization: &str) -> Result<Vec<ApiKeyRecord>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                "SELECT record FROM api_keys WHERE organization = $1 ORDER BY hash",
                &[&organization],
            )
            .await?;
        records("api_keys", rows)
    }
}
