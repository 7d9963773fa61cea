//! The v1 assistant endpoint: validation (every rule of the request's fields gives a 400 naming
//! the field), sent in-process; key kinds, thread rules and the stream itself, over a real
//! socket.

use crate::common;

use crate::common::{Instance, Server};
use serde_json::{Value, json};

struct World {
    _instance: Instance,
    server: Server,
    key: String,
    admin: String,
    revoked: String,
    rival: String,
}

fn world() -> World {
    world_with("")
}

fn world_with(config: &str) -> World {
    let (instance, keys) = accounts(config);
    let server = instance.start();
    World {
        _instance: instance,
        server,
        key: keys.key,
        admin: keys.admin,
        revoked: keys.revoked,
        rival: keys.rival,
    }
}

/// The keys of [`accounts`].
struct Keys {
    key: String,
    admin: String,
    revoked: String,
    rival: String,
}

/// Two organizations with the example site each, and keys of every kind: an assistant key and
/// an admin key of `acme`, a revoked assistant key, and `rival`'s assistant key.
fn accounts(config: &str) -> (Instance, Keys) {
    let instance = Instance::new(config);
    let admin = instance.organization("acme", "pro");
    let key = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let revoked = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    instance.cli_ok(&["key", "revoke", &revoked]);
    instance.organization("rival", "pro");
    let rival = instance.cli_ok(&["key", "create", "--org", "rival", "--kind", "assistant"]);
    let site = common::example_site();
    let site = site.to_str().unwrap();
    instance.publish_folder("docs.acme.test", site, "acme", None);
    instance.publish_folder("docs.rival.test", site, "rival", None);
    let keys = Keys {
        key,
        admin,
        revoked,
        rival,
    };
    (instance, keys)
}

/// A request to the v1 endpoint of `domain`, sent in-process.
fn message_request(key: &str, domain: &str, body: String) -> axum::http::Request<axum::body::Body> {
    axum::http::Request::post(format!("/discovery/v1/assistant/{domain}/message"))
        .header("authorization", format!("Bearer {key}"))
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body))
        .expect("request")
}

fn user(text: &str) -> Value {
    json!({"id": "u1", "role": "user", "content": text, "parts": [{"type": "text", "text": text}]})
}

/// Posts to the v1 endpoint and returns status, headers and body text.
async fn ask(
    base: &str,
    key: Option<&str>,
    domain: &str,
    body: &Value,
) -> (u16, reqwest::header::HeaderMap, String) {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/discovery/v1/assistant/{domain}/message"))
        .json(body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap_or_default())
}

fn parts(stream: &str) -> Vec<(char, Value)> {
    stream
        .lines()
        .map(|line| {
            let (code, json) = line.split_once(':').expect("CODE:JSON");
            (
                code.chars().next().unwrap(),
                serde_json::from_str(json).expect("JSON part"),
            )
        })
        .collect()
}

#[tokio::test]
async fn every_validation_rule_answers_400_naming_the_field() {
    let (instance, keys) = accounts("");
    let api = instance.in_process().await;
    let text_part = |p: Value| json!({"fp": "a", "messages": [{"id": "1", "role": "assistant", "content": "", "parts": [p]}, user("q")]});
    let cases = vec![
        (json!([1, 2]), "the request body must be an object"),
        (json!({"messages": [user("q")]}), "fp is required"),
        (
            json!({"fp": 7, "messages": [user("q")]}),
            "fp must be a string",
        ),
        (
            json!({"fp": "", "messages": [user("q")]}),
            "fp must not be empty",
        ),
        (json!({"fp": "a"}), "messages is required"),
        (
            json!({"fp": "a", "messages": {}}),
            "messages must be an array",
        ),
        (
            json!({"fp": "a", "messages": []}),
            "at least one user message",
        ),
        (
            json!({"fp": "a", "messages": [{"role": "user", "content": "q", "parts": []}]}),
            "messages[0].id is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "content": "q", "parts": []}]}),
            "messages[0].role is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "bot", "content": "q", "parts": []}]}),
            "messages[0].role must be one of",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "parts": []}]}),
            "messages[0].content is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q"}]}),
            "messages[0].parts is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "createdAt": "soon"}]}),
            "messages[0].createdAt",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "annotations": {}}]}),
            "messages[0].annotations must be an array",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "experimental_attachments": [{"name": "x"}]}]}),
            "experimental_attachments[0].url is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "experimental_attachments": [{"url": "u", "contentType": 1}]}]}),
            "experimental_attachments[0].contentType must be a string",
        ),
        (
            text_part(json!({"type": "video"})),
            "messages[0].parts[0].type must be one of",
        ),
        (
            text_part(json!({"type": "text"})),
            "messages[0].parts[0].text is required",
        ),
        (
            text_part(json!({"type": "reasoning", "details": []})),
            "parts[0].reasoning is required",
        ),
        (
            text_part(json!({"type": "reasoning", "reasoning": "r"})),
            "parts[0].details is required",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "text"}]}),
            ),
            "details[0].text is required",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "text", "text": "t", "signature": 1}]}),
            ),
            "details[0].signature must be a string",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "redacted"}]}),
            ),
            "details[0].data is required",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "secret"}]}),
            ),
            "details[0].type must be text or redacted",
        ),
        (
            text_part(json!({"type": "source"})),
            "parts[0].source is required",
        ),
        (
            text_part(
                json!({"type": "source", "source": {"sourceType": "file", "id": "s", "url": "u"}}),
            ),
            "source.sourceType must be \"url\"",
        ),
        (
            text_part(json!({"type": "source", "source": {"sourceType": "url", "url": "u"}})),
            "source.id is required",
        ),
        (
            text_part(json!({"type": "source", "source": {"sourceType": "url", "id": "s"}})),
            "source.url is required",
        ),
        (
            text_part(json!({"type": "tool-invocation"})),
            "parts[0].toolInvocation is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "done", "toolCallId": "c", "toolName": "t", "args": {}}}),
            ),
            "toolInvocation.state must be one of",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolName": "t", "args": {}}}),
            ),
            "toolInvocation.toolCallId is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c", "args": {}}}),
            ),
            "toolInvocation.toolName is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c", "toolName": "t"}}),
            ),
            "toolInvocation.args is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c", "toolName": "t", "args": {}, "step": "one"}}),
            ),
            "toolInvocation.step must be a number",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "c", "toolName": "t", "args": {}}}),
            ),
            "toolInvocation.result is required",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "threadId": 5}),
            "threadId must be a string",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": 0}),
            "retrievalPageSize must be a whole number from 1 to 50",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": 51}),
            "retrievalPageSize",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": 2.5}),
            "retrievalPageSize",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": "5"}),
            "retrievalPageSize must be a number",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "filter": "v1"}),
            "filter must be an object",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "filter": {"language": 1}}),
            "filter.language must be a string",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": {}}),
            "context must be an array",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": [{"type": "code"}]}),
            "context[0].value is required",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": [{"type": "pdf", "value": "v"}]}),
            "context[0].type must be code or textSelection",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": [{"type": "code", "value": "v", "elementId": 3}]}),
            "context[0].elementId must be a string",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "currentPath": "/".repeat(201)}),
            "currentPath must be at most 200 characters",
        ),
    ];
    let ask = |body: String| api.send(message_request(&keys.key, "docs.acme.test", body));
    for (body, needle) in cases {
        let (status, error) = ask(body.to_string()).await;
        assert_eq!(status, 400, "{body}: {error}");
        let message = error["error"].as_str().expect("JSON error body");
        assert!(
            message.contains(needle),
            "{body}: {message:?} should contain {needle:?}"
        );
    }
    let allowed = json!({"fp": "a", "messages": [user("q")], "currentPath": "/".repeat(200), "id": "chat", "data": {"x": 1}});
    let (status, _) = ask(allowed.to_string()).await;
    assert_eq!(
        status, 200,
        "200 characters is allowed, unknown fields ignored"
    );
    let (status, error) = ask("{not json".to_string()).await;
    assert_eq!(status, 400, "{error}");
    api.stop().await;
}

#[tokio::test]
async fn only_live_assistant_keys_of_the_owning_organization() {
    let w = world();
    let body = json!({"fp": "a", "messages": [user("webhooks")]});
    for (key, status) in [
        (None, 401),
        (Some(w.admin.as_str()), 401),
        (Some(w.revoked.as_str()), 401),
        (Some("svc_dsc_nope"), 401),
    ] {
        let (got, _, text) = ask(&w.server.base, key, "docs.acme.test", &body).await;
        assert_eq!(got, status, "{key:?}: {text}");
    }
    let (status, _, text) = ask(&w.server.base, Some(&w.rival), "docs.acme.test", &body).await;
    assert_eq!(status, 404, "another organization's site: {text}");
    let (status, _, _) = ask(&w.server.base, Some(&w.key), "unknown.acme.test", &body).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn threads_belong_to_their_organization_site_and_fp() {
    let w = world();
    let (status, headers, stream) = ask(
        &w.server.base,
        Some(&w.key),
        "docs.acme.test",
        &json!({"fp": "user-1", "messages": [user("How do webhooks retry?")]}),
    )
    .await;
    assert_eq!(status, 200);
    let thread = headers["x-thread-id"].to_str().unwrap().to_string();
    let finish = parts(&stream).pop().unwrap();
    assert_eq!(finish.0, 'd');
    assert_eq!(finish.1["threadId"], thread);

    let follow =
        |fp: &str| json!({"fp": fp, "threadId": thread, "messages": [user("and signatures?")]});
    let (status, headers, _) = ask(
        &w.server.base,
        Some(&w.key),
        "docs.acme.test",
        &follow("user-1"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(headers["x-thread-id"].to_str().unwrap(), thread);
    let (status, _, text) = ask(
        &w.server.base,
        Some(&w.key),
        "docs.acme.test",
        &follow("user-2"),
    )
    .await;
    assert_eq!(status, 404, "another fp: {text}");
    assert!(text.contains("no thread"));
    let (status, _, _) = ask(
        &w.server.base,
        Some(&w.rival),
        "docs.rival.test",
        &follow("user-1"),
    )
    .await;
    assert_eq!(status, 404, "another organization");
    let (status, _, _) = ask(
        &w.server.base,
        Some(&w.key),
        "docs.acme.test",
        &json!({"fp": "user-1", "threadId": "th_unknown", "messages": [user("q")]}),
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_stream_follows_the_reference_shape() {
    let w = world();
    let body = json!({"fp": "anonymous", "messages": [user("How are failed webhook deliveries retried?")], "retrievalPageSize": 3, "currentPath": "/guides/webhooks"});
    let (status, headers, stream) =
        ask(&w.server.base, Some(&w.key), "docs.acme.test", &body).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "text/plain; charset=utf-8");
    assert_eq!(headers["x-vercel-ai-data-stream"], "v1");
    let parts = parts(&stream);
    let codes: String = parts.iter().map(|(c, _)| *c).collect();
    assert!(codes.starts_with("f9aef"), "{codes}");
    assert!(codes.ends_with("e8d"), "{codes}");
    assert!(codes.contains('h') && codes.contains('0'), "{codes}");
    let hits = &parts[2].1["result"];
    assert_eq!(hits.as_array().unwrap().len(), 3);
    assert_eq!(parts[1].1["toolName"], "search");
    let text: String = parts
        .iter()
        .filter(|(c, _)| *c == '0')
        .map(|(_, v)| v.as_str().unwrap())
        .collect();
    assert!(text.contains("exponential backoff"), "{text}");
    assert!(
        text.contains("(/guides/webhooks#retries)"),
        "answers link their sources: {text}"
    );

    let (_, _, nothing) = ask(
        &w.server.base,
        Some(&w.key),
        "docs.acme.test",
        // No word of it is in the site ("pricing" would meet the Math page's "prices").
        &json!({"fp": "a", "messages": [user("zeppelin hangar tours")]}),
    )
    .await;
    let text: String = parts_text(&nothing);
    assert!(
        text.starts_with("I could not find anything about that"),
        "{text}"
    );
}

/// The public key is in every reader's browser, so what one request may cost is bounded: the
/// body, a question, the history and the context are each refused naming their limit, and the
/// query the stream echoes back is cut.
#[tokio::test]
async fn public_endpoint_limits_are_refused_naming_the_limit() {
    let w = world();
    let base = &w.server.base;
    let refused = |status: u16, text: &str, expected: u16, needle: &str| {
        assert_eq!(status, expected, "{}", &text[..300.min(text.len())]);
        let body: Value = serde_json::from_str(text).expect("a JSON error");
        let message = body["error"].as_str().expect("error");
        assert!(
            message.contains(needle),
            "{message:?} should mention {needle:?}"
        );
    };

    // A 10 MB body is refused from its headers, before it is read (the client sends none of
    // it here), on both assistant versions and on search.
    for path in [
        "/discovery/v1/assistant/docs.acme.test/message",
        "/discovery/v2/assistant/docs.acme.test/message",
        "/discovery/v1/search/docs.acme.test",
    ] {
        let (status, text) = announce_body(base, path, &w.key, 10 << 20).await;
        refused(
            status,
            &text,
            413,
            "the request body is 10485760 bytes; the discovery endpoints accept at most 262144 (256 KiB)",
        );
    }
    // Sent without a length, it is cut off at the same size.
    let chunks =
        futures::stream::iter((0..33).map(|_| Ok::<_, std::io::Error>(vec![b' '; 8 << 10])));
    let response = reqwest::Client::new()
        .post(format!(
            "{base}/discovery/v1/assistant/docs.acme.test/message"
        ))
        .bearer_auth(&w.key)
        .body(reqwest::Body::wrap_stream(chunks))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    refused(
        status,
        &response.text().await.unwrap(),
        413,
        "larger than this endpoint accepts",
    );

    // Under the body limit, each part has its own.
    let long_question = "why ".repeat(1001);
    let history: Vec<Value> = (0..101).map(|_| user("q")).collect();
    let context: Vec<Value> = (0..21)
        .map(|_| json!({"type": "textSelection", "value": "x"}))
        .collect();
    for (body, needle) in [
        (
            json!({"fp": "a", "messages": [user(&long_question)]}),
            "messages[0] is 4004 characters long; a user message may be at most 4000",
        ),
        (
            json!({"fp": "a", "messages": history}),
            "messages may hold at most 100 messages; got 101",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": context}),
            "context may hold at most 20 items",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": [{"type": "code", "value": "x".repeat(8001)}]}),
            "context[0].value is 8001 characters long",
        ),
    ] {
        let (status, _, text) = ask(base, Some(&w.key), "docs.acme.test", &body).await;
        refused(status, &text, 400, needle);
    }
    let (status, search) = common::Api::new(base, &w.key)
        .post(
            "/discovery/v1/search/docs.acme.test",
            json!({"query": long_question}),
        )
        .await;
    assert_eq!(status, 400, "{search}");
    assert!(
        search["error"]
            .as_str()
            .unwrap()
            .contains("it may be at most 4000"),
        "{search}"
    );

    // A question at the limit is answered; the stream echoes at most 500 characters of it.
    let at_limit = format!("webhooks {}", "retries ".repeat(498));
    assert!(at_limit.chars().count() <= 4000);
    let (status, _, stream) = ask(
        base,
        Some(&w.key),
        "docs.acme.test",
        &json!({"fp": "a", "messages": [user(&at_limit)]}),
    )
    .await;
    assert_eq!(status, 200, "{stream}");
    let echoed = parts(&stream)[1].1["args"]["query"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(echoed.chars().count(), 501, "{echoed}");
    assert!(echoed.ends_with('…') && at_limit.starts_with(echoed.trim_end_matches('…')));
}

/// Sends only the headers of a POST announcing a body of `length` bytes and returns the
/// response's status and body.
async fn announce_body(base: &str, path: &str, key: &str, length: usize) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = base.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.expect("write");
    let mut response = Vec::new();
    socket.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn parts_text(stream: &str) -> String {
    parts(stream)
        .iter()
        .filter(|(c, _)| *c == '0')
        .map(|(_, v)| v.as_str().unwrap().to_string())
        .collect()
}

async fn ask_from(base: &str, key: &str, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(format!("{base}/discovery/v1/search/docs.acme.test"))
        .bearer_auth(key)
        .json(&json!({"query": "webhooks"}));
    if let Some(ip) = forwarded_for {
        request = request.header("x-forwarded-for", ip);
    }
    request.send().await.expect("request")
}

#[tokio::test]
async fn the_organization_limit_refuses_with_429_and_retry_after() {
    let w = world_with("[limits]\norganization_per_hour = 3\nip_per_day = 1000\n");
    let body = json!({"fp": "a", "messages": [user("webhooks")]});
    for remaining in [2, 1, 0] {
        let (status, headers, _) = ask(&w.server.base, Some(&w.key), "docs.acme.test", &body).await;
        assert_eq!(status, 200);
        assert_eq!(headers["x-ratelimit-limit"], "3");
        assert_eq!(
            headers["x-ratelimit-remaining"],
            remaining.to_string().as_str()
        );
    }
    // Refused before any work: even an invalid body gets the 429, not a 400.
    let (status, headers, text) =
        ask(&w.server.base, Some(&w.key), "docs.acme.test", &json!({})).await;
    assert_eq!(status, 429, "{text}");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=3600).contains(&retry), "{retry}");
    assert_eq!(headers["x-ratelimit-remaining"], "0");
    assert!(text.contains("organization (per hour)"), "{text}");
    let search = ask_from(&w.server.base, &w.key, None).await;
    assert_eq!(
        search.status(),
        429,
        "search shares the organization's budget"
    );
    let (status, _, _) = ask(&w.server.base, Some(&w.rival), "docs.rival.test", &body).await;
    assert_eq!(status, 200, "another organization has its own budget");
}

#[tokio::test]
async fn the_ip_limit_counts_clients_and_believes_only_trusted_proxies() {
    let w = world_with("[limits]\norganization_per_hour = 1000\nip_per_day = 2\n");
    // Not a trusted proxy: X-Forwarded-For is ignored, every request counts against 127.0.0.1.
    for _ in 0..2 {
        assert_eq!(
            ask_from(&w.server.base, &w.key, Some("1.2.3.4"))
                .await
                .status(),
            200
        );
    }
    let refused = ask_from(&w.server.base, &w.key, Some("5.6.7.8")).await;
    assert_eq!(refused.status(), 429);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("IP address (per day)")
    );

    let w = world_with(
        "[limits]\norganization_per_hour = 1000\nip_per_day = 2\ntrusted_proxies = [\"127.0.0.1\"]\n",
    );
    for client in ["1.2.3.4", "1.2.3.4", "9.9.9.9", "9.9.9.9"] {
        assert_eq!(
            ask_from(&w.server.base, &w.key, Some(client))
                .await
                .status(),
            200,
            "{client}"
        );
    }
    assert_eq!(
        ask_from(&w.server.base, &w.key, Some("1.2.3.4"))
            .await
            .status(),
        429
    );
    // A client prepending its own entry does not escape: the proxy's entry is the rightmost.
    assert_eq!(
        ask_from(&w.server.base, &w.key, Some("7.7.7.7, 1.2.3.4"))
            .await
            .status(),
        429
    );
}

#[tokio::test]
async fn docs_sites_may_call_the_discovery_endpoints_cross_origin_but_not_the_admin_ones() {
    let w = world();
    let client = reqwest::Client::new();
    let preflight = |path: &str| {
        client
            .request(reqwest::Method::OPTIONS, format!("{}{path}", w.server.base))
            .header("origin", "https://docs.acme.test")
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "authorization, content-type",
            )
            .send()
    };
    let response = preflight("/discovery/v1/assistant/docs.acme.test/message")
        .await
        .expect("preflight");
    assert!(response.status().is_success(), "{}", response.status());
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let allowed = response.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    assert!(allowed.contains("authorization"), "{allowed}");

    let response = preflight("/v1/static-export/jobs")
        .await
        .expect("preflight");
    assert!(
        response
            .headers()
            .get("access-control-allow-origin")
            .is_none(),
        "admin endpoints must not be callable from browsers"
    );

    // The real request carries the header too, and exposes the thread id.
    let body = json!({"fp": "anonymous", "messages": [user("How are webhooks signed?")]});
    let response = client
        .post(format!(
            "{}/discovery/v1/assistant/docs.acme.test/message",
            w.server.base
        ))
        .bearer_auth(&w.key)
        .header("origin", "https://docs.acme.test")
        .json(&body)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let exposed = response.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    assert!(exposed.contains("x-thread-id"), "{exposed}");
}

/// A site with two docs.json versions of one page that differ in one fact: the answer keeps to
/// the version of the page the reader is on, else the site's default, quotes what it says once,
/// shows a how-to's code as code, and never quotes code as a sentence.
#[tokio::test]
async fn answers_keep_to_the_readers_version_and_quote_prose_once() {
    let site = tempfile::tempdir().expect("site");
    let write = |path: &str, text: &str| {
        let file = site.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(file, text).expect("write");
    };
    write(
        "docs.json",
        r#"{"name": "Acme", "navigation": {"versions": [
            {"version": "v1", "pages": ["v1/webhooks"]},
            {"version": "v2", "default": true, "pages": ["v2/webhooks"]}
        ]}}"#,
    );
    let page = |hours: u32| {
        format!(
            "---\ntitle: Webhooks\n---\n\n## Retries\n\n\
             Failed webhook deliveries are retried with exponential backoff for up to {hours} hours.\n\n\
             ## Registering\n\nRegister an endpoint for webhook deliveries with the Acme command line.\n\n\
             ```bash\nacme webhooks create --url https://example.com/hook\n```\n"
        )
    };
    write("v1/webhooks.mdx", &page(12));
    write("v2/webhooks.mdx", &page(24));
    let (instance, key) = publish_as_acme(site.path());
    let server = instance.start();
    let answer = async |question: &str, current: Option<&str>| {
        let mut body = json!({"fp": "a", "messages": [user(question)]});
        if let Some(path) = current {
            body["currentPath"] = json!(path);
        }
        let (status, _, stream) = ask(&server.base, Some(&key), "docs.acme.test", &body).await;
        assert_eq!(status, 200, "{stream}");
        parts_text(&stream)
    };

    let question = "How long are failed webhook deliveries retried?";
    let v1 = answer(question, Some("/v1/webhooks")).await;
    assert!(v1.contains("up to 12 hours"), "{v1}");
    assert!(!v1.contains("24 hours"), "{v1}");
    assert!(v1.contains("(/v1/webhooks#retries)"), "{v1}");
    let default = answer(question, None).await;
    assert!(default.contains("up to 24 hours"), "{default}");
    assert!(!default.contains("12 hours"), "{default}");
    assert_eq!(
        default.matches("exponential backoff").count(),
        1,
        "{default}"
    );

    let how = answer(
        "How do I register a webhook endpoint?",
        Some("/v2/webhooks"),
    )
    .await;
    assert!(
        how.contains("```bash\nacme webhooks create --url https://example.com/hook\n```"),
        "the code is shown as code: {how}"
    );
    assert!(
        !how.contains("> acme webhooks"),
        "code is not quoted as prose: {how}"
    );
}

/// The built-in answer weighs a question's words by the whole site (its vocabulary, counted at
/// publish): a word of the question's phrasing that the site uses everywhere, but that the
/// sections retrieved happen to miss, does not make a question that the docs answer look
/// unanswered; a word the site never uses still does. A version without a vocabulary (published
/// before one was kept) still answers.
#[tokio::test]
async fn questions_are_weighed_by_the_sites_own_words() {
    let site = tempfile::tempdir().expect("site");
    let write = |path: &str, text: &str| {
        let file = site.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(file, text).expect("write");
    };
    let batch_pages = [
        ("limits", "A single batch holds at most 1,000 items."),
        (
            "batch-retries",
            "A failed batch is retried with all of its items.",
        ),
        (
            "batch-results",
            "Each batch reports the results of its items when it ends.",
        ),
        (
            "batch-triggers",
            "Trigger a batch of items from the dashboard or the SDK.",
        ),
        ("batch-ids", "Every batch and each of its items gets an id."),
    ];
    let mut pages = Vec::new();
    for (page, text) in batch_pages {
        write(
            &format!("{page}.mdx"),
            &format!("---\ntitle: {page}\n---\n\n{text}\n"),
        );
        pages.push(page.to_string());
    }
    for n in 0..20 {
        let page = format!("guide-{n}");
        write(
            &format!("{page}.mdx"),
            &format!(
                "---\ntitle: Guide {n}\n---\n\nA big project {n} needs a big plan and careful reviews.\n"
            ),
        );
        pages.push(page);
    }
    write(
        "docs.json",
        &json!({"name": "Acme", "navigation": {"pages": pages}}).to_string(),
    );
    let (instance, key) = publish_as_acme(site.path());
    let answer = async |server: &Server, question: &str| {
        let body = json!({"fp": "a", "messages": [user(question)]});
        let (status, _, stream) = ask(&server.base, Some(&key), "docs.acme.test", &body).await;
        assert_eq!(status, 200, "{stream}");
        parts_text(&stream)
    };
    let refusal = "does not seem to answer";
    let question = "How big can a batch of items be?";

    let server = instance.start();
    // Every batch section covers the question but for "big"; which one leads is the search's
    // call, so only that one is quoted is asserted.
    let sized = answer(&server, question).await;
    assert!(
        sized.starts_with("Here is what the Acme documentation says:") && sized.contains(" items"),
        "{sized}"
    );
    let rust = answer(&server, "Can a batch run Rust code?").await;
    assert!(rust.contains(refusal), "{rust}");
    drop(server);

    // Without the vocabulary, "big" (in none of the batch sections retrieved) outweighs
    // "batch": the answer is refused, but it is still an answer.
    let storage = instance.data_dir().join("storage");
    let vocabularies: Vec<_> = walkdir(&storage)
        .into_iter()
        .filter(|p| p.ends_with("search-vocabulary.json"))
        .collect();
    assert_eq!(vocabularies.len(), 1, "one vocabulary per version");
    std::fs::remove_file(&vocabularies[0]).expect("remove the vocabulary");
    let server = instance.start();
    let without = answer(&server, question).await;
    assert!(without.contains(refusal), "{without}");
}

/// A fresh instance with the organization "acme", an assistant key (returned), and the site
/// folder `site` published as docs.acme.test.
fn publish_as_acme(site: &std::path::Path) -> (Instance, String) {
    let instance = Instance::new("");
    let key = instance.acme_assistant_key();
    instance.publish_folder(
        "docs.acme.test",
        site.to_str().expect("utf-8"),
        "acme",
        None,
    );
    (instance, key)
}

/// Every file under `dir`.
fn walkdir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}
