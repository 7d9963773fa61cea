//! What an MCP server reads a site's documentation through: [`DocsLibrary`], one per place the
//! docs live (a published site in the API host, an exported bundle), and the shapes its
//! answers take. The tools' structured output is these types, so their JSON Schemas are what
//! MCP clients see.

use schemars::JsonSchema;
use serde::Serialize;

/// The site a library holds, for the server's name and instructions and its pages' URLs.
#[derive(Debug, Clone)]
pub struct SiteIdentity {
    /// docs.json `name`.
    pub name: String,
    pub domain: String,
    /// Where readers open the pages, without a trailing `/` (`https://docs.acme.test`).
    pub base_url: String,
}

impl SiteIdentity {
    /// The reader-facing URL of the page at `path` (and of its section at `anchor`).
    pub fn page_url(&self, path: &str, anchor: &str) -> String {
        let path = if path == "index" { "" } else { path };
        // Put together by hand, sized once: every search hit has one.
        let mut url = String::with_capacity(self.base_url.len() + path.len() + anchor.len() + 2);
        url.push_str(&self.base_url);
        url.push('/');
        url.push_str(path);
        if !anchor.is_empty() {
            url.push('#');
            url.push_str(anchor);
        }
        url
    }
}

/// A search within a library.
#[derive(Debug, Clone)]
pub struct LibraryQuery {
    pub text: String,
    pub version: Option<String>,
    pub language: Option<String>,
    pub limit: u32,
}

/// A section of a page that matched a search.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// The page's title.
    pub title: String,
    /// Headings from the page title down to the section's own heading.
    pub heading_trail: Vec<String>,
    /// The section on the docs site.
    pub url: String,
    /// The page's path, as `get_page` takes it.
    pub path: String,
    /// The section's text, markup removed.
    pub text: String,
    /// The documentation version the page belongs to, if the site has versions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The page's language code, if the site has languages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// A page of the site, listed in navigation order.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageListing {
    /// The page's path, as `get_page` takes it.
    pub path: String,
    pub title: String,
    /// The page on the docs site.
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// A page's Markdown, as the exported bundle carries it beside the page's HTML.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageMarkdown {
    /// The page as `list_pages` lists it (its fields, side by side with `markdown`).
    #[serde(flatten)]
    pub page: PageListing,
    /// The page's Markdown (MDX) source, its variables replaced.
    pub markdown: String,
}

/// Why a library could not answer.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// No page at the path asked for; `close` names the nearest paths there are.
    #[error("no page {asked:?} on this site")]
    NoSuchPage { asked: String, close: Vec<String> },
    /// The site has nothing to answer from (not published, no search index).
    #[error("{0}")]
    Unavailable(String),
    /// Reading the docs failed (storage, the retriever); the reader should try again later.
    #[error("{0}")]
    Failed(String),
}

/// A site's documentation, wherever it is kept. Each call is independent: a server may be asked
/// by any replica, with no state between requests.
#[async_trait::async_trait]
pub trait DocsLibrary: Send + Sync {
    fn site(&self) -> &SiteIdentity;

    /// Sections matching `query`, best first.
    async fn search(&self, query: LibraryQuery) -> Result<Vec<SearchHit>, LibraryError>;

    /// Every page readers can reach, in navigation order (pages outside the navigation last).
    async fn pages(&self) -> Result<Vec<PageListing>, LibraryError>;

    /// The Markdown of the page at `path`, a page key as `page_key` makes it.
    async fn page(&self, path: &str) -> Result<PageMarkdown, LibraryError>;
}

/// The page key a tool argument names: a path (`/guides/webhooks`, `guides/webhooks.md`) or a
/// URL of the page on any host, with its query and fragment dropped.
pub fn page_key_of(asked: &str) -> String {
    let asked = asked.trim();
    let path = match url::Url::parse(asked) {
        Ok(url) if url.has_host() => url.path().to_string(),
        _ => asked.to_string(),
    };
    let key = quire_core::paths::page_key(&path);
    if key.is_empty() {
        "index".to_string()
    } else {
        key.to_string()
    }
}

/// Up to five of `paths` nearest to `asked`, nearest first: those sharing its last segment,
/// then by edit distance, for a "did you mean" in a tool error.
pub fn close_matches<'a>(asked: &str, paths: impl Iterator<Item = &'a str>) -> Vec<String> {
    let last = asked.rsplit('/').next().unwrap_or(asked);
    let mut scored: Vec<(usize, &str)> = paths
        .map(|path| {
            let own_last = path.rsplit('/').next().unwrap_or(path);
            let distance =
                strsim::levenshtein(asked, path).min(strsim::levenshtein(last, own_last) + 1);
            (distance, path)
        })
        .filter(|(distance, path)| *distance <= asked.len().max(path.len()) / 2 + 1)
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored
        .into_iter()
        .take(5)
        .map(|(_, path)| path.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_urls_name_the_same_page() {
        for asked in [
            "guides/webhooks",
            "/guides/webhooks",
            "guides/webhooks.md",
            "guides/webhooks.mdx",
            "guides/webhooks.html",
            "https://docs.acme.test/guides/webhooks#retries",
            "http://localhost:8080/guides/webhooks/?x=1",
        ] {
            assert_eq!(page_key_of(asked), "guides/webhooks", "{asked}");
        }
        assert_eq!(page_key_of("https://docs.acme.test/"), "index");
        assert_eq!(page_key_of("/"), "index");
    }

    #[test]
    fn close_matches_prefer_the_same_last_segment() {
        let paths = [
            "guides/webhooks",
            "api/webhooks",
            "quickstart",
            "guides/auth",
        ];
        let close = close_matches("guides/webhook", paths.into_iter());
        assert_eq!(close.first().map(String::as_str), Some("guides/webhooks"));
        assert!(close.contains(&"api/webhooks".to_string()));
        assert!(!close.contains(&"quickstart".to_string()));
    }

    #[test]
    fn urls_of_the_index_page_are_the_site_root() {
        let site = SiteIdentity {
            name: "Acme".into(),
            domain: "docs.acme.test".into(),
            base_url: "https://docs.acme.test".into(),
        };
        assert_eq!(site.page_url("index", ""), "https://docs.acme.test/");
        assert_eq!(
            site.page_url("guides/a", "x"),
            "https://docs.acme.test/guides/a#x"
        );
    }
}
