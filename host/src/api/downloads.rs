//! Self-signed bundle downloads for storage services that cannot presign (the local
//! filesystem): the link's signature and expiry are checked before the file streams.

use axum::body::Body;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use futures::TryStreamExt;
use serde::Deserialize;

use super::{ApiError, ErrorBody, SharedState};

/// The signature of a download link.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct LinkQuery {
    /// Unix time after which the link no longer works.
    pub expires: Option<String>,
    /// HMAC-SHA256 of the path and expiry, hex.
    pub signature: Option<String>,
}

/// Download a bundle through a signed link (as returned in `bundleUrl`).
#[utoipa::path(
    get, path = "/v1/downloads/{file}", tag = "static-export",
    params(("file" = String, Path, description = "The bundle's file name"), LinkQuery),
    responses(
        (status = 200, description = "The archive", content_type = "application/gzip"),
        (status = 403, description = "Expired or tampered link", body = ErrorBody),
        (status = 404, description = "No such file", body = ErrorBody),
    )
)]
pub async fn download(
    State(state): State<SharedState>,
    file: Result<Path<String>, PathRejection>,
    query: Result<Query<LinkQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    // A link that does not parse (a field given twice, a name that is not UTF-8) was not made
    // by us: refused as a tampered one is.
    let malformed = |detail: String| {
        ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "link_invalid",
            format!("the download link is malformed: {detail}"),
        )
    };
    let Path(file) = file.map_err(|rejection| malformed(rejection.body_text()))?;
    let Query(query) = query.map_err(|rejection| {
        malformed(
            rejection
                .body_text()
                .trim_start_matches("Failed to deserialize query string: ")
                .to_string(),
        )
    })?;
    let path = crate::storage::paths::bundle_named(&file);
    state
        .signer
        .verify(&path, query.expires.as_deref(), query.signature.as_deref())?;
    let meta = state.operator.stat(&path).await?;
    let reader = state.operator.reader(&path).await?;
    let stream = reader
        .into_bytes_stream(..)
        .await?
        .map_err(std::io::Error::other);
    let file_name = path
        .rsplit('/')
        .next()
        .unwrap_or("bundle.tar.gz")
        .to_string();
    let media_type = if file_name.ends_with(".zip") {
        "application/zip"
    } else {
        "application/gzip"
    };
    Ok((
        [
            (CONTENT_TYPE, media_type.to_string()),
            (CONTENT_LENGTH, meta.content_length().to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file_name}\""),
            ),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}
