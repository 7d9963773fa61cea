//! The site's navigation as a tree, rebuilt from the flattened entries the contract carries,
//! with the walks renderers need: pages in reading order, previous/next, the trail to a page.

/// What a navigation entry is (the contract's `nav-kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// One entry of the navigation as the contract flattens it (pre-order, with depth).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavEntry {
    pub kind: NavKind,
    pub depth: u32,
    pub label: String,
    /// A page's path (no extension) or a link's URL.
    pub target: Option<String>,
    pub icon: Option<String>,
    pub tag: Option<String>,
    pub expanded: bool,
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
                children: Vec::new(),
            };
            open.push((entry.depth, node));
        }
        while !open.is_empty() {
            close_last(&mut open, &mut roots);
        }
        Self { roots }
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
        NavEntry {
            kind,
            depth,
            label: label.into(),
            target: target.map(Into::into),
            icon: None,
            tag: None,
            expanded: false,
        }
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
}
