//! Every kind of malformed request, sent to every route it applies to (in-process), answers the
//! API's `{"error", "code"}` JSON with the right status and a message naming the field or the
//! limit: JSON syntax, a missing content type, a body over the limit, a path or query string
//! that does not parse, an unknown route or method. A malformed download link is a 403, as a
//! tampered one is.

use crate::common::Instance;

use axum::body::Body;
use axum::http::Request;
use serde_json::Value;

/// Which key a route takes.
#[derive(Clone, Copy)]
enum Key {
    Admin,
    Assistant,
    None,
}

/// The routes that read a body, with a body they accept the shape of.
const JSON_ROUTES: [(&str, Key); 6] = [
    ("/v1/static-export/jobs", Key::Admin),
    ("/discovery/v1/search/docs.acme.test", Key::Assistant),
    ("/discovery/v1/page/docs.acme.test", Key::Assistant),
    (
        "/discovery/v1/analytics/docs.acme.test/events",
        Key::Assistant,
    ),
    (
        "/discovery/v1/assistant/docs.acme.test/message",
        Key::Assistant,
    ),
    (
        "/discovery/v2/assistant/docs.acme.test/message",
        Key::Assistant,
    ),
];

struct Keys {
    admin: String,
    assistant: String,
}

fn request(method: &str, uri: &str, key: Key, keys: &Keys) -> axum::http::request::Builder {
    let builder = Request::builder().method(method).uri(uri);
    match key {
        Key::Admin => builder.header("authorization", format!("Bearer {}", keys.admin)),
        Key::Assistant => builder.header("authorization", format!("Bearer {}", keys.assistant)),
        Key::None => builder,
    }
}

/// Asserts a JSON error of `status` whose message contains `needle`.
fn assert_json_error(case: &str, (status, body): (u16, Value), expected: u16, needle: &str) {
    assert_eq!(status, expected, "{case}: {body}");
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{case}: not the API's error shape: {body}"));
    assert!(body["code"].is_string(), "{case}: no code: {body}");
    assert!(
        message.contains(needle),
        "{case}: {message:?} should mention {needle:?}"
    );
}

/// A `.tar.gz` (stored, not compressed) holding a docs.json and `size` bytes that do not
/// compress.
fn incompressible_site(size: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let noise: Vec<u8> = (0..size)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
    let mut builder = tar::Builder::new(encoder);
    for (name, data) in [("docs.json", &b"{}"[..]), ("noise.bin", &noise[..])] {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, name, data).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

#[tokio::test]
async fn every_malformed_request_answers_the_json_error_shape() {
    // Right after the [server] table the harness writes (so on the embedded store).
    let instance = Instance::with_config("max_upload_mib = 1\n");
    let admin = instance.organization("acme", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let site = crate::common::example_site();
    instance.publish_folder("docs.acme.test", site.to_str().unwrap(), "acme", Some("v1"));
    let keys = Keys { admin, assistant };
    let api = instance.in_process().await;

    for (route, key) in JSON_ROUTES {
        let case = format!("JSON syntax, POST {route}");
        let sent = request("POST", route, key, &keys)
            .header("content-type", "application/json")
            .body(Body::from("{\"domain\": "))
            .unwrap();
        assert_json_error(&case, api.send(sent).await, 400, "");

        let case = format!("over the body limit, POST {route}");
        let limit = if route.starts_with("/discovery/") {
            "262144 bytes"
        } else {
            "1048576 bytes (1 MiB, set by server.max_upload_mib)"
        };
        let big = format!("{{\"query\": \"{}\"}}", "a".repeat(2 << 20));
        let sent = request("POST", route, key, &keys)
            .header("content-type", "application/json")
            .body(Body::from(big))
            .unwrap();
        assert_json_error(&case, api.send(sent).await, 413, limit);

        let case = format!("a path parameter that is not UTF-8, POST {route}");
        let bad = route.replace("docs.acme.test", "docs%FF.test");
        if bad != route {
            let sent = request("POST", &bad, key, &keys)
                .header("content-type", "application/json")
                .body(Body::from("{}"))
                .unwrap();
            assert_json_error(&case, api.send(sent).await, 400, "invalid path");
        }
    }

    // The routes that require a JSON content type say so.
    for (route, key) in &JSON_ROUTES[..4] {
        let case = format!("no content type, POST {route}");
        let sent = request("POST", route, *key, &keys)
            .body(Body::from("{}"))
            .unwrap();
        assert_json_error(&case, api.send(sent).await, 415, "Content-Type");
    }

    // A site upload that says it is over the limit, and one that passes it as it streams (a
    // real .tar.gz of 2 MiB that does not compress).
    let route = "/v1/sites/docs.acme.test/versions?version=v2";
    let sent = request("POST", route, Key::Admin, &keys)
        .header("content-length", (2 << 20).to_string())
        .body(Body::from(vec![0u8; 2 << 20]))
        .unwrap();
    assert_json_error(
        "an upload whose length is over max_upload_mib",
        api.send(sent).await,
        413,
        "1048576 bytes (1 MiB, set by server.max_upload_mib)",
    );
    let sent = request("POST", route, Key::Admin, &keys)
        .body(Body::from(incompressible_site(2 << 20)))
        .unwrap();
    assert_json_error(
        "an upload that streams past max_upload_mib",
        api.send(sent).await,
        413,
        "1048576 bytes (1 MiB, set by server.max_upload_mib)",
    );
    let sent = request("POST", route, Key::Admin, &keys)
        .body(Body::from(vec![0u8; 4096]))
        .unwrap();
    assert_json_error(
        "an upload that is not gzip",
        api.send(sent).await,
        400,
        "no gzip header",
    );

    // Query strings that do not parse: a field given twice, a value of the wrong type.
    for (method, uri, key, needle) in [
        (
            "POST",
            "/v1/sites/docs.acme.test/versions?version=a&version=b",
            Key::Admin,
            "version",
        ),
        (
            "GET",
            "/v1/analytics/docs.acme.test/pages?from=a&from=b",
            Key::Admin,
            "from",
        ),
        (
            "POST",
            "/v1/sites/docs.acme.test/versions?strict=maybe",
            Key::Admin,
            "strict",
        ),
        (
            "GET",
            "/v1/static-export/jobs/job_1?warnings=a&warnings=b",
            Key::Admin,
            "warnings",
        ),
    ] {
        let case = format!("malformed query, {method} {uri}");
        let sent = request(method, uri, key, &keys)
            .body(Body::from("x"))
            .unwrap();
        assert_json_error(&case, api.send(sent).await, 400, needle);
    }

    // Path parameters that are not UTF-8 on the routes read with GET.
    for uri in [
        "/v1/static-export/jobs/job%FF",
        "/v1/analytics/docs%FF.test/pages",
    ] {
        let sent = request("GET", uri, Key::Admin, &keys)
            .body(Body::empty())
            .unwrap();
        assert_json_error(
            &format!("GET {uri}"),
            api.send(sent).await,
            400,
            "invalid path",
        );
    }
    let sent = request(
        "POST",
        "/v1/static-export/jobs/job%FF/bundle",
        Key::Admin,
        &keys,
    )
    .body(Body::empty())
    .unwrap();
    assert_json_error(
        "POST a bundle of job%FF",
        api.send(sent).await,
        400,
        "invalid path",
    );
    let sent = request(
        "GET",
        "/v1/downloads/b%FF.tar.gz?expires=1&signature=00",
        Key::None,
        &keys,
    )
    .body(Body::empty())
    .unwrap();
    assert_json_error(
        "a download of b%FF",
        api.send(sent).await,
        403,
        "the download link is malformed",
    );

    // A download link with a field given twice was not made by the server: 403, as tampered.
    let sent = request(
        "GET",
        "/v1/downloads/bundle.tar.gz?expires=1&expires=2&signature=00",
        Key::None,
        &keys,
    )
    .body(Body::empty())
    .unwrap();
    let answer = api.send(sent).await;
    assert_eq!(answer.1["code"], "link_invalid", "{}", answer.1);
    assert_json_error("a duplicated expires", answer, 403, "expires");

    // Unknown routes and methods.
    for (method, uri, status, needle) in [
        (
            "GET",
            "/v1/nothing-here",
            404,
            "no endpoint at GET /v1/nothing-here",
        ),
        ("POST", "/", 404, "no endpoint"),
        (
            "DELETE",
            "/v1/static-export/jobs",
            405,
            "does not take DELETE",
        ),
        (
            "GET",
            "/discovery/v1/search/docs.acme.test",
            405,
            "does not take GET",
        ),
    ] {
        let case = format!("{method} {uri}");
        let sent = request(method, uri, Key::Admin, &keys)
            .body(Body::empty())
            .unwrap();
        assert_json_error(&case, api.send(sent).await, status, needle);
    }
    api.stop().await;
}
