//! The API's one error type: `{"error": "...", "code": "..."}` with the right status. Every
//! module error maps onto it here, so handlers just use `?`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::auth::AuthError;
use crate::jobs::StartError;
use crate::publishing::PublishError;
use crate::sites::{ManifestError, SiteError};
use crate::storage::LinkError;
use crate::store::StoreError;

/// An error response.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// Headers the response carries besides the body (`Retry-After`, ...).
    pub headers: Vec<(&'static str, String)>,
}

/// The body of every error response.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for people.
    pub error: String,
    /// What went wrong, for programs.
    pub code: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            headers: Vec::new(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", message)
    }

    pub fn internal(message: impl std::fmt::Display) -> Self {
        tracing::error!("internal error: {message}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal server error; the server log has the details",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
            code: self.code.to_string(),
        };
        let mut response = (self.status, Json(body)).into_response();
        for (name, value) in self.headers {
            if let Ok(value) = axum::http::HeaderValue::from_str(&value) {
                response.headers_mut().insert(name, value);
            }
        }
        response
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        match e {
            AuthError::Store(e) => e.into(),
            e => Self::new(StatusCode::UNAUTHORIZED, "unauthorized", e.to_string()),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound(m) => Self::not_found(m),
            StoreError::Conflict(m) => Self::conflict(m),
            e => Self::internal(e),
        }
    }
}

impl From<StartError> for ApiError {
    fn from(e: StartError) -> Self {
        match e {
            StartError::Invalid(m) => Self::bad_request(m),
            StartError::NotFound(m) => Self::not_found(m),
            StartError::Store(e) => e.into(),
            StartError::Manifest(e) => e.into(),
        }
    }
}

impl From<SiteError> for ApiError {
    fn from(e: SiteError) -> Self {
        match e {
            SiteError::TooLarge(_) => {
                Self::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", e.to_string())
            }
            e => Self::new(StatusCode::BAD_REQUEST, "invalid_site", e.to_string()),
        }
    }
}

impl From<PublishError> for ApiError {
    fn from(e: PublishError) -> Self {
        match e {
            PublishError::Site(e) => e.into(),
            PublishError::InvalidInput(m) => Self::bad_request(m),
            PublishError::Store(e) => e.into(),
            PublishError::Storage(e) => Self::internal(e),
        }
    }
}

impl From<LinkError> for ApiError {
    fn from(e: LinkError) -> Self {
        match e {
            LinkError::Presign(m) => Self::internal(m),
            LinkError::Expired(_) => {
                Self::new(StatusCode::FORBIDDEN, "link_expired", e.to_string())
            }
            e => Self::new(StatusCode::FORBIDDEN, "link_invalid", e.to_string()),
        }
    }
}

impl From<ManifestError> for ApiError {
    fn from(e: ManifestError) -> Self {
        match e {
            ManifestError::Storage(e) => e.into(),
            e => Self::internal(e),
        }
    }
}

impl From<opendal::Error> for ApiError {
    fn from(e: opendal::Error) -> Self {
        if e.kind() == opendal::ErrorKind::NotFound {
            return Self::not_found("the file no longer exists in storage");
        }
        Self::internal(e)
    }
}
