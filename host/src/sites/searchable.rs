//! Which pages the site's search and the assistant see. As on the hosted platform the docs.json
//! format comes from, a page readers cannot reach from the navigation (left out of it, or under
//! a `hidden` entry, or `hidden: true` in its frontmatter) is left out of both unless the site
//! says otherwise: `seo.indexing: "all"` takes in every page, and `searchable: true` on a hidden
//! entry takes in the pages under it. A page whose frontmatter says `noindex: true` is always
//! left out.

use std::collections::{HashMap, HashSet};

use quire_core::config::SiteConfig;

use super::navigation::PageMeta;
use super::{NavEntry, NavKind};

/// The answer for each page of one site.
pub struct Searchable<'a> {
    every_page: bool,
    listed: HashSet<&'a str>,
    metas: &'a HashMap<String, PageMeta>,
}

impl<'a> Searchable<'a> {
    /// Reads `seo.indexing` from the site's `config` and what its `navigation` lists.
    pub fn new(
        config: &SiteConfig,
        navigation: &'a [NavEntry],
        metas: &'a HashMap<String, PageMeta>,
    ) -> Self {
        let listed = navigation
            .iter()
            .filter(|n| matches!(n.kind, NavKind::Page | NavKind::Group))
            .filter(|n| !n.hidden || n.searchable)
            .filter_map(|n| n.target.as_deref())
            .collect();
        Self {
            every_page: config.seo.indexing.as_deref() == Some("all"),
            listed,
            metas,
        }
    }

    /// Whether the page at `path` is searched.
    pub fn page(&self, path: &str) -> bool {
        if self.metas.get(path).is_some_and(|m| m.noindex) {
            return false;
        }
        self.every_page || self.listed.contains(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(target: &str, hidden: bool, searchable: bool) -> NavEntry {
        NavEntry {
            hidden,
            searchable,
            ..NavEntry::new(NavKind::Page, 1, target, Some(target))
        }
    }

    fn metas(noindex: &[&str]) -> HashMap<String, PageMeta> {
        noindex
            .iter()
            .map(|p| {
                (
                    p.to_string(),
                    PageMeta {
                        noindex: true,
                        url: None,
                        ..PageMeta::default()
                    },
                )
            })
            .collect()
    }

    #[test]
    fn only_pages_readers_can_reach_are_searched_by_default() {
        let nav = [
            node("shown", false, false),
            node("hidden", true, false),
            node("hidden-but-searchable", true, true),
            node("quiet", false, false),
        ];
        let metas = metas(&["quiet"]);
        let searchable = Searchable::new(&SiteConfig::default(), &nav, &metas);
        assert!(searchable.page("shown"));
        assert!(!searchable.page("hidden"));
        assert!(searchable.page("hidden-but-searchable"));
        assert!(!searchable.page("not-in-navigation"));
        assert!(!searchable.page("quiet"), "noindex: true");
    }

    #[test]
    fn seo_indexing_all_takes_in_every_page_but_noindex_ones() {
        let nav = [node("hidden", true, false)];
        let metas = metas(&["quiet"]);
        let config = json!({"seo": {"indexing": "all"}});
        let searchable = Searchable::new(&SiteConfig::of(&config), &nav, &metas);
        assert!(searchable.page("hidden"));
        assert!(searchable.page("not-in-navigation"));
        assert!(!searchable.page("quiet"));
    }
}
