//! The chat SDK's generation-5 UI message stream: server-sent events, `data: {json}` per chunk,
//! ending with `data: [DONE]`. Only the chunk types and keys the SDK's schemas know are
//! written (ai 5.0.0 rejects unknown keys), so the thread id travels in the finish chunk's
//! `messageMetadata`.

use serde_json::{Value, json};

use super::Event;

/// Response headers of a UI message stream.
pub const HEADERS: [(&str, &str); 4] = [
    ("content-type", "text/event-stream"),
    ("cache-control", "no-cache"),
    ("x-vercel-ai-ui-message-stream", "v1"),
    ("x-accel-buffering", "no"),
];

/// Turns assistant events into SSE chunks; keeps the little state the protocol needs.
#[derive(Default)]
pub struct Encoder {
    started: bool,
    open_text: Option<String>,
    texts: usize,
}

fn sse(value: &Value) -> String {
    format!("data: {value}\n\n")
}

impl Encoder {
    /// The SSE text for one event (possibly several chunks, possibly none).
    pub fn encode(&mut self, event: Event) -> String {
        let mut out = String::new();
        match event {
            Event::StepStart { message_id } => {
                if !self.started {
                    self.started = true;
                    out += &sse(&json!({"type": "start", "messageId": message_id}));
                }
                out += &sse(&json!({"type": "start-step"}));
            }
            // The search is internal to the answer here; its sections arrive as sources.
            Event::SearchCall { .. } | Event::SearchResult { .. } => {}
            Event::StepFinish { .. } => {
                out += &self.close_text();
                out += &sse(&json!({"type": "finish-step"}));
            }
            Event::Source { id, url, title } => {
                // The text before a source is the text it supports: the SDK keeps the parts in
                // the order they come, so the source sits between the text parts around it.
                out += &self.close_text();
                out += &sse(
                    &json!({"type": "source-url", "sourceId": id, "url": url, "title": title}),
                );
            }
            Event::Text(delta) => {
                let id = match &self.open_text {
                    Some(id) => id.clone(),
                    None => {
                        self.texts += 1;
                        let id = format!("text-{}", self.texts);
                        out += &sse(&json!({"type": "text-start", "id": id}));
                        self.open_text = Some(id.clone());
                        id
                    }
                };
                out += &sse(&json!({"type": "text-delta", "id": id, "delta": delta}));
            }
            Event::Error(message) => {
                out += &self.close_text();
                out += &sse(&json!({"type": "error", "errorText": message}));
            }
            Event::Finish { thread_id, .. } => {
                out += &self.close_text();
                out += &sse(&json!({"type": "finish", "messageMetadata": {"threadId": thread_id}}));
                out += "data: [DONE]\n\n";
            }
        }
        out
    }

    fn close_text(&mut self) -> String {
        match self.open_text.take() {
            Some(id) => sse(&json!({"type": "text-end", "id": id})),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::Usage;

    #[test]
    fn a_turn_encodes_as_the_sdk_expects() {
        let mut e = Encoder::default();
        let mut out = String::new();
        for event in [
            Event::StepStart {
                message_id: "m".into(),
            },
            Event::StepFinish {
                reason: "tool-calls",
                usage: Usage::default(),
            },
            Event::StepStart {
                message_id: "m2".into(),
            },
            Event::Source {
                id: "s1".into(),
                url: "/a".into(),
                title: "A".into(),
            },
            Event::Text("Hel".into()),
            Event::Text("lo".into()),
            Event::StepFinish {
                reason: "stop",
                usage: Usage::default(),
            },
            Event::Finish {
                reason: "stop",
                usage: Usage::default(),
                thread_id: "th_1".into(),
            },
        ] {
            out += &e.encode(event);
        }
        let types: Vec<String> = out
            .split("\n\n")
            .filter_map(|c| c.strip_prefix("data: "))
            .map(|c| {
                if c == "[DONE]" {
                    c.to_string()
                } else {
                    serde_json::from_str::<Value>(c).unwrap()["type"]
                        .as_str()
                        .unwrap()
                        .to_string()
                }
            })
            .collect();
        assert_eq!(
            types,
            [
                "start",
                "start-step",
                "finish-step",
                "start-step",
                "source-url",
                "text-start",
                "text-delta",
                "text-delta",
                "text-end",
                "finish-step",
                "finish",
                "[DONE]"
            ]
        );
        assert!(out.contains(r#""messageMetadata":{"threadId":"th_1"}"#));
    }
}
