//! The extractors handlers use, in place of axum's own: the same parsing, but every rejection
//! (body over its limit, malformed JSON, a bad query string or path) answers the API's JSON
//! error shape, naming the field or the limit, rather than axum's plain text.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::ApiError;

/// The largest body the routes below a layer accept: set beside each `DefaultBodyLimit` (as a
/// request extension) so that a 413 names the limit it enforces.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit {
    pub bytes: usize,
    /// The setting that changes it, if one does.
    pub setting: Option<&'static str>,
}

/// `Json<T>` whose rejections are API errors naming the field at fault.
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        let limit = req.extensions().get::<BodyLimit>().copied();
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Self(value)),
            Err(rejection) => {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    return Err(too_large(limit));
                }
                let status = match rejection {
                    JsonRejection::MissingJsonContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    _ => StatusCode::BAD_REQUEST,
                };
                let detail = rejection.body_text();
                let message = detail
                    .strip_prefix("Failed to deserialize the JSON body into the target type: ")
                    .map(|d| format!("invalid request body: {d}"))
                    .unwrap_or(detail);
                Err(ApiError::new(status, "invalid_request", message))
            }
        }
    }
}

/// A request body read whole, whose rejections are API errors (413 over the endpoint's limit).
pub struct BodyBytes(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for BodyBytes {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        let limit = req.extensions().get::<BodyLimit>().copied();
        match axum::body::Bytes::from_request(req, state).await {
            Ok(bytes) => Ok(Self(bytes)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(too_large(limit))
            }
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}

/// A request body read as it arrives, for work that streams it (site uploads): never held whole,
/// and cut off (413) once it passes the endpoint's limit. One that says it is larger is refused
/// before a byte is read.
pub struct StreamedBody {
    body: axum::body::Body,
    limit: Option<BodyLimit>,
}

impl<S: Send + Sync> FromRequest<S> for StreamedBody {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, _: &S) -> Result<Self, Self::Rejection> {
        let limit = req.extensions().get::<BodyLimit>().copied();
        let stated = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if let (Some(stated), Some(BodyLimit { bytes, .. })) = (stated, limit)
            && stated > bytes as u64
        {
            return Err(too_large(limit));
        }
        Ok(Self {
            body: req.into_body(),
            limit,
        })
    }
}

impl StreamedBody {
    /// A blocking reader of the body, for a `spawn_blocking` task (call this on the runtime),
    /// and what it has read so far.
    pub fn into_blocking_reader(self) -> (impl std::io::Read + Send + 'static, BodyProgress) {
        use futures::StreamExt;
        let max = self.limit.map_or(u64::MAX, |l| l.bytes as u64);
        let read = Arc::new(AtomicU64::new(0));
        let counter = read.clone();
        let stream = self.body.into_data_stream().map(move |chunk| {
            let chunk = chunk.map_err(std::io::Error::other)?;
            let seen = counter.fetch_add(chunk.len() as u64, Ordering::SeqCst) + chunk.len() as u64;
            if seen > max {
                return Err(std::io::Error::other("the request body passed the limit"));
            }
            Ok(chunk)
        });
        let reader = tokio_util::io::SyncIoBridge::new(tokio_util::io::StreamReader::new(stream));
        let progress = BodyProgress {
            read,
            max,
            limit: self.limit,
        };
        (reader, progress)
    }
}

/// How much of a streamed body was read, and whether that passed its limit.
pub struct BodyProgress {
    read: Arc<AtomicU64>,
    /// The limit in bytes (`u64::MAX` when the route sets none).
    max: u64,
    limit: Option<BodyLimit>,
}

impl BodyProgress {
    /// The bytes of the body read so far.
    pub fn bytes_read(&self) -> u64 {
        self.read.load(Ordering::SeqCst)
    }

    /// The 413 to answer if the body passed its limit.
    pub fn over_limit(&self) -> Option<ApiError> {
        (self.bytes_read() > self.max).then(|| too_large(self.limit))
    }
}

/// The query string, parsed into `T`; a malformed one (a duplicated or mistyped field) is a 400
/// naming the field.
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| Self(value))
            .map_err(|rejection| {
                let detail = rejection.body_text();
                let detail = detail
                    .strip_prefix("Failed to deserialize query string: ")
                    .unwrap_or(&detail);
                ApiError::bad_request(format!("invalid query string: {detail}"))
            })
    }
}

/// The path's parameters, parsed into `T`; one that cannot be decoded (invalid percent-encoding,
/// not UTF-8) is a 400 saying which.
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Self(value))
            .map_err(|rejection| {
                ApiError::bad_request(format!("invalid path: {}", rejection.body_text()))
            })
    }
}

/// A body cut off at the endpoint's limit (one sent without a length, or a longer one).
fn too_large(limit: Option<BodyLimit>) -> ApiError {
    let message = match limit {
        Some(BodyLimit { bytes, setting }) => {
            let size = if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
                format!("{} MiB", bytes >> 20)
            } else {
                format!("{} KiB", bytes >> 10)
            };
            let setting = setting.map(|s| format!(", set by {s}")).unwrap_or_default();
            format!(
                "the request body is larger than this endpoint accepts: at most {bytes} bytes ({size}{setting})"
            )
        }
        None => "the request body is larger than this endpoint accepts (the API description gives each limit)".to_string(),
    };
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", message)
}
