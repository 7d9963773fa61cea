//! OpenAPI 3 operations and webhooks as reference pages: the endpoint, parameters, request
//! body and responses in the page, a request and a response example in the side column, and the
//! "Try it" form.

use serde_json::Value;

use super::fields::{self, Field};
use super::{endpoint, playground};
use crate::api::auth::Credential;
use crate::api::request_examples::ExampleRequest;
use crate::api::{Operation, PlaygroundDisplay};
use crate::code;
use crate::markup::Markup;

/// Renders the reference for `op` into the page, its examples into the side column.
pub fn render(m: &mut Markup<'_>, op: &Operation<'_>, display: PlaygroundDisplay) {
    let schemas = op.schemas();
    let server = op.server();
    endpoint::bar(m, &op.method, &server, &op.path);
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
    let credentials = Credential::from_openapi(op.document, op.operation);
    m.aside(|m| examples(m, op, &server, request_media, &credentials));
    if display == PlaygroundDisplay::Interactive {
        let body = request_media.map(|media| op.media_example(media));
        let inputs: Vec<Value> = credentials.iter().map(Credential::as_parameter).collect();
        let mut parameters = parameters;
        parameters.extend(inputs.iter());
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

/// The request a generated example sends: the operation's server and path, its required query
/// parameters and its header parameters with their examples, the credentials, and the body's
/// example.
fn example_request(
    op: &Operation<'_>,
    server: &str,
    request: Option<&Value>,
    credentials: &[Credential],
) -> ExampleRequest {
    let schemas = op.schemas();
    let mut example = ExampleRequest {
        method: op.method.clone(),
        url: format!("{server}{}", op.path),
        headers: Vec::new(),
        body: request.map(|media| op.media_example(media)),
    };
    for p in op.parameters() {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        let required = p.get("required").and_then(Value::as_bool).unwrap_or(false);
        let location = p.get("in").and_then(Value::as_str).unwrap_or("");
        let schema = schemas.resolve(p.get("schema").unwrap_or(&Value::Null));
        let value = p
            .get("example")
            .or_else(|| schema.get("example"))
            .or_else(|| schema.get("default"))
            .cloned()
            .unwrap_or_else(|| {
                let kind = schema
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("string");
                Value::String(format!("<{kind}>"))
            });
        example.add_parameter(location, name, &value, required);
    }
    for credential in credentials {
        credential.apply(&mut example);
    }
    example
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
/// languages) and the first JSON response's example, as highlighted code.
fn examples(
    m: &mut Markup<'_>,
    op: &Operation<'_>,
    server: &str,
    request: Option<&Value>,
    credentials: &[Credential],
) {
    m.html.push_str("<div class=\"api-examples\">");
    let samples = code_samples(op.operation)
        .into_iter()
        .map(|s| (s.language, s.label, s.source))
        .collect();
    let example = example_request(op, server, request, credentials);
    let site = m.site;
    endpoint::request_tabs(m, samples, &example, &site.settings.api.request_languages);
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

#[cfg(test)]
mod tests {
    use crate::page::render_page;
    use crate::site::Site;

    #[test]
    fn examples_carry_the_credential_required_query_and_headers() {
        let yaml = r#"
openapi: 3.0.0
info: {title: T, version: "1"}
servers: [{url: "https://api.acme.test"}]
security: [{token: []}]
paths:
  /runs:
    get:
      summary: List runs
      parameters:
        - {name: status, in: query, required: true, schema: {type: string, example: done}}
        - {name: page, in: query, schema: {type: integer}}
        - {name: X-Team, in: header, schema: {type: string}}
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema:
                type: object
                properties:
                  run: {type: object, properties: {id: {type: string}}}
components:
  securitySchemes:
    token: {type: http, scheme: bearer}
"#;
        let config =
            r#"{"api": {"examples": {"languages": ["curl"]}, "params": {"expanded": "all"}}}"#;
        let site = Site::new("Acme".into(), "v1".into(), vec![], config, vec![])
            .unwrap()
            .with_files(vec![], vec![("openapi.yaml".into(), yaml.into())]);
        let out = render_page(&site, "runs", "runs.mdx", "---\nopenapi: GET /runs\n---\n");
        let html = &out.html;
        // Highlighted, the example's words sit between spans.
        for part in [
            "https://api.acme.test/runs?status=done",
            "X-Team: &lt;string&gt;",
            "Authorization: Bearer &lt;token&gt;",
        ] {
            assert!(html.contains(part), "{part}: {html}");
        }
        assert!(
            !html.contains("&amp;page="),
            "an optional query parameter is not sent"
        );
        assert!(html.contains("<details class=\"expandable\" open><summary>Properties"));
        assert!(html.contains(
            "data-name=\"Authorization\" value=\"\" placeholder=\"Bearer &lt;token&gt;\""
        ));
    }
}
