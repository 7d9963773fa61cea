//! The hot path of an MCP endpoint over HTTP: a stateless `tools/call` of `search`, the call
//! agents make most, answered without the SDK's per-request machinery (a service, a transport,
//! a spawned task and the message parsed into maps, for one request and one answer). Measured
//! in BENCHMARKS.md, that machinery made an MCP search cost about 1.5 times a search request.
//!
//! It answers only a request it can answer exactly as the SDK would (a unit test holds the two
//! answers equal): a JSON POST from an allowed host and no `Origin`, of a protocol version that
//! needs no per-request metadata, calling `search` with arguments that parse and succeed.
//! Everything else (other methods, other tools, `_meta`, bad arguments, a tool error, any header
//! out of the ordinary) goes to the SDK, which validates and answers it.

use std::sync::Arc;

use axum::body::Body;
use axum::http::header::{ACCEPT, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Response};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::library::DocsLibrary;
use super::search_answer;
use super::server::{SearchArguments, search_docs};

/// Protocol versions whose `tools/call` the direct path answers: those that send the
/// `MCP-Protocol-Version` header and need neither request `_meta` nor the standard headers of
/// later versions, and whose results carry no `resultType`.
const DIRECT_VERSIONS: [&str; 2] = ["2025-06-18", "2025-11-25"];

/// The headers of later protocol versions that the SDK checks against the body.
const STANDARD_HEADERS: [&str; 2] = ["mcp-method", "mcp-name"];

/// A JSON-RPC request as the direct path takes it: any other member sends it to the SDK.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Call<'a> {
    jsonrpc: &'a str,
    #[serde(borrow)]
    id: &'a RawValue,
    method: &'a str,
    #[serde(borrow)]
    params: ToolCall<'a>,
}

/// `tools/call`'s parameters, without `_meta` or a task; arguments that are not `search`'s
/// send the request to the SDK too.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolCall<'a> {
    name: &'a str,
    arguments: SearchArguments,
}

/// Which requests the direct path may answer: from the hosts the SDK allows.
#[derive(Clone)]
pub(super) struct DirectPath {
    /// Allowed `Host`s as the transport holds them (a name, or a name and port); empty when
    /// any host is allowed.
    allowed_hosts: Vec<String>,
}

impl DirectPath {
    pub(super) fn new(allowed_hosts: Vec<String>) -> Self {
        Self { allowed_hosts }
    }

    /// The answer to `body`, when it is a `tools/call` of `search` that this path answers as the
    /// SDK would; `None` sends the request on to the SDK.
    pub(super) async fn answer(
        &self,
        parts: &Parts,
        body: &[u8],
        library: &Arc<dyn DocsLibrary>,
    ) -> Option<Response<Body>> {
        if !self.headers_are_plain(&parts.headers) {
            return None;
        }
        let call: Call = serde_json::from_slice(body).ok()?;
        if call.jsonrpc != "2.0"
            || call.method != "tools/call"
            || call.params.name != "search"
            || !is_request_id(call.id)
        {
            return None;
        }
        let results = search_docs(library.as_ref(), call.params.arguments)
            .await
            .ok()?;
        let mut response =
            Response::new(Body::from(search_answer::answer(call.id, &results.results)));
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        Some(response)
    }

    /// Whether the headers are those of an ordinary request the SDK would take: JSON in, JSON
    /// and event streams accepted, a known protocol version, an allowed host, no `Origin` and
    /// none of the headers the SDK checks against the body.
    fn headers_are_plain(&self, headers: &HeaderMap) -> bool {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let json_body = text(CONTENT_TYPE.as_str()).is_some_and(|v| {
            let essence = v.split(';').next().unwrap_or_default().trim();
            essence.eq_ignore_ascii_case("application/json")
        });
        let accepts = |wanted: &str| {
            headers.get_all(ACCEPT).iter().any(|value| {
                value.to_str().is_ok_and(|v| {
                    v.split(',').any(|media| {
                        let essence = media.split(';').next().unwrap_or_default().trim();
                        essence.eq_ignore_ascii_case(wanted)
                    })
                })
            })
        };
        let version = text("mcp-protocol-version").is_some_and(|v| DIRECT_VERSIONS.contains(&v));
        json_body
            && accepts("application/json")
            && accepts("text/event-stream")
            && version
            && !headers.contains_key(ORIGIN)
            && !STANDARD_HEADERS.iter().any(|h| headers.contains_key(*h))
            && text(HOST.as_str()).is_some_and(|host| self.host_is_allowed(host))
    }

    /// Whether `host` (a `Host` header) is one the transport allows: a listed name with any
    /// port, or a listed name and port exactly. Anything less plain goes to the SDK's check.
    fn host_is_allowed(&self, host: &str) -> bool {
        if self.allowed_hosts.is_empty() {
            return true;
        }
        let Ok(authority) = host.parse::<axum::http::uri::Authority>() else {
            return false;
        };
        let name = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        self.allowed_hosts.iter().any(|allowed| {
            allowed.eq_ignore_ascii_case(name) || allowed.eq_ignore_ascii_case(authority.as_str())
        })
    }
}

/// Whether `id` is a JSON-RPC request id: a string or an integer.
fn is_request_id(id: &RawValue) -> bool {
    let id = id.get();
    id.starts_with('"') || (!id.is_empty() && id.parse::<i64>().is_ok())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::body::Body;
    use axum::http::Request;
    use serde_json::{Value, json};

    use crate::mcp::HttpTransport;
    use crate::mcp::library::{
        DocsLibrary, LibraryError, LibraryQuery, PageListing, PageMarkdown, SearchHit, SiteIdentity,
    };

    /// A site of three sections, the first two in version v2.
    struct Sections(SiteIdentity);

    #[async_trait::async_trait]
    impl DocsLibrary for Sections {
        fn site(&self) -> &SiteIdentity {
            &self.0
        }

        async fn search(&self, query: LibraryQuery) -> Result<Vec<SearchHit>, LibraryError> {
            let hit = |n: usize, version: Option<&str>| SearchHit {
                title: format!("Page {n}"),
                heading_trail: vec![format!("Page {n}"), "Setup \"quoted\" ✓".into()],
                url: self.0.page_url(&format!("guides/p{n}"), "setup"),
                path: format!("guides/p{n}"),
                text: format!(
                    "Section {n} about {}.\n\n```sh\nrun --flag\n```",
                    query.text
                ),
                version: version.map(str::to_string),
                language: None,
            };
            Ok([hit(1, Some("v2")), hit(2, Some("v2")), hit(3, None)]
                .into_iter()
                .filter(|h| query.version.is_none() || h.version == query.version)
                .take(query.limit as usize)
                .collect())
        }

        async fn pages(&self) -> Result<Vec<PageListing>, LibraryError> {
            Ok(Vec::new())
        }

        async fn page(&self, path: &str) -> Result<PageMarkdown, LibraryError> {
            Err(LibraryError::NoSuchPage {
                asked: path.to_string(),
                close: Vec::new(),
            })
        }
    }

    fn library() -> Arc<dyn DocsLibrary> {
        Arc::new(Sections(SiteIdentity {
            name: "Acme".into(),
            domain: "docs.acme.test".into(),
            base_url: "https://docs.acme.test".into(),
        }))
    }

    async fn post(transport: &HttpTransport, version: &str, body: &str) -> (u16, Value) {
        let request = Request::post("/mcp/docs.acme.test")
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", version)
            .body(Body::from(body.to_string()))
            .expect("request");
        let response = transport.serve(library(), request).await;
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        (status, serde_json::from_slice(&bytes).expect("JSON"))
    }

    #[tokio::test]
    async fn the_direct_path_answers_as_the_sdk_does() {
        let direct = HttpTransport::new(&[], 1 << 20);
        let sdk = HttpTransport::new(&[], 1 << 20).sdk_only();
        let calls = [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "search", "arguments": {"query": "install"}}}),
            json!({"jsonrpc": "2.0", "id": "a\"b", "method": "tools/call",
                   "params": {"name": "search",
                              "arguments": {"query": " webhooks ", "version": "v2", "pageSize": 1}}}),
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                   "params": {"name": "search", "arguments": {"query": "none", "version": "v9"}}}),
            // Not the direct path's: the SDK answers both transports.
            json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
                   "params": {"name": "search", "arguments": {"query": ""}}}),
            json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                   "params": {"name": "search", "arguments": {"query": "x", "pageSize": 99}}}),
            json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
                   "params": {"name": "search", "arguments": {"query": "x"},
                              "_meta": {"progressToken": 1}}}),
            json!({"jsonrpc": "2.0", "id": 11, "method": "tools/list"}),
        ];
        let path = super::DirectPath::new(Vec::new());
        for version in ["2025-06-18", "2025-11-25", "2025-03-26"] {
            for (n, call) in calls.iter().enumerate() {
                let request = Request::post("/mcp/docs.acme.test")
                    .header("host", "localhost")
                    .header("content-type", "application/json")
                    .header("accept", "text/event-stream, application/json")
                    .header("mcp-protocol-version", version)
                    .body(())
                    .expect("request");
                let (parts, ()) = request.into_parts();
                let taken = path
                    .answer(&parts, call.to_string().as_bytes(), &library())
                    .await
                    .is_some();
                assert_eq!(taken, n < 3 && version != "2025-03-26", "{version}: {call}");
                let body = call.to_string();
                let ours = post(&direct, version, &body).await;
                let theirs = post(&sdk, version, &body).await;
                assert_eq!(ours, theirs, "{version}: {body}");
                assert_eq!(ours.0, 200, "{body}");
            }
        }
        let (_, answer) = post(&direct, "2025-11-25", &calls[1].to_string()).await;
        assert_eq!(answer["id"], "a\"b");
        assert_eq!(
            answer["result"]["structuredContent"]["results"][0]["path"],
            "guides/p1"
        );
    }

    #[test]
    fn request_ids_are_strings_and_integers() {
        let id = |text: &str| serde_json::from_str::<Box<serde_json::value::RawValue>>(text);
        for good in ["1", "-3", "\"x\""] {
            assert!(super::is_request_id(&id(good).expect("JSON")), "{good}");
        }
        for bad in ["1.5", "null", "{}", "[1]", "true"] {
            assert!(!super::is_request_id(&id(bad).expect("JSON")), "{bad}");
        }
    }
}
