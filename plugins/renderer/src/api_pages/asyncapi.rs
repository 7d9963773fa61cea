//! AsyncAPI channels as reference pages: the channel's address on its server, its parameters,
//! and for each operation on it the messages with their payload and headers; message examples
//! go in the side column.

use serde_json::Value;

use super::fields::{self, Field};
use crate::api::asyncapi::{message_name, payload};
use crate::api::{Channel, Schemas};
use crate::code;
use crate::markup::Markup;

/// Renders the reference for `channel` into the page, message examples into the side column.
pub fn render(m: &mut Markup<'_>, channel: &Channel<'_>) {
    let schemas = channel.schemas();
    let (protocol, server) = channel.server();
    let label = protocol.unwrap_or("channel").to_ascii_uppercase();
    m.html.push_str(&format!(
        "<div class=\"api-endpoint\"><span class=\"method method-channel\">{}</span><code class=\"api-path\">",
        quire_sdk::escape::html(&label)
    ));
    let address = channel.address().unwrap_or_default();
    let joined = match (server.is_empty(), address.is_empty()) {
        (false, false) => format!(
            "{}/{}",
            server.trim_end_matches('/'),
            address.trim_start_matches('/')
        ),
        (false, true) => server,
        _ => address,
    };
    m.text(if joined.is_empty() {
        &channel.id
    } else {
        &joined
    });
    m.html.push_str("</code></div>\n");
    for key in ["summary", "description"] {
        if let Some(text) = channel.channel.get(key).and_then(Value::as_str) {
            m.html.push_str("<p>");
            m.text(text);
            m.html.push_str("</p>\n");
        }
    }
    if let Some(parameters) = channel.channel.get("parameters").and_then(Value::as_object) {
        m.heading_text(2, "Parameters");
        for (name, parameter) in parameters {
            let parameter = schemas.resolve(parameter);
            // 2.x nests a schema; 3.0 parameters are strings, with enum/default on themselves.
            let v3_schema;
            let schema = match parameter.get("schema") {
                Some(schema) => schema,
                None => {
                    let mut schema = parameter.clone();
                    if let Value::Object(fields) = &mut schema {
                        fields.insert("type".into(), Value::String("string".into()));
                    }
                    v3_schema = schema;
                    &v3_schema
                }
            };
            let f = Field {
                name,
                location: Some("channel"),
                schema,
                required: true,
                description: parameter.get("description").and_then(Value::as_str),
            };
            fields::field(m, schemas, &f, 0);
        }
    }
    let operations = channel.operations();
    let mut examples = Vec::new();
    for op in &operations {
        let verb = capitalised(&op.action);
        let heading = match op.summary {
            Some(summary) => format!("{verb}: {summary}"),
            None => verb,
        };
        m.heading_text(2, &heading);
        if let Some(d) = op.description {
            m.html.push_str("<p>");
            m.text(d);
            m.html.push_str("</p>\n");
        }
        // One message named as its operation needs no heading of its own.
        let one_named_alike =
            op.messages.len() == 1 && op.summary == Some(message_name(op.messages[0]));
        for message in &op.messages {
            message_reference(m, schemas, message, !one_named_alike);
            examples.push((
                format!("{} · {}", op.action, message_name(message)),
                *message,
            ));
        }
    }
    if operations.is_empty()
        && let Some(messages) = channel.channel.get("messages")
    {
        m.heading_text(2, "Messages");
        for message in messages
            .as_object()
            .into_iter()
            .flatten()
            .map(|(_, v)| schemas.resolve(v))
        {
            message_reference(m, schemas, message, true);
            examples.push((message_name(message).to_string(), message));
        }
    }
    if !examples.is_empty() {
        m.aside(|m| {
            m.html.push_str("<div class=\"api-examples\">");
            for (title, message) in examples {
                let example = message
                    .pointer("/examples/0/payload")
                    .cloned()
                    .or_else(|| payload(message).map(|p| schemas.example(p, 0)))
                    .unwrap_or(Value::Null);
                let text = serde_json::to_string_pretty(&example).unwrap_or_default();
                m.html.push_str("<div class=\"message-example\">");
                m.html
                    .push_str(&code::block(Some("json"), Some(&title), &text));
                m.html.push_str("</div>");
            }
            m.html.push_str("</div>\n");
        });
    }
}

/// One message: its name (as a heading, if `titled`), description, payload and headers as
/// fields.
fn message_reference(m: &mut Markup<'_>, schemas: Schemas<'_>, message: &Value, titled: bool) {
    if titled {
        m.heading_text(3, message_name(message));
    }
    for key in ["summary", "description"] {
        if let Some(text) = message.get(key).and_then(Value::as_str) {
            m.html.push_str("<p>");
            m.text(text);
            m.html.push_str("</p>\n");
        }
    }
    if let Some(payload) = payload(message) {
        let resolved = schemas.resolve(payload);
        if resolved.get("properties").is_some() || resolved.get("items").is_some() {
            fields::properties(m, schemas, payload, 0);
        } else {
            let f = Field {
                name: "payload",
                location: None,
                schema: payload,
                required: true,
                description: resolved.get("description").and_then(Value::as_str),
            };
            fields::field(m, schemas, &f, 0);
        }
    }
    if let Some(headers) = message.get("headers") {
        m.html.push_str(
            "<div class=\"message-headers\"><div class=\"field-group-title\">Headers</div>",
        );
        fields::properties(m, schemas, headers, 0);
        m.html.push_str("</div>");
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
