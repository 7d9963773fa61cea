//! Request logging shared by both servers: every request gets an id (`x-request-id`, taken from
//! the caller when it sends one, else a new UUID), returned in the response, and a span that
//! carries it, so every log line written while handling the request names it, ending with one
//! access line (status and latency) per request.

use axum::Router;
use axum::http::Request;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

/// Adds request ids, request spans and metrics to `router`.
pub fn observed(router: Router) -> Router {
    router
        .layer(axum::middleware::from_fn(crate::metrics::track))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request<_>| {
                    let id = request
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!(
                        "request",
                        request_id = %id,
                        method = %request.method(),
                        path = %request.uri().path(),
                    )
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
}
