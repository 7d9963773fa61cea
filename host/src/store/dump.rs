//! Every record of a store in one value, for `quire migrate`: what one backend's
//! [`DumpStore::dump`](super::DumpStore::dump) reads, the other's `load` writes. Rate-limit
//! counts are not carried: their windows are minutes to a day long and start again.

use super::{ApiKeyRecord, ContentVersion, Job, Organization, SiteRecord, Thread};

/// One row of page analytics: a page's counts in one hour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyticsRow {
    pub domain: String,
    /// Hours since the Unix epoch.
    pub hour: u64,
    pub path: String,
    pub views: u64,
    pub helpful: u64,
    pub not_helpful: u64,
}

/// Every record of a store.
#[derive(Debug, Clone, Default)]
pub struct Dump {
    pub organizations: Vec<Organization>,
    /// Keys with the hash they are stored under.
    pub keys: Vec<(String, ApiKeyRecord)>,
    pub sites: Vec<SiteRecord>,
    pub versions: Vec<ContentVersion>,
    pub jobs: Vec<Job>,
    pub threads: Vec<Thread>,
    pub analytics: Vec<AnalyticsRow>,
    pub settings: Vec<(String, Vec<u8>)>,
}

impl Dump {
    /// Counts per kind, for `quire migrate`'s report.
    pub fn summary(&self) -> String {
        format!(
            "{} organizations, {} keys, {} sites, {} versions, {} jobs, {} threads, {} analytics rows, {} settings",
            self.organizations.len(),
            self.keys.len(),
            self.sites.len(),
            self.versions.len(),
            self.jobs.len(),
            self.threads.len(),
            self.analytics.len(),
            self.settings.len()
        )
    }
}
