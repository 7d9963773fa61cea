//! Sites (domains owned by organizations) and their published content versions.

use async_trait::async_trait;
use redb::{ReadableDatabase, ReadableTable};

use super::{RedbStore, SITES, VERSIONS, blocking, decode, encode, scan};
use crate::store::record_rules::version_taken;
use crate::store::{ContentVersion, SiteRecord, SiteStore, StoreError};

#[async_trait]
impl SiteStore for RedbStore {
    async fn site(&self, domain: &str) -> Result<Option<SiteRecord>, StoreError> {
        blocking(|| self.get(SITES, domain))
    }

    /// Records a published version, creating the site for `organization` on its first version.
    /// This transaction is the commit point of publishing: the files are already in storage,
    /// and the version exists from here on.
    async fn add_version(
        &self,
        organization: &str,
        version: &ContentVersion,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            {
                let mut sites = txn.open_table(SITES)?;
                let existing: Option<SiteRecord> = sites
                    .get(version.domain.as_str())?
                    .map(|v| decode(SITES, v.value()))
                    .transpose()?;
                let site = SiteRecord::publishing(existing, organization, version)?;
                let mut versions = txn.open_table(VERSIONS)?;
                let key = version_key(&version.domain, &version.label);
                if versions.get(key.as_str())?.is_some() {
                    return Err(version_taken(version));
                }
                versions.insert(key.as_str(), encode(version).as_slice())?;
                sites.insert(version.domain.as_str(), encode(&site).as_slice())?;
            }
            txn.commit()?;
            Ok(())
        })
    }

    async fn version(
        &self,
        domain: &str,
        label: &str,
    ) -> Result<Option<ContentVersion>, StoreError> {
        blocking(|| self.get(VERSIONS, &version_key(domain, label)))
    }

    /// The versions of a domain, oldest first.
    async fn versions(&self, domain: &str) -> Result<Vec<ContentVersion>, StoreError> {
        blocking(|| {
            let txn = self.db().begin_read()?;
            let table = txn.open_table(VERSIONS)?;
            let prefix = format!("{domain}/");
            let mut versions: Vec<ContentVersion> = Vec::new();
            for entry in table.range(prefix.as_str()..)? {
                let (k, v) = entry?;
                if !k.value().starts_with(&prefix) {
                    break;
                }
                versions.push(decode(VERSIONS, v.value())?);
            }
            versions.sort_by_key(|v| v.created_at);
            Ok(versions)
        })
    }

    /// Every site.
    async fn sites(&self) -> Result<Vec<SiteRecord>, StoreError> {
        blocking(|| {
            let txn = self.db().begin_read()?;
            let table = txn.open_table(SITES)?;
            Ok(scan(&table, SITES)?.into_iter().map(|(_, s)| s).collect())
        })
    }
}

pub(super) fn version_key(domain: &str, label: &str) -> String {
    format!("{domain}/{label}")
}
