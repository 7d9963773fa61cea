//! The OpenAI-compatible generator against a small fake chat-completions server (the one place
//! a stand-in is right: the real thing is a paid service). The fake records what Quire sends,
//! answers from the numbered sections of the prompt it is given (citing the retries section by
//! its number) and rewrites follow-up questions; other model names make it fail, cite nothing,
//! or cite a section the prompt did not have.

use std::sync::{Arc, Mutex};

use crate::common::Instance;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// The URL of the section the fake model cites.
const RETRIES: &str = "/guides/webhooks#retries";
/// What the fake model answers a rewrite request with.
const REWRITTEN: &str = "How do I verify the signatures of webhook deliveries?";

/// A request the fake received: its Authorization header and its JSON body.
type Request = (Option<String>, Value);

#[derive(Clone, Default)]
struct Recorded(Arc<Mutex<Vec<Request>>>);

/// The number the system prompt gives the section at `url` (`[3] Title (url)`).
fn number_of(system: &str, url: &str) -> Option<usize> {
    system.lines().find_map(|line| {
        let rest = line.strip_prefix('[')?;
        let (number, label) = rest.split_once(']')?;
        label
            .trim_end()
            .ends_with(&format!("({url})"))
            .then(|| number.parse().ok())
            .flatten()
    })
}

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
    if body["stream"] == false {
        let reply = json!({"id": "c0", "object": "chat.completion", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": format!(" \"{REWRITTEN}\"\n")}, "finish_reason": "stop"}
        ]});
        return Json(reply).into_response();
    }
    let system = body["messages"][0]["content"].as_str().unwrap_or_default();
    let cited = number_of(system, RETRIES).unwrap_or(1);
    let tokens: Vec<String> = match body["model"].as_str() {
        Some("broken-model") => {
            return (StatusCode::INTERNAL_SERVER_ERROR, "the model is on fire").into_response();
        }
        Some("uncited-model") => vec!["The moon ".into(), "is made of cheese.".into()],
        Some("lying-model") => vec!["Deliveries are never retried ".into(), "[42].".into()],
        _ => vec![
            "Failed deliveries ".into(),
            "are retried with ".into(),
            "exponential backoff ".into(),
            format!("[{cited}]."),
        ],
    };
    let mut sse =
        String::from("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n");
    for token in tokens {
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
    let response = quire::http_client::client()
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

/// The answer's text, its sources' URLs and the query its search tool call shows.
fn read(parts: &[(char, Value)]) -> (String, Vec<String>, String) {
    let text = parts
        .iter()
        .filter(|(c, _)| *c == '0')
        .map(|(_, v)| v.as_str().unwrap())
        .collect();
    let sources = parts
        .iter()
        .filter(|(c, _)| *c == 'h')
        .map(|(_, v)| v["url"].as_str().unwrap().to_string())
        .collect();
    let query = parts
        .iter()
        .find(|(c, _)| *c == '9')
        .map(|(_, v)| v["args"]["query"].as_str().unwrap().to_string())
        .unwrap_or_default();
    (text, sources, query)
}

#[tokio::test]
async fn the_model_cites_numbered_sections_and_only_those_are_sources() {
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
    assert_eq!(parts.last().unwrap().0, 'd');
    let (auth, request) = recorded.0.lock().unwrap()[0].clone();
    assert_eq!(auth.as_deref(), Some("Bearer test-key"));
    assert_eq!(request["model"], "fake-model");
    assert_eq!(request["stream"], true);
    let messages = request["messages"].as_array().unwrap();
    let system = messages[0]["content"].as_str().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(
        system.contains("Cite every section you use by its number"),
        "{system}"
    );
    assert!(system.contains("never invent"), "{system}");
    let number = number_of(system, RETRIES).expect("the retries section is numbered");
    assert!(system.contains("exponential backoff"), "{system}");
    assert!(number_of(system, "/nowhere").is_none());
    assert_eq!(messages.last().unwrap()["content"], question);

    // The citation links to its section, which is the one source: not every section searched.
    let (text, sources, _) = read(&parts);
    assert_eq!(
        text,
        format!("Failed deliveries are retried with exponential backoff [[{number}]]({RETRIES}).")
    );
    assert_eq!(sources, [RETRIES]);
    // The source comes right after the mark that cites it, before the text that follows.
    let source_at = parts.iter().position(|(c, _)| *c == 'h').unwrap();
    let before: String = parts[..source_at]
        .iter()
        .filter(|(c, _)| *c == '0')
        .map(|(_, v)| v.as_str().unwrap())
        .collect();
    assert!(before.ends_with(&format!("]({RETRIES})")), "{before}");
    assert_eq!(
        parts[source_at + 1].0,
        '0',
        "the text after the mark follows"
    );
    let searched = parts
        .iter()
        .find(|(c, _)| *c == 'a')
        .map(|(_, v)| v["result"].as_array().unwrap().len())
        .unwrap();
    assert!(searched > 1, "more sections were searched than cited");

    // A follow-up: the model rewrites it to stand alone, and that is what is searched; the
    // answer's request carries the thread's history.
    let (_, parts) = ask(
        &server.base,
        &key,
        json!({"fp": "a", "threadId": thread, "messages": [user("And signatures?")]}),
    )
    .await;
    let (_, _, query) = read(&parts);
    assert_eq!(query, REWRITTEN);
    let requests = recorded.0.lock().unwrap().clone();
    assert_eq!(requests.len(), 3, "answer, rewrite, answer");
    let rewrite = &requests[1].1;
    assert_eq!(rewrite["stream"], false);
    let rewrite_messages = rewrite["messages"].as_array().unwrap();
    assert_eq!(rewrite_messages[1]["content"], question);
    assert_eq!(
        rewrite_messages.last().unwrap()["content"],
        "And signatures?"
    );
    let second = &requests[2].1;
    let roles: Vec<&str> = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
    assert_eq!(second["messages"][1]["content"], question);
    assert_eq!(
        second["messages"][2]["content"],
        format!("Failed deliveries are retried with exponential backoff [[{number}]]({RETRIES}).")
    );
}

#[tokio::test]
async fn an_answer_the_sections_do_not_support_gives_way_to_the_built_in_one() {
    let (url, _) = fake_model_server().await;
    for model in ["uncited-model", "lying-model"] {
        let (instance, key) = setup(&url, model);
        let server = instance.start();
        let (_, parts) = ask(
            &server.base,
            &key,
            json!({"fp": "a", "messages": [user("How are failed webhook deliveries retried?")]}),
        )
        .await;
        let (text, sources, _) = read(&parts);
        assert!(
            !text.contains("cheese") && !text.contains("never retried"),
            "{model}: {text}"
        );
        assert!(text.contains("exponential backoff"), "{model}: {text}");
        assert!(!sources.is_empty(), "{model}");
        for source in &sources {
            assert!(
                text.contains(&format!("({source})")),
                "{model}: {source} in {text}"
            );
        }
        assert_eq!(parts.last().unwrap().1["finishReason"], "stop");
    }
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
