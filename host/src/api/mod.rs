//! The HTTP API: one router per area, the shared state, and the OpenAPI document generated
//! from the handlers themselves (utoipa), so it cannot drift from them.

mod analytics;
mod assistant;
mod discovery;
mod downloads;
mod error;
mod extract;
mod health;
mod keys;
mod mcp;
mod sites;
mod static_export;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use opendal::Operator;
use utoipa::OpenApi;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use error::{ApiError, ErrorBody};
use extract::BodyLimit;

use crate::assistant::Assistant;
use crate::config::Config;
use crate::deployment_type::{Feature, Features};
use crate::jobs::ExportContext;
use crate::limits::{RateLimiter, RateStatus};
use crate::search::SearchService;
use crate::storage::LinkSigner;
use crate::store::SharedStore;
pub use keys::{AdminKey, DiscoveryCaller, EnterpriseKey, McpCaller};

/// What every handler can reach.
pub struct AppState {
    pub store: SharedStore,
    pub operator: Operator,
    pub signer: LinkSigner,
    pub config: Config,
    pub exports: Arc<ExportContext>,
    pub search: Arc<SearchService>,
    pub assistant: Arc<Assistant>,
    pub limits: RateLimiter,
    /// How the sites' MCP endpoints take requests.
    pub mcp: crate::mcp::HttpTransport,
}

pub type SharedState = Arc<AppState>;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Quire API",
        description = "Documentation assistant and static export API.",
    ),
    modifiers(&BearerAuth),
    tags(
        (name = "static-export", description = "Render a documentation site into a downloadable static bundle."),
        (name = "sites", description = "Publish content versions of documentation sites."),
        (name = "discovery", description = "Search a site and read its pages (assistant keys)."),
        (name = "analytics", description = "Page views and feedback from exported sites, and their counts (admin keys)."),
        (name = "operations", description = "Health and API description."),
    )
)]
struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The whole API, with `/openapi.json`.
pub fn router(state: SharedState) -> Router {
    let max_upload = state.config.server.max_upload_mib << 20;
    let (router, openapi) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(static_export::start_job))
        .routes(routes!(static_export::get_job))
        .routes(routes!(static_export::generate_bundle))
        .routes(routes!(sites::publish_version))
        .routes(routes!(sites::missing_files))
        .routes(routes!(analytics::page_counts))
        .merge(discovery_routes(Arc::new(
            state.config.deployment.features(),
        )))
        .routes(routes!(downloads::download))
        .routes(routes!(health::healthz))
        .routes(routes!(health::readyz))
        .split_for_parts();
    let openapi = Arc::new(openapi);
    let store = state.store.clone();
    let router = router
        .route(
            "/metrics",
            axum::routing::get(move || {
                let store = store.clone();
                async move {
                    // Job counts come from the store at scrape time: they are the truth.
                    if let Ok(counts) = store.job_counts().await {
                        for (status, n) in counts {
                            crate::metrics::get()
                                .jobs
                                .get_or_create(&crate::metrics::StatusLabels {
                                    status: status.name().to_string(),
                                })
                                .set(n as i64);
                        }
                    }
                    crate::metrics::response()
                }
            }),
        )
        .route(
            "/openapi.json",
            axum::routing::get(move || {
                let openapi = openapi.clone();
                async move { axum::Json(openapi.as_ref().clone()) }
            }),
        )
        .fallback(no_such_route)
        .layer(axum::middleware::from_fn(method_not_allowed_as_json))
        .layer(DefaultBodyLimit::max(max_upload))
        .layer(axum::Extension(BodyLimit {
            bytes: max_upload,
            setting: Some("server.max_upload_mib"),
        }))
        .with_state(state);
    crate::request_log::observed(router)
}

/// Answers 404 in the API's error shape for a path no endpoint serves.
async fn no_such_route(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!(
        "no endpoint at {method} {}; /openapi.json lists them",
        uri.path()
    ))
}

/// Gives the 405 axum answers for a method a route does not take the API's error shape, keeping
/// its `Allow` header. (A method-not-allowed fallback would replace the routes' own fallbacks,
/// and with them the CORS layer that answers the discovery endpoints' preflight requests.)
async fn method_not_allowed_as_json(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let response = next.run(request).await;
    if response.status() != StatusCode::METHOD_NOT_ALLOWED {
        return response;
    }
    let (parts, _) = response.into_parts();
    let mut answer = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{path} does not take {method}"),
    )
    .into_response();
    if let Some(allow) = parts.headers.get(axum::http::header::ALLOW) {
        answer
            .headers_mut()
            .insert(axum::http::header::ALLOW, allow.clone());
    }
    answer
}

/// The endpoints public assistant keys use. Docs sites call them from the reader's browser, on
/// their own origin, so they answer cross-origin requests; the admin endpoints do not (admin
/// keys never belong in a browser).
fn discovery_routes(features: Arc<Features>) -> OpenApiRouter<SharedState> {
    let cors = tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([axum::http::Method::GET, axum::http::Method::POST])
        .allow_headers([
            axum::http::header::AUTHORIZATION,
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderName::from_static("mcp-protocol-version"),
            axum::http::HeaderName::from_static("mcp-session-id"),
            axum::http::HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            axum::http::HeaderName::from_static("mcp-session-id"),
            axum::http::HeaderName::from_static("x-thread-id"),
            axum::http::HeaderName::from_static("x-ratelimit-limit"),
            axum::http::HeaderName::from_static("x-ratelimit-remaining"),
            axum::http::header::RETRY_AFTER,
        ]);
    OpenApiRouter::new()
        .routes(routes!(discovery::search))
        .routes(routes!(discovery::page))
        .routes(routes!(assistant::message_v1))
        .routes(routes!(assistant::message_v2))
        .routes(routes!(analytics::record_event))
        .route("/mcp/{domain}", axum::routing::any(mcp::serve))
        .layer(axum::middleware::from_fn_with_state(
            features.clone(),
            require_feature,
        ))
        .layer(axum::middleware::from_fn(refuse_large_bodies))
        // Bodies without a length are cut at the same size (and answered 413 by the extractor).
        .layer(DefaultBodyLimit::max(DISCOVERY_BODY_LIMIT))
        .layer(axum::Extension(BodyLimit {
            bytes: DISCOVERY_BODY_LIMIT,
            setting: None,
        }))
        .layer(cors)
}

/// How the API host's MCP endpoints take requests: the discovery endpoints' body limit, and
/// the `Host`s of loopback, `server.public_url` and `mcp.allowed_hosts`.
pub fn mcp_transport(config: &Config) -> crate::mcp::HttpTransport {
    let mut hosts = config.mcp.allowed_hosts.clone();
    hosts.extend(
        config
            .server
            .public_url
            .as_deref()
            .and_then(crate::mcp::host_of),
    );
    crate::mcp::HttpTransport::new(&hosts, DISCOVERY_BODY_LIMIT)
}

/// The largest request body the discovery endpoints accept: far below the upload limit, as
/// their key is public. A question (4,000 characters), a long history and context fit.
pub const DISCOVERY_BODY_LIMIT: usize = 256 << 10;

/// Answers 413, naming the limit, for a discovery request that says it is larger than
/// `DISCOVERY_BODY_LIMIT`, before reading it.
async fn refuse_large_bodies(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let length = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match length {
        Some(length) if length > DISCOVERY_BODY_LIMIT as u64 => ApiError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!(
                "the request body is {length} bytes; the discovery endpoints accept at most {DISCOVERY_BODY_LIMIT} ({} KiB)",
                DISCOVERY_BODY_LIMIT >> 10
            ),
        )
        .into_response(),
        _ => next.run(request).await,
    }
}

/// Answers 404 for the endpoints of a feature the deployment type leaves out (search and the
/// assistant in an air-gapped deployment), before anything else is looked at.
async fn require_feature(
    axum::extract::State(features): axum::extract::State<Arc<Features>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let path = request.uri().path();
    let feature = if path.starts_with("/discovery/v1/assistant/")
        || path.starts_with("/discovery/v2/assistant/")
    {
        Feature::Assistant
    } else if path.starts_with("/discovery/v1/analytics/") {
        Feature::Analytics
    } else {
        Feature::Search
    };
    if features.enabled(feature) {
        return next.run(request).await;
    }
    let what = match feature {
        Feature::Assistant => "the assistant",
        Feature::Analytics => "web analytics",
        _ => "the search API",
    };
    ApiError::new(
        StatusCode::NOT_FOUND,
        "feature_unavailable",
        format!(
            "{what} is unavailable in this deployment type ({})",
            features.deployment
        ),
    )
    .into_response()
}

/// `X-RateLimit-*` headers for a status.
fn rate_headers(status: RateStatus) -> Vec<(&'static str, String)> {
    vec![
        ("x-ratelimit-limit", status.limit.to_string()),
        ("x-ratelimit-remaining", status.remaining.to_string()),
        ("x-ratelimit-reset", status.reset_after.to_string()),
    ]
}

/// Adds the `X-RateLimit-*` headers to a response.
fn with_rate_headers(
    mut response: axum::response::Response,
    status: RateStatus,
) -> axum::response::Response {
    for (name, value) in rate_headers(status) {
        if let Ok(value) = axum::http::HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
    response
}
