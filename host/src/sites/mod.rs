//! Documentation sites as Quire reads them: a folder with `docs.json` (or legacy `mint.json`)
//! and `.md`/`.mdx` pages, turned into the manifest that exports and plugins work from.

mod api_extensions;
mod api_pages;
mod folder;
mod kept_manifests;
mod mintignore;
mod names;
mod navigation;
mod page_facts;
mod searchable;
mod snippet_files;
mod upload;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::plugins::{NavEntry as ContractNavEntry, SiteFile, SiteInfo};
pub use quire_core::navigation::NavKind;

pub use folder::{SiteLimits, load_site, load_site_hashed};
pub use names::{validate_domain, validate_label};
pub use upload::{
    FILE_LIST, KnownFile, KnownFiles, Unpacked, extract_site_archive, is_sha256_hex,
    missing_contents, safe_relative,
};

/// One entry of the navigation, flattened in pre-order, with its placement (version,
/// language, hidden): the one navigation entry type, shared with every renderer.
pub use quire_core::navigation::NavEntry;

/// Something wrong in a site that did not stop publishing it, with the file it is in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteWarning {
    pub file: String,
    pub message: String,
}

impl std::fmt::Display for SiteWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// A page: its path without extension, its source file, its title.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageEntry {
    pub path: String,
    pub file: String,
    pub title: String,
    /// The documentation version the page belongs to (docs.json `versions`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The page's language code (docs.json `languages`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The source of a page the navigation generates (an API operation), which publishing
    /// writes to `file` in the content version; `None` for the site's own pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<String>,
    /// When the page's source file was last changed (seconds since the Unix epoch), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<u64>,
    /// Whether the site's search and the assistant see the page: a page the navigation shows
    /// (or a hidden one under a `searchable` entry), or any page with `seo.indexing: "all"`;
    /// never one whose frontmatter says `noindex: true`. Hidden pages are left out by default,
    /// as readers cannot find them either.
    #[serde(
        default = "searchable_by_default",
        skip_serializing_if = "Clone::clone"
    )]
    pub searchable: bool,
}

/// Manifests written before pages had a `searchable` flag indexed every page.
fn searchable_by_default() -> bool {
    true
}

/// Any file of the site, pages included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub size: u64,
    /// The file's modification time (seconds since the Unix epoch), if the folder or archive
    /// carried one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<u64>,
    /// The SHA-256 of the file's contents (hex), once publishing has read them: the next
    /// version's publish reuses a file whose contents are unchanged instead of writing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// Whether the file at `path` is copied into an export as it is: everything but page sources,
/// snippets and the navigation file.
pub fn is_static_asset(path: &str) -> bool {
    !(path.ends_with(".md")
        || path.ends_with(".mdx")
        || path.starts_with("snippets/")
        || path == "docs.json"
        || path == "mint.json")
}

/// A site as published: stored as `site.json` beside the version's files.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SiteManifest {
    pub name: String,
    /// `docs.json` or `mint.json`.
    pub config_file: String,
    /// The navigation file with `$ref`s resolved, as JSON text.
    pub config_json: String,
    pub navigation: Vec<NavEntry>,
    /// Navigation pages first, in navigation order, then the others by path.
    pub pages: Vec<PageEntry>,
    pub files: Vec<FileEntry>,
    /// What was wrong in the site that did not stop publishing it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<SiteWarning>,
    /// Files of OpenAPI and AsyncAPI documents the site names (navigation, `api.openapi`, page
    /// frontmatter), and files called `openapi.json`, `.yaml` or `.yml`.
    #[serde(default)]
    pub api_documents: Vec<String>,
    /// Snippet files outside `snippets/`: imported by a page or a snippet, or named by docs.json
    /// `snippets` patterns (`snippet_files`). Those under `snippets/` are snippets anyway.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snippet_files: Vec<String>,
}

/// A site folder that cannot be published, with the file at fault.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("no docs.json or mint.json at the top of the site folder")]
    NoConfig,
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
    #[error("{file}: the path escapes the site folder")]
    Escapes { file: String },
    #[error("the site is too large: {0}")]
    TooLarge(String),
    #[error("cannot read {file}: {message}")]
    Io { file: String, message: String },
}

/// A content version's manifest could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("storage error: {0}")]
    Storage(#[from] opendal::Error),
    #[error("the manifest of version {version:?} is unreadable: {message}")]
    Corrupt { version: String, message: String },
}

impl SiteManifest {
    /// What strict publishing says of the site: nothing when it has no warnings, else a
    /// refusal that lists them.
    pub fn refuse_warnings(&self) -> Result<(), String> {
        if self.warnings.is_empty() {
            return Ok(());
        }
        let listed: Vec<String> = self.warnings.iter().map(|w| w.to_string()).collect();
        Err(format!(
            "the site has {} warning(s) and strict publishing refuses it: {}",
            listed.len(),
            listed.join("; ")
        ))
    }

    /// Reads the manifest of content version `version` of `domain` from storage.
    pub async fn read(
        operator: &opendal::Operator,
        domain: &str,
        version: &str,
    ) -> Result<Self, ManifestError> {
        let bytes = operator
            .read(&crate::storage::paths::version_manifest(domain, version))
            .await?;
        serde_json::from_slice(&bytes.to_vec()).map_err(|e| ManifestError::Corrupt {
            version: version.to_string(),
            message: e.to_string(),
        })
    }

    /// The site's settings, read from its navigation file as published (what did not fit
    /// docs.json's model was reported then, and is left out).
    pub fn settings(&self) -> quire_core::config::SiteConfig {
        let document = quire_core::config::document(&self.config_json).unwrap_or_default();
        quire_core::config::SiteConfig::of(&document)
    }

    /// The site as a renderer plugin sees it, for content version `version`. `read` returns a
    /// file's text (snippets and OpenAPI documents); a file it cannot read is left out, and the
    /// pages that use it get a warning from the renderer.
    pub fn site_info(
        &self,
        version: &str,
        mut read: impl FnMut(&str) -> Option<String>,
    ) -> SiteInfo {
        let referenced: HashSet<&String> = self.api_documents.iter().collect();
        let imported: HashSet<&String> = self.snippet_files.iter().collect();
        let mut snippets = Vec::new();
        let mut api_documents = Vec::new();
        let (mut stylesheets, mut scripts) = (Vec::new(), Vec::new());
        for file in &self.files {
            let name = file.path.rsplit('/').next().unwrap_or(&file.path);
            // MDX snippets, and the JavaScript files whose exported components pages import.
            let is_snippet =
                imported.contains(&file.path) || snippet_files::in_snippets_folder(&file.path);
            // The site's own CSS and JavaScript apply to every page, as docs.json sites
            // expect; JavaScript that is a snippet is components for pages to import.
            if name.ends_with(".css") {
                stylesheets.push(file.path.clone());
            } else if name.ends_with(".js") && !is_snippet {
                scripts.push(file.path.clone());
            }
            let is_api_document = referenced.contains(&file.path)
                || matches!(name, "openapi.json" | "openapi.yaml" | "openapi.yml");
            if !(is_snippet || is_api_document) {
                continue;
            }
            let Some(contents) = read(&file.path) else {
                continue;
            };
            let entry = SiteFile {
                path: file.path.clone(),
                contents,
            };
            if is_snippet {
                snippets.push(entry);
            } else {
                api_documents.push(entry);
            }
        }
        stylesheets.sort();
        scripts.sort();
        let mut files: Vec<String> = self
            .files
            .iter()
            .filter(|f| is_static_asset(&f.path))
            .map(|f| f.path.clone())
            .collect();
        files.sort();
        SiteInfo {
            name: self.name.clone(),
            version: version.to_string(),
            navigation: self
                .navigation
                .iter()
                .filter(|n| !n.hidden)
                .map(|n| ContractNavEntry {
                    kind: crate::plugins::contract::nav_kind(n.kind),
                    depth: n.depth,
                    label: n.label.clone(),
                    target: n.target.clone(),
                    icon: n.icon.clone(),
                    tag: n.tag.clone(),
                    expanded: n.expanded,
                    directory: n.directory.clone(),
                })
                .collect(),
            pages: self.pages.iter().map(|p| p.path.clone()).collect(),
            config_json: self.config_json.clone(),
            snippets,
            api_documents,
            stylesheets,
            scripts,
            files,
        }
    }
}

/// Every file named by an `openapi` or `asyncapi` field anywhere in the navigation file (a
/// string, a list of strings, or `{source}`), without a leading `/`. URLs are not files of the
/// site and are skipped.
pub(crate) fn api_references(config_json: &str) -> HashSet<String> {
    fn walk(value: &serde_json::Value, out: &mut HashSet<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, value) in map {
                    let is_api = matches!(key.as_str(), "openapi" | "asyncapi");
                    match value {
                        serde_json::Value::String(s) if is_api => add(s, out),
                        serde_json::Value::Array(items) if is_api => items
                            .iter()
                            .filter_map(serde_json::Value::as_str)
                            .for_each(|s| add(s, out)),
                        serde_json::Value::Object(spec) if is_api => {
                            if let Some(s) = spec.get("source").and_then(|s| s.as_str()) {
                                add(s, out);
                            }
                        }
                        _ => walk(value, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    fn add(reference: &str, out: &mut HashSet<String>) {
        if !reference.contains("://") {
            out.insert(reference.trim_start_matches('/').to_string());
        }
    }
    let mut out = HashSet::new();
    if let Ok(value) = serde_json::from_str(config_json) {
        walk(&value, &mut out);
    }
    out
}
