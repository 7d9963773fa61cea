//! The static export API: start a job, poll it, generate its bundle link (enterprise plans, admin keys).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::extract::{JsonBody, Path, Query};
use super::{ApiError, EnterpriseKey, ErrorBody, SharedState};
use crate::auth::Principal;
use crate::jobs::{ExportRequest, start_export};
use crate::store::{Job, JobStatus, JobWarning};

/// Warnings returned with a job; the job keeps counting past this.
const WARNINGS_SHOWN: usize = 100;

/// Body of `POST /v1/static-export/jobs`. Unknown fields are ignored.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct StartJobRequest {
    /// The domain of the site to export (no protocol, no path).
    #[serde(default)]
    pub domain: Option<String>,
    /// The published content version to export; default: the latest.
    #[serde(default)]
    pub version: Option<String>,
    /// Page paths to export; default: every published page.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
    /// The archive format (`tar.gz`, `zip`, or another configured one); default: the
    /// server's default format (`tar.gz` unless the operator chose another).
    #[serde(default)]
    pub format: Option<String>,
}

/// A static export job.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub job_id: String,
    pub status: JobStatus,
    /// Percent done, 0 to 100.
    pub progress: f64,
    /// Pages exported so far.
    pub page_count: u64,
    /// Pages this job exports (known once it runs).
    pub total_pages: u64,
    pub domain: String,
    pub version: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub updated_at: String,
    /// Why the job failed; only when `status` is `failed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How many problems the export found in the site (bad markup, broken links, ...).
    pub warning_count: u64,
    /// The first of those problems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<JobWarning>,
    /// Size of the archive, once completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u64>,
}

impl From<&Job> for JobView {
    fn from(job: &Job) -> Self {
        Self {
            job_id: job.id.clone(),
            status: job.status,
            progress: job.progress(),
            page_count: job.page_count,
            total_pages: job.total_pages,
            domain: job.domain.clone(),
            version: job.version.clone(),
            created_at: rfc3339(job.created_at),
            updated_at: rfc3339(job.updated_at),
            error: job.error.clone(),
            warning_count: job.warning_count,
            warnings: job.warnings.iter().take(WARNINGS_SHOWN).cloned().collect(),
            size_bytes: job.bundle.as_ref().map(|b| b.size_bytes),
        }
    }
}

/// Response of `POST /v1/static-export/jobs/{jobId}/bundle`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BundleView {
    pub job_id: String,
    /// Download link of the archive; works until `expiresAt`.
    pub bundle_url: String,
    pub size_bytes: u64,
    #[schema(format = DateTime)]
    pub expires_at: String,
    /// What a docs server serving the site's earlier export downloads instead: present when
    /// the export wrote a delta against it. Its link expires with `bundleUrl`'s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta: Option<DeltaView>,
}

/// A delta archive: the files of this export that the earlier one lacks, with the manifest
/// (`quire docs-server --delta-url`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeltaView {
    /// Download link of the delta archive.
    pub url: String,
    pub size_bytes: u64,
    /// Files it carries, the manifest included.
    pub files: u64,
    /// The export it applies to: a docs server serving that job's bundle can use it.
    pub base_job_id: String,
    /// The content version of that export.
    pub base_version: String,
}

/// Start a static export job.
#[utoipa::path(
    post, path = "/v1/static-export/jobs", tag = "static-export",
    request_body = StartJobRequest,
    security(("bearer" = [])),
    responses(
        (status = 202, description = "Queued", body = JobView),
        (status = 400, description = "Invalid body", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or assistant key", body = ErrorBody),
        (status = 403, description = "The plan is not enterprise", body = ErrorBody),
        (status = 404, description = "Unknown domain or version", body = ErrorBody),
    )
)]
pub async fn start_job(
    State(state): State<SharedState>,
    EnterpriseKey(principal): EnterpriseKey,
    JsonBody(request): JsonBody<StartJobRequest>,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let request = ExportRequest {
        domain: request.domain.unwrap_or_default(),
        version: request.version,
        paths: request.paths,
        format: request.format,
    };
    let job = start_export(&state.exports, &principal.organization.name, request).await?;
    Ok((StatusCode::ACCEPTED, Json(JobView::from(&job))))
}

/// Query of the job status endpoint.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct JobQuery {
    /// `all`: every warning of the job instead of the first 100.
    pub warnings: Option<String>,
}

/// Get a static export job's status and progress.
#[utoipa::path(
    get, path = "/v1/static-export/jobs/{jobId}", tag = "static-export",
    params(("jobId" = String, Path, description = "The job's id"), JobQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The job", body = JobView),
        (status = 401, description = "Missing, invalid, revoked or assistant key", body = ErrorBody),
        (status = 403, description = "The plan is not enterprise", body = ErrorBody),
        (status = 404, description = "No such job in this organization", body = ErrorBody),
    )
)]
pub async fn get_job(
    State(state): State<SharedState>,
    EnterpriseKey(principal): EnterpriseKey,
    Path(job_id): Path<String>,
    Query(query): Query<JobQuery>,
) -> Result<Json<JobView>, ApiError> {
    let job = own_job(&state, &principal, &job_id).await?;
    let mut view = JobView::from(&job);
    match query.warnings.as_deref() {
        None => {}
        Some("all") => view.warnings = crate::jobs::all_warnings(&state.operator, &job).await,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "warnings must be \"all\" (or left out for the first {WARNINGS_SHOWN}); got {other:?}"
            )));
        }
    }
    Ok(Json(view))
}

/// Generate a download link for a completed job's bundle. Calling it again returns a fresh
/// link; the archive is not rebuilt.
#[utoipa::path(
    post, path = "/v1/static-export/jobs/{jobId}/bundle", tag = "static-export",
    params(("jobId" = String, Path, description = "The job's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A fresh link", body = BundleView),
        (status = 401, description = "Missing, invalid, revoked or assistant key", body = ErrorBody),
        (status = 403, description = "The plan is not enterprise", body = ErrorBody),
        (status = 404, description = "No such job in this organization", body = ErrorBody),
        (status = 409, description = "The job is not completed", body = ErrorBody),
    )
)]
pub async fn generate_bundle(
    State(state): State<SharedState>,
    EnterpriseKey(principal): EnterpriseKey,
    Path(job_id): Path<String>,
) -> Result<Json<BundleView>, ApiError> {
    let job = own_job(&state, &principal, &job_id).await?;
    let bundle = match (job.status, &job.bundle) {
        (JobStatus::Completed, Some(bundle)) => bundle,
        (JobStatus::Failed, _) => {
            return Err(ApiError::conflict(format!(
                "job {job_id} failed ({}); start a new export",
                job.error.as_deref().unwrap_or("no reason recorded")
            )));
        }
        (status, _) => {
            return Err(ApiError::conflict(format!(
                "job {job_id} is {}; a bundle can be generated once it is completed",
                status.name()
            )));
        }
    };
    let link = state
        .signer
        .link(&state.operator, &bundle.path, state.config.links.lifetime())
        .await?;
    let delta = match &bundle.delta {
        Some(delta) => {
            let link = state
                .signer
                .link(&state.operator, &delta.path, state.config.links.lifetime())
                .await?;
            Some(DeltaView {
                url: link.url,
                size_bytes: delta.size_bytes,
                files: delta.files,
                base_job_id: delta.base_job.clone(),
                base_version: delta.base_version.clone(),
            })
        }
        None => None,
    };
    Ok(Json(BundleView {
        job_id: job.id.clone(),
        bundle_url: link.url,
        size_bytes: bundle.size_bytes,
        expires_at: rfc3339(link.expires_at),
        delta,
    }))
}

/// The job, if it exists and is the organization's; another organization's job is "not found".
async fn own_job(
    state: &SharedState,
    principal: &Principal,
    job_id: &str,
) -> Result<Job, ApiError> {
    state
        .store
        .job_of(&principal.organization.name, job_id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no static export job {job_id:?}")))
}

fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
