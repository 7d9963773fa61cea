//! The navigation file, read to the docs.json schema: from its nested navigation (or
//! mint.json's group list, in `mint`) to a flat, pre-order list of entries. Every page the
//! navigation names is an entry; hidden ones are kept, marked, so their pages keep their
//! version and language; an entry naming a page that does not exist is a warning with its
//! place in the file, and is left out.

mod api;
mod mint;
mod refs;
mod walker;

use std::collections::HashMap;
use std::path::Path;

use quire_core::config::navigation::SiteNavigation;
use serde_json::Value;

use super::api_pages::GeneratedPage;
use super::{NavEntry, SiteError, SiteWarning};
use walker::{Inherited, Walker};

pub use refs::resolve_refs;

/// What a page's frontmatter says about its navigation entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageMeta {
    /// `sidebarTitle`, else `title`, else the first heading, else the file name.
    pub label: String,
    pub icon: Option<String>,
    /// `hidden: true`: rendered, but left out of the navigation.
    pub hidden: bool,
    /// `noindex: true`: left out of search and of the assistant's sources.
    pub noindex: bool,
    /// `url`: another site the page's navigation entry leads to instead of the page (which is
    /// still exported, for readers who have its address).
    pub url: Option<String>,
    /// `tag`: a label shown beside the entry ("NEW", "BETA").
    pub tag: Option<String>,
}

/// What reading the navigation gave.
#[derive(Debug, Default)]
pub struct Navigation {
    pub nodes: Vec<NavEntry>,
    /// What was wrong in it that did not stop reading it.
    pub warnings: Vec<SiteWarning>,
    /// Pages generated for API operations it names.
    pub generated: Vec<GeneratedPage>,
}

/// The navigation of a docs.json or mint.json document. `pages` holds every page of the site,
/// with its label and icon; OpenAPI documents are read from the site at `root`.
pub fn flatten(
    config: &Value,
    config_file: &str,
    pages: &HashMap<String, PageMeta>,
    root: &Path,
) -> Result<Navigation, SiteError> {
    let navigation = SiteNavigation::read(config).map_err(|e| SiteError::Invalid {
        file: config_file.to_string(),
        message: e.to_string(),
    })?;
    let mut walker = Walker {
        pages,
        out: Vec::new(),
        warnings: Vec::new(),
        file: config_file,
        root,
        documents: HashMap::new(),
        taken: pages.keys().cloned().collect(),
        generated: Vec::new(),
    };
    match &navigation {
        // mint.json: a list of groups, sorted into tabs by URL prefix and into versions.
        SiteNavigation::Mint(mint) => walker.mint(mint),
        SiteNavigation::Tree(node) => walker.node(node, 0, "navigation", &Inherited::default()),
    }
    Ok(Navigation {
        nodes: walker.out,
        warnings: walker.warnings,
        generated: walker.generated,
    })
}

/// A navigation entry that names an API operation (`GET /users`, `POST /spec.json /users`,
/// `webhook name`) rather than a page file.
pub fn is_operation_entry(entry: &str) -> bool {
    let Some((method, rest)) = entry.trim().split_once(' ') else {
        return false;
    };
    !rest.trim().is_empty()
        && matches!(
            method.to_ascii_uppercase().as_str(),
            "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "TRACE" | "WEBHOOK"
        )
}

/// A page path as navigation names it: no leading `/`, no `.mdx`/`.md` ending.
pub fn page_path(entry: &str) -> String {
    quire_core::paths::page_key(entry).to_string()
}

#[cfg(test)]
mod tests;
