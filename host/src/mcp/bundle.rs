//! A site as an exported bundle holds it, unpacked in a folder: searched through the bundle's
//! offline index (as the search box searches it), its pages listed from `pages.json`, and each
//! page's Markdown read from `{path}.md`. No network and no store: this is what the docs
//! server and `quire mcp` answer agents from.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use quire_core::sections::Anchors;

use super::library::{
    DocsLibrary, LibraryError, LibraryQuery, PageListing, PageMarkdown, SearchHit, SiteIdentity,
    close_matches,
};
use crate::bundle::offline_search::{OfflineHit, OfflineIndex};
use crate::bundle::{PAGE_LIST_FILE, PageList};

/// Characters of a section's text a search result carries at most.
const SECTION_CHARS: usize = 4_000;

/// An unpacked bundle.
pub struct BundleSite {
    dir: PathBuf,
    identity: SiteIdentity,
    pages: Vec<PageListing>,
    index: Arc<OfflineIndex>,
}

impl BundleSite {
    /// The bundle unpacked at `dir`; its pages' URLs are on `base_url` (where it is served),
    /// else on `https://{domain}`.
    pub fn open(dir: &Path, base_url: Option<&str>) -> Result<Self, LibraryError> {
        let list = std::fs::read(dir.join(PAGE_LIST_FILE)).map_err(|e| {
            LibraryError::Unavailable(format!(
                "the bundle has no readable {PAGE_LIST_FILE} ({e}); bundles exported before MCP \
                 servers were added lack it: export the site again"
            ))
        })?;
        let list: PageList = serde_json::from_slice(&list).map_err(|e| {
            LibraryError::Unavailable(format!("the bundle's {PAGE_LIST_FILE} is unreadable: {e}"))
        })?;
        let index = OfflineIndex::open(dir).map_err(|e| {
            LibraryError::Unavailable(format!("the bundle's search index is unreadable: {e}"))
        })?;
        let identity = SiteIdentity {
            name: list.name,
            base_url: base_url.map_or_else(
                || format!("https://{}", list.domain),
                |url| url.trim_end_matches('/').to_string(),
            ),
            domain: list.domain,
        };
        let pages = list
            .pages
            .into_iter()
            .map(|page| PageListing {
                url: identity.page_url(&page.path, ""),
                path: page.path,
                title: page.title,
                version: page.version,
                language: page.language,
            })
            .collect();
        Ok(Self {
            dir: dir.to_path_buf(),
            identity,
            pages,
            index: Arc::new(index),
        })
    }

    /// docs.json `name`.
    pub fn name(&self) -> &str {
        &self.identity.name
    }

    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    fn read_markdown(&self, path: &str) -> Option<String> {
        // Page keys are the bundle's own paths; one that climbs out of the folder is no page.
        if path
            .split('/')
            .any(|segment| segment == ".." || segment.is_empty())
        {
            return None;
        }
        std::fs::read_to_string(self.dir.join(format!("{path}.md"))).ok()
    }

    fn hit(&self, hit: OfflineHit) -> SearchHit {
        let text = self
            .read_markdown(&hit.path)
            .and_then(|markdown| section_text(&markdown, &hit.anchor))
            .unwrap_or(hit.excerpt);
        SearchHit {
            title: hit.trail.first().cloned().unwrap_or_default(),
            url: self.identity.page_url(&hit.path, &hit.anchor),
            heading_trail: hit.trail,
            path: hit.path,
            text,
            version: hit.version,
            language: hit.language,
        }
    }
}

#[async_trait::async_trait]
impl DocsLibrary for BundleSite {
    fn site(&self) -> &SiteIdentity {
        &self.identity
    }

    async fn search(&self, query: LibraryQuery) -> Result<Vec<SearchHit>, LibraryError> {
        let index = self.index.clone();
        let hits = tokio::task::spawn_blocking(move || {
            index.search(
                &query.text,
                query.version.as_deref(),
                query.language.as_deref(),
                query.limit as usize,
            )
        })
        .await
        .map_err(|e| LibraryError::Failed(format!("the search stopped: {e}")))?
        .map_err(|e| LibraryError::Failed(e.to_string()))?;
        Ok(hits.into_iter().map(|hit| self.hit(hit)).collect())
    }

    async fn pages(&self) -> Result<Vec<PageListing>, LibraryError> {
        Ok(self.pages.clone())
    }

    async fn page(&self, path: &str) -> Result<PageMarkdown, LibraryError> {
        let listing = self.pages.iter().find(|p| p.path == path);
        let markdown = listing.and_then(|_| self.read_markdown(path));
        match (listing, markdown) {
            (Some(listing), Some(markdown)) => Ok(PageMarkdown {
                page: listing.clone(),
                markdown,
            }),
            _ => Err(LibraryError::NoSuchPage {
                asked: path.to_string(),
                close: close_matches(path, self.pages.iter().map(|p| p.path.as_str())),
            }),
        }
    }
}

/// The text of the section of `markdown` under the heading whose anchor is `anchor` (the text
/// before the first heading for an empty anchor), down to the next heading as high or higher;
/// `None` when no Markdown heading has that anchor (a component's heading, say).
fn section_text(markdown: &str, anchor: &str) -> Option<String> {
    let body = quire_core::frontmatter::body(markdown);
    let mut anchors = Anchors::default();
    let mut in_fence = false;
    let mut level_of_section: Option<usize> = anchor.is_empty().then_some(0);
    let mut text = String::new();
    for line in body.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        let heading = (!in_fence).then(|| heading_of(trimmed)).flatten();
        if let Some((level, title)) = heading {
            let own_anchor = anchors.next(title);
            match level_of_section {
                Some(open) if open == 0 || level <= open => break,
                Some(_) => {}
                None if own_anchor == anchor => {
                    level_of_section = Some(level);
                    continue;
                }
                None => continue,
            }
        }
        if level_of_section.is_some() {
            text.push_str(line);
            text.push('\n');
        }
    }
    level_of_section?;
    let text = text.trim();
    Some(if text.chars().count() > SECTION_CHARS {
        let mut cut: String = text.chars().take(SECTION_CHARS).collect();
        cut.push('…');
        cut
    } else {
        text.to_string()
    })
}

/// An ATX heading line's level and text.
fn heading_of(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !rest.starts_with(' ') {
        return None;
    }
    Some((level, rest.trim().trim_end_matches('#').trim()))
}

#[cfg(test)]
mod tests {
    use super::section_text;

    const PAGE: &str = "---\ntitle: Setup\n---\nOpening words.\n\n## Install\n\nRun this:\n\n```bash\n# not a heading\nnpm i acme\n```\n\n### On Windows\n\nUse winget.\n\n## Log in\n\nPaste a token.\n";

    #[test]
    fn sections_run_to_the_next_heading_as_high() {
        assert_eq!(section_text(PAGE, "").as_deref(), Some("Opening words."));
        let install = section_text(PAGE, "install").unwrap();
        assert!(install.contains("npm i acme") && install.contains("Use winget."));
        assert!(!install.contains("Paste a token"));
        assert_eq!(
            section_text(PAGE, "on-windows").as_deref(),
            Some("Use winget.")
        );
        assert_eq!(
            section_text(PAGE, "log-in").as_deref(),
            Some("Paste a token.")
        );
        assert_eq!(section_text(PAGE, "not-a-heading"), None);
    }
}
