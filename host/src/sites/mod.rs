//! Documentation sites as Quire reads them: a folder with `docs.json` (or legacy `mint.json`)
//! and `.md`/`.mdx` pages, turned into the manifest that exports and plugins work from.

mod folder;
mod navigation;
mod publish;
mod upload;

use serde::{Deserialize, Serialize};

use crate::plugins::{NavEntry, NavKind, SiteInfo};

pub use folder::{SiteLimits, load_site};
pub use publish::{PublishError, PublishRequest, publish, validate_domain, validate_label};
pub use upload::extract_site_archive;

/// What kind of navigation entry (see the WIT `nav-kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NavNodeKind {
    Group,
    Page,
    Tab,
    Link,
}

/// One entry of the navigation, flattened in pre-order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NavNode {
    pub kind: NavNodeKind,
    pub depth: u32,
    pub label: String,
    pub target: Option<String>,
    pub icon: Option<String>,
    /// The docs.json `versions` entry this node sits under, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The docs.json `languages` entry (its language code) this node sits under, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
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
}

/// Any file of the site, pages included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub size: u64,
}

/// A site as published: stored as `site.json` beside the version's files.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SiteManifest {
    pub name: String,
    /// `docs.json` or `mint.json`.
    pub config_file: String,
    /// The navigation file with `$ref`s resolved, as JSON text.
    pub config_json: String,
    pub navigation: Vec<NavNode>,
    /// Navigation pages first, in navigation order, then the others by path.
    pub pages: Vec<PageEntry>,
    pub files: Vec<FileEntry>,
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

    /// The site as a renderer plugin sees it, for content version `version`.
    pub fn site_info(&self, version: &str) -> SiteInfo {
        SiteInfo {
            name: self.name.clone(),
            version: version.to_string(),
            navigation: self
                .navigation
                .iter()
                .map(|n| NavEntry {
                    kind: match n.kind {
                        NavNodeKind::Group => NavKind::Group,
                        NavNodeKind::Page => NavKind::Page,
                        NavNodeKind::Tab => NavKind::Tab,
                        NavNodeKind::Link => NavKind::Link,
                    },
                    depth: n.depth,
                    label: n.label.clone(),
                    target: n.target.clone(),
                    icon: n.icon.clone(),
                })
                .collect(),
            pages: self.pages.iter().map(|p| p.path.clone()).collect(),
            config_json: self.config_json.clone(),
        }
    }
}
