//! An OpenAI-compatible chat-completions backend (`POST {base_url}/chat/completions`): the
//! retrieved sections go into the prompt numbered, with an instruction to cite them by number.
//! The model's answer is read whole and checked before the reader sees it (`citations`): an
//! answer citing no section, or a number that is not one, is not supported by the documentation,
//! and the built-in answer is given instead. In a conversation, the model also rewrites a
//! question so that it can be searched on its own.

use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::future::BoxFuture;
use futures::stream::{self, BoxStream, StreamExt, TryStreamExt};
use serde_json::{Value, json};

use super::citations;
use super::extractive;
use super::generator::{GenerateError, GenerationInput, Generator, Piece, cited_pieces};

/// Connection settings for the model server.
#[derive(Debug, Clone)]
pub struct OpenAiSettings {
    /// Up to and including the version segment, e.g. `https://api.example.com/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub timeout: Duration,
}

/// The generator.
pub struct OpenAiGenerator {
    client: reqwest::Client,
    settings: OpenAiSettings,
}

impl OpenAiGenerator {
    pub fn new(settings: OpenAiSettings) -> Result<Self, GenerateError> {
        let client = crate::http_client::builder()
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(settings.timeout)
            .build()
            .map_err(|e| GenerateError(format!("cannot set up the HTTP client: {e}")))?;
        Ok(Self { client, settings })
    }
}

/// The instructions and the numbered sections the model answers from.
pub fn system_prompt(input: &GenerationInput) -> String {
    let mut prompt = format!(
        "You are the documentation assistant of {site}. Answer the user's question using only the \
         numbered documentation sections below. Cite every section you use by its number in square \
         brackets, such as [1] or [2][3], right after what it supports. If the sections do not \
         answer the question, say that the {site} documentation does not cover it; never invent an \
         answer.\n\nDocumentation sections:\n",
        site = input.site_name
    );
    if input.sections.is_empty() {
        prompt.push_str("(none matched the question)\n");
    }
    for (i, section) in input.sections.iter().enumerate() {
        prompt.push_str(&format!(
            "\n[{}] {} ({})\n{}\n",
            i + 1,
            section.label(),
            section.url,
            section.content
        ));
    }
    prompt
}

/// Earlier turns shown to the model when it rewrites a question, at most.
const REWRITE_TURNS: usize = 4;
/// Characters of each earlier turn shown for a rewrite.
const REWRITE_TURN_CHARS: usize = 1_000;
/// A rewritten query longer than this is not a query.
const MAX_REWRITE_CHARS: usize = 500;

const REWRITE_INSTRUCTIONS: &str = "Rewrite the user's last question so that it can be \
    understood without the conversation: name what it refers to. Reply with the rewritten \
    question only, on one line.";

impl OpenAiGenerator {
    fn completions_request(&self, body: &Value) -> reqwest::RequestBuilder {
        let url = format!(
            "{}/chat/completions",
            self.settings.base_url.trim_end_matches('/')
        );
        let mut request = self.client.post(url).json(body);
        if let Some(key) = &self.settings.api_key {
            request = request.bearer_auth(key);
        }
        request
    }
}

impl Generator for OpenAiGenerator {
    fn generate(&self, input: GenerationInput) -> BoxStream<'static, Result<Piece, GenerateError>> {
        let mut messages = vec![json!({"role": "system", "content": system_prompt(&input)})];
        for (role, content) in &input.history {
            messages.push(json!({"role": role, "content": content}));
        }
        messages.push(json!({"role": "user", "content": input.question}));
        let body = json!({"model": self.settings.model, "stream": true, "messages": messages});
        let url = self.settings.base_url.clone();
        let request = self.completions_request(&body);
        let answered = async move {
            let response = request.send().await.map_err(|e| {
                GenerateError(format!("cannot reach the model server at {url}: {e}"))
            })?;
            let status = response.status();
            if !status.is_success() {
                let text = response.text().await.unwrap_or_default();
                let excerpt: String = text.chars().take(300).collect();
                return Err(GenerateError(format!(
                    "the model server answered {status}: {excerpt}"
                )));
            }
            let answer: String = response
                .bytes_stream()
                .eventsource()
                .take_while(|event| {
                    let done = matches!(event, Ok(e) if e.data.trim() == "[DONE]");
                    std::future::ready(!done)
                })
                .filter_map(|event| std::future::ready(token(event)))
                .try_collect()
                .await?;
            Ok(checked(answer, &input))
        };
        stream::once(answered)
            .flat_map(|answered| match answered {
                Ok(pieces) => stream::iter(pieces.into_iter().map(Ok)).boxed(),
                Err(e) => stream::once(std::future::ready(Err(e))).boxed(),
            })
            .boxed()
    }

    fn standalone_query(
        &self,
        question: &str,
        history: &[(String, String)],
    ) -> BoxFuture<'static, Option<String>> {
        let mut messages = vec![json!({"role": "system", "content": REWRITE_INSTRUCTIONS})];
        let start = history.len().saturating_sub(REWRITE_TURNS);
        for (role, content) in &history[start..] {
            let content: String = content.chars().take(REWRITE_TURN_CHARS).collect();
            messages.push(json!({"role": role, "content": content}));
        }
        messages.push(json!({"role": "user", "content": question}));
        let body = json!({"model": self.settings.model, "stream": false, "messages": messages});
        let request = self.completions_request(&body);
        Box::pin(async move {
            let rewritten = async {
                let response = request.send().await.map_err(|e| e.to_string())?;
                let status = response.status();
                if !status.is_success() {
                    return Err(format!("the model server answered {status}"));
                }
                let reply: Value = response.json().await.map_err(|e| e.to_string())?;
                reply
                    .pointer("/choices/0/message/content")
                    .and_then(Value::as_str)
                    .map(|q| q.trim().trim_matches('"').trim().to_string())
                    .filter(|q| !q.is_empty() && q.chars().count() <= MAX_REWRITE_CHARS)
                    .ok_or_else(|| "the reply held no usable question".to_string())
            };
            match rewritten.await {
                Ok(query) => Some(query),
                Err(e) => {
                    tracing::warn!("the model did not rewrite the question: {e}");
                    None
                }
            }
        })
    }
}

/// The model's `answer` as the reader gets it: its text with each `[n]` linked to its section,
/// each cited section sent as a source right after its first mark; or the built-in answer when
/// the model's is not supported by the sections.
fn checked(answer: String, input: &GenerationInput) -> Vec<Piece> {
    match citations::check(&answer, input.sections.len()) {
        Ok(_) => {
            let urls: Vec<&str> = input.sections.iter().map(|s| s.url.as_str()).collect();
            let (text, first_cited) = citations::link(&answer, &urls);
            cited_pieces(&text, first_cited)
        }
        Err(unsupported) => {
            tracing::info!("the model's answer is replaced by the built-in one: {unsupported}");
            extractive::answer(input).collect()
        }
    }
}

/// The text a streamed chunk adds, if any.
fn token<E: std::fmt::Display>(
    event: Result<eventsource_stream::Event, eventsource_stream::EventStreamError<E>>,
) -> Option<Result<String, GenerateError>> {
    let event = match event {
        Ok(event) => event,
        Err(e) => {
            return Some(Err(GenerateError(format!(
                "the model's stream broke off: {e}"
            ))));
        }
    };
    let chunk: Value = match serde_json::from_str(&event.data) {
        Ok(chunk) => chunk,
        Err(e) => {
            return Some(Err(GenerateError(format!(
                "the model sent an unreadable chunk: {e}"
            ))));
        }
    };
    if let Some(error) = chunk.get("error") {
        return Some(Err(GenerateError(format!(
            "the model server reported: {error}"
        ))));
    }
    chunk
        .pointer("/choices/0/delta/content")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .map(|t| Ok(t.to_string()))
}
