//! The public endpoint's limits (body size, organization and client rates, trusted proxies) and
//! which endpoints docs sites may call from another origin.

use super::*;

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
    let response = quire::http_client::client()
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

async fn ask_from(base: &str, key: &str, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut request = quire::http_client::client()
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
    let client = quire::http_client::client();
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
