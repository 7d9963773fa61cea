//! An OpenAI-compatible chat-completions backend (`POST {base_url}/chat/completions`,
//! streamed): the retrieved sections go into the prompt with an instruction to cite them, and
//! the model's tokens stream through as they arrive.

use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::stream::{self, BoxStream, StreamExt};
use serde_json::{Value, json};

use super::generator::{GenerateError, GenerationInput, Generator};

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
        let client = reqwest::Client::builder()
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
         documentation sections below. Cite every section you use as a Markdown link, [title](url), \
         with the url given. If the sections do not answer the question, say that the {site} \
         documentation does not cover it; never invent an answer.\n\nDocumentation sections:\n",
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

impl Generator for OpenAiGenerator {
    fn generate(
        &self,
        input: GenerationInput,
    ) -> BoxStream<'static, Result<String, GenerateError>> {
        let mut messages = vec![json!({"role": "system", "content": system_prompt(&input)})];
        for (role, content) in &input.history {
            messages.push(json!({"role": role, "content": content}));
        }
        messages.push(json!({"role": "user", "content": input.question}));
        let body = json!({"model": self.settings.model, "stream": true, "messages": messages});
        let url = format!(
            "{}/chat/completions",
            self.settings.base_url.trim_end_matches('/')
        );
        let mut request = self.client.post(&url).json(&body);
        if let Some(key) = &self.settings.api_key {
            request = request.bearer_auth(key);
        }
        let started = async move {
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
            let tokens = response
                .bytes_stream()
                .eventsource()
                .take_while(|event| {
                    let done = matches!(event, Ok(e) if e.data.trim() == "[DONE]");
                    std::future::ready(!done)
                })
                .filter_map(|event| std::future::ready(token(event)));
            Ok(tokens)
        };
        stream::once(started)
            .flat_map(|started| match started {
                Ok(tokens) => tokens.boxed(),
                Err(e) => stream::once(std::future::ready(Err(e))).boxed(),
            })
            .boxed()
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
