//! The site's navigation as a tree, rebuilt from the flattened entries the contract carries,
//! with the walks renderers need: pages in reading order, previous/next, the trail to a page.
//! [`NavKind`] and [`NavEntry`] are the one Rust form of a navigation entry: the host stores
//! its navigation in them (with each entry's placement: version, language, hidden) and the
//! default renderer reads them as the contract gives them.

use serde::{Deserialize, Serialize};

/// What a navigation entry is (the contract's `nav-kind`), written in lower case in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NavKind {
    Group,
    Page,
    Tab,
    Link,
    Anchor,
    Dropdown,
    Product,
    Version,
    Language,
}

impl NavKind {
    /// Tabs, anchors, dropdowns and products split a navigation into sections, of which a
    /// sidebar shows one at a time.
    pub fn is_section(self) -> bool {
        matches!(
            self,
            Self::Tab | Self::Anchor | Self::Dropdown | Self::Product
        )
    }
}

/// One entry of the navigation as the contract flattens it (pre-order, with depth). In JSON,
/// fields that are not set are left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavEntry {
    pub kind: NavKind,
    pub depth: u32,
    pub label: String,
    /// A page's path (no extension), a group's root page, or a link's URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// A short label shown beside the entry (docs.json `tag`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Whether a group starts expanded (docs.json `expanded`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub expanded: bool,
    /// How a group's root page lists the group's entries (docs.json `directory`: `accordion`
    /// or `card`); `None` for no listing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory: Option<String>,
    /// The docs.json `versions` entry this entry sits under, if any. Placement is the host's
    /// record: the contract does not carry it, so renderers never see it set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The docs.json `languages` entry (its language code) this entry sits under, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Marked `hidden` (or under an entry that is): its pages are published and exported, but
    /// renderers are not given the entry.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// A hidden entry marked `searchable: true` (or under one): its pages stay out of the
    /// navigation but are in the site's search and the assistant's sources.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub searchable: bool,
}

impl NavEntry {
    /// An entry with only the required fields set.
    pub fn new(kind: NavKind, depth: u32, label: &str, target: Option<&str>) -> Self {
        Self {
            kind,
            depth,
            label: label.to_string(),
            target: target.map(String::from),
            icon: None,
            tag: None,
            expanded: false,
            directory: None,
            version: None,
            language: None,
            hidden: false,
            searchable: false,
        }
    }

    /// The page this entry opens: a page's path, or a group's root page.
    pub fn page(&self) -> Option<&str> {
        match self.kind {
            NavKind::Page | NavKind::Group => self.target.as_deref(),
            _ => None,
        }
    }
}

/// A navigation node with its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavNode {
    pub kind: NavKind,
    pub label: String,
    pub target: Option<String>,
    pub icon: Option<String>,
    pub tag: Option<String>,
    pub expanded: bool,
    pub directory: Option<String>,
    pub children: Vec<NavNode>,
}

impl NavNode {
    /// The page path, if this node is a page.
    pub fn page(&self) -> Option<&str> {
        match self.kind {
            NavKind::Page => self.target.as_deref(),
            _ => None,
        }
    }
}

/// The navigation tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Navigation {
    pub roots: Vec<NavNode>,
}

impl Navigation {
    /// Rebuilds the tree from pre-order entries. An entry deeper than its predecessor allows
    /// is attached to the nearest possible parent, so a malformed list still yields a tree.
    pub fn from_entries(entries: impl IntoIterator<Item = NavEntry>) -> Self {
        // The open path from the root: (depth, node) pairs, deepest last.
        let mut open: Vec<(u32, NavNode)> = Vec::new();
        let mut roots = Vec::new();
        for entry in entries {
            while open.last().is_some_and(|(depth, _)| *depth >= entry.depth) {
                close_last(&mut open, &mut roots);
            }
            let node = NavNode {
                kind: entry.kind,
                label: entry.label,
                target: entry.target,
                icon: entry.icon,
                tag: entry.tag,
                expanded: entry.expanded,
                directory: entry.directory,
                children: Vec::new(),
            };
            open.push((entry.depth, node));
        }
        while !open.is_empty() {
            close_last(&mut open, &mut roots);
        }
        Self { roots }
    }

    /// The tree flattened again, in pre-order with depths, as the contract carries it.
    pub fn entries(&self) -> Vec<NavEntry> {
        self.walk()
            .into_iter()
            .map(|(ancestors, node)| NavEntry {
                icon: node.icon.clone(),
                tag: node.tag.clone(),
                expanded: node.expanded,
                directory: node.directory.clone(),
                ..NavEntry::new(
                    node.kind,
                    ancestors.len() as u32,
                    &node.label,
                    node.target.as_deref(),
                )
            })
            .collect()
    }

    /// Every node, depth first, with its ancestors (outermost first).
    pub fn walk(&self) -> Vec<(Vec<&NavNode>, &NavNode)> {
        let mut out = Vec::new();
        let mut stack: Vec<(Vec<&NavNode>, &NavNode)> =
            self.roots.iter().rev().map(|n| (Vec::new(), n)).collect();
        while let Some((ancestors, node)) = stack.pop() {
            for child in node.children.iter().rev() {
                let mut trail = ancestors.clone();
                trail.push(node);
                stack.push((trail, child));
            }
            out.push((ancestors, node));
        }
        out
    }

    /// Page paths in reading order, each once.
    pub fn pages(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.walk()
            .into_iter()
            .filter_map(|(_, node)| node.page())
            .filter(|page| seen.insert(*page))
            .collect()
    }

    /// The pages before and after `page` in reading order.
    pub fn previous_next(&self, page: &str) -> (Option<&str>, Option<&str>) {
        let pages = self.pages();
        match pages.iter().position(|p| *p == page) {
            Some(i) => (
                i.checked_sub(1).map(|j| pages[j]),
                pages.get(i + 1).copied(),
            ),
            None => (None, None),
        }
    }

    /// The labels of the groups, tabs and sections that lead to `page` (breadcrumbs).
    pub fn trail(&self, page: &str) -> Vec<&str> {
        self.walk()
            .into_iter()
            .find(|(_, node)| node.page() == Some(page))
            .map(|(ancestors, _)| ancestors.iter().map(|n| n.label.as_str()).collect())
            .unwrap_or_default()
    }
}

fn close_last(open: &mut Vec<(u32, NavNode)>, roots: &mut Vec<NavNode>) {
    if let Some((_, node)) = open.pop() {
        match open.last_mut() {
            Some((_, parent)) => parent.children.push(node),
            None => roots.push(node),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: NavKind, depth: u32, label: &str, target: Option<&str>) -> NavEntry {
        NavEntry::new(kind, depth, label, target)
    }

    #[test]
    fn the_tree_and_its_walks_follow_the_flattened_order() {
        let nav = Navigation::from_entries([
            entry(NavKind::Group, 0, "Start", None),
            entry(NavKind::Page, 1, "Intro", Some("index")),
            entry(NavKind::Page, 1, "Quickstart", Some("quickstart")),
            entry(NavKind::Group, 0, "Guides", None),
            entry(NavKind::Group, 1, "Webhooks", None),
            entry(NavKind::Page, 2, "Signatures", Some("guides/signatures")),
            entry(NavKind::Link, 0, "Blog", Some("https://example.com")),
        ]);
        assert_eq!(nav.roots.len(), 3);
        assert_eq!(nav.pages(), ["index", "quickstart", "guides/signatures"]);
        assert_eq!(
            nav.previous_next("quickstart"),
            (Some("index"), Some("guides/signatures"))
        );
        assert_eq!(nav.trail("guides/signatures"), ["Guides", "Webhooks"]);
        assert_eq!(nav.trail("missing"), Vec::<&str>::new());
    }

    #[test]
    fn the_tree_flattens_back_to_its_entries_and_entries_read_as_json() {
        let mut group = entry(NavKind::Group, 1, "Guides", Some("guides"));
        group.expanded = true;
        let entries = vec![
            entry(NavKind::Tab, 0, "Docs", None),
            group,
            entry(NavKind::Page, 2, "Auth", Some("guides/auth")),
            entry(NavKind::Link, 0, "Blog", Some("https://example.com")),
        ];
        let nav = Navigation::from_entries(entries.clone());
        assert_eq!(nav.entries(), entries);
        assert_eq!(entries[1].page(), Some("guides"));
        assert!(entries[0].kind.is_section() && !entries[1].kind.is_section());
        let json = serde_json::to_string(&entries[1]).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"group","depth":1,"label":"Guides","target":"guides","expanded":true}"#
        );
        assert_eq!(serde_json::from_str::<NavEntry>(&json).unwrap(), entries[1]);
    }
}
