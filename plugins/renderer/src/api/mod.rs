//! The site's API documents, as data: OpenAPI 3 operations and webhooks (frontmatter
//! `openapi: "GET /widgets/{id}"`, optionally after the document's file) and AsyncAPI 2 and 3
//! channels (frontmatter `asyncapi: "file channel"`). This module parses the documents and finds
//! what a page names, reads the `api` settings and a request's credentials, and writes the
//! request examples (`request_examples`); `api_pages` draws it. Keeping the two apart lets the
//! prepared `Site` hold the documents without depending on the drawing, which goes through
//! `markup`.

pub(crate) mod asyncapi;
pub(crate) mod auth;
mod openapi;
pub(crate) mod request_examples;
pub(crate) mod schema;
mod settings;

use serde_json::Value;

pub use asyncapi::Channel;
pub use openapi::Operation;
pub use schema::Schemas;
pub use settings::ApiSettings;

/// The site's API documents, parsed.
#[derive(Debug, Default)]
pub struct ApiDocuments {
    openapi: Vec<(String, Value)>,
    asyncapi: Vec<(String, Value)>,
}

/// How API pages offer "Try it" (docs.json `api.playground.display`, or a page's `playground`
/// frontmatter): `interactive` shows the form, `simple` and `none` do not, and `auth` (for
/// signed-in readers only) does not either, as a static bundle has no sign-in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PlaygroundDisplay {
    #[default]
    Interactive,
    Simple,
    None,
}

impl PlaygroundDisplay {
    /// Reads a docs.json or frontmatter value (mint.json's `show`/`simple`/`hide` too);
    /// unknown values are `None`, so the caller keeps its default.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "interactive" | "show" => Some(Self::Interactive),
            "simple" => Some(Self::Simple),
            "none" | "hide" | "auth" => Some(Self::None),
            _ => None,
        }
    }

    /// The site's setting: `api.playground.display`, or mint.json's `api.playground.mode`.
    pub fn from_config(api: &quire_sdk::config::ApiConfig) -> Self {
        api.playground
            .setting()
            .and_then(Self::parse)
            .unwrap_or_default()
    }
}

impl ApiDocuments {
    /// Parses `(path, text)` documents (JSON, or YAML for `.yaml`/`.yml`), sorting OpenAPI from
    /// AsyncAPI by their version field. A document that does not parse or is neither is left
    /// out, with a message naming it.
    pub fn parse(files: Vec<(String, String)>) -> (Self, Vec<String>) {
        let mut documents = Self::default();
        let mut problems = Vec::new();
        for (path, text) in files {
            let parsed: Result<Value, String> = if path.ends_with(".json") {
                serde_json::from_str(&text).map_err(|e| e.to_string())
            } else {
                serde_yaml_ng::from_str(&text).map_err(|e| e.to_string())
            };
            match parsed {
                Ok(doc) if doc.get("openapi").is_some() => documents.openapi.push((path, doc)),
                Ok(doc) if doc.get("asyncapi").is_some() => documents.asyncapi.push((path, doc)),
                Ok(_) => problems.push(format!(
                    "{path}: neither an OpenAPI 3 nor an AsyncAPI document (no `openapi` or `asyncapi` field)"
                )),
                Err(e) => problems.push(format!("{path}: cannot be parsed: {e}")),
            }
        }
        (documents, problems)
    }

    /// Finds the operation a frontmatter `openapi` value names: `"GET /path"` or
    /// `"webhook name"` in any document, or `"file.yaml GET /path"` in that one.
    pub fn find(&self, reference: &str) -> Result<Operation<'_>, String> {
        openapi::find(&self.openapi, reference)
    }

    /// Finds the channel a frontmatter `asyncapi` value names: `"channel"` in any document, or
    /// `"file.yaml channel"` in that one.
    pub fn find_channel(&self, reference: &str) -> Result<Channel<'_>, String> {
        asyncapi::find(&self.asyncapi, reference)
    }
}

/// Whether `method` (any case) is an HTTP method an API page can document.
pub fn is_http_method(method: &str) -> bool {
    openapi::METHODS.contains(&method.to_ascii_lowercase().as_str())
}

/// Whether `name`, as a page's `openapi` or `asyncapi` field gives it, names the document at
/// `path`: the same path, or the path without its `.json`, `.yaml` or `.yml` ending.
fn names_document(name: &str, path: &str) -> bool {
    let name = name.trim_start_matches('/');
    name == path
        || [".json", ".yaml", ".yml"]
            .iter()
            .any(|ext| path.strip_suffix(ext) == Some(name))
}

/// A key as one segment of a JSON pointer.
fn pointer_escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_sorted_by_kind_and_bad_ones_named() {
        let (docs, problems) = ApiDocuments::parse(vec![
            ("openapi.yaml".into(), "openapi: 3.1.0\npaths: {}\n".into()),
            (
                "events.yaml".into(),
                "asyncapi: 3.0.0\nchannels: {}\n".into(),
            ),
            ("other.json".into(), "{\"swagger\": \"2.0\"}".into()),
            ("broken.json".into(), "{".into()),
        ]);
        assert_eq!((docs.openapi.len(), docs.asyncapi.len()), (1, 1));
        assert_eq!(problems.len(), 2);
        assert!(problems[0].contains("other.json"), "{problems:?}");
        assert!(names_document("/events", "events.yaml"));
        assert!(!names_document("event", "events.yaml"));
    }

    #[test]
    fn playground_display_reads_both_spellings() {
        let config = serde_json::json!({"api": {"playground": {"display": "simple"}}});
        assert_eq!(
            PlaygroundDisplay::from_config(&quire_sdk::config::SiteConfig::of(&config).api),
            PlaygroundDisplay::Simple
        );
        let mint = serde_json::json!({"api": {"playground": {"mode": "hide"}}});
        assert_eq!(
            PlaygroundDisplay::from_config(&quire_sdk::config::SiteConfig::of(&mint).api),
            PlaygroundDisplay::None
        );
        assert_eq!(
            PlaygroundDisplay::from_config(&quire_sdk::config::SiteConfig::of(&Value::Null).api),
            PlaygroundDisplay::Interactive
        );
        assert_eq!(
            PlaygroundDisplay::parse("auth"),
            Some(PlaygroundDisplay::None)
        );
    }
}
