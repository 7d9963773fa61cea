//! OpenAPI 3 operations and webhooks as reference pages: the endpoint, parameters, request
//! body and responses in the page, a request and a response example in the side column, and the
//! "Try it" form.

use serde_json::Value;

use super::fields::{self, Field};
use super::playground;
use super::schema::Schemas;
use super::{PlaygroundDisplay, names_document, pointer_escape};
use crate::code;
use crate::markup::Markup;

const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// One operation of a document.
#[derive(Debug)]
pub struct Operation<'a> {
    document: &'a Value,
    method: String,
    path: String,
    operation: &'a Value,
    path_item: &'a Value,
}

/// The operation `reference` names among `documents` (see `ApiDocuments::find`).
pub(super) fn find<'a>(
    documents: &'a [(String, Value)],
    reference: &str,
) -> Result<Operation<'a>, String> {
    let words: Vec<&str> = reference.split_whitespace().collect();
    let (file, method, path) = match words.as_slice() {
        [method, path] => (None, *method, *path),
        [file, method, path] => (Some(file.trim_start_matches('/')), *method, *path),
        _ => {
            return Err(format!(
                "openapi {reference:?} should read \"METHOD /path\" or \"file METHOD /path\""
            ));
        }
    };
    let method = method.to_ascii_lowercase();
    if method == "webhook" {
        return webhook(documents, reference, file, path);
    }
    if !METHODS.contains(&method.as_str()) {
        return Err(format!(
            "openapi {reference:?}: {method:?} is not an HTTP method"
        ));
    }
    if documents.is_empty() {
        return Err(format!(
            "openapi {reference:?}: the site has no OpenAPI document"
        ));
    }
    for (doc_path, document) in documents {
        if file.is_some_and(|f| !names_document(f, doc_path)) {
            continue;
        }
        let Some(path_item) = document.pointer(&format!("/paths/{}", pointer_escape(path))) else {
            continue;
        };
        if let Some(operation) = path_item.get(&method) {
            return Ok(Operation {
                document,
                method: method.to_ascii_uppercase(),
                path: path.to_string(),
                operation,
                path_item,
            });
        }
    }
    Err(format!(
        "openapi {reference:?}: no such operation in the site's OpenAPI documents"
    ))
}

/// The webhook `name` (OpenAPI 3.1 `webhooks`), in the document `file` or in any: its first
/// operation, shown with the webhook's name in place of a path.
fn webhook<'a>(
    documents: &'a [(String, Value)],
    reference: &str,
    file: Option<&str>,
    name: &str,
) -> Result<Operation<'a>, String> {
    for (doc_path, document) in documents {
        if file.is_some_and(|f| !names_document(f, doc_path)) {
            continue;
        }
        let Some(path_item) = document.pointer(&format!("/webhooks/{}", pointer_escape(name)))
        else {
            continue;
        };
        if let Some((method, operation)) =
            METHODS.iter().find_map(|m| Some((*m, path_item.get(*m)?)))
        {
            return Ok(Operation {
                document,
                method: method.to_ascii_uppercase(),
                path: name.to_string(),
                operation,
                path_item,
            });
        }
    }
    Err(format!(
        "openapi {reference:?}: no such webhook in the site's OpenAPI documents"
    ))
}

impl<'a> Operation<'a> {
    /// The operation's summary, for the page title when the page has none.
    pub fn summary(&self) -> Option<&'a str> {
        self.operation.get("summary").and_then(Value::as_str)
    }

    fn description(&self) -> Option<&'a str> {
        self.operation.get("description").and_then(Value::as_str)
    }

    fn schemas(&self) -> Schemas<'a> {
        Schemas {
            document: self.document,
        }
    }

    fn server(&self) -> String {
        self.operation
            .pointer("/servers/0/url")
            .or_else(|| self.document.pointer("/servers/0/url"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    /// Path-level and operation-level parameters, references followed.
    fn parameters(&self) -> Vec<&'a Value> {
        let schemas = self.schemas();
        let mut out: Vec<&Value> = Vec::new();
        for list in [
            self.path_item.get("parameters"),
            self.operation.get("parameters"),
        ] {
            for p in list.and_then(Value::as_array).into_iter().flatten() {
                let p = schemas.resolve(p);
                // Operation-level parameters override path-level ones of the same name and place.
                out.retain(|q| !(q.get("name") == p.get("name") && q.get("in") == p.get("in")));
                out.push(p);
            }
        }
        out
    }

    fn request_schema(&self) -> Option<(&'a Value, &'a Value)> {
        let body = self.schemas().resolve(self.operation.get("requestBody")?);
        let media = body.pointer("/content/application~1json")?;
        Some((body, media))
    }

    /// A media type's example: its own `example`, else one built from its schema.
    fn media_example(&self, media: &Value) -> Value {
        media
            .get("example")
            .cloned()
            .or_else(|| media.get("schema").map(|s| self.schemas().example(s, 0)))
            .unwrap_or(Value::Null)
    }
}

/// Renders the reference for `op` into the page, its examples into the side column.
pub fn render(m: &mut Markup<'_>, op: &Operation<'_>, display: PlaygroundDisplay) {
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
    m.aside(|m| examples(m, op, &server, request_media));
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

/// A curl request and the first JSON response's example, as highlighted code.
fn examples(m: &mut Markup<'_>, op: &Operation<'_>, server: &str, request: Option<&Value>) {
    m.html.push_str("<div class=\"api-examples\">");
    let mut curl = format!("curl -X {} \"{}{}\"", op.method, server, op.path);
    if let Some(media) = request {
        let body = op.media_example(media);
        let body = serde_json::to_string(&body).unwrap_or_default();
        curl.push_str(" \\\n  -H \"Content-Type: application/json\" \\\n  -d '");
        curl.push_str(&body.replace('\'', "'\\''"));
        curl.push('\'');
    }
    m.html.push_str("<div class=\"request-example\">");
    m.html
        .push_str(&code::block(Some("bash"), Some("Request"), &curl));
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

#[cfg(test)]
mod tests {
    use super::super::ApiDocuments;

    fn docs() -> ApiDocuments {
        let yaml = r##"
openapi: 3.0.3
info: {title: Widgets, version: "1"}
servers: [{url: "https://api.example.com/v1"}]
paths:
  /widgets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}, example: w_1}
    get:
      summary: Get a widget
      parameters:
        - {name: expand, in: query, schema: {type: boolean}}
      responses:
        "200":
          description: The widget
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Widget"}
components:
  schemas:
    Widget:
      type: object
      required: [id]
      properties:
        id: {type: string, example: w_1}
        size: {type: integer}
        parts: {type: array, items: {$ref: "#/components/schemas/Widget"}}
"##;
        let (docs, problems) = ApiDocuments::parse(vec![
            ("openapi.yaml".into(), yaml.into()),
            ("broken.json".into(), "{".into()),
        ]);
        assert_eq!(problems.len(), 1);
        docs
    }

    #[test]
    fn operations_are_found_by_method_and_path() {
        let docs = docs();
        let op = docs.find("GET /widgets/{id}").unwrap();
        assert_eq!(op.summary(), Some("Get a widget"));
        assert!(docs.find("openapi.yaml get /widgets/{id}").is_ok());
        assert!(
            docs.find("POST /widgets/{id}")
                .unwrap_err()
                .contains("no such operation")
        );
        assert!(
            docs.find("FETCH /x")
                .unwrap_err()
                .contains("not an HTTP method")
        );
        assert!(docs.find("nonsense").is_err());
    }

    #[test]
    fn parameters_merge_by_place_and_the_server_comes_from_the_document() {
        let docs = docs();
        let op = docs.find("GET /widgets/{id}").unwrap();
        assert_eq!(op.parameters().len(), 2);
        assert_eq!(op.server(), "https://api.example.com/v1");
    }
}
