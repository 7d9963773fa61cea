//! Organizations and their API keys.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::{KEYS, ORGANIZATIONS, RedbStore, blocking, encode, scan};
use crate::store::{ApiKeyRecord, Organization, OrganizationStore, Plan, StoreError};
use redb::{ReadableDatabase, ReadableTable};

#[async_trait]
impl OrganizationStore for RedbStore {
    /// Creates an organization; its name must be new.
    async fn create_organization(
        &self,
        name: &str,
        plan: Plan,
    ) -> Result<Organization, StoreError> {
        blocking(|| {
            let org = Organization::new(name, plan);
            let txn = self.db().begin_write()?;
            {
                let mut table = txn.open_table(ORGANIZATIONS)?;
                if table.get(name)?.is_some() {
                    return Err(StoreError::Conflict(format!(
                        "organization {name:?} already exists"
                    )));
                }
                table.insert(name, encode(&org).as_slice())?;
            }
            txn.commit()?;
            Ok(org)
        })
    }

    async fn organization(&self, name: &str) -> Result<Option<Organization>, StoreError> {
        blocking(|| self.get(ORGANIZATIONS, name))
    }

    /// Stores a new key under its hash; the organization must exist.
    async fn add_key(&self, key_hash: &str, record: &ApiKeyRecord) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            {
                if txn
                    .open_table(ORGANIZATIONS)?
                    .get(record.organization.as_str())?
                    .is_none()
                {
                    return Err(StoreError::NotFound(format!(
                        "no organization {:?}",
                        record.organization
                    )));
                }
                txn.open_table(KEYS)?
                    .insert(key_hash, encode(record).as_slice())?;
            }
            txn.commit()?;
            Ok(())
        })
    }

    /// The key stored under `key_hash`.
    async fn key_by_hash(&self, key_hash: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        blocking(|| self.get(KEYS, key_hash))
    }

    /// Marks the key with hash `key_hash` or public id `id` as revoked.
    async fn revoke_key(
        &self,
        key_hash: Option<&str>,
        id: &str,
    ) -> Result<ApiKeyRecord, StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            let revoked = {
                let mut table = txn.open_table(KEYS)?;
                let by_hash = match key_hash {
                    Some(h) => table.get(h)?.map(|v| (h.to_string(), v.value().to_vec())),
                    None => None,
                };
                let found = match by_hash {
                    Some(found) => Some(found),
                    None => scan::<ApiKeyRecord>(&table, KEYS)?
                        .into_iter()
                        .find(|(_, r)| r.id == id)
                        .map(|(h, r)| (h, encode(&r))),
                };
                let Some((hash, bytes)) = found else {
                    return Err(StoreError::NotFound(format!("no API key {id:?}")));
                };
                let mut record: ApiKeyRecord = super::decode(KEYS, &bytes)?;
                if record.revoked_at.is_none() {
                    record.revoked_at = Some(OffsetDateTime::now_utc());
                }
                table.insert(hash.as_str(), encode(&record).as_slice())?;
                record
            };
            txn.commit()?;
            Ok(revoked)
        })
    }

    /// The keys of an organization (hashes are not returned).
    async fn keys_of(&self, organization: &str) -> Result<Vec<ApiKeyRecord>, StoreError> {
        blocking(|| {
            let txn = self.db().begin_read()?;
            let table = txn.open_table(KEYS)?;
            Ok(scan::<ApiKeyRecord>(&table, KEYS)?
                .into_iter()
                .map(|(_, r)| r)
                .filter(|r| r.organization == organization)
                .collect())
        })
    }

    /// Every organization.
    async fn organizations(&self) -> Result<Vec<Organization>, StoreError> {
        blocking(|| {
            let txn = self.db().begin_read()?;
            let table = txn.open_table(ORGANIZATIONS)?;
            Ok(scan(&table, ORGANIZATIONS)?
                .into_iter()
                .map(|(_, o)| o)
                .collect())
        })
    }
}
