//! Serving the active version: extensionless URLs resolve to `.html` (the sitemap's canonical
//! URLs work), folders to their `index.html`, anything else to the bundle's `404.html` with
//! status 404. Every file has its SHA-256 from the manifest as ETag; HTML and other files with
//! stable names are revalidated on each use (`no-cache`), files with a content hash in their name
//! are cached for a year. `quire-features.js` is written by the server from its deployment type.
//! A path the bundle's redirect table (docs.json `redirects`) names is answered with 308 (or
//! 307 for a rule that is not permanent) before any file. An air-gapped server sends a
//! Content-Security-Policy that keeps pages from loading anything from off the server. `/mcp` is
//! the bundle's MCP endpoint for agents (`crate::mcp`), where the deployment type has one.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::DocsState;

/// What an air-gapped docs server allows its pages: everything from itself (inline scripts and
/// styles included, the theme uses them), images and fonts as data, WebAssembly compiled from
/// the bundle's own bytes (its assistant), nothing from elsewhere. The browser then makes no
/// request off the bundle, whatever a page's content names.
const SAME_ORIGIN_ONLY: &str = "default-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' blob:; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'";

/// The policy for `features`: none but for air-gapped deployments, where pages may reach other
/// hosts only through the API playground, when an operator switches it on (its "Try it" calls
/// their API).
pub fn content_security_policy(features: &crate::deployment_type::Features) -> Option<HeaderValue> {
    if features.deployment != crate::deployment_type::DeploymentType::AirGapped {
        return None;
    }
    let connect = if features.playground {
        "connect-src *"
    } else {
        "connect-src 'self'"
    };
    HeaderValue::from_str(&format!("{SAME_ORIGIN_ONLY}; {connect}")).ok()
}

/// The docs server's routes.
pub fn router(state: Arc<DocsState>) -> Router {
    let policy = state.content_security_policy.clone();
    let router = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(|| async { crate::metrics::response() }))
        .route(super::MCP_PATH, axum::routing::any(mcp))
        .fallback(get(serve_file))
        .layer(axum::middleware::map_response(
            move |mut response: Response| {
                let policy = policy.clone();
                async move {
                    if let Some(policy) = policy {
                        response
                            .headers_mut()
                            .insert(header::CONTENT_SECURITY_POLICY, policy);
                    }
                    response
                }
            },
        ))
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state);
    crate::request_log::observed(router)
}

/// The served bundle's MCP endpoint; 404 where the deployment has none.
async fn mcp(State(state): State<Arc<DocsState>>, request: axum::extract::Request) -> Response {
    match &state.mcp {
        Some(endpoint) => endpoint.transport.serve(endpoint.site.clone(), request).await,
        None => (
            StatusCode::NOT_FOUND,
            axum::Json(serde_json::json!({
                "error": "this docs server has no MCP endpoint (its deployment switches it off, or its bundle predates it)"
            })),
        )
            .into_response(),
    }
}

async fn readyz(State(state): State<Arc<DocsState>>) -> Response {
    match state.versions.active() {
        Some(active) => axum::Json(serde_json::json!({"status": "ready", "version": active.label}))
            .into_response(),
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            axum::Json(serde_json::json!({
                "status": "not ready",
                "reason": state.problem.clone().unwrap_or_else(|| "no version has been installed yet".into()),
            })),
        )
            .into_response(),
    }
}

async fn serve_file(State(state): State<Arc<DocsState>>, uri: Uri, headers: HeaderMap) -> Response {
    let Some(active) = state.versions.active() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "No documentation version is installed yet.\n",
        )
            .into_response();
    };
    let path = percent_decode(uri.path());
    if let Some((destination, permanent)) = active.redirects.resolve(&path) {
        return redirect(&destination, permanent, uri.query());
    }
    let Some(relative) = clean(&path) else {
        return not_found(&active.dir).await;
    };
    if relative == crate::bundle::FEATURES_FILE {
        return script(state.features_script.clone());
    }
    if relative == crate::bundle::LLMS_INDEX_FILE
        && let Some(index) = &state.llms_index
    {
        return (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            index.clone(),
        )
            .into_response();
    }
    let Some((file, key)) = resolve(&active.dir, &relative).await else {
        return not_found(&active.dir).await;
    };
    let etag = active.hashes.get(&key).map(|sha| format!("\"{sha}\""));
    if let (Some(etag), Some(sent)) = (&etag, headers.get(header::IF_NONE_MATCH))
        && sent
            .to_str()
            .is_ok_and(|s| s.split(',').any(|t| t.trim() == etag))
    {
        let mut response = StatusCode::NOT_MODIFIED.into_response();
        set_caching(response.headers_mut(), &key, Some(etag));
        return response;
    }
    match tokio::fs::read(&file).await {
        Ok(bytes) => {
            let mut response = Response::new(Body::from(bytes));
            let mime = mime_guess::from_path(&file).first_or_octet_stream();
            let content_type = match mime.type_() {
                mime_guess::mime::TEXT => format!("{mime}; charset=utf-8"),
                _ if mime.subtype() == "javascript" || mime.subtype() == "json" => {
                    format!("{mime}; charset=utf-8")
                }
                _ => mime.to_string(),
            };
            if let Ok(value) = HeaderValue::from_str(&content_type) {
                response.headers_mut().insert(header::CONTENT_TYPE, value);
            }
            set_caching(response.headers_mut(), &key, etag.as_deref());
            response
        }
        Err(_) => not_found(&active.dir).await,
    }
}

/// A redirect from the bundle's table: 308 when every rule on the way is permanent, else 307
/// (both keep the method); the request's query goes along unless the destination has one.
fn redirect(destination: &str, permanent: bool, query: Option<&str>) -> Response {
    let status = if permanent {
        StatusCode::PERMANENT_REDIRECT
    } else {
        StatusCode::TEMPORARY_REDIRECT
    };
    let location = match query {
        Some(query) if !destination.contains('?') && !destination.contains('#') => {
            format!("{destination}?{query}")
        }
        _ => destination.to_string(),
    };
    match HeaderValue::from_str(&location) {
        Ok(value) => (status, [(header::LOCATION, value)]).into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

fn script(body: String) -> Response {
    let mut response = Response::new(Body::from(body));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn set_caching(headers: &mut HeaderMap, key: &str, etag: Option<&str>) {
    let policy = if has_content_hash(key) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    if let Some(value) = etag.and_then(|e| HeaderValue::from_str(e).ok()) {
        headers.insert(header::ETAG, value);
    }
}

/// `name.0123abcd.css`: a name part of 8 or more hex digits marks a content-addressed file.
fn has_content_hash(key: &str) -> bool {
    let name = key.rsplit('/').next().unwrap_or(key);
    name.split('.')
        .skip(1)
        .any(|part| part.len() >= 8 && part.chars().all(|c| c.is_ascii_hexdigit()))
}

async fn not_found(dir: &Path) -> Response {
    let body = tokio::fs::read(dir.join("404.html"))
        .await
        .unwrap_or_else(|_| {
            b"<!doctype html><title>Not found</title><h1>Page not found</h1>".to_vec()
        });
    let mut response = (StatusCode::NOT_FOUND, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// The request path as a relative path inside the bundle, or `None` if it tries to leave it.
fn clean(path: &str) -> Option<String> {
    let mut parts = Vec::new();
    for component in Path::new(path.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?.to_string()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    let mut joined = parts.join("/");
    if path.ends_with('/') && !joined.is_empty() {
        joined.push('/');
    }
    Some(joined)
}

/// The file for a clean request path: itself, `PATH.html`, or `PATH/index.html`; with its key
/// in the manifest.
async fn resolve(dir: &Path, relative: &str) -> Option<(PathBuf, String)> {
    let base = relative.trim_end_matches('/');
    let candidates = if base.is_empty() {
        vec!["index.html".to_string()]
    } else if relative.ends_with('/') {
        vec![format!("{base}/index.html")]
    } else {
        vec![
            base.to_string(),
            format!("{base}.html"),
            format!("{base}/index.html"),
        ]
    };
    for key in candidates {
        let file = dir.join(&key);
        if tokio::fs::metadata(&file).await.is_ok_and(|m| m.is_file()) {
            return Some((file, key));
        }
    }
    None
}

fn percent_decode(path: &str) -> String {
    percent_encoding::percent_decode_str(path)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_and_hashes_are_recognised() {
        assert_eq!(
            clean("/guides/webhooks").as_deref(),
            Some("guides/webhooks")
        );
        assert_eq!(clean("/guides/").as_deref(), Some("guides/"));
        assert_eq!(clean("/").as_deref(), Some(""));
        assert_eq!(clean("/a/../../etc/passwd"), None);
        assert!(has_content_hash("assets/quire.0123abcd.css"));
        assert!(!has_content_hash("assets/quire.css"));
        assert!(!has_content_hash("search/t12.js"));
    }
}
