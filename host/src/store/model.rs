//! The records the store keeps, as both backends serialize them (JSON).

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// An organization's plan; static export needs `enterprise`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
    Enterprise,
}

impl Plan {
    pub fn name(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
            Plan::Enterprise => "enterprise",
        }
    }
}

/// An organization: the owner of keys and sites.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Organization {
    pub name: String,
    pub plan: Plan,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// What a key may do. The stored kind decides, never the key's prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum KeyKind {
    /// Server-side secret for admin endpoints (static export, publishing).
    Admin,
    /// Public key for the assistant and search endpoints.
    Assistant,
}

/// An API key as stored: its hash, never the key itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ApiKeyRecord {
    /// A short public identifier, shown in listings and accepted by `key revoke`.
    pub id: String,
    pub organization: String,
    pub kind: KeyKind,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option", default)]
    pub revoked_at: Option<OffsetDateTime>,
}

/// A documentation site: a domain owned by one organization.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SiteRecord {
    pub domain: String,
    pub organization: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Label of the most recently published content version.
    pub latest_version: Option<String>,
}

/// An immutable published snapshot of a site.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContentVersion {
    pub domain: String,
    /// The version's label, unique within the domain.
    pub label: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    /// Number of pages.
    pub page_count: usize,
    /// Number of files, pages included.
    pub file_count: usize,
    /// Total size of the files.
    pub size_bytes: u64,
    /// Sections in the version's search index.
    #[serde(default)]
    pub indexed_sections: usize,
    /// Why pages (or the whole version) could not be indexed, if anything went wrong.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub index_problems: Vec<String>,
    /// What was wrong in the site that did not stop publishing it (a navigation entry naming a
    /// page that does not exist, an OpenAPI document that cannot be read, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Where a static export job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Completed,
    Failed,
}

impl JobStatus {
    /// The status as the API and the database spell it.
    pub fn name(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Completed => "completed",
            JobStatus::Failed => "failed",
        }
    }
}

/// A problem in the site that did not stop its export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct JobWarning {
    /// Source file, relative to the site root.
    pub file: String,
    /// One-based line, when known.
    pub line: Option<u32>,
    pub message: String,
}

/// The archive a completed job produced.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BundleRecord {
    /// Object storage path of the archive.
    pub path: String,
    pub size_bytes: u64,
    pub media_type: String,
    /// The delta against the site's earlier archive, when one was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<DeltaRecord>,
}

/// A delta archive: the files of a job's archive that the site's earlier archive lacks, with
/// the manifest, for a docs server serving the earlier one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DeltaRecord {
    /// Object storage path of the delta.
    pub path: String,
    pub size_bytes: u64,
    /// Files it carries, the manifest included.
    pub files: u64,
    /// The job whose archive it is a delta against, and that archive's content version.
    pub base_job: String,
    pub base_version: String,
}

/// A static export job, as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    pub id: String,
    pub organization: String,
    pub domain: String,
    pub version: String,
    /// The pages asked for, or `None` for every page.
    pub paths: Option<Vec<String>>,
    /// The archive format asked for (`zip`), or `None` for the server's default.
    #[serde(default)]
    pub format: Option<String>,
    pub status: JobStatus,
    /// Pages exported so far.
    pub page_count: u64,
    /// Pages the job will export.
    pub total_pages: u64,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// Times a worker has started this job.
    pub attempts: u32,
    pub error: Option<String>,
    /// The first warnings (bounded), and how many there were in all.
    pub warnings: Vec<JobWarning>,
    pub warning_count: u64,
    pub bundle: Option<BundleRecord>,
    /// A feature file to put in the bundle in place of the renderer's (`quire build
    /// --deployment-type`); `None` keeps the renderer's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<String>,
    /// The worker running the job (`{server id}/{worker number}`), while it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_owner: Option<String>,
}

impl Job {
    /// Percent done, 0 to 100.
    pub fn progress(&self) -> f64 {
        match self.status {
            JobStatus::Completed => 100.0,
            _ if self.total_pages == 0 => 0.0,
            _ => {
                let ratio = self.page_count as f64 / self.total_pages as f64;
                (ratio * 1000.0).floor() / 10.0
            }
        }
        .min(100.0)
    }
}

/// One message of an assistant thread.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThreadMessage {
    pub role: String,
    pub content: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// An assistant conversation, continued by sending its id back as `threadId`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Thread {
    pub id: String,
    pub organization: String,
    pub domain: String,
    /// The `fp` (fingerprint) of whoever started it; only they may continue it.
    pub fp: String,
    pub messages: Vec<ThreadMessage>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}
