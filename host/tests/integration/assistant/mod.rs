//! The v1 assistant endpoint: key kinds, thread rules and the stream itself, over a real socket,
//! with the helpers its other files share; validation (`validation.rs`, in-process), limits and
//! cross-origin calls (`limits.rs`) and what answers hold (`answers.rs`) beside it.

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
    let mut request = quire::http_client::client()
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

fn parts_text(stream: &str) -> String {
    parts(stream)
        .iter()
        .filter(|(c, _)| *c == '0')
        .map(|(_, v)| v.as_str().unwrap().to_string())
        .collect()
}

mod answers;
mod limits;
mod validation;

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
