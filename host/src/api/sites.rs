//! Publishing over HTTP: a CI pipeline uploads a `.tar.gz` of its site folder, or only the
//! files whose contents the server does not hold, having asked which (`missing_files`).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::extract::{JsonBody, Path, Query, StreamedBody};
use super::{AdminKey, ApiError, ErrorBody, SharedState};
use crate::publishing::{PublishRequest, linkable_files, publish, upload_folder};
use crate::sites::{SiteLimits, extract_site_archive, is_sha256_hex, missing_contents};
use crate::store::ContentVersion;

/// Query of the publish endpoint.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct PublishQuery {
    /// Label of the new version; default: the time of publishing.
    pub version: Option<String>,
    /// Refuse (400) a site with warnings, such as a navigation entry naming a page that does
    /// not exist, instead of publishing it without what they name. Default: false.
    #[serde(default)]
    pub strict: bool,
}

/// Publish a new content version of a site from a `.tar.gz` of its folder (`docs.json` or
/// `mint.json` at the top, or inside one top-level folder). The archive may leave out files
/// whose contents the server holds when its top has `.quire-files.json`, listing every file of
/// the site (`{"files": {"path": "sha256 hex"}}`): those are taken from the site's latest
/// version. Ask `POST /v1/sites/{domain}/files/missing` which contents to send.
#[utoipa::path(
    post, path = "/v1/sites/{domain}/versions", tag = "sites",
    params(("domain" = String, Path, description = "The site's domain"), PublishQuery),
    request_body(content = Vec<u8>, content_type = "application/gzip", description = "The site folder as .tar.gz"),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Published", body = ContentVersion),
        (status = 400, description = "Broken site (the message names the file)", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or assistant key", body = ErrorBody),
        (status = 409, description = "Version exists, or the domain is another organization's", body = ErrorBody),
        (status = 413, description = "Too large", body = ErrorBody),
    )
)]
pub async fn publish_version(
    State(state): State<SharedState>,
    AdminKey(principal): AdminKey,
    Path(domain): Path<String>,
    Query(query): Query<PublishQuery>,
    body: StreamedBody,
) -> Result<(StatusCode, Json<ContentVersion>), ApiError> {
    let limits = SiteLimits::of(&state.config.publish);
    let operator = state.operator.clone();
    let folder = tokio::task::spawn_blocking(move || upload_folder(&operator))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let workdir = ScratchFolder(Some(folder));
    let dest = workdir.path().to_path_buf();
    // Unpacked as it arrives: the first bytes that are not gzip, or a limit passed, end it.
    // Files the site's latest version holds are linked, not written again.
    let known = linkable_files(
        state.store.as_ref(),
        &state.operator,
        &principal.organization.name,
        &domain,
    )
    .await;
    let (reader, progress) = body.into_blocking_reader();
    let unpacked =
        tokio::task::spawn_blocking(move || extract_site_archive(reader, &dest, limits, &known))
            .await
            .map_err(ApiError::internal)?
            .map_err(|e| {
                let error = progress.over_limit().unwrap_or_else(|| e.into());
                tracing::info!(
                    %domain,
                    bytes_read = progress.bytes_read(),
                    "upload refused: {}",
                    error.message
                );
                error
            })?;
    let version = publish(
        state.store.as_ref(),
        &state.operator,
        PublishRequest {
            organization: &principal.organization.name,
            domain: &domain,
            label: query.version.as_deref(),
            root: &unpacked.root,
            file_hashes: Some(&unpacked.hashes),
            limits,
            plugins: &state.exports.plugins,
            strict: query.strict,
            movable: true,
        },
    )
    .await?;
    Ok((StatusCode::CREATED, Json(version)))
}

/// Which file contents a publish must carry.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FilesQuestion {
    /// SHA-256 (64 lowercase hex digits) of each file of the site to publish.
    pub sha256: Vec<String>,
}

/// The contents a publish must carry.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MissingFiles {
    /// Those of the asked SHA-256s the server does not hold, in the order asked, each once:
    /// the files with these contents go in the archive, the rest only in its
    /// `.quire-files.json`.
    pub missing: Vec<String>,
}

/// Which of a site's file contents the server does not hold, so that a publish carries only
/// those. Contents are held from the site's latest version, on a server whose storage is a
/// local folder; with object storage every content is missing (send the whole site).
#[utoipa::path(
    post, path = "/v1/sites/{domain}/files/missing", tag = "sites",
    params(("domain" = String, Path, description = "The site's domain")),
    request_body = FilesQuestion,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The contents to send", body = MissingFiles),
        (status = 400, description = "A malformed SHA-256 (the message names it)", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or assistant key", body = ErrorBody),
        (status = 413, description = "More hashes than a site may have files, or too large a body", body = ErrorBody),
    )
)]
pub async fn missing_files(
    State(state): State<SharedState>,
    AdminKey(principal): AdminKey,
    Path(domain): Path<String>,
    JsonBody(question): JsonBody<FilesQuestion>,
) -> Result<Json<MissingFiles>, ApiError> {
    let max_files = state.config.publish.max_files;
    if question.sha256.len() > max_files {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!(
                "sha256: {} hashes, more than a site may have files ({max_files}, publish.max_files)",
                question.sha256.len()
            ),
        ));
    }
    if let Some((n, bad)) = question
        .sha256
        .iter()
        .enumerate()
        .find(|(_, hash)| !is_sha256_hex(hash))
    {
        return Err(ApiError::bad_request(format!(
            "sha256[{n}]: {bad:?} is not a SHA-256 (64 lowercase hex digits)"
        )));
    }
    let known = linkable_files(
        state.store.as_ref(),
        &state.operator,
        &principal.organization.name,
        &domain,
    )
    .await;
    let missing = missing_contents(&known, &question.sha256)
        .into_iter()
        .map(str::to_string)
        .collect();
    Ok(Json(MissingFiles { missing }))
}

/// The folder an upload is unpacked into, removed when the request is done. A large site is
/// tens of thousands of files, whose removal would hold up the reply and an async worker
/// thread, so it happens on a blocking thread after the reply.
struct ScratchFolder(Option<tempfile::TempDir>);

impl ScratchFolder {
    fn path(&self) -> &std::path::Path {
        self.0
            .as_ref()
            .map_or(std::path::Path::new(""), |dir| dir.path())
    }
}

impl Drop for ScratchFolder {
    fn drop(&mut self) {
        let Some(dir) = self.0.take() else { return };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn_blocking(move || drop(dir));
            }
            Err(_) => drop(dir),
        }
    }
}
