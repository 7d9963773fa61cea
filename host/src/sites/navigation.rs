//! The navigation file: `$ref` resolution and the walk from docs.json's nested navigation (or
//! mint.json's group list) to a flat, pre-order list of entries.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::{NavNode, NavNodeKind, SiteError};

/// Deepest `$ref` chain followed; deeper is taken for a cycle.
const MAX_REF_DEPTH: usize = 16;

/// Containers of docs.json navigation, the key naming each element, and the entry kind.
const CONTAINERS: &[(&str, &str, NavNodeKind)] = &[
    ("tabs", "tab", NavNodeKind::Tab),
    ("anchors", "anchor", NavNodeKind::Anchor),
    ("dropdowns", "dropdown", NavNodeKind::Dropdown),
    ("products", "product", NavNodeKind::Product),
    ("versions", "version", NavNodeKind::Version),
    ("languages", "language", NavNodeKind::Language),
    ("groups", "group", NavNodeKind::Group),
];

/// Replaces every `{"$ref": "file.json", ...}` object with the referenced file's content
/// (sibling keys win), reading files relative to the site root and never outside it.
pub fn resolve_refs(
    value: Value,
    root: &Path,
    file: &str,
    depth: usize,
) -> Result<Value, SiteError> {
    if depth > MAX_REF_DEPTH {
        return Err(SiteError::Invalid {
            file: file.to_string(),
            message: "$ref chain is too deep (a cycle?)".into(),
        });
    }
    match value {
        Value::Object(mut map) => {
            if let Some(Value::String(reference)) = map.remove("$ref") {
                let target = super::folder::inside(
                    root,
                    Path::new(file).parent().unwrap_or(Path::new("")),
                    &reference,
                )
                .ok_or_else(|| SiteError::Escapes {
                    file: reference.clone(),
                })?;
                let referenced = super::folder::read_json(root, &target)?;
                let resolved = resolve_refs(referenced, root, &target, depth + 1)?;
                let mut merged = match resolved {
                    Value::Object(m) => m,
                    other => return Ok(other),
                };
                for (k, v) in map {
                    merged.insert(k, resolve_refs(v, root, file, depth)?);
                }
                return Ok(Value::Object(merged));
            }
            let mut out = Map::new();
            for (k, v) in map {
                out.insert(k, resolve_refs(v, root, file, depth)?);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items
            .into_iter()
            .map(|v| resolve_refs(v, root, file, depth))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other),
    }
}

/// What a page's frontmatter says about its navigation entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageMeta {
    /// `sidebarTitle`, else `title`, else the first heading, else the file name.
    pub label: String,
    pub icon: Option<String>,
    /// `hidden: true`: rendered, but left out of the navigation.
    pub hidden: bool,
}

/// The navigation of a docs.json or mint.json document. `pages` gives page labels and icons.
pub fn flatten(
    config: &Value,
    config_file: &str,
    pages: &HashMap<String, PageMeta>,
) -> Result<Vec<NavNode>, SiteError> {
    let mut out = Vec::new();
    let navigation = config.get("navigation").ok_or_else(|| SiteError::Invalid {
        file: config_file.to_string(),
        message: "the required field navigation is missing".into(),
    })?;
    let mut walker = Walker {
        pages,
        out: &mut out,
        file: config_file,
        version: None,
        language: None,
    };
    match navigation {
        // mint.json: an array of groups, sorted into tabs by URL prefix and into versions.
        Value::Array(groups) => walker.mint(config, groups)?,
        Value::Object(node) => {
            walker.node(node, 0, "navigation")?;
            if let Some(Value::Object(global)) = node.get("global") {
                walker.node(global, 0, "navigation.global")?;
            }
        }
        _ => {
            return Err(SiteError::Invalid {
                file: config_file.to_string(),
                message: "navigation must be an object (docs.json) or an array (mint.json)".into(),
            });
        }
    }
    if let Some(Value::Array(anchors)) = config.get("anchors") {
        // mint.json anchors: {name, url, icon} links.
        for anchor in anchors {
            if let (Some(name), Some(url)) = (
                anchor.get("name").and_then(Value::as_str),
                anchor.get("url").and_then(Value::as_str),
            ) {
                out.push(NavNode {
                    kind: NavNodeKind::Link,
                    depth: 0,
                    label: name.to_string(),
                    target: Some(url.to_string()),
                    icon: anchor.get("icon").and_then(Value::as_str).map(String::from),
                    tag: None,
                    expanded: false,
                    version: None,
                    language: None,
                });
            }
        }
    }
    Ok(out)
}

struct Walker<'a> {
    pages: &'a HashMap<String, PageMeta>,
    out: &'a mut Vec<NavNode>,
    file: &'a str,
    /// The `versions` and `languages` entries the walk is inside of.
    version: Option<String>,
    language: Option<String>,
}

impl Walker<'_> {
    fn invalid(&self, at: &str, message: &str) -> SiteError {
        SiteError::Invalid {
            file: self.file.to_string(),
            message: format!("{at}: {message}"),
        }
    }

    /// A navigation object: its containers in a fixed order, then its pages.
    fn node(&mut self, node: &Map<String, Value>, depth: u32, at: &str) -> Result<(), SiteError> {
        for (key, label_key, kind) in CONTAINERS {
            let Some(value) = node.get(*key) else {
                continue;
            };
            let Value::Array(items) = value else {
                return Err(self.invalid(&format!("{at}.{key}"), "must be an array"));
            };
            for (i, item) in items.iter().enumerate() {
                let here = format!("{at}.{key}[{i}]");
                let Value::Object(item) = item else {
                    return Err(self.invalid(&here, "must be an object"));
                };
                self.entry(item, label_key, *kind, depth, &here)?;
            }
        }
        if let Some(value) = node.get("pages") {
            let Value::Array(pages) = value else {
                return Err(self.invalid(&format!("{at}.pages"), "must be an array"));
            };
            self.pages(pages, depth, &format!("{at}.pages"))?;
        }
        Ok(())
    }

    /// A tab, group, anchor, ...: an entry, then its children one level deeper. One with an
    /// `href` and no children is a link.
    fn entry(
        &mut self,
        item: &Map<String, Value>,
        label_key: &str,
        kind: NavNodeKind,
        depth: u32,
        at: &str,
    ) -> Result<(), SiteError> {
        let label = item.get(label_key).and_then(Value::as_str).ok_or_else(|| {
            self.invalid(at, &format!("the field {label_key} (a string) is required"))
        })?;
        let icon = item.get("icon").and_then(Value::as_str).map(String::from);
        let has_children =
            CONTAINERS.iter().any(|(k, _, _)| item.contains_key(*k)) || item.contains_key("pages");
        if let (Some(href), false) = (item.get("href").and_then(Value::as_str), has_children) {
            self.out.push(NavNode {
                kind: NavNodeKind::Link,
                depth,
                label: label.to_string(),
                target: Some(href.to_string()),
                icon,
                tag: None,
                expanded: false,
                version: self.version.clone(),
                language: self.language.clone(),
            });
            return Ok(());
        }
        // Pages below a `versions` or `languages` entry belong to that version or language.
        let saved = (self.version.clone(), self.language.clone());
        match label_key {
            "version" => self.version = Some(label.to_string()),
            "language" => self.language = Some(label.to_string()),
            _ => {}
        }
        self.out.push(NavNode {
            kind,
            depth,
            label: label.to_string(),
            target: None,
            icon,
            tag: item.get("tag").and_then(Value::as_str).map(String::from),
            expanded: item
                .get("expanded")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            version: self.version.clone(),
            language: self.language.clone(),
        });
        let walked = self.node(item, depth + 1, at);
        (self.version, self.language) = saved;
        walked
    }

    /// mint.json's navigation: `{group, pages, version?}` objects. With `versions`, groups go
    /// under the version they name (the first version when they name none); with `tabs`
    /// (`{name, url}`), a group goes under the tab whose `url` prefixes its first page, and the
    /// rest under a first tab named by `primaryTab.name` (default "Documentation").
    fn mint(&mut self, config: &Value, groups: &[Value]) -> Result<(), SiteError> {
        let versions: Vec<&str> = config
            .get("versions")
            .and_then(Value::as_array)
            .map(|v| v.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let tabs: Vec<(&str, String)> = config
            .get("tabs")
            .and_then(Value::as_array)
            .map(|tabs| {
                tabs.iter()
                    .filter_map(|t| {
                        let name = t.get("name")?.as_str()?;
                        let url = t.get("url")?.as_str()?.trim_matches('/');
                        Some((name, format!("{url}/")))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let primary = config
            .pointer("/primaryTab/name")
            .and_then(Value::as_str)
            .unwrap_or("Documentation");
        let first_page = |group: &Value| -> Option<String> {
            let mut pages = group.get("pages")?.as_array()?.iter();
            pages.find_map(|p| p.as_str().map(|s| s.trim_start_matches('/').to_string()))
        };
        let tab_of = |group: &Value| -> Option<usize> {
            let first = first_page(group)?;
            tabs.iter()
                .position(|(_, prefix)| first.starts_with(prefix))
        };
        let version_list: Vec<Option<&str>> = if versions.is_empty() {
            vec![None]
        } else {
            versions.iter().map(|v| Some(*v)).collect()
        };
        for version in version_list {
            let in_version: Vec<(usize, &Value)> = groups
                .iter()
                .enumerate()
                .filter(|(_, g)| match version {
                    None => true,
                    Some(v) => {
                        let named = g.get("version").and_then(Value::as_str);
                        named == Some(v)
                            || (named.is_none() && Some(v) == versions.first().copied())
                    }
                })
                .collect();
            let mut depth = 0;
            if let Some(v) = version {
                self.version = Some(v.to_string());
                self.push_container(NavNodeKind::Version, v, 0);
                depth = 1;
            }
            if tabs.is_empty() {
                for (i, group) in &in_version {
                    self.pages(
                        std::slice::from_ref(*group),
                        depth,
                        &format!("navigation[{i}]"),
                    )?;
                }
            } else {
                let tab_names = std::iter::once(primary).chain(tabs.iter().map(|(n, _)| *n));
                for (t, name) in tab_names.enumerate() {
                    let members: Vec<_> = in_version
                        .iter()
                        .filter(|(_, g)| tab_of(g).map_or(0, |i| i + 1) == t)
                        .collect();
                    if members.is_empty() {
                        continue;
                    }
                    self.push_container(NavNodeKind::Tab, name, depth);
                    for (i, group) in members {
                        self.pages(
                            std::slice::from_ref(*group),
                            depth + 1,
                            &format!("navigation[{i}]"),
                        )?;
                    }
                }
            }
            self.version = None;
        }
        Ok(())
    }

    fn push_container(&mut self, kind: NavNodeKind, label: &str, depth: u32) {
        self.out.push(NavNode {
            kind,
            depth,
            label: label.to_string(),
            target: None,
            icon: None,
            tag: None,
            expanded: false,
            version: self.version.clone(),
            language: self.language.clone(),
        });
    }

    /// A `pages` array: page paths and nested groups.
    fn pages(&mut self, pages: &[Value], depth: u32, at: &str) -> Result<(), SiteError> {
        for (i, page) in pages.iter().enumerate() {
            let here = format!("{at}[{i}]");
            match page {
                Value::String(path) => {
                    let path = path.trim_start_matches('/').to_string();
                    let meta = self.pages.get(&path);
                    if meta.is_some_and(|m| m.hidden) {
                        continue;
                    }
                    let label = meta
                        .map(|m| m.label.clone())
                        .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(&path).to_string());
                    self.out.push(NavNode {
                        kind: NavNodeKind::Page,
                        depth,
                        label,
                        target: Some(path),
                        icon: meta.and_then(|m| m.icon.clone()),
                        tag: None,
                        expanded: false,
                        version: self.version.clone(),
                        language: self.language.clone(),
                    });
                }
                Value::Object(group) => {
                    self.entry(group, "group", NavNodeKind::Group, depth, &here)?;
                }
                _ => return Err(self.invalid(&here, "must be a page path or a group object")),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(nodes: &[NavNode]) -> Vec<(NavNodeKind, u32, String)> {
        nodes
            .iter()
            .map(|n| (n.kind, n.depth, n.label.clone()))
            .collect()
    }

    #[test]
    fn docs_json_tabs_groups_and_nested_groups() {
        let config = json!({"navigation": {"tabs": [{"tab": "Guides", "groups": [
            {"group": "Start", "pages": ["index", {"group": "More", "pages": ["a/b"]}]}
        ]}], "global": {"anchors": [{"anchor": "Blog", "href": "https://blog.example"}]}}});
        let pages = HashMap::from([(
            "index".to_string(),
            PageMeta {
                label: "Welcome".into(),
                icon: Some("house".into()),
                hidden: false,
            },
        )]);
        let nav = flatten(&config, "docs.json", &pages).unwrap();
        assert_eq!(nav[2].icon.as_deref(), Some("house"));
        assert_eq!(
            kinds(&nav),
            vec![
                (NavNodeKind::Tab, 0, "Guides".into()),
                (NavNodeKind::Group, 1, "Start".into()),
                (NavNodeKind::Page, 2, "Welcome".into()),
                (NavNodeKind::Group, 2, "More".into()),
                (NavNodeKind::Page, 3, "b".into()),
                (NavNodeKind::Link, 0, "Blog".into()),
            ]
        );
    }

    #[test]
    fn pages_carry_their_version_and_language() {
        let config = json!({"navigation": {"versions": [
            {"version": "v2", "languages": [{"language": "en", "pages": ["v2/en/a"]}, {"language": "fr", "pages": ["v2/fr/a"]}]},
            {"version": "v1", "pages": ["v1/a"]}
        ], "pages": ["shared"]}});
        let nav = flatten(&config, "docs.json", &HashMap::new()).unwrap();
        let scope = |path: &str| {
            let n = nav
                .iter()
                .find(|n| n.target.as_deref() == Some(path))
                .unwrap();
            (n.version.clone(), n.language.clone())
        };
        assert_eq!(scope("v2/en/a"), (Some("v2".into()), Some("en".into())));
        assert_eq!(scope("v2/fr/a"), (Some("v2".into()), Some("fr".into())));
        assert_eq!(scope("v1/a"), (Some("v1".into()), None));
        assert_eq!(scope("shared"), (None, None));
    }

    #[test]
    fn mint_json_tabs_by_url_prefix_and_versions() {
        let config = json!({
            "navigation": [
                {"group": "Start", "pages": ["intro"]},
                {"group": "API", "pages": ["api/widgets"]},
                {"group": "Old", "version": "v1", "pages": ["v1/intro"]}
            ],
            "tabs": [{"name": "API reference", "url": "api"}],
            "versions": ["v2", "v1"]
        });
        let nav = flatten(&config, "mint.json", &HashMap::new()).unwrap();
        assert_eq!(
            kinds(&nav),
            vec![
                (NavNodeKind::Version, 0, "v2".into()),
                (NavNodeKind::Tab, 1, "Documentation".into()),
                (NavNodeKind::Group, 2, "Start".into()),
                (NavNodeKind::Page, 3, "intro".into()),
                (NavNodeKind::Tab, 1, "API reference".into()),
                (NavNodeKind::Group, 2, "API".into()),
                (NavNodeKind::Page, 3, "widgets".into()),
                (NavNodeKind::Version, 0, "v1".into()),
                (NavNodeKind::Tab, 1, "Documentation".into()),
                (NavNodeKind::Group, 2, "Old".into()),
                (NavNodeKind::Page, 3, "intro".into()),
            ]
        );
        assert_eq!(nav[10].version.as_deref(), Some("v1"));
    }

    #[test]
    fn hidden_pages_stay_out_and_groups_keep_tag_and_expanded() {
        let config = json!({"navigation": {"groups": [
            {"group": "G", "tag": "NEW", "expanded": true, "pages": ["a", "secret"]}
        ]}});
        let pages = HashMap::from([(
            "secret".to_string(),
            PageMeta {
                label: "Secret".into(),
                icon: None,
                hidden: true,
            },
        )]);
        let nav = flatten(&config, "docs.json", &pages).unwrap();
        assert_eq!(nav.len(), 2);
        assert_eq!(nav[0].tag.as_deref(), Some("NEW"));
        assert!(nav[0].expanded);
    }

    #[test]
    fn mint_json_groups_and_anchors() {
        let config = json!({"navigation": [{"group": "G", "pages": ["x"]}], "anchors": [{"name": "GitHub", "url": "https://github.com"}]});
        let nav = flatten(&config, "mint.json", &HashMap::new()).unwrap();
        assert_eq!(nav.len(), 3);
        assert_eq!(nav[2].kind, NavNodeKind::Link);
    }

    #[test]
    fn malformed_navigation_names_the_place() {
        let config = json!({"navigation": {"groups": [{"pages": ["x"]}]}});
        let err = flatten(&config, "docs.json", &HashMap::new())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("docs.json")
                && err.contains("navigation.groups[0]")
                && err.contains("group"),
            "{err}"
        );
    }
}
