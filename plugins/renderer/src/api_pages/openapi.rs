//! OpenAPI 3 operations and webhooks as reference pages: the endpoint, parameters, request
//! body and responses in the page, a request and a response example in the side column, and the
//! "Try it" form.

use serde_json::Value;

use super::fields::{self, Field};
use super::playground;
use crate::api::request_examples::Language;
use crate::api::{Operation, PlaygroundDisplay};
use crate::code;
use crate::markup::Markup;

/// Renders the reference for `op` into the page, its examples into the side column.
pub fn render(
    m: &mut Markup<'_>,
    op: &Operation<'_>,
    display: PlaygroundDisplay,
    languages: &[Language],
) {
    let schemas = op.schemas();
    let server = op.server();
    m.html.push_str("<div class=\"api-endpoint\">");
    m.html.push_str(&format!(
        "<span class=\"method method-{}\">{}</span>",
        op.method.to_ascii_lowercase(),
        op.method
    ));
    m.html.push_str("<code class=\"api-path\">");
    m.text(&op.path);
    m.html.push_str("</code></div>\n");
    if let Some(description) = op.description() {
        m.html.push_str("<p>");
        m.text(description);
        m.html.push_str("</p>\n");
    }

    let parameters = op.parameters();
    if !parameters.is_empty() {
        m.heading_text(2, "Parameters");
        for location in ["path", "query", "header", "cookie"] {
            for p in parameters
                .iter()
                .filter(|p| p.get("in").and_then(Value::as_str) == Some(location))
            {
                let f = Field {
                    name: p.get("name").and_then(Value::as_str).unwrap_or(""),
                    location: Some(location),
                    schema: p.get("schema").unwrap_or(&Value::Null),
                    required: p.get("required").and_then(Value::as_bool).unwrap_or(false),
                    description: p.get("description").and_then(Value::as_str),
                };
                fields::field(m, schemas, &f, 0);
            }
        }
    }
    let request = op.request_schema();
    if let Some((body, media)) = request {
        m.heading_text(2, "Request body");
        if let Some(d) = body.get("description").and_then(Value::as_str) {
            m.html.push_str("<p>");
            m.text(d);
            m.html.push_str("</p>\n");
        }
        if let Some(schema) = media.get("schema") {
            fields::properties(m, schemas, schema, 0);
        }
    }
    if let Some(responses) = op.operation.get("responses").and_then(Value::as_object) {
        m.heading_text(2, "Responses");
        for (status, response) in responses {
            let response = schemas.resolve(response);
            m.html
                .push_str("<div class=\"api-response\"><div class=\"api-status\">");
            m.label(status);
            m.html.push_str("</div>");
            if let Some(d) = response.get("description").and_then(Value::as_str) {
                m.html.push_str("<p>");
                m.text(d);
                m.html.push_str("</p>");
            }
            if let Some(schema) = response.pointer("/content/application~1json/schema") {
                fields::properties(m, schemas, schema, 0);
            }
            m.html.push_str("</div>\n");
        }
    }
    let request_media = request.map(|(_, media)| media);
    m.aside(|m| examples(m, op, &server, request_media, languages));
    if display == PlaygroundDisplay::Interactive {
        let body = request_media.map(|media| op.media_example(media));
        playground::form(
            m,
            &playground::Request {
                method: &op.method,
                path: &op.path,
                server: &server,
                parameters: &parameters,
                body: body.as_ref(),
            },
            schemas,
        );
    }
}

/// A code sample an OpenAPI operation gives (`x-codeSamples`, or the older
/// `x-code-samples`): `{lang, label?, source}`.
struct CodeSample {
    language: String,
    /// The tab's title: `label`, else the language.
    label: String,
    source: String,
}

/// The operation's code samples, in order; an entry without `lang` or `source` is left out.
fn code_samples(operation: &Value) -> Vec<CodeSample> {
    let entries = operation
        .get("x-codeSamples")
        .or_else(|| operation.get("x-code-samples"))
        .and_then(Value::as_array);
    entries
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let language = entry.get("lang")?.as_str()?.trim();
            let source = entry.get("source")?.as_str()?;
            let label = entry
                .get("label")
                .and_then(Value::as_str)
                .filter(|l| !l.trim().is_empty())
                .unwrap_or(language);
            // A fence's language is one word ("TypeScript" highlights as `typescript`).
            let fence: String = language
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, '+' | '#' | '-' | '_'))
                .collect();
            Some(CodeSample {
                language: fence,
                label: label.to_string(),
                source: source.trim_end().to_string(),
            })
        })
        .collect()
}

/// The request (the operation's own code samples, then one generated in each of the site's
/// `languages`) and the first JSON response's example, as highlighted code.
fn examples(
    m: &mut Markup<'_>,
    op: &Operation<'_>,
    server: &str,
    request: Option<&Value>,
    languages: &[Language],
) {
    m.html.push_str("<div class=\"api-examples\">");
    let url = format!("{server}{}", op.path);
    let body = request.map(|media| op.media_example(media));
    let mut blocks: Vec<(String, String, String)> = code_samples(op.operation)
        .into_iter()
        .map(|s| (s.language, s.label, s.source))
        .collect();
    blocks.extend(languages.iter().map(|language| {
        (
            language.fence().to_string(),
            language.label().to_string(),
            language.request(&op.method, &url, body.as_ref()),
        )
    }));
    m.html.push_str("<div class=\"request-example\">");
    match blocks.as_slice() {
        [(fence, _, code)] => m
            .html
            .push_str(&code::block(Some(fence), Some("Request"), code)),
        _ => {
            // The authors' samples first (their SDK, say), then the generated ones, as tabs.
            m.html.push_str("<div class=\"code-group\">");
            for (fence, label, code) in &blocks {
                m.html
                    .push_str(&code::block(Some(fence), Some(label), code));
            }
            m.html.push_str("</div>");
        }
    }
    m.html.push_str("</div>");
    let schemas = op.schemas();
    let response = op
        .operation
        .get("responses")
        .and_then(Value::as_object)
        .and_then(|r| {
            r.iter().find_map(|(status, response)| {
                let media = schemas
                    .resolve(response)
                    .pointer("/content/application~1json")?;
                let example = media
                    .get("example")
                    .cloned()
                    .or_else(|| media.get("schema").map(|s| schemas.example(s, 0)))?;
                Some((status.clone(), example))
            })
        });
    if let Some((status, example)) = response {
        let text = serde_json::to_string_pretty(&example).unwrap_or_default();
        m.html.push_str("<div class=\"response-example\">");
        m.html.push_str(&code::block(
            Some("json"),
            Some(&format!("Response {status}")),
            &text,
        ));
        m.html.push_str("</div>");
    }
    m.html.push_str("</div>\n");
}
