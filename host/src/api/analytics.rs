//! Web analytics: the bundle's beacon posts page views and feedback with the site's public
//! assistant key; admins read per-page counts over a time range.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::error::{ApiError, ErrorBody};
use super::extract::{JsonBody, Path, Query};
use super::{AdminKey, DiscoveryCaller, SharedState, with_rate_headers};
use crate::store::{PageCounts, PageEvent};

/// Longest page path an event may carry.
const MAX_PATH: usize = 200;
/// Longest range one query may cover.
const MAX_RANGE_DAYS: i64 = 366;

/// One analytics event.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct EventBody {
    /// `pageview` or `feedback`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The page's path in the site (`guides/webhooks`).
    pub path: Option<String>,
    /// For `feedback`: whether the reader found the page helpful.
    pub helpful: Option<bool>,
}

/// Record a page view or feedback (what the exported site's beacon sends).
#[utoipa::path(
    post, path = "/discovery/v1/analytics/{domain}/events", tag = "analytics",
    params(("domain" = String, Path, description = "The site's domain")),
    request_body = EventBody,
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Counted"),
        (status = 400, description = "Invalid body", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or admin key", body = ErrorBody),
        (status = 404, description = "Unknown site, or analytics unavailable in this deployment", body = ErrorBody),
        (status = 429, description = "Rate limit exceeded", body = ErrorBody),
    )
)]
pub async fn record_event(
    State(state): State<SharedState>,
    DiscoveryCaller { principal, rate }: DiscoveryCaller,
    Path(domain): Path<String>,
    JsonBody(body): JsonBody<EventBody>,
) -> Result<Response, ApiError> {
    let event = match body.kind.as_deref() {
        Some("pageview") => PageEvent::View,
        Some("feedback") => match body.helpful {
            Some(helpful) => PageEvent::Feedback { helpful },
            None => {
                return Err(ApiError::bad_request(
                    "helpful (a boolean) is required for a feedback event",
                ));
            }
        },
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "type must be pageview or feedback; got {other:?}"
            )));
        }
        None => {
            return Err(ApiError::bad_request(
                "type is required (pageview or feedback)",
            ));
        }
    };
    let path = body.path.unwrap_or_default();
    let path = quire_core::paths::page_key(&path);
    if path.is_empty() && body.kind.as_deref() != Some("pageview") {
        return Err(ApiError::bad_request("path is required"));
    }
    let path = if path.is_empty() { "index" } else { path };
    if path.chars().count() > MAX_PATH || path.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "path must be at most {MAX_PATH} characters, without control characters"
        )));
    }
    state
        .store
        .site_of(&principal.organization.name, &domain)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no site {domain:?} for this key")))?;
    state
        .store
        .record_page_event(&domain, path, OffsetDateTime::now_utc(), event)
        .await?;
    Ok(with_rate_headers(
        StatusCode::NO_CONTENT.into_response(),
        rate,
    ))
}

/// The time range of a counts query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct RangeQuery {
    /// Start (RFC 3339), counted from its hour. Default: 30 days before `to`.
    pub from: Option<String>,
    /// End (RFC 3339), exclusive, to the hour. Default: now.
    pub to: Option<String>,
}

/// Per-page counts of a site.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageCountsView {
    pub domain: String,
    pub from: String,
    pub to: String,
    pub pages: Vec<PageCountView>,
}

/// One page's counts.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageCountView {
    pub path: String,
    pub views: u64,
    pub helpful: u64,
    pub not_helpful: u64,
}

impl From<PageCounts> for PageCountView {
    fn from(c: PageCounts) -> Self {
        Self {
            path: c.path,
            views: c.views,
            helpful: c.helpful,
            not_helpful: c.not_helpful,
        }
    }
}

/// Per-page views and feedback of a site over a time range (hourly resolution).
#[utoipa::path(
    get, path = "/v1/analytics/{domain}/pages", tag = "analytics",
    params(("domain" = String, Path, description = "The site's domain"), RangeQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Counts, most viewed first", body = PageCountsView),
        (status = 400, description = "Invalid range", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or assistant key", body = ErrorBody),
        (status = 404, description = "No such site in this organization", body = ErrorBody),
    )
)]
pub async fn page_counts(
    State(state): State<SharedState>,
    AdminKey(principal): AdminKey,
    Path(domain): Path<String>,
    Query(range): Query<RangeQuery>,
) -> Result<Json<PageCountsView>, ApiError> {
    let parse = |field: &str, value: &Option<String>| -> Result<Option<OffsetDateTime>, ApiError> {
        value
            .as_deref()
            .map(|v| {
                OffsetDateTime::parse(v, &Rfc3339).map_err(|_| {
                    ApiError::bad_request(format!(
                        "{field} must be an RFC 3339 date-time (2026-11-21T00:00:00Z); got {v:?}"
                    ))
                })
            })
            .transpose()
    };
    let to = parse("to", &range.to)?.unwrap_or_else(OffsetDateTime::now_utc);
    let from = parse("from", &range.from)?.unwrap_or(to - time::Duration::days(30));
    if from > to {
        return Err(ApiError::bad_request("from must not be after to"));
    }
    if to - from > time::Duration::days(MAX_RANGE_DAYS) {
        return Err(ApiError::bad_request(format!(
            "the range from..to may cover at most {MAX_RANGE_DAYS} days"
        )));
    }
    state
        .store
        .site_of(&principal.organization.name, &domain)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no site {domain:?} in this organization")))?;
    let pages = state.store.page_counts(&domain, from, to).await?;
    Ok(Json(PageCountsView {
        domain,
        from: from.format(&Rfc3339).unwrap_or_default(),
        to: to.format(&Rfc3339).unwrap_or_default(),
        pages: pages.into_iter().map(Into::into).collect(),
    }))
}
