//! OpenAPI 3 operations and webhooks: finding the one a page names, and reading its endpoint,
//! parameters, request body and server (`api_pages` draws them).

use serde_json::Value;

use super::schema::Schemas;
use super::{names_document, pointer_escape};

/// The HTTP methods an OpenAPI path item or a hand-written page's `api` field may name.
pub(super) const METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// One operation of a document.
#[derive(Debug)]
pub struct Operation<'a> {
    pub(crate) document: &'a Value,
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) operation: &'a Value,
    pub(crate) path_item: &'a Value,
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

    pub(crate) fn description(&self) -> Option<&'a str> {
        self.operation.get("description").and_then(Value::as_str)
    }

    pub(crate) fn schemas(&self) -> Schemas<'a> {
        Schemas {
            document: self.document,
        }
    }

    pub(crate) fn server(&self) -> String {
        self.operation
            .pointer("/servers/0/url")
            .or_else(|| self.document.pointer("/servers/0/url"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    /// Path-level and operation-level parameters, references followed.
    pub(crate) fn parameters(&self) -> Vec<&'a Value> {
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

    pub(crate) fn request_schema(&self) -> Option<(&'a Value, &'a Value)> {
        let body = self.schemas().resolve(self.operation.get("requestBody")?);
        let media = body.pointer("/content/application~1json")?;
        Some((body, media))
    }

    /// A media type's example: its own `example`, else one built from its schema.
    pub(crate) fn media_example(&self, media: &Value) -> Value {
        media
            .get("example")
            .cloned()
            .or_else(|| media.get("schema").map(|s| self.schemas().example(s, 0)))
            .unwrap_or(Value::Null)
    }
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
