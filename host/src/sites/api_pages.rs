//! Pages the navigation generates from API documents: an entry naming an OpenAPI operation
//! (`"GET /users"`, `"/spec.yaml POST /users"`, `"webhook order.created"`), a navigation
//! element with an `openapi` document and no pages, which stands for every operation in it, and
//! one with an `asyncapi` document and no pages, which stands for every channel in it. Each
//! becomes a page whose source is one frontmatter line naming the operation or channel, so every
//! renderer draws it as it draws an authored page with `openapi:` or `asyncapi:` in its
//! frontmatter.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;
use serde_yaml_ng::Value as Yaml;

use quire_core::config::navigation::ApiSource;

use super::api_extensions::PageExtensions;

/// HTTP methods of an OpenAPI path item, in the order pages are generated.
const METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "trace",
];

/// A page generated from an operation.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedPage {
    /// The page path (`api-reference/get-users`).
    pub path: String,
    /// The page's source: frontmatter naming the operation.
    pub source: String,
}

/// An OpenAPI or AsyncAPI document named by a navigation element: the file (root-relative, or
/// a URL), and the folder its generated pages go in.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiSpec {
    pub file: String,
    pub directory: String,
}

impl ApiSpec {
    /// The spec a navigation element's `openapi` or `asyncapi` field names, its generated
    /// pages in `api-reference/` unless it says where.
    pub fn of(source: &ApiSource) -> Self {
        Self {
            file: source.source.trim_start_matches('/').to_string(),
            directory: source
                .directory
                .as_deref()
                .unwrap_or("api-reference")
                .trim_matches('/')
                .to_string(),
        }
    }
}

/// The generated page for the navigation entry `entry` (`"GET /users"` or with a file before
/// it) under `spec`, at a path no other page has taken (recorded in `taken`): the operation's
/// `x-mint.href` if it gives one, and its `x-mint` metadata and content in the source.
pub fn operation_page(
    entry: &str,
    spec: Option<&ApiSpec>,
    extensions: &PageExtensions,
    taken: &mut HashSet<String>,
) -> GeneratedPage {
    let words: Vec<&str> = entry.split_whitespace().collect();
    let (file, method, path) = match words.as_slice() {
        [file, method, path, ..] if !is_method(file) => {
            (Some(file.trim_start_matches('/')), *method, *path)
        }
        [method, path, ..] => (spec.map(|s| s.file.as_str()), *method, *path),
        _ => (None, entry, ""),
    };
    let reference = match file {
        Some(file) if !file.contains("://") => format!("{file} {method} {path}"),
        _ => format!("{method} {path}"),
    };
    let directory = spec.map_or("api-reference", |s| s.directory.as_str());
    let wanted = match &extensions.href {
        Some(href) if !href.is_empty() => href.clone(),
        _ => format!("{directory}/{}", path_slug(&format!("{method} {path}"))),
    };
    GeneratedPage {
        path: unique(&wanted, taken),
        source: extensions.page_source("openapi", &reference),
    }
}

/// The document `spec` names, read from the site at `root` (JSON or YAML: both parse as YAML,
/// whose mappings keep the document's order); `Err` says why it cannot be read.
pub fn load_document(root: &Path, spec: &ApiSpec) -> Result<Yaml, String> {
    if spec.file.contains("://") {
        return Err(format!(
            "the API document {} is a URL; a static export cannot fetch it, so list its pages or add the file to the site",
            spec.file
        ));
    }
    let text = std::fs::read_to_string(root.join(&spec.file))
        .map_err(|e| format!("cannot read the API document {}: {e}", spec.file))?;
    serde_yaml_ng::from_str(&text)
        .map_err(|e| format!("the API document {} does not parse: {e}", spec.file))
}

/// The generated page for the AsyncAPI channel `id` of `spec`'s document, at a path no other
/// page has taken.
pub fn channel_page(id: &str, spec: &ApiSpec, taken: &mut HashSet<String>) -> GeneratedPage {
    let reference = if spec.file.contains("://") {
        id.to_string()
    } else {
        format!("{} {id}", spec.file)
    };
    let path = unique(&format!("{}/{}", spec.directory, path_slug(id)), taken);
    GeneratedPage {
        path,
        source: format!("---\nasyncapi: {}\n---\n", Value::String(reference)),
    }
}

/// Every channel of an AsyncAPI `document` as (its key, its label: `title`, else the key), in
/// document order. Keys with spaces cannot be named in frontmatter and are left out.
pub fn all_channels(document: &Yaml) -> Vec<(String, String)> {
    let channels = document.get("channels").and_then(Yaml::as_mapping);
    channels
        .into_iter()
        .flatten()
        .filter_map(|(id, channel)| {
            let id = id.as_str().filter(|id| !id.contains(char::is_whitespace))?;
            let label = channel
                .get("title")
                .and_then(Yaml::as_str)
                .unwrap_or(id)
                .to_string();
            Some((id.to_string(), label))
        })
        .collect()
}

/// Every operation of `document` as navigation entries (`"GET /users"`), grouped by their
/// first tag, in document order; those marked `x-excluded` are left out.
pub fn all_operations(document: &Yaml) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let paths = document.get("paths").and_then(Yaml::as_mapping);
    for (path, item) in paths.into_iter().flatten() {
        let Some(path) = path.as_str() else { continue };
        for method in METHODS {
            let Some(operation) = item.get(*method) else {
                continue;
            };
            if PageExtensions::of(operation).excluded {
                continue;
            }
            let tag = operation
                .get("tags")
                .and_then(|t| t.get(0))
                .and_then(Yaml::as_str)
                .unwrap_or("Endpoints")
                .to_string();
            let entry = format!("{} {path}", method.to_ascii_uppercase());
            match groups.iter_mut().find(|(t, _)| *t == tag) {
                Some((_, entries)) => entries.push(entry),
                None => groups.push((tag, vec![entry])),
            }
        }
    }
    groups
}

/// The operation object the entry `entry` (`"GET /users"`) names in `document`.
pub fn operation<'a>(document: &'a Yaml, entry: &str) -> Option<&'a Yaml> {
    let words: Vec<&str> = entry.split_whitespace().collect();
    let [method, path] = words[words.len().saturating_sub(2)..] else {
        return None;
    };
    document
        .get("paths")?
        .get(path)?
        .get(method.to_ascii_lowercase().as_str())
}

fn is_method(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    METHODS.contains(&lower.as_str()) || lower == "webhook"
}

/// A generated page's file name from an operation (`GET /users/{id}` → `get-users-id`): words
/// kept apart by `-`, unlike a heading anchor (`quire_core::sections::slug`), which drops `/`.
fn path_slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn unique(path: &str, taken: &mut HashSet<String>) -> String {
    let mut candidate = path.to_string();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{path}-{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec a navigation field written as `value` names.
    fn spec_of(value: serde_json::Value) -> Option<ApiSpec> {
        ApiSource::read(&value).map(|source| ApiSpec::of(&source))
    }

    #[test]
    fn operation_entries_become_pages_naming_their_document() {
        let spec = spec_of(serde_json::json!({"source": "/specs/v1.yaml", "directory": "api/"}));
        let mut taken = HashSet::from(["api/get-users".to_string()]);
        let none = PageExtensions::default();
        let page = operation_page("GET /users", spec.as_ref(), &none, &mut taken);
        assert_eq!(
            page.path, "api/get-users-2",
            "an existing page keeps its path"
        );
        assert_eq!(
            page.source,
            "---\nopenapi: \"specs/v1.yaml GET /users\"\n---\n"
        );
        let named = operation_page("/other.json POST /users/{id}", None, &none, &mut taken);
        assert_eq!(named.path, "api-reference/post-users-id");
        assert!(named.source.contains("\"other.json POST /users/{id}\""));
        let remote = spec_of(serde_json::json!("https://x.test/openapi.json"));
        let page = operation_page("GET /a", remote.as_ref(), &none, &mut taken);
        assert!(page.source.contains("\"GET /a\""), "{}", page.source);
        let moved = PageExtensions {
            href: Some("reference/list".into()),
            ..PageExtensions::default()
        };
        assert_eq!(
            operation_page("GET /b", spec.as_ref(), &moved, &mut taken).path,
            "reference/list"
        );
    }

    #[test]
    fn a_document_without_pages_lists_every_operation_by_tag() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("openapi.yaml"),
            "paths:\n  /users:\n    get: {tags: [Users]}\n    post: {tags: [Users]}\n    delete: {tags: [Users], x-excluded: true}\n  /health:\n    get: {}\n",
        )
        .unwrap();
        let spec = spec_of(serde_json::json!("openapi.yaml")).unwrap();
        let document = load_document(dir.path(), &spec).unwrap();
        let groups = all_operations(&document);
        assert_eq!(
            groups,
            vec![
                (
                    "Users".to_string(),
                    vec!["GET /users".to_string(), "POST /users".to_string()]
                ),
                ("Endpoints".to_string(), vec!["GET /health".to_string()]),
            ]
        );
        let missing = spec_of(serde_json::json!("gone.json")).unwrap();
        assert!(
            load_document(dir.path(), &missing)
                .unwrap_err()
                .contains("gone.json")
        );
        let yaml = "asyncapi: 3.0.0\nchannels:\n  chat: {title: Chat room}\n  user/signedup: {}\n  bad key: {}\n";
        let document: Yaml = serde_yaml_ng::from_str(yaml).unwrap();
        assert_eq!(
            all_channels(&document),
            vec![
                ("chat".to_string(), "Chat room".to_string()),
                ("user/signedup".to_string(), "user/signedup".to_string())
            ]
        );
        let events = spec_of(serde_json::json!("/events.yaml")).unwrap();
        let mut taken = HashSet::new();
        let page = channel_page("user/signedup", &events, &mut taken);
        assert_eq!(page.path, "api-reference/user-signedup");
        assert_eq!(
            page.source,
            "---\nasyncapi: \"events.yaml user/signedup\"\n---\n"
        );
        let yaml = "paths:\n  /a:\n    get: {summary: List things}\n";
        let document: Yaml = serde_yaml_ng::from_str(yaml).unwrap();
        let summary = |entry| operation(&document, entry)?.get("summary")?.as_str();
        assert_eq!(summary("GET /a"), Some("List things"));
        assert_eq!(summary("x.yaml GET /a"), Some("List things"));
    }
}
