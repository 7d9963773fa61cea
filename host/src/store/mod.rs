//! Everything the host remembers (organizations, keys, sites, content versions, export jobs,
//! assistant threads, rate-limit counts, analytics, settings) behind one async [`Store`] trait.
//!
//! Two backends: [`RedbStore`], an embedded redb file that one process opens (the default for one
//! machine), and [`PostgresStore`], which several API servers share. Each area of the data has
//! its own trait and its own file in each backend; [`Store`] is all of them together, and the
//! rest of the host holds a [`SharedStore`].

mod dump;
mod job_states;
mod model;
mod postgres;
pub(crate) mod record_rules;
mod redb;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use time::OffsetDateTime;

pub use self::redb::RedbStore;
pub use dump::{AnalyticsRow, Dump};
pub use job_states::MAX_STORED_WARNINGS;
pub use model::*;
pub use postgres::PostgresStore;

/// The store every part of the host goes through; cheap to clone.
pub type SharedStore = Arc<dyn Store>;

/// A database failure, or a request the data does not allow.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the data directory {0} is in use by another Quire process (a running server?): stop it, or use the HTTP API"
    )]
    InUse(std::path::PathBuf),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("database error: {0}")]
    Database(String),
    #[error("corrupt record in {table}: {message}")]
    Corrupt { table: String, message: String },
    /// The job's lease passed to another worker (this one was too slow to renew it).
    #[error("job {0} is no longer leased to this worker")]
    LeaseLost(String),
}

/// Opens the configured store: PostgreSQL when `database_url` is set, else the redb file in
/// `data_dir`.
pub async fn open(
    database_url: Option<&str>,
    data_dir: &std::path::Path,
) -> Result<SharedStore, StoreError> {
    Ok(match database_url {
        Some(url) => Arc::new(PostgresStore::connect(url).await?),
        None => Arc::new(RedbStore::open(data_dir)?),
    })
}

/// Organizations and their API keys. Keys are stored under their SHA-256, never in clear.
#[async_trait]
pub trait OrganizationStore: Send + Sync {
    /// Creates an organization; its name must be new.
    async fn create_organization(&self, name: &str, plan: Plan)
    -> Result<Organization, StoreError>;
    async fn organization(&self, name: &str) -> Result<Option<Organization>, StoreError>;
    /// Every organization, by name.
    async fn organizations(&self) -> Result<Vec<Organization>, StoreError>;
    /// Stores a new key under its hash; the organization must exist.
    async fn add_key(&self, key_hash: &str, record: &ApiKeyRecord) -> Result<(), StoreError>;
    async fn key_by_hash(&self, key_hash: &str) -> Result<Option<ApiKeyRecord>, StoreError>;
    /// The key stored under `key_hash` with its organization: what every request's
    /// authentication reads, in one lookup where the backend can.
    async fn key_with_organization(
        &self,
        key_hash: &str,
    ) -> Result<Option<(ApiKeyRecord, Organization)>, StoreError> {
        let Some(key) = self.key_by_hash(key_hash).await? else {
            return Ok(None);
        };
        Ok(self
            .organization(&key.organization)
            .await?
            .map(|organization| (key, organization)))
    }
    /// Marks the key with hash `key_hash` or public id `id` as revoked.
    async fn revoke_key(
        &self,
        key_hash: Option<&str>,
        id: &str,
    ) -> Result<ApiKeyRecord, StoreError>;
    /// The keys of an organization (hashes are not returned).
    async fn keys_of(&self, organization: &str) -> Result<Vec<ApiKeyRecord>, StoreError>;
}

/// Sites (domains owned by organizations) and their published content versions.
#[async_trait]
pub trait SiteStore: Send + Sync {
    /// The site at `domain`, whoever owns it: for publishing's ownership check and the docs
    /// server. Requests on behalf of an organization use [`SiteStore::site_of`].
    async fn site(&self, domain: &str) -> Result<Option<SiteRecord>, StoreError>;
    /// The site at `domain` if `organization` owns it. Every "which site of this organization"
    /// question goes through here: another organization's site is simply not found.
    async fn site_of(
        &self,
        organization: &str,
        domain: &str,
    ) -> Result<Option<SiteRecord>, StoreError> {
        Ok(self
            .site(domain)
            .await?
            .filter(|site| site.organization == organization))
    }
    /// Records a published version, creating the site for `organization` on its first version.
    /// This is the commit point of publishing: the files are already in storage, and the
    /// version exists from here on.
    async fn add_version(
        &self,
        organization: &str,
        version: &ContentVersion,
    ) -> Result<(), StoreError>;
    async fn version(
        &self,
        domain: &str,
        label: &str,
    ) -> Result<Option<ContentVersion>, StoreError>;
    /// The versions of a domain, oldest first.
    async fn versions(&self, domain: &str) -> Result<Vec<ContentVersion>, StoreError>;
    /// Every site.
    async fn sites(&self) -> Result<Vec<SiteRecord>, StoreError>;

    /// Checks that `organization` may publish to `domain` (it is new, or already theirs).
    async fn check_domain_owner(&self, organization: &str, domain: &str) -> Result<(), StoreError> {
        match self.site(domain).await? {
            Some(site) if site.organization != organization => Err(StoreError::Conflict(format!(
                "domain {domain:?} belongs to another organization"
            ))),
            _ => Ok(()),
        }
    }
}

/// A running job's progress since its last update.
#[derive(Debug, Default)]
pub struct JobUpdate {
    pub page_count: u64,
    pub total_pages: u64,
    pub new_warnings: Vec<JobWarning>,
}

/// Static export jobs. A worker claims a job with a lease it keeps renewing; every change a
/// worker makes names it as the owner, and fails with [`StoreError::LeaseLost`] once the lease
/// has passed to another worker, so a job completes exactly once.
#[async_trait]
pub trait JobStore: Send + Sync {
    /// Stores a new job, queued.
    async fn insert_job(&self, job: &Job) -> Result<(), StoreError>;
    /// The job, if it belongs to `organization`.
    async fn job_of(&self, organization: &str, id: &str) -> Result<Option<Job>, StoreError>;
    /// Takes the oldest queued job, or a running one whose lease expired (its worker died),
    /// marks it running under `owner` for `lease`, and counts the attempt. An expired job that
    /// has used `max_attempts` is failed instead.
    async fn claim_next_job(
        &self,
        owner: &str,
        lease: Duration,
        max_attempts: u32,
    ) -> Result<Option<Job>, StoreError>;
    /// Extends `owner`'s lease on job `id`.
    async fn renew_lease(&self, id: &str, owner: &str, lease: Duration) -> Result<(), StoreError>;
    /// Records a running job's progress; the page count never goes back.
    async fn update_job_progress(
        &self,
        id: &str,
        owner: &str,
        update: JobUpdate,
    ) -> Result<(), StoreError>;
    /// Ends a job successfully with its bundle.
    async fn complete_job(
        &self,
        id: &str,
        owner: &str,
        bundle: BundleRecord,
    ) -> Result<Job, StoreError>;
    /// Ends a job as failed with a reason.
    async fn fail_job(&self, id: &str, owner: &str, error: &str) -> Result<(), StoreError>;
    /// Puts a running job back in the queue (its server is shutting down); the attempt it was
    /// on is not counted against it.
    async fn requeue_job(&self, id: &str, owner: &str) -> Result<(), StoreError>;
    /// At start-up: jobs left running by a server that stopped without returning them. The
    /// embedded store requeues every running job (only one process opens it); a shared store
    /// leaves them to [`JobStore::claim_next_job`], which takes them over once their lease
    /// expires. Returns (requeued, failed).
    async fn recover_interrupted_jobs(
        &self,
        max_attempts: u32,
    ) -> Result<(usize, usize), StoreError>;
    /// Number of jobs in each status.
    async fn job_counts(&self) -> Result<[(JobStatus, usize); 4], StoreError>;
}

/// Assistant threads.
#[async_trait]
pub trait ThreadStore: Send + Sync {
    /// The thread, if it belongs to `organization`.
    async fn thread_of(&self, organization: &str, id: &str) -> Result<Option<Thread>, StoreError>;
    /// Records turns: for each, appends the messages to the stored thread, or stores the
    /// thread with them if it is new. One transaction however many turns.
    async fn record_turns(
        &self,
        turns: Vec<(Thread, Vec<ThreadMessage>)>,
    ) -> Result<(), StoreError>;
}

/// Most messages a thread keeps; older ones are dropped first.
pub const MAX_THREAD_MESSAGES: usize = 200;

/// What a reader did on a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageEvent {
    View,
    Feedback { helpful: bool },
}

/// A page's counts over a time range.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageCounts {
    pub path: String,
    pub views: u64,
    pub helpful: u64,
    pub not_helpful: u64,
}

/// Web analytics: counts per site, hour and page; no addresses, fingerprints or user agents.
#[async_trait]
pub trait AnalyticsStore: Send + Sync {
    /// Counts one event for `path` of `domain` in the hour of `at`.
    async fn record_page_event(
        &self,
        domain: &str,
        path: &str,
        at: OffsetDateTime,
        event: PageEvent,
    ) -> Result<(), StoreError>;
    /// Per-page counts of `domain` for the hours that overlap `from..to`, most viewed first.
    async fn page_counts(
        &self,
        domain: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<Vec<PageCounts>, StoreError>;
}

/// One fixed window of one rate limit: `scope` (which limit), `key` (whose count) and the
/// window's number since the epoch.
#[derive(Debug, Clone, Copy)]
pub struct RateWindow<'a> {
    pub scope: &'a str,
    pub key: &'a str,
    pub window: u64,
}

/// Rate-limit counters. Replicas sharing a store share the counts.
#[async_trait]
pub trait RateCountStore: Send + Sync {
    /// Counts one request in both windows, or in neither when one is at its limit (a request
    /// is under two limits at once), in one round trip where the backend can.
    async fn take_both(
        &self,
        first: (RateWindow<'_>, u64),
        second: (RateWindow<'_>, u64),
    ) -> Result<BothTaken, StoreError>;
}

/// What [`RateCountStore::take_both`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BothTaken {
    /// Counted in both: the counts after it.
    Counted(u64, u64),
    /// Not counted: the first window is at its limit (its count).
    RefusedByFirst(u64),
    /// Not counted: the second window is at its limit (its count).
    RefusedBySecond(u64),
}

/// Server-wide settings: small values made once and shared by every replica (the secret that
/// signs download links, say).
#[async_trait]
pub trait SettingStore: Send + Sync {
    /// The setting's bytes, stored as `initial` if it has none yet. Racing replicas agree on
    /// whichever stored first.
    async fn setting_or_init(&self, name: &str, initial: Vec<u8>) -> Result<Vec<u8>, StoreError>;
}

/// Copying every record out of a store and into another (`quire migrate`).
#[async_trait]
pub trait DumpStore: Send + Sync {
    /// Every record, read in one consistent snapshot.
    async fn dump(&self) -> Result<Dump, StoreError>;
    /// Writes every record of `dump` into this store, which must be empty, in one transaction.
    async fn load(&self, dump: &Dump) -> Result<(), StoreError>;
}

/// The whole store.
pub trait Store:
    OrganizationStore
    + SiteStore
    + JobStore
    + ThreadStore
    + AnalyticsStore
    + RateCountStore
    + SettingStore
    + DumpStore
{
    /// "redb" or "postgres", for logs.
    fn backend(&self) -> &'static str;
}

/// Brings every part of the [`Store`] trait into scope: `use crate::store::prelude::*`.
pub mod prelude {
    pub use super::{
        AnalyticsStore, DumpStore, JobStore, OrganizationStore, RateCountStore, SettingStore,
        SiteStore, Store, ThreadStore,
    };
}
