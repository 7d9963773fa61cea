//! Starting an export, the use case behind `POST /v1/static-export/jobs`: which site of the
//! organization, which version (default: the latest), which pages (default: all), which archive
//! format; then the queued job, and a wake-up for the workers.

use std::collections::HashSet;

use rand::Rng;
use time::OffsetDateTime;

use super::ExportContext;
use crate::sites::{ManifestError, SiteManifest, validate_domain, validate_label};
use crate::store::{Job, JobStatus, StoreError};

/// What a caller asks to export; every field as it came, checked here.
#[derive(Debug, Default)]
pub struct ExportRequest {
    pub domain: String,
    pub version: Option<String>,
    pub paths: Option<Vec<String>>,
    pub format: Option<String>,
}

/// Why an export was not started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// A field is wrong; the message names it.
    #[error("{0}")]
    Invalid(String),
    /// No such site in the organization, or no such version.
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Manifest(#[from] ManifestError),
}

/// Queues an export of `request` for `organization` and returns the job.
pub async fn start_export(
    context: &ExportContext,
    organization: &str,
    request: ExportRequest,
) -> Result<Job, StartError> {
    if let Some(format) = &request.format {
        context
            .plugins
            .packagers
            .choose(Some(format))
            .map_err(|e| StartError::Invalid(format!("format: {e}")))?;
    }
    let domain = request.domain;
    validate_domain(domain.trim()).map_err(StartError::Invalid)?;
    if let Some(version) = &request.version {
        validate_label(version).map_err(StartError::Invalid)?;
    }
    let site = context
        .store
        .site_of(organization, &domain)
        .await?
        .ok_or_else(|| StartError::NotFound(format!("no site {domain:?} in this organization")))?;
    let version = request
        .version
        .or(site.latest_version)
        .ok_or_else(|| StartError::NotFound(format!("{domain:?} has no published version")))?;
    let content = context
        .store
        .version(&domain, &version)
        .await?
        .ok_or_else(|| {
            StartError::NotFound(format!("{domain:?} has no published version {version:?}"))
        })?;
    let paths = match request.paths {
        None => None,
        Some(paths) => Some(check_paths(context, &domain, &version, paths).await?),
    };
    let total_pages = paths.as_ref().map_or(content.page_count, Vec::len) as u64;
    let now = OffsetDateTime::now_utc();
    let job = Job {
        id: new_job_id(),
        organization: organization.to_string(),
        domain,
        version,
        paths,
        format: request.format,
        status: JobStatus::Queued,
        page_count: 0,
        total_pages,
        created_at: now,
        updated_at: now,
        attempts: 0,
        error: None,
        warnings: Vec::new(),
        warning_count: 0,
        bundle: None,
        features: None,
        lease_owner: None,
    };
    context.store.insert_job(&job).await?;
    context.queued.notify_one();
    Ok(job)
}

/// Checks `paths` against the version's pages: each must be a page (a leading `/` and an
/// extension are tolerated), none may be empty; repeats are dropped.
async fn check_paths(
    context: &ExportContext,
    domain: &str,
    version: &str,
    paths: Vec<String>,
) -> Result<Vec<String>, StartError> {
    if paths.is_empty() {
        return Err(StartError::Invalid(
            "paths must not be empty; leave it out to export every page".into(),
        ));
    }
    let manifest = SiteManifest::read(&context.operator, domain, version).await?;
    let known: HashSet<&str> = manifest.pages.iter().map(|p| p.path.as_str()).collect();
    let mut out = Vec::new();
    for (i, raw) in paths.iter().enumerate() {
        let path = quire_core::paths::page_key(raw);
        if path.is_empty() {
            return Err(StartError::Invalid(format!("paths[{i}] is empty")));
        }
        if !known.contains(path) {
            return Err(StartError::Invalid(format!(
                "paths[{i}]: no page {raw:?} in version {version:?} of {domain:?}"
            )));
        }
        if !out.iter().any(|p: &String| p == path) {
            out.push(path.to_string());
        }
    }
    Ok(out)
}

fn new_job_id() -> String {
    let bytes: [u8; 8] = rand::rng().random();
    format!("se_{}", hex::encode(bytes))
}
