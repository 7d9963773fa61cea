//! The OpenAI-compatible generator against a small fake chat-completions server (the one place
//! a stand-in is right: the real thing is a paid service). The fake records what Quire sends
//! and streams tokens back as server-sent events; the assistant must pass them on in order.

use std::sync::{Arc, Mutex};

use crate::common::Instance;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

const TOKENS: [&str; 4] = [
    "Failed deliveries ",
    "are retried with ",
    "exponential backoff ",
    "([Webhooks › Retries](/guides/webhooks#retries)).",
];

/// A request the fake received: its Authorization header and its JSON body.
type Request = (Option<String>, Value);

#[derive(Clone, Default)]
struct Recorded(Arc<Mutex<Vec<Request>>>);

async fn completions(
    State(recorded): State<Recorded>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    recorded.0.lock().unwrap().push((auth, body.clone()));
    if body["model"] == "broken-model" {
        return (StatusCode::INTERNAL_SERVER_ERROR, "the model is on fire").into_response();
    }
    let mut sse =
        String::from("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n");
    for token in TOKENS {
        let chunk = json!({"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": token}}]});
        sse.push_str(&format!("data: {chunk}\n\n"));
    }
    sse.push_str("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
    ([("content-type", "text/event-stream")], sse).into_response()
}

async fn fake_model_server() -> (String, Recorded) {
    let recorded = Recorded::default();
    let app = axum::Router::new()
        .route("/v1/chat/completions", axum::routing::post(completions))
        .with_state(recorded.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, recorded)
}

fn setup(base_url: &str, model: &str) -> (Instance, String) {
    let instance = Instance::new(&format!(
        "[assistant]\ngenerator = \"openai\"\nbase_url = \"{base_url}\"\nmodel = \"{model}\"\napi_key = \"test-key\"\n"
    ));
    let key = instance.example_site_for_assistant();
    (instance, key)
}

async fn ask(base: &str, key: &str, body: Value) -> (String, Vec<(char, Value)>) {
    let response = reqwest::Client::new()
        .post(format!(
            "{base}/discovery/v1/assistant/docs.acme.test/message"
        ))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let thread = response.headers()["x-thread-id"]
        .to_str()
        .unwrap()
        .to_string();
    let text = response.text().await.unwrap();
    let parts = text
        .lines()
        .map(|l| {
            let (code, json) = l.split_once(':').unwrap();
            (
                code.chars().next().unwrap(),
                serde_json::from_str(json).unwrap(),
            )
        })
        .collect();
    (thread, parts)
}

fn user(text: &str) -> Value {
    json!({"id": "u", "role": "user", "content": text, "parts": [{"type": "text", "text": text}]})
}

#[tokio::test]
async fn tokens_stream_through_and_the_prompt_carries_the_sections() {
    let (url, recorded) = fake_model_server().await;
    let (instance, key) = setup(&url, "fake-model");
    let server = instance.start();
    let question = "How are failed webhook deliveries retried?";
    let (thread, parts) = ask(
        &server.base,
        &key,
        json!({"fp": "a", "messages": [user(question)]}),
    )
    .await;
    let texts: Vec<&str> = parts
        .iter()
        .filter(|(c, _)| *c == '0')
        .map(|(_, v)| v.as_str().unwrap())
        .collect();
    assert_eq!(texts, TOKENS, "token by token, in order");
    assert_eq!(parts.last().unwrap().0, 'd');

    let (auth, request) = recorded.0.lock().unwrap()[0].clone();
    assert_eq!(auth.as_deref(), Some("Bearer test-key"));
    assert_eq!(request["model"], "fake-model");
    assert_eq!(request["stream"], true);
    let messages = request["messages"].as_array().unwrap();
    let system = messages[0]["content"].as_str().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(system.contains("Cite every section you use"), "{system}");
    assert!(system.contains("never invent"), "{system}");
    assert!(
        system.contains("(/guides/webhooks#retries)") && system.contains("exponential backoff"),
        "{system}"
    );
    assert_eq!(messages.last().unwrap()["content"], question);

    // The follow-up carries the thread's history to the model.
    let (_, _) = ask(
        &server.base,
        &key,
        json!({"fp": "a", "threadId": thread, "messages": [user("And signatures?")]}),
    )
    .await;
    let (_, second) = recorded.0.lock().unwrap()[1].clone();
    let roles: Vec<&str> = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
    assert_eq!(second["messages"][1]["content"], question);
    assert_eq!(second["messages"][2]["content"], TOKENS.concat());
}

#[tokio::test]
async fn a_failing_model_becomes_an_error_part_and_a_clean_end() {
    let (url, _) = fake_model_server().await;
    let (instance, key) = setup(&url, "broken-model");
    let server = instance.start();
    let (_, parts) = ask(
        &server.base,
        &key,
        json!({"fp": "a", "messages": [user("webhooks?")]}),
    )
    .await;
    let error = parts
        .iter()
        .find(|(c, _)| *c == '3')
        .expect("an error part");
    assert!(
        error
            .1
            .as_str()
            .unwrap()
            .contains("the model server answered 500"),
        "{:?}",
        error.1
    );
    assert!(error.1.as_str().unwrap().contains("on fire"));
    let last = parts.last().unwrap();
    assert_eq!(last.0, 'd');
    assert_eq!(last.1["finishReason"], "error");
}

#[test]
fn the_server_refuses_an_incomplete_model_configuration() {
    let instance = Instance::new("[assistant]\ngenerator = \"openai\"\nmodel = \"m\"\n");
    let out = instance.cli(&["serve"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("assistant.base_url is required"), "{said}");
}
