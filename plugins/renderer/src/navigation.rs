//! The site as every page sees it: navigation order, breadcrumbs, settings, the set of pages.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

/// What a navigation entry is (mirrors the WIT `nav-kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NavItemKind {
    Group,
    Page,
    Tab,
    Link,
}

/// One entry of the flattened, pre-order navigation tree.
#[derive(Debug, Clone, Serialize)]
pub struct NavItem {
    pub kind: NavItemKind,
    pub depth: u32,
    pub label: String,
    pub target: Option<String>,
    pub icon: Option<String>,
}

/// A navigation page as (path, label).
pub type NavPage = (String, String);

/// The prepared site: built once per job, consulted for every page.
pub struct Site {
    pub name: String,
    pub version: String,
    pub items: Vec<NavItem>,
    pub primary_color: String,
    pub pages: HashSet<String>,
    /// Pages in navigation order with their labels, for previous/next links.
    order: Vec<NavPage>,
    position: HashMap<String, usize>,
    /// Group and tab labels above each navigation page.
    trails: HashMap<String, Vec<String>>,
}

const DEFAULT_PRIMARY: &str = "#2563eb";

impl Site {
    /// Prepares the site. `pages` lists every page path, in navigation or not.
    pub fn new(
        name: String,
        version: String,
        items: Vec<NavItem>,
        config_json: &str,
        pages: Vec<String>,
    ) -> Result<Self, String> {
        let config: serde_json::Value = if config_json.trim().is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::from_str(config_json)
                .map_err(|e| format!("site configuration is not valid JSON: {e}"))?
        };
        let primary_color = config
            .pointer("/colors/primary")
            .and_then(|v| v.as_str())
            .filter(|c| is_hex_color(c))
            .unwrap_or(DEFAULT_PRIMARY)
            .to_string();

        let mut order = Vec::new();
        let mut position = HashMap::new();
        let mut trails = HashMap::new();
        let mut stack: Vec<(u32, String)> = Vec::new();
        for item in &items {
            while stack.last().is_some_and(|(d, _)| *d >= item.depth) {
                stack.pop();
            }
            match item.kind {
                NavItemKind::Group | NavItemKind::Tab => {
                    stack.push((item.depth, item.label.clone()));
                }
                NavItemKind::Page => {
                    if let Some(path) = &item.target
                        && !position.contains_key(path)
                    {
                        position.insert(path.clone(), order.len());
                        order.push((path.clone(), item.label.clone()));
                        trails.insert(path.clone(), stack.iter().map(|(_, l)| l.clone()).collect());
                    }
                }
                NavItemKind::Link => {}
            }
        }
        let mut pages: HashSet<String> = pages.into_iter().collect();
        pages.extend(order.iter().map(|(p, _)| p.clone()));
        Ok(Self {
            name,
            version,
            items,
            primary_color,
            pages,
            order,
            position,
            trails,
        })
    }

    /// The navigation pages before and after `path`, as (path, label).
    pub fn neighbours(&self, path: &str) -> (Option<&NavPage>, Option<&NavPage>) {
        match self.position.get(path) {
            Some(&i) => (
                i.checked_sub(1).and_then(|j| self.order.get(j)),
                self.order.get(i + 1),
            ),
            None => (None, None),
        }
    }

    /// The group and tab labels above `path` in the navigation.
    pub fn trail(&self, path: &str) -> &[String] {
        self.trails.get(path).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The first page of the navigation: where the site's `index.html` leads.
    pub fn home(&self) -> Option<&str> {
        if self.pages.contains("index") {
            return Some("index");
        }
        self.order.first().map(|(p, _)| p.as_str())
    }
}

fn is_hex_color(c: &str) -> bool {
    let hex = c.strip_prefix('#').unwrap_or("");
    matches!(hex.len(), 3 | 6) && hex.chars().all(|ch| ch.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(kind: NavItemKind, depth: u32, label: &str, target: Option<&str>) -> NavItem {
        NavItem {
            kind,
            depth,
            label: label.into(),
            target: target.map(String::from),
            icon: None,
        }
    }

    fn site() -> Site {
        let items = vec![
            item(NavItemKind::Group, 0, "Start", None),
            item(NavItemKind::Page, 1, "Intro", Some("intro")),
            item(NavItemKind::Page, 1, "Quickstart", Some("quickstart")),
            item(NavItemKind::Group, 0, "Guides", None),
            item(NavItemKind::Group, 1, "Auth", None),
            item(NavItemKind::Page, 2, "Tokens", Some("guides/tokens")),
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
    fn settings_are_read_and_checked() {
        assert_eq!(site().primary_color, "#0D9373");
        let bad = Site::new(
            "x".into(),
            "v".into(),
            vec![],
            r#"{"colors":{"primary":"red;}"}}"#,
            vec![],
        )
        .unwrap();
        assert_eq!(bad.primary_color, DEFAULT_PRIMARY);
        assert!(Site::new("x".into(), "v".into(), vec![], "{", vec![]).is_err());
    }
}
