//! Search and page content for a site (REFERENCE "Search and page content"): what chat widgets
//! and search boxes call with the public assistant key.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::extract::{JsonBody, Path};
use super::{ApiError, DiscoveryCaller, ErrorBody, SharedState, with_rate_headers};
use crate::plugins::SearchFilter;
use crate::search::{SearchError, SearchRequest};
use crate::sites::SiteManifest;
use crate::storage::paths;

const DEFAULT_PAGE_SIZE: u32 = 10;
const MAX_PAGE_SIZE: u32 = 50;

/// A version and language to search within.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct FilterBody {
    pub version: Option<String>,
    pub language: Option<String>,
}

/// Body of the search endpoint.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchBody {
    /// What to search for.
    pub query: Option<String>,
    /// Results to return, 1 to 50 (default 10).
    pub page_size: Option<f64>,
    /// Drop results scoring below this share of the best result's score, 0 to 1.
    pub score_threshold: Option<f64>,
    pub filter: Option<FilterBody>,
}

/// One search result: a section of a page.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SearchResult {
    /// The section's text.
    pub content: String,
    /// The page's path (`guides/webhooks`).
    pub path: String,
    pub metadata: ResultMetadata,
}

/// About a search result.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResultMetadata {
    pub title: String,
    /// The section's heading anchor; empty for a page's opening text.
    pub anchor: String,
    pub heading_trail: Vec<String>,
    /// Relevance relative to the best result (which scores 1).
    pub score: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// Search a site's documentation.
#[utoipa::path(
    post, path = "/discovery/v1/search/{domain}", tag = "discovery",
    params(("domain" = String, Path, description = "The site's domain")),
    request_body = SearchBody,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Ranked sections, best first", body = Vec<SearchResult>),
        (status = 400, description = "Invalid body (query at most 4,000 characters)", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or admin key", body = ErrorBody),
        (status = 404, description = "Unknown site, or nothing searchable published", body = ErrorBody),
        (status = 413, description = "Body over 256 KiB (the discovery endpoints' limit)", body = ErrorBody),
        (status = 429, description = "Rate limit exceeded (Retry-After says when to try again)", body = ErrorBody),
    )
)]
pub async fn search(
    State(state): State<SharedState>,
    DiscoveryCaller { principal, rate }: DiscoveryCaller,
    Path(domain): Path<String>,
    JsonBody(body): JsonBody<SearchBody>,
) -> Result<Response, ApiError> {
    let query = body.query.unwrap_or_default();
    if query.trim().is_empty() {
        return Err(ApiError::bad_request(
            "query is required and must not be empty",
        ));
    }
    quire_answer::check_question_length("query", &query).map_err(ApiError::bad_request)?;
    let page_size = match body.page_size {
        None => DEFAULT_PAGE_SIZE,
        Some(n) if n.fract() == 0.0 && (1.0..=f64::from(MAX_PAGE_SIZE)).contains(&n) => n as u32,
        Some(n) => {
            return Err(ApiError::bad_request(format!(
                "pageSize must be a whole number from 1 to {MAX_PAGE_SIZE}; got {n}"
            )));
        }
    };
    let threshold = match body.score_threshold {
        None => 0.0,
        Some(t) if (0.0..=1.0).contains(&t) => t as f32,
        Some(t) => {
            return Err(ApiError::bad_request(format!(
                "scoreThreshold must be from 0 to 1; got {t}"
            )));
        }
    };
    let filter = body.filter.unwrap_or_default();
    let hits = state
        .search
        .search(SearchRequest {
            organization: principal.organization.name,
            domain,
            query,
            limit: page_size,
            filter: SearchFilter {
                version: filter.version,
                language: filter.language,
            },
            boost_paths: Vec::new(),
            reader: None,
        })
        .await?;
    let best = hits.first().map_or(1.0, |h| h.score).max(f32::MIN_POSITIVE);
    let results = Json(
        hits.into_iter()
            .map(|hit| (hit.score / best, hit.section))
            .filter(|(score, _)| *score >= threshold)
            .map(|(score, s)| SearchResult {
                content: s.text,
                path: s.path,
                metadata: ResultMetadata {
                    title: s.title,
                    anchor: s.anchor,
                    heading_trail: s.heading_trail,
                    score,
                    version: s.version,
                    language: s.language,
                },
            })
            .collect::<Vec<_>>(),
    );
    Ok(with_rate_headers(results.into_response(), rate))
}

/// Body of the page endpoint.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct PageBody {
    /// The page's path (`guides/webhooks`; a leading `/` or a `.md`/`.mdx` ending is fine).
    pub path: Option<String>,
}

/// A page's source.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PageContent {
    pub path: String,
    /// The page's Markdown/MDX source.
    pub content: String,
}

/// Get a page's content from the site's latest version.
#[utoipa::path(
    post, path = "/discovery/v1/page/{domain}", tag = "discovery",
    params(("domain" = String, Path, description = "The site's domain")),
    request_body = PageBody,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The page", body = PageContent),
        (status = 400, description = "Invalid body", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or admin key", body = ErrorBody),
        (status = 404, description = "No such page (body carries `message` too)", body = ErrorBody),
        (status = 429, description = "Rate limit exceeded (Retry-After says when to try again)", body = ErrorBody),
    )
)]
pub async fn page(
    State(state): State<SharedState>,
    DiscoveryCaller { principal, rate }: DiscoveryCaller,
    Path(domain): Path<String>,
    JsonBody(body): JsonBody<PageBody>,
) -> Result<Response, ApiError> {
    let raw = body.path.unwrap_or_default();
    let path = quire_core::paths::page_key(&raw).to_string();
    if path.is_empty() {
        return Err(ApiError::bad_request(
            "path is required and must not be empty",
        ));
    }
    let not_found = |message: String| {
        let body = serde_json::json!({"error": message, "message": message, "code": "not_found"});
        (StatusCode::NOT_FOUND, Json(body)).into_response()
    };
    let Some(version) = state
        .store
        .site_of(&principal.organization.name, &domain)
        .await?
        .and_then(|s| s.latest_version)
    else {
        return Ok(not_found(format!(
            "no site {domain:?} in this organization"
        )));
    };
    let manifest = SiteManifest::read(&state.operator, &domain, &version).await?;
    let Some(entry) = manifest.pages.iter().find(|p| p.path == path) else {
        return Ok(not_found(format!("no page {raw:?} in {domain:?}")));
    };
    let source = state
        .operator
        .read(&paths::version_file(&domain, &version, &entry.file))
        .await?;
    let page = Json(PageContent {
        path,
        content: String::from_utf8_lossy(&source.to_vec()).into_owned(),
    });
    Ok(with_rate_headers(page.into_response(), rate))
}

impl From<SearchError> for ApiError {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::UnknownSite(_)
            | SearchError::NothingPublished(_)
            | SearchError::NoIndex(_) => ApiError::not_found(e.to_string()),
            SearchError::IndexUnreadable { .. } | SearchError::IndexDamaged { .. } => {
                ApiError::new(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    "search_index_unreadable",
                    e.to_string(),
                )
            }
            SearchError::Store(e) => e.into(),
            e => ApiError::internal(e),
        }
    }
}
