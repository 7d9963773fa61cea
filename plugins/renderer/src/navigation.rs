//! The site's navigation as every page sees it: navigation contexts (one per version and
//! language), the sections of each (tabs, anchors, dropdowns), reading order, breadcrumbs and the
//! version and language switchers.

use std::collections::{HashMap, HashSet};

pub use quire_sdk::navigation::{NavEntry, NavKind};

/// A navigation page as (path, label).
pub type NavPage = (String, String);

/// The navigation one version in one language shows: its own entries plus the site-wide ones.
/// Pages of a context share one navigation script.
#[derive(Debug, Clone)]
pub struct NavContext {
    pub version: Option<String>,
    pub language: Option<String>,
    /// The entries, depths counted from the context's top.
    pub items: Vec<NavEntry>,
    /// Pages in reading order, for previous/next links.
    pub order: Vec<NavPage>,
    /// Each entry's parent (an index into `items`), `None` at the top.
    parents: Vec<Option<usize>>,
    /// The innermost section (tab, anchor, dropdown, product, menu item) holding each page.
    section_of_page: HashMap<String, usize>,
    /// Each page's first entry.
    entry_of_page: HashMap<String, usize>,
    /// The group whose root page each listing page is, for groups that list their entries
    /// (docs.json `directory`).
    listing_of_page: HashMap<String, usize>,
}

impl NavContext {
    /// The first page of the context: where switching to it leads.
    pub fn first_page(&self) -> Option<&str> {
        self.order.first().map(|(p, _)| p.as_str())
    }

    /// The group (an index into `items`) whose root page `path` is, when that group lists its
    /// entries on it (docs.json `directory`).
    pub fn listing_group(&self, path: &str) -> Option<usize> {
        self.listing_of_page.get(path).copied()
    }

    /// The innermost section (an index into `items`) that holds `path`, if any.
    pub fn section_of(&self, path: &str) -> Option<usize> {
        self.section_of_page.get(path).copied()
    }

    /// The sections of the given kinds a reader on `path` chooses between: those whose parent
    /// is the top or one of the page's ancestors, so tabs inside an anchor show with it, and
    /// site-wide anchors everywhere.
    pub fn sections_of_kind<'a>(
        &'a self,
        path: &str,
        kinds: &'a [NavKind],
    ) -> impl Iterator<Item = usize> + 'a {
        let mut ancestors = HashSet::new();
        let mut at = self.entry_of_page.get(path).copied();
        while let Some(i) = at {
            at = self.parents[i];
            if let Some(parent) = at {
                ancestors.insert(parent);
            }
        }
        (0..self.items.len()).filter(move |&i| {
            self.items[i].kind.is_section()
                && kinds.contains(&self.items[i].kind)
                && self.parents[i].is_none_or(|p| ancestors.contains(&p))
        })
    }

    /// Works out each entry's parent, and the section and entry of each page, once per site.
    fn index_sections(&mut self) {
        let mut stack: Vec<usize> = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            while stack
                .last()
                .is_some_and(|&s| self.items[s].depth >= item.depth)
            {
                stack.pop();
            }
            self.parents.push(stack.last().copied());
            if let Some(path) = item.page() {
                self.entry_of_page.entry(path.to_string()).or_insert(i);
                if item.kind == NavKind::Group && item.directory.is_some() {
                    self.listing_of_page.entry(path.to_string()).or_insert(i);
                }
                let section = stack
                    .iter()
                    .rev()
                    .copied()
                    .find(|&s| self.items[s].kind.is_section());
                if let Some(section) = section {
                    self.section_of_page
                        .entry(path.to_string())
                        .or_insert(section);
                }
            }
            stack.push(i);
        }
    }

    /// The first page inside the entry at `index` (a section or group, its root page first).
    pub fn first_page_under(&self, index: usize) -> Option<&str> {
        let depth = self.items.get(index)?.depth;
        std::iter::once(&self.items[index])
            .chain(
                self.items[index + 1..]
                    .iter()
                    .take_while(|i| i.depth > depth),
            )
            .find_map(NavEntry::page)
    }

    /// Where the entry at `index` leads: its first page, else (a section that is only a link,
    /// such as a tab with an `href`) the first link inside it, as an absolute URL or a page.
    pub fn destination(&self, index: usize) -> Option<Destination<'_>> {
        if let Some(page) = self.first_page_under(index) {
            return Some(Destination::Page(page));
        }
        let depth = self.items.get(index)?.depth;
        self.items[index + 1..]
            .iter()
            .take_while(|i| i.depth > depth)
            .find(|i| i.kind == NavKind::Link)
            .and_then(|i| i.target.as_deref())
            .map(Destination::Link)
    }
}

/// Where a navigation entry leads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Destination<'a> {
    /// A page of the site (path without extension).
    Page(&'a str),
    /// A link as the navigation file gives it: a URL, or a site path such as `/changelog`.
    Link(&'a str),
}

/// Splits the navigation into contexts: entries under a `version` or `language` entry go to
/// that context (depths counted from it); entries under neither are shared by every context.
pub(crate) fn split_contexts(items: &[NavEntry]) -> Vec<NavContext> {
    // Scopes borrowed from the entries, and each entry moved into its one context: a large
    // site's navigation is tens of thousands of entries, each copied twice before.
    type Key<'a> = (Option<&'a str>, Option<&'a str>);
    const SHARED: Key<'static> = (None, None);
    // First pass: each entry's context and depth within it.
    let mut placed: Vec<(Key<'_>, NavEntry)> = Vec::new();
    let mut stack: Vec<&NavEntry> = Vec::new();
    for item in items {
        while stack.last().is_some_and(|s| s.depth >= item.depth) {
            stack.pop();
        }
        let scope = |kind| {
            stack
                .iter()
                .rev()
                .find(|s| s.kind == kind)
                .map(|s| s.label.as_str())
        };
        let key = (scope(NavKind::Version), scope(NavKind::Language));
        let scopes = stack
            .iter()
            .filter(|s| matches!(s.kind, NavKind::Version | NavKind::Language))
            .count() as u32;
        stack.push(item);
        if matches!(item.kind, NavKind::Version | NavKind::Language) {
            continue;
        }
        let mut entry = item.clone();
        entry.depth = item.depth.saturating_sub(scopes);
        placed.push((key, entry));
    }
    let mut keys: Vec<Key<'_>> = Vec::new();
    for (key, _) in &placed {
        if *key != SHARED && !keys.contains(key) {
            keys.push(*key);
        }
    }
    if keys.is_empty() {
        keys.push(SHARED);
    }
    let mut contexts: Vec<NavContext> = keys
        .iter()
        .map(|(version, language)| NavContext {
            version: version.map(str::to_string),
            language: language.map(str::to_string),
            items: Vec::new(),
            order: Vec::new(),
            parents: Vec::new(),
            section_of_page: HashMap::new(),
            entry_of_page: HashMap::new(),
            listing_of_page: HashMap::new(),
        })
        .collect();
    for (key, item) in placed {
        if key == SHARED {
            for context in contexts.iter_mut() {
                context.items.push(item.clone());
            }
        } else if let Some(at) = keys.iter().position(|k| *k == key) {
            contexts[at].items.push(item);
        }
    }
    for context in &mut contexts {
        let mut seen = HashSet::new();
        context.order = context
            .items
            .iter()
            .filter_map(|i| Some((i.page()?.to_string(), i.label.clone())))
            .filter(|(p, _)| seen.insert(p.clone()))
            .collect();
        context.index_sections();
    }
    contexts
}

/// A language code's name in that language, for the switcher; the code itself when unknown.
pub fn language_name(code: &str) -> &str {
    match code.split(['-', '_']).next().unwrap_or(code) {
        "en" => "English",
        "fr" => "Français",
        "es" => "Español",
        "de" => "Deutsch",
        "it" => "Italiano",
        "pt" => "Português",
        "nl" => "Nederlands",
        "ja" => "日本語",
        "ko" => "한국어",
        "zh" => "中文",
        "ru" => "Русский",
        "ar" => "العربية",
        "tr" => "Türkçe",
        "pl" => "Polski",
        "sv" => "Svenska",
        "id" => "Bahasa Indonesia",
        _ => code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::Site;
    use NavKind::*;

    fn item(kind: NavKind, depth: u32, label: &str, target: Option<&str>) -> NavEntry {
        NavEntry::new(kind, depth, label, target)
    }

    fn site() -> Site {
        let items = vec![
            item(Group, 0, "Start", None),
            item(Page, 1, "Intro", Some("intro")),
            item(Page, 1, "Quickstart", Some("quickstart")),
            item(Group, 0, "Guides", None),
            item(Group, 1, "Auth", None),
            item(Page, 2, "Tokens", Some("guides/tokens")),
        ];
        Site::new(
            "Docs".into(),
            "v1".into(),
            items,
            r##"{"colors":{"primary":"#0D9373"}}"##,
            vec!["hidden".into()],
        )
        .unwrap()
    }

    fn versioned() -> Site {
        let items = vec![
            item(Version, 0, "v2", None),
            item(Language, 1, "en", None),
            item(Tab, 2, "Guides", None),
            item(Page, 3, "Intro", Some("intro")),
            item(Tab, 2, "API", None),
            item(Page, 3, "Widgets", Some("api/widgets")),
            item(Language, 1, "fr", None),
            item(Page, 2, "Intro FR", Some("fr/intro")),
            item(Version, 0, "v1", None),
            item(Page, 1, "Intro v1", Some("v1/intro")),
            item(Link, 0, "Blog", Some("https://blog.example")),
        ];
        Site::new("Docs".into(), "c1".into(), items, "{}", vec![]).unwrap()
    }

    #[test]
    fn previous_and_next_follow_navigation_order() {
        let s = site();
        let (prev, next) = s.neighbours("quickstart");
        assert_eq!(prev.unwrap().0, "intro");
        assert_eq!(next.unwrap().0, "guides/tokens");
        assert!(s.neighbours("intro").0.is_none());
        assert!(s.neighbours("hidden").1.is_none());
    }

    #[test]
    fn trails_name_the_groups_above_a_page() {
        assert_eq!(site().trail("guides/tokens"), ["Guides", "Auth"]);
    }

    #[test]
    fn versions_and_languages_make_contexts_with_shared_links() {
        let s = versioned();
        assert_eq!(s.contexts.len(), 3);
        let en = &s.contexts[0];
        assert_eq!(
            (en.version.as_deref(), en.language.as_deref()),
            (Some("v2"), Some("en"))
        );
        assert_eq!(en.items[0].depth, 0, "depths count from the context");
        assert!(
            en.items.iter().any(|i| i.label == "Blog"),
            "site-wide links are shared"
        );
        assert_eq!(en.section_of("api/widgets"), Some(2));
        assert_eq!(en.first_page_under(2), Some("api/widgets"));
        let tabs: Vec<usize> = en.sections_of_kind("intro", &[Tab]).collect();
        assert_eq!(tabs, [0, 2]);
        // Reading order stays inside a context.
        assert!(s.neighbours("fr/intro").0.is_none());
        assert_eq!(s.neighbours("intro").1.unwrap().0, "api/widgets");
    }

    #[test]
    fn tabs_inside_anchors_group_roots_and_link_sections() {
        let mut root = item(Group, 2, "Guide", None);
        root.target = Some("guide/index".into());
        let items = vec![
            item(Anchor, 0, "Docs", None),
            item(Tab, 1, "Guides", None),
            root,
            item(Page, 3, "Setup", Some("guide/setup")),
            item(Tab, 1, "Blog", None),
            item(Link, 2, "Blog", Some("https://blog.example")),
            item(Anchor, 0, "API", None),
            item(Tab, 1, "Reference", None),
            item(Page, 2, "Users", Some("api/users")),
            item(Anchor, 0, "Community", None),
            item(Link, 1, "Community", Some("https://c.example")),
        ];
        let s = Site::new("Docs".into(), "c1".into(), items, "{}", vec![]).unwrap();
        let c = &s.contexts[0];
        assert_eq!(
            c.section_of("guide/setup"),
            Some(1),
            "the innermost section"
        );
        let tabs: Vec<usize> = c.sections_of_kind("guide/setup", &[Tab]).collect();
        assert_eq!(
            tabs,
            [1, 4],
            "the tabs of the page's anchor, not the other anchor's"
        );
        let anchors: Vec<usize> = c.sections_of_kind("api/users", &[Anchor]).collect();
        assert_eq!(anchors, [0, 6, 9]);
        assert_eq!(c.destination(1), Some(Destination::Page("guide/index")));
        assert_eq!(
            c.destination(4),
            Some(Destination::Link("https://blog.example"))
        );
        assert_eq!(s.neighbours("guide/index").1.unwrap().0, "guide/setup");
        assert_eq!(s.trail("guide/setup"), ["Docs", "Guides", "Guide"]);
    }

    #[test]
    fn switchers_lead_to_the_same_page_elsewhere() {
        let s = versioned();
        let versions = s.version_choices("intro");
        assert_eq!(versions.len(), 2);
        assert!(versions[0].current);
        assert_eq!(versions[1].target, "v1/intro");
        let languages = s.language_choices("intro");
        assert_eq!(languages[1].target, "fr/intro");
        assert_eq!(s.language_choices("fr/intro")[0].target, "intro");
        assert!(s.language_choices("v1/intro").is_empty());
    }
}
