//! Sites (domains owned by organizations) and their published content versions.

use redb::{ReadableDatabase, ReadableTable};
use time::OffsetDateTime;

use super::{ContentVersion, SITES, SiteRecord, Store, StoreError, VERSIONS, decode, encode, scan};

impl Store {
    pub fn site(&self, domain: &str) -> Result<Option<SiteRecord>, StoreError> {
        self.get(SITES, domain)
    }

    /// Records a published version, creating the site for `organization` on its first version.
    /// This transaction is the commit point of publishing: the files are already in storage,
    /// and the version exists from here on.
    pub fn add_version(
        &self,
        organization: &str,
        version: &ContentVersion,
    ) -> Result<(), StoreError> {
        let txn = self.db().begin_write()?;
        {
            let mut sites = txn.open_table(SITES)?;
            let existing: Option<SiteRecord> = sites
                .get(version.domain.as_str())?
                .map(|v| decode(SITES, v.value()))
                .transpose()?;
            let mut site = match existing {
                Some(site) if site.organization != organization => {
                    return Err(StoreError::Conflict(format!(
                        "domain {:?} belongs to another organization",
                        version.domain
                    )));
                }
                Some(site) => site,
                None => SiteRecord {
                    domain: version.domain.clone(),
                    organization: organization.to_string(),
                    created_at: OffsetDateTime::now_utc(),
                    latest_version: None,
                },
            };
            let mut versions = txn.open_table(VERSIONS)?;
            let key = version_key(&version.domain, &version.label);
            if versions.get(key.as_str())?.is_some() {
                return Err(StoreError::Conflict(format!(
                    "version {:?} of {:?} is already published; versions are immutable, publish under a new label",
                    version.label, version.domain
                )));
            }
            versions.insert(key.as_str(), encode(version).as_slice())?;
            site.latest_version = Some(version.label.clone());
            sites.insert(version.domain.as_str(), encode(&site).as_slice())?;
        }
        txn.commit()?;
        Ok(())
    }

    /// Checks that `organization` may publish to `domain` (it is new, or already theirs).
    pub fn check_domain_owner(&self, organization: &str, domain: &str) -> Result<(), StoreError> {
        match self.site(domain)? {
            Some(site) if site.organization != organization => Err(StoreError::Conflict(format!(
                "domain {domain:?} belongs to another organization"
            ))),
            _ => Ok(()),
        }
    }

    pub fn version(&self, domain: &str, label: &str) -> Result<Option<ContentVersion>, StoreError> {
        self.get(VERSIONS, &version_key(domain, label))
    }

    /// The versions of a domain, oldest first.
    pub fn versions(&self, domain: &str) -> Result<Vec<ContentVersion>, StoreError> {
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
    }

    /// Every site.
    pub fn sites(&self) -> Result<Vec<SiteRecord>, StoreError> {
        let txn = self.db().begin_read()?;
        let table = txn.open_table(SITES)?;
        Ok(scan(&table, SITES)?.into_iter().map(|(_, s)| s).collect())
    }
}

fn version_key(domain: &str, label: &str) -> String {
    format!("{domain}/{label}")
}
