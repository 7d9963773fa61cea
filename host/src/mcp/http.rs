//! MCP over Streamable HTTP, stateless: each POST is answered by a fresh server for the site it
//! names, so any replica answers any request and no session outlives it (the transport's
//! stateless mode; clients of the 2025-06-18 and 2025-11-25 protocol versions work unchanged).
//! The API host and the docs server both serve through here.

use std::sync::Arc;

use axum::body::Body;
use axum::http::header::{ALLOW, CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderValue, Method, Request, Response, StatusCode};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::direct::DirectPath;
use super::library::DocsLibrary;
use super::server::DocsMcp;

/// How an MCP endpoint takes requests.
#[derive(Clone)]
pub struct HttpTransport {
    config: StreamableHttpServerConfig,
    /// Answers `tools/call search` without the SDK; `None` in tests that compare the two.
    direct: Option<DirectPath>,
    max_body_bytes: usize,
}

impl HttpTransport {
    /// Answers requests whose `Host` is a loopback name or one of `allowed_hosts` (`*` takes
    /// any), with bodies of at most `max_body_bytes`.
    pub fn new(allowed_hosts: &[String], max_body_bytes: usize) -> Self {
        let config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_max_request_body_bytes(max_body_bytes);
        let config = if allowed_hosts.iter().any(|h| h == "*") {
            config.disable_allowed_hosts()
        } else {
            let mut hosts = config.allowed_hosts.clone();
            hosts.extend(allowed_hosts.iter().cloned());
            config.with_allowed_hosts(hosts)
        };
        Self {
            direct: Some(DirectPath::new(config.allowed_hosts.clone())),
            config,
            max_body_bytes,
        }
    }

    /// The same transport with every request answered by the SDK, to hold the direct path's
    /// answers to the SDK's.
    #[cfg(test)]
    pub(super) fn sdk_only(mut self) -> Self {
        self.direct = None;
        self
    }

    /// Answers one HTTP request to the MCP endpoint of `library`'s site. Whatever the request
    /// gets wrong is answered as a JSON-RPC error: a body that is not JSON (-32700), one that is
    /// not a JSON-RPC message or breaks the transport's rules (-32600), with the transport's
    /// HTTP status.
    pub async fn serve(
        &self,
        library: Arc<dyn DocsLibrary>,
        request: Request<Body>,
    ) -> Response<Body> {
        let (parts, body) = request.into_parts();
        let body = if parts.method == Method::POST {
            let Ok(bytes) = axum::body::to_bytes(body, self.max_body_bytes).await else {
                return json_rpc_error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    INVALID_REQUEST,
                    &format!("the request body is over {} bytes", self.max_body_bytes),
                );
            };
            if let Some(direct) = &self.direct
                && let Some(answer) = direct.answer(&parts, &bytes, &library).await
            {
                crate::metrics::count_outcome(&crate::metrics::get().mcp_requests, "direct");
                return answer;
            }
            if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
                return json_rpc_error(
                    StatusCode::BAD_REQUEST,
                    PARSE_ERROR,
                    &format!("Parse error: the body is not JSON ({e})"),
                );
            }
            Body::from(bytes)
        } else {
            body
        };
        crate::metrics::count_outcome(&crate::metrics::get().mcp_requests, "sdk");
        let service = StreamableHttpService::new(
            move || Ok(DocsMcp::new(library.clone())),
            Arc::new(NeverSessionManager::default()),
            self.config.clone(),
        );
        let response = service.handle(Request::from_parts(parts, body)).await;
        let is_json = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if !response.status().is_client_error() || is_json {
            return response.map(Body::new);
        }
        // The transport's own refusals are plain text; clients parse JSON-RPC.
        let (parts, body) = response.into_parts();
        let text = axum::body::to_bytes(Body::new(body), 64 << 10)
            .await
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let mut answer = json_rpc_error(parts.status, INVALID_REQUEST, text.trim());
        for name in [ALLOW, WWW_AUTHENTICATE] {
            if let Some(value) = parts.headers.get(&name) {
                answer.headers_mut().insert(name, value.clone());
            }
        }
        answer
    }
}

/// JSON-RPC's codes for a body that is not JSON and one that is not a valid request.
const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;

/// A JSON-RPC error response with no request id, sent with `status`.
fn json_rpc_error(status: StatusCode, code: i32, message: &str) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": code, "message": message},
    });
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// The host (and port, if any) of `url`, for the hosts an endpoint answers.
pub fn host_of(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::host_of;

    #[test]
    fn hosts_of_urls() {
        assert_eq!(
            host_of("https://api.acme.test/x").as_deref(),
            Some("api.acme.test")
        );
        assert_eq!(
            host_of("http://127.0.0.1:8080").as_deref(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(host_of("https://").as_deref(), None);
    }
}
