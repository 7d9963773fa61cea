//! Publishing over HTTP: a CI pipeline uploads a `.tar.gz` of its site folder.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;

use super::extract::{Path, Query, StreamedBody};
use super::{AdminKey, ApiError, ErrorBody, SharedState};
use crate::publishing::{PublishRequest, linkable_files, publish};
use crate::sites::{SiteLimits, extract_site_archive};
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
/// `mint.json` at the top, or inside one top-level folder).
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
    let workdir = ScratchFolder(Some(tempfile::tempdir().map_err(ApiError::internal)?));
    let dest = workdir.path().to_path_buf();
    // Unpacked as it arrives: the first bytes that are not gzip, or a limit passed, end it.
    // Files the site's latest version holds are linked, not written again.
    let known = linkable_files(state.store.as_ref(), &state.operator, &domain).await;
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
        },
    )
    .await?;
    Ok((StatusCode::CREATED, Json(version)))
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
