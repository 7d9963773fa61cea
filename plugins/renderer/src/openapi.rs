//! API reference pages from OpenAPI 3 documents: a page whose frontmatter says
//! `openapi: "GET /widgets/{id}"` (optionally prefixed by the document's file) gets the
//! operation's parameters, request and response schemas, examples, and a "Try it" form that
//! the theme's script turns into a playground.

use serde_json::{Map, Value, json};

use crate::code;
use crate::escape::{escaped, push_escaped};
use crate::markup::Markup;

/// Deepest schema nesting shown or turned into an example; deeper is cut (and cycles end).
const MAX_DEPTH: usize = 6;
const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// The site's OpenAPI documents, parsed.
#[derive(Debug, Default)]
pub struct ApiDocuments {
    documents: Vec<(String, Value)>,
}

/// One operation of a document.
#[derive(Debug)]
pub struct Operation<'a> {
    document: &'a Value,
    method: String,
    path: String,
    operation: &'a Value,
    path_item: &'a Value,
}

impl ApiDocuments {
    /// Parses `(path, text)` documents (JSON, or YAML for `.yaml`/`.yml`). A document that does
    /// not parse is left out, with a message naming it.
    pub fn parse(files: Vec<(String, String)>) -> (Self, Vec<String>) {
        let mut documents = Vec::new();
        let mut problems = Vec::new();
        for (path, text) in files {
            let parsed: Result<Value, String> = if path.ends_with(".json") {
                serde_json::from_str(&text).map_err(|e| e.to_string())
            } else {
                serde_yaml_ng::from_str(&text).map_err(|e| e.to_string())
            };
            match parsed {
                Ok(doc) if doc.get("openapi").is_some() => documents.push((path, doc)),
                Ok(_) => problems.push(format!(
                    "{path}: not an OpenAPI 3 document (no `openapi` field)"
                )),
                Err(e) => problems.push(format!("{path}: cannot be parsed: {e}")),
            }
        }
        (Self { documents }, problems)
    }

    /// Finds the operation a frontmatter `openapi` value names: `"GET /path"` in any
    /// document, or `"file.yaml GET /path"` in that one.
    pub fn find(&self, reference: &str) -> Result<Operation<'_>, String> {
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
            return self.webhook(reference, file, path);
        }
        if !METHODS.contains(&method.as_str()) {
            return Err(format!(
                "openapi {reference:?}: {method:?} is not an HTTP method"
            ));
        }
        if self.documents.is_empty() {
            return Err(format!(
                "openapi {reference:?}: the site has no OpenAPI document"
            ));
        }
        for (doc_path, document) in &self.documents {
            if file.is_some_and(|f| !names_document(f, doc_path)) {
                continue;
            }
            let Some(path_item) = document.pointer(&format!("/paths/{}", pointer_escape(path)))
            else {
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
}

impl ApiDocuments {
    /// The webhook `name` (OpenAPI 3.1 `webhooks`), in the document `file` or in any: its
    /// first operation, shown with the webhook's name in place of a path.
    fn webhook(
        &self,
        reference: &str,
        file: Option<&str>,
        name: &str,
    ) -> Result<Operation<'_>, String> {
        for (doc_path, document) in &self.documents {
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
}

/// Whether `name`, as a page's `openapi` field gives it, names the document at `path`: the
/// same path, or the path without its `.json`, `.yaml` or `.yml` ending.
fn names_document(name: &str, path: &str) -> bool {
    name == path
        || [".json", ".yaml", ".yml"]
            .iter()
            .any(|ext| path.strip_suffix(ext) == Some(name))
}

fn pointer_escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

impl Operation<'_> {
    /// The operation's summary, for the page title when the page has none.
    pub fn summary(&self) -> Option<&str> {
        self.operation.get("summary").and_then(Value::as_str)
    }

    pub fn description(&self) -> Option<&str> {
        self.operation.get("description").and_then(Value::as_str)
    }

    /// Follows a local `$ref` (`#/components/...`).
    fn resolve<'v>(&'v self, value: &'v Value) -> &'v Value {
        let mut value = value;
        for _ in 0..MAX_DEPTH {
            match value.get("$ref").and_then(Value::as_str) {
                Some(reference) => match reference
                    .strip_prefix('#')
                    .and_then(|p| self.document.pointer(p))
                {
                    Some(target) => value = target,
                    None => return &Value::Null,
                },
                None => return value,
            }
        }
        value
    }

    fn server(&self) -> String {
        self.operation
            .pointer("/servers/0/url")
            .or_else(|| self.document.pointer("/servers/0/url"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    fn parameters(&self) -> Vec<&Value> {
        let mut out: Vec<&Value> = Vec::new();
        for list in [
            self.path_item.get("parameters"),
            self.operation.get("parameters"),
        ] {
            for p in list.and_then(Value::as_array).into_iter().flatten() {
                let p = self.resolve(p);
                // Operation-level parameters override path-level ones of the same name and place.
                out.retain(|q| !(q.get("name") == p.get("name") && q.get("in") == p.get("in")));
                out.push(p);
            }
        }
        out
    }

    fn request_schema(&self) -> Option<(&Value, &Value)> {
        let body = self.resolve(self.operation.get("requestBody")?);
        let media = body.pointer("/content/application~1json")?;
        Some((body, media))
    }

    /// A media type's example: its own `example`, else one built from its schema.
    fn media_example(&self, media: &Value) -> Value {
        media
            .get("example")
            .cloned()
            .or_else(|| media.get("schema").map(|s| self.example(s, 0)))
            .unwrap_or(Value::Null)
    }

    /// An example value for `schema`: its own `example`, else one built from its shape.
    fn example(&self, schema: &Value, depth: usize) -> Value {
        let schema = self.resolve(schema);
        if let Some(example) = schema.get("example") {
            return example.clone();
        }
        if let Some(first) = schema.pointer("/enum/0") {
            return first.clone();
        }
        if depth >= MAX_DEPTH {
            return Value::Null;
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = Map::new();
            for part in all {
                if let Value::Object(m) = self.example(part, depth + 1) {
                    merged.extend(m);
                }
            }
            return Value::Object(merged);
        }
        if let Some(first) = schema
            .pointer("/oneOf/0")
            .or_else(|| schema.pointer("/anyOf/0"))
        {
            return self.example(first, depth + 1);
        }
        match schema_type(schema) {
            "object" => {
                let mut out = Map::new();
                if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                    for (name, prop) in props {
                        out.insert(name.clone(), self.example(prop, depth + 1));
                    }
                }
                Value::Object(out)
            }
            "array" => match schema.get("items") {
                Some(items) => json!([self.example(items, depth + 1)]),
                None => json!([]),
            },
            "integer" => json!(0),
            "number" => json!(0.0),
            "boolean" => json!(true),
            _ => match schema.get("format").and_then(Value::as_str) {
                Some("date-time") => json!("2024-01-01T00:00:00Z"),
                Some("date") => json!("2024-01-01"),
                Some("email") => json!("user@example.com"),
                Some("uuid") => json!("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
                Some("uri") => json!("https://example.com"),
                _ => json!("string"),
            },
        }
    }
}

fn schema_type(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ if schema.get("properties").is_some() => "object",
        _ if schema.get("items").is_some() => "array",
        _ => "",
    }
}

fn type_label(op: &Operation<'_>, schema: &Value) -> String {
    let schema = op.resolve(schema);
    match schema_type(schema) {
        "array" => {
            let items = schema.get("items").map(|i| type_label(op, i));
            format!("{}[]", items.unwrap_or_else(|| "any".into()))
        }
        "" => "any".into(),
        t => match schema.get("format").and_then(Value::as_str) {
            Some(format) => format!("{t} ({format})"),
            None => t.to_string(),
        },
    }
}

/// Renders the reference for `op` into the page.
pub fn render(m: &mut Markup<'_>, op: &Operation<'_>) {
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
                let name = p.get("name").and_then(Value::as_str).unwrap_or("");
                let schema = p.get("schema").cloned().unwrap_or(Value::Null);
                field(
                    m,
                    op,
                    name,
                    Some(location),
                    &schema,
                    p.get("required").and_then(Value::as_bool).unwrap_or(false),
                    p.get("description").and_then(Value::as_str),
                    0,
                );
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
            properties(m, op, schema, 0);
        }
    }
    if let Some(responses) = op.operation.get("responses").and_then(Value::as_object) {
        m.heading_text(2, "Responses");
        for (status, response) in responses {
            let response = op.resolve(response);
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
                properties(m, op, schema, 0);
            }
            m.html.push_str("</div>\n");
        }
    }
    examples(m, op, &server, request.map(|(_, media)| media));
    playground(m, op, &server, &parameters, request.map(|(_, media)| media));
}

/// The properties of an object schema as fields; nested objects open in an expandable.
fn properties(m: &mut Markup<'_>, op: &Operation<'_>, schema: &Value, depth: usize) {
    let schema = op.resolve(schema);
    let schema = match schema_type(schema) {
        "array" => op.resolve(schema.get("items").unwrap_or(&Value::Null)),
        _ => schema,
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            let description = op.resolve(prop).get("description").and_then(Value::as_str);
            field(
                m,
                op,
                name,
                None,
                prop,
                required.contains(&name.as_str()),
                description,
                depth,
            );
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn field(
    m: &mut Markup<'_>,
    op: &Operation<'_>,
    name: &str,
    location: Option<&str>,
    schema: &Value,
    required: bool,
    description: Option<&str>,
    depth: usize,
) {
    let resolved = op.resolve(schema);
    m.html
        .push_str("<div class=\"field\"><div class=\"field-head\"><code class=\"field-name\">");
    m.label(name);
    m.html.push_str("</code>");
    m.html.push_str(&format!(
        "<span class=\"field-type\">{}</span>",
        escaped(&type_label(op, schema))
    ));
    if let Some(location) = location {
        m.html
            .push_str(&format!("<span class=\"field-in\">{location}</span>"));
    }
    if required {
        m.html
            .push_str("<span class=\"field-required\">required</span>");
    }
    if let Some(default) = resolved.get("default") {
        m.html.push_str("<span class=\"field-default\">default: ");
        push_escaped(&mut m.html, &default.to_string());
        m.html.push_str("</span>");
    }
    m.html.push_str("</div>");
    if let Some(d) = description {
        m.html.push_str("<div class=\"field-body\"><p>");
        m.text(d);
        m.html.push_str("</p></div>");
    }
    let nested = match schema_type(resolved) {
        "array" => op.resolve(resolved.get("items").unwrap_or(&Value::Null)),
        _ => resolved,
    };
    if depth < MAX_DEPTH && nested.get("properties").is_some() {
        m.html.push_str("<details class=\"expandable\"><summary>Properties</summary><div class=\"expandable-body\">");
        properties(m, op, nested, depth + 1);
        m.html.push_str("</div></details>");
    }
    m.html.push_str("</div>\n");
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
    let response = op
        .operation
        .get("responses")
        .and_then(Value::as_object)
        .and_then(|r| {
            r.iter().find_map(|(status, response)| {
                let media = op.resolve(response).pointer("/content/application~1json")?;
                let example = media
                    .get("example")
                    .cloned()
                    .or_else(|| media.get("schema").map(|s| op.example(s, 0)))?;
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

/// The "Try it" form: plain inputs the theme's script sends with `fetch` when the playground is
/// switched on in the bundle's feature file; hidden otherwise.
fn playground(
    m: &mut Markup<'_>,
    op: &Operation<'_>,
    server: &str,
    parameters: &[&Value],
    request: Option<&Value>,
) {
    let mut html = format!(
        "<form class=\"playground\" hidden data-method=\"{}\" data-path=\"{}\">\
         <div class=\"playground-title\">Try it</div>\
         <label>Server <input name=\"server\" value=\"{}\" spellcheck=\"false\"></label>",
        escaped(&op.method),
        escaped(&op.path),
        escaped(server)
    );
    for p in parameters {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        let location = p.get("in").and_then(Value::as_str).unwrap_or("query");
        let example = p
            .get("example")
            .cloned()
            .or_else(|| {
                p.get("schema")
                    .and_then(|s| op.resolve(s).get("example").cloned())
            })
            .map(|v| match v {
                Value::String(s) => s,
                other => other.to_string(),
            })
            .unwrap_or_default();
        html.push_str(&format!(
            "<label><span>{} <span class=\"field-in\">{}</span></span><input data-in=\"{}\" data-name=\"{}\" value=\"{}\"></label>",
            escaped(name),
            escaped(location),
            escaped(location),
            escaped(name),
            escaped(&example)
        ));
    }
    if let Some(media) = request {
        let body = op.media_example(media);
        html.push_str(&format!(
            "<label>Body <textarea name=\"body\" rows=\"6\" spellcheck=\"false\">{}</textarea></label>",
            escaped(&serde_json::to_string_pretty(&body).unwrap_or_default())
        ));
    }
    html.push_str(
        "<button type=\"submit\">Send</button><pre class=\"playground-response\" aria-live=\"polite\"></pre></form>\n",
    );
    m.html.push_str(&html);
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn examples_follow_refs_and_stop_on_cycles() {
        let docs = docs();
        let op = docs.find("GET /widgets/{id}").unwrap();
        let schema = json!({"$ref": "#/components/schemas/Widget"});
        let example = op.example(&schema, 0);
        assert_eq!(example["id"], "w_1");
        assert_eq!(example["size"], 0);
        assert!(example["parts"].is_array());
        assert_eq!(op.parameters().len(), 2);
        assert_eq!(op.server(), "https://api.example.com/v1");
    }
}
