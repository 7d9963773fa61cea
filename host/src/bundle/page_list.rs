//! `pages.json`: the site's name and domain and its listed pages in navigation order, each with
//! its title, version and language: what a reader of the bundle that is not a browser (the docs
//! server's and `quire mcp`'s MCP servers) needs to list and scope the pages, which the HTML
//! shows only as navigation.

use serde::{Deserialize, Serialize};

/// The path of the list in the bundle.
pub const PAGE_LIST_FILE: &str = "pages.json";

/// The whole file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PageList {
    /// docs.json `name`.
    pub name: String,
    pub domain: String,
    /// The pages the sitemap and `llms.txt` list (hidden and noindex pages are not), in
    /// navigation order.
    pub pages: Vec<ListedPage>,
}

/// One page; its Markdown is `{path}.md` and its HTML `{path}.html` beside the list.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ListedPage {
    pub path: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}
