//! The navigation file, read to the docs.json schema: from its nested navigation (or
//! mint.json's group list, in `mint`) to a flat, pre-order list of entries. Every page the
//! navigation names is an entry; hidden ones are kept, marked, so their pages keep their
//! version and language; an entry naming a page that does not exist is a warning with its
//! place in the file, and is left out.

mod api;
mod mint;
mod refs;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value};

use super::api_pages::{ApiSpec, GeneratedPage};
use super::{NavEntry, NavKind, SiteError, SiteWarning};

pub use refs::resolve_refs;

/// Containers of docs.json navigation, the key naming each element, and the entry kind. A
/// tab's `menu` items are sections chosen from a menu, as dropdowns are.
const CONTAINERS: &[(&str, &str, NavKind)] = &[
    ("products", "product", NavKind::Product),
    ("versions", "version", NavKind::Version),
    ("languages", "language", NavKind::Language),
    ("dropdowns", "dropdown", NavKind::Dropdown),
    ("anchors", "anchor", NavKind::Anchor),
    ("tabs", "tab", NavKind::Tab),
    ("menu", "item", NavKind::Dropdown),
    ("groups", "group", NavKind::Group),
];

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
    let navigation = config.get("navigation").ok_or_else(|| SiteError::Invalid {
        file: config_file.to_string(),
        message: "the required field navigation is missing".into(),
    })?;
    let mut walker = Walker {
        pages,
        out: Vec::new(),
        warnings: Vec::new(),
        file: config_file,
        version: None,
        language: None,
        hidden: false,
        searchable: false,
        directory: None,
        root,
        spec: None,
        documents: HashMap::new(),
        taken: pages.keys().cloned().collect(),
        generated: Vec::new(),
    };
    match navigation {
        // mint.json: an array of groups, sorted into tabs by URL prefix and into versions.
        Value::Array(groups) => walker.mint(config, groups)?,
        Value::Object(node) => walker.node(node, 0, "navigation")?,
        _ => {
            return Err(SiteError::Invalid {
                file: config_file.to_string(),
                message: "navigation must be an object (docs.json) or an array (mint.json)".into(),
            });
        }
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

struct Walker<'a> {
    pages: &'a HashMap<String, PageMeta>,
    out: Vec<NavEntry>,
    warnings: Vec<SiteWarning>,
    file: &'a str,
    /// The `versions` and `languages` entries the walk is inside of.
    version: Option<String>,
    language: Option<String>,
    /// Inside an entry marked `hidden`.
    hidden: bool,
    /// Inside an entry marked `searchable`.
    searchable: bool,
    /// The nearest `directory` setting above: how a group's root page lists its entries.
    directory: Option<String>,
    root: &'a Path,
    /// The OpenAPI document the nearest enclosing element names.
    spec: Option<ApiSpec>,
    /// OpenAPI documents read so far (`None`: unreadable, already warned about).
    documents: HashMap<String, Option<serde_yaml_ng::Value>>,
    /// Page paths in use, so generated pages get their own.
    taken: HashSet<String>,
    generated: Vec<GeneratedPage>,
}

impl Walker<'_> {
    fn invalid(&self, at: &str, message: &str) -> SiteError {
        SiteError::Invalid {
            file: self.file.to_string(),
            message: format!("{at}: {message}"),
        }
    }

    fn warn(&mut self, at: &str, message: String) {
        self.warnings.push(SiteWarning {
            file: self.file.to_string(),
            message: format!("{at}: {message}"),
        });
    }

    fn push(
        &mut self,
        kind: NavKind,
        depth: u32,
        label: &str,
        target: Option<String>,
        icon: Option<&str>,
    ) -> &mut NavEntry {
        self.out.push(NavEntry {
            target,
            icon: icon.map(String::from),
            version: self.version.clone(),
            language: self.language.clone(),
            hidden: self.hidden,
            searchable: self.searchable,
            ..NavEntry::new(kind, depth, label, None)
        });
        self.out.last_mut().expect("just pushed")
    }

    /// A navigation object: its containers in a fixed order, then its pages, then its `global`
    /// entries (site-wide at the top, or per version or language below it).
    fn node(&mut self, node: &Map<String, Value>, depth: u32, at: &str) -> Result<(), SiteError> {
        let saved = (self.spec.clone(), self.directory.clone());
        if let Some(directory) = node.get("directory").and_then(Value::as_str) {
            self.directory = Some(directory.to_string());
        }
        let walked = self.node_within_spec(node, depth, at);
        (self.spec, self.directory) = saved;
        walked
    }

    fn node_within_spec(
        &mut self,
        node: &Map<String, Value>,
        depth: u32,
        at: &str,
    ) -> Result<(), SiteError> {
        let listed =
            CONTAINERS.iter().any(|(k, _, _)| node.contains_key(*k)) || node.contains_key("pages");
        if let Some(spec) = node.get("openapi").and_then(ApiSpec::from_field) {
            self.spec = Some(spec.clone());
            if !listed {
                // A document with no pages listed stands for all its operations.
                self.all_operations(&spec, depth, &format!("{at}.openapi"));
            }
        }
        if let Some(spec) = node.get("asyncapi").and_then(ApiSpec::from_field)
            && !listed
        {
            // Likewise an AsyncAPI document, for all its channels.
            self.all_channels(&spec, depth, &format!("{at}.asyncapi"));
        }
        for (key, label_key, kind) in CONTAINERS {
            let Some(value) = node.get(*key) else {
                continue;
            };
            let Value::Array(items) = value else {
                return Err(self.invalid(&format!("{at}.{key}"), "must be an array"));
            };
            let mut order: Vec<usize> = (0..items.len()).collect();
            if matches!(kind, NavKind::Version | NavKind::Language) {
                // The `default: true` version or language comes first: it is where the site
                // opens and what the switchers start from.
                order.sort_by_key(|&i| {
                    items[i].get("default").and_then(Value::as_bool) != Some(true)
                });
            }
            for i in order {
                let here = format!("{at}.{key}[{i}]");
                let Value::Object(item) = &items[i] else {
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
        if let Some(global) = node.get("global") {
            let Value::Object(global) = global else {
                return Err(self.invalid(&format!("{at}.global"), "must be an object"));
            };
            self.node(global, depth, &format!("{at}.global"))?;
        }
        Ok(())
    }

    /// A tab, group, anchor, ...: an entry, then its children one level deeper. A section with
    /// an `href` and no children holds one link; a group with one is a link.
    fn entry(
        &mut self,
        item: &Map<String, Value>,
        label_key: &str,
        kind: NavKind,
        depth: u32,
        at: &str,
    ) -> Result<(), SiteError> {
        let label = item.get(label_key).and_then(Value::as_str).ok_or_else(|| {
            self.invalid(at, &format!("the field {label_key} (a string) is required"))
        })?;
        let icon = item.get("icon").and_then(icon_name);
        let has_children = CONTAINERS.iter().any(|(k, _, _)| item.contains_key(*k))
            || item.contains_key("pages")
            || item.contains_key("global")
            || item.contains_key("openapi")
            || item.contains_key("asyncapi");
        let saved = (
            self.version.clone(),
            self.language.clone(),
            self.hidden,
            self.searchable,
        );
        self.hidden |= item.get("hidden").and_then(Value::as_bool) == Some(true);
        self.searchable |= item.get("searchable").and_then(Value::as_bool) == Some(true);
        match label_key {
            "version" => self.version = Some(label.to_string()),
            "language" => self.language = Some(label.to_string()),
            _ => {}
        }
        let href = item.get("href").and_then(Value::as_str).map(String::from);
        let walked = match href {
            Some(href) if !has_children && kind == NavKind::Group => {
                self.push(NavKind::Link, depth, label, Some(href), icon);
                Ok(())
            }
            Some(href) if !has_children => {
                self.push(kind, depth, label, None, icon);
                self.push(NavKind::Link, depth + 1, label, Some(href), icon);
                Ok(())
            }
            _ => {
                let root = match item.get("root").and_then(Value::as_str) {
                    Some(root) => self.existing_page(root, &format!("{at}.root")),
                    None => None,
                };
                // A group's own `directory` applies to its root page; the walk below passes
                // it on to the groups inside.
                let directory = item
                    .get("directory")
                    .and_then(Value::as_str)
                    .map(String::from)
                    .or_else(|| self.directory.clone())
                    .filter(|d| matches!(d.as_str(), "accordion" | "card"));
                let listed = root.is_some() && kind == NavKind::Group;
                let node = self.push(kind, depth, label, root, icon);
                node.tag = item.get("tag").and_then(Value::as_str).map(String::from);
                node.expanded = item.get("expanded").and_then(Value::as_bool) == Some(true);
                node.directory = directory.filter(|_| listed);
                self.node(item, depth + 1, at)
            }
        };
        (self.version, self.language, self.hidden, self.searchable) = saved;
        walked
    }

    /// `entry` as a page path if that page exists; else a warning, and `None`.
    fn existing_page(&mut self, entry: &str, at: &str) -> Option<String> {
        let path = page_path(entry);
        if self.pages.contains_key(&path) {
            return Some(path);
        }
        self.warn(
            at,
            format!(
                "the navigation names the page {path:?}, but neither {path}.mdx nor {path}.md exists; the entry is left out"
            ),
        );
        None
    }

    fn push_container(&mut self, kind: NavKind, label: &str, depth: u32) {
        self.push(kind, depth, label, None, None);
    }

    /// A `pages` array: page paths, API operations and nested groups.
    fn pages(&mut self, pages: &[Value], depth: u32, at: &str) -> Result<(), SiteError> {
        for (i, page) in pages.iter().enumerate() {
            let here = format!("{at}[{i}]");
            match page {
                Value::String(entry) if is_operation_entry(entry) => {
                    self.operation(entry.trim(), depth, &here);
                }
                Value::String(entry) => {
                    let Some(path) = self.existing_page(entry, &here) else {
                        continue;
                    };
                    let meta = &self.pages[&path];
                    let (label, icon, hidden, tag) = (
                        meta.label.clone(),
                        meta.icon.clone(),
                        meta.hidden,
                        meta.tag.clone(),
                    );
                    // A page whose frontmatter gives a `url` is a link to it in the sidebar.
                    let (kind, target) = match &meta.url {
                        Some(url) => (NavKind::Link, url.clone()),
                        None => (NavKind::Page, path),
                    };
                    let node = self.push(kind, depth, &label, Some(target), icon.as_deref());
                    node.hidden |= hidden;
                    node.tag = tag;
                }
                Value::Object(group) => {
                    self.entry(group, "group", NavKind::Group, depth, &here)?;
                }
                _ => return Err(self.invalid(&here, "must be a page path or a group object")),
            }
        }
        Ok(())
    }
}

/// An icon as docs.json gives it: a name, or `{name, style}`.
fn icon_name(value: &Value) -> Option<&str> {
    value
        .as_str()
        .or_else(|| value.get("name").and_then(Value::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(nodes: &[NavEntry]) -> Vec<(NavKind, u32, String)> {
        nodes
            .iter()
            .map(|n| (n.kind, n.depth, n.label.clone()))
            .collect()
    }

    /// Pages that exist, labelled by their file name.
    fn existing(paths: &[&str]) -> HashMap<String, PageMeta> {
        paths
            .iter()
            .map(|p| {
                let label = p.rsplit('/').next().unwrap_or(p).to_string();
                (
                    p.to_string(),
                    PageMeta {
                        label,
                        icon: None,
                        hidden: false,
                        noindex: false,
                        url: None,
                        tag: None,
                    },
                )
            })
            .collect()
    }

    fn walk(config: &Value, pages: &HashMap<String, PageMeta>) -> Navigation {
        flatten(config, "docs.json", pages, Path::new(".")).unwrap()
    }

    #[test]
    fn docs_json_tabs_groups_and_nested_groups() {
        let config = json!({"navigation": {"tabs": [{"tab": "Guides", "groups": [
            {"group": "Start", "pages": ["index", {"group": "More", "pages": ["a/b"]}]}
        ]}], "global": {"anchors": [{"anchor": "Blog", "href": "https://blog.example"}]}}});
        let mut pages = existing(&["a/b"]);
        pages.insert(
            "index".to_string(),
            PageMeta {
                label: "Welcome".into(),
                icon: Some("house".into()),
                hidden: false,
                noindex: false,
                url: None,
                tag: Some("v4".into()),
            },
        );
        let nav = walk(&config, &pages).nodes;
        assert_eq!(nav[2].icon.as_deref(), Some("house"));
        assert_eq!(
            nav[2].tag.as_deref(),
            Some("v4"),
            "a page's frontmatter tag"
        );
        assert_eq!(
            kinds(&nav),
            vec![
                (NavKind::Tab, 0, "Guides".into()),
                (NavKind::Group, 1, "Start".into()),
                (NavKind::Page, 2, "Welcome".into()),
                (NavKind::Group, 2, "More".into()),
                (NavKind::Page, 3, "b".into()),
                (NavKind::Anchor, 0, "Blog".into()),
                (NavKind::Link, 1, "Blog".into()),
            ]
        );
    }

    #[test]
    fn pages_carry_their_version_and_language() {
        let config = json!({"navigation": {"versions": [
            {"version": "v2", "languages": [{"language": "en", "pages": ["v2/en/a"]}, {"language": "fr", "pages": ["v2/fr/a"]}]},
            {"version": "v1", "pages": ["v1/a"]}
        ], "pages": ["shared"]}});
        let nav = walk(
            &config,
            &existing(&["v2/en/a", "v2/fr/a", "v1/a", "shared"]),
        )
        .nodes;
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
        let pages = existing(&["intro", "api/widgets", "v1/intro"]);
        let nav = flatten(&config, "mint.json", &pages, Path::new("."))
            .unwrap()
            .nodes;
        assert_eq!(
            kinds(&nav),
            vec![
                (NavKind::Version, 0, "v2".into()),
                (NavKind::Tab, 1, "Documentation".into()),
                (NavKind::Group, 2, "Start".into()),
                (NavKind::Page, 3, "intro".into()),
                (NavKind::Tab, 1, "API reference".into()),
                (NavKind::Group, 2, "API".into()),
                (NavKind::Page, 3, "widgets".into()),
                (NavKind::Version, 0, "v1".into()),
                (NavKind::Tab, 1, "Documentation".into()),
                (NavKind::Group, 2, "Old".into()),
                (NavKind::Page, 3, "intro".into()),
            ]
        );
        assert_eq!(nav[10].version.as_deref(), Some("v1"));
    }

    #[test]
    fn mint_json_anchors_sort_folders_and_link_tabs_and_anchors_lead_out() {
        let pages = existing(&["intro", "api/users", "api/auth", "guides/a"]);
        let mint = |extra: Value| {
            let mut config = json!({"navigation": [
                {"group": "Start", "pages": ["intro"]},
                {"group": "API", "pages": [{"group": "Auth", "pages": ["api/auth"]}, "api/users"]}
            ]});
            config
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            flatten(&config, "mint.json", &pages, Path::new(".")).unwrap()
        };
        // Without tabs, anchors naming a folder sort the groups, as tabs do.
        let nav = mint(json!({
            "topAnchor": {"name": "Guides"},
            "anchors": [{"name": "API", "icon": "code", "url": "api"},
                        {"name": "Blog", "url": "https://blog.example"}]
        }));
        assert_eq!(
            kinds(&nav.nodes),
            vec![
                (NavKind::Anchor, 0, "Guides".into()),
                (NavKind::Group, 1, "Start".into()),
                (NavKind::Page, 2, "intro".into()),
                (NavKind::Anchor, 0, "API".into()),
                (NavKind::Group, 1, "API".into()),
                (NavKind::Group, 2, "Auth".into()),
                (NavKind::Page, 3, "auth".into()),
                (NavKind::Page, 2, "users".into()),
            ]
        );
        assert_eq!(nav.nodes[3].icon.as_deref(), Some("code"));
        // With tabs, a link tab follows the folder tabs, and a folder anchor links to the first
        // page of its folder; one whose folder holds no page is a warning.
        let nav = mint(json!({
            "tabs": [{"name": "API", "url": "api"}, {"name": "Changelog", "url": "https://changes.example"}],
            "anchors": [{"name": "Reference", "url": "/api/"}, {"name": "Guides", "url": "guides"}]
        }));
        let links: Vec<_> = nav
            .nodes
            .iter()
            .filter(|n| n.kind == NavKind::Link)
            .map(|n| (n.depth, n.label.as_str(), n.target.as_deref().unwrap()))
            .collect();
        assert_eq!(
            links,
            vec![
                (1, "Changelog", "https://changes.example"),
                (1, "Reference", "/api/auth"),
            ]
        );
        assert_eq!(nav.nodes[0].label, "Documentation");
        assert_eq!(nav.warnings.len(), 1, "{:?}", nav.warnings);
        assert!(nav.warnings[0].message.contains("\"guides\""));
    }

    #[test]
    fn hidden_entries_are_kept_marked_and_groups_keep_tag_and_expanded() {
        let config = json!({"navigation": {"tabs": [
            {"tab": "Docs", "groups": [{"group": "G", "tag": "NEW", "expanded": true, "pages": ["a", "secret"]}]},
            {"tab": "Internal", "hidden": true, "pages": ["internal"]}
        ]}});
        let mut pages = existing(&["a", "internal"]);
        pages.insert(
            "secret".into(),
            PageMeta {
                label: "Secret".into(),
                icon: None,
                hidden: true,
                noindex: false,
                url: None,
                tag: None,
            },
        );
        let nav = walk(&config, &pages).nodes;
        assert_eq!(nav[1].tag.as_deref(), Some("NEW"));
        assert!(nav[1].expanded);
        let hidden: Vec<&str> = nav
            .iter()
            .filter(|n| n.hidden)
            .map(|n| n.label.as_str())
            .collect();
        assert_eq!(hidden, ["Secret", "Internal", "internal"]);
    }

    #[test]
    fn directory_listings_are_inherited_by_groups_with_a_root_page() {
        let config = json!({"navigation": {"directory": "card", "tabs": [
            {"tab": "Docs", "groups": [
                {"group": "Cards", "root": "a", "pages": ["b",
                    {"group": "Inner", "root": "c", "directory": "accordion", "pages": ["d"]},
                    {"group": "Off", "root": "e", "directory": "none", "pages": ["f"]}]},
                {"group": "No root", "pages": ["g"]}
            ]}
        ]}});
        let pages = existing(&["a", "b", "c", "d", "e", "f", "g"]);
        let nav = walk(&config, &pages).nodes;
        let directory = |label: &str| {
            nav.iter()
                .find(|n| n.label == label)
                .and_then(|n| n.directory.clone())
        };
        assert_eq!(directory("Cards").as_deref(), Some("card"));
        assert_eq!(directory("Inner").as_deref(), Some("accordion"));
        assert_eq!(directory("Off"), None);
        assert_eq!(
            directory("No root"),
            None,
            "a group without a root page lists nothing"
        );
        assert_eq!(directory("Docs"), None, "only groups list");
    }

    #[test]
    fn roots_menus_links_defaults_and_global_anchors_per_language() {
        let config = json!({"navigation": {"languages": [
            {"language": "en", "tabs": [
                {"tab": "Guides", "menu": [{"item": "Start", "groups": [{"group": "G", "root": "g/index", "pages": ["g/a"]}]}]},
                {"tab": "Blog", "href": "https://blog.example"}
            ]},
            {"language": "ar", "default": true, "pages": ["ar/a"],
             "global": {"anchors": [{"anchor": "Community", "href": "https://c.example"}]}}
        ]}});
        let nav = walk(&config, &existing(&["g/index", "g/a", "ar/a"])).nodes;
        assert_eq!(
            kinds(&nav),
            vec![
                (NavKind::Language, 0, "ar".into()),
                (NavKind::Page, 1, "a".into()),
                (NavKind::Anchor, 1, "Community".into()),
                (NavKind::Link, 2, "Community".into()),
                (NavKind::Language, 0, "en".into()),
                (NavKind::Tab, 1, "Guides".into()),
                (NavKind::Dropdown, 2, "Start".into()),
                (NavKind::Group, 3, "G".into()),
                (NavKind::Page, 4, "a".into()),
                (NavKind::Tab, 1, "Blog".into()),
                (NavKind::Link, 2, "Blog".into()),
            ]
        );
        assert_eq!(
            nav[7].target.as_deref(),
            Some("g/index"),
            "the group opens its root page"
        );
        assert_eq!(nav[2].language.as_deref(), Some("ar"));
    }

    #[test]
    fn missing_pages_are_warnings_with_their_place() {
        let config = json!({"navigation": {"groups": [{"group": "G", "root": "/gone-root", "pages": ["a.mdx", "/gone"]}]}});
        let walked = walk(&config, &existing(&["a"]));
        assert_eq!(
            kinds(&walked.nodes),
            vec![
                (NavKind::Group, 0, "G".into()),
                (NavKind::Page, 1, "a".into()),
            ]
        );
        let warnings: Vec<String> = walked.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0].starts_with("docs.json: navigation.groups[0].root:")
                && warnings[0].contains("gone-root.mdx")
        );
        assert!(warnings[1].starts_with("docs.json: navigation.groups[0].pages[1]:"));
    }

    #[test]
    fn operation_entries_and_documents_generate_pages() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("api.yaml"),
            "paths:\n  /users:\n    get: {summary: List users, tags: [Users]}\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("events.yaml"),
            "asyncapi: 3.0.0\nchannels:\n  chat: {title: Chat room}\n",
        )
        .unwrap();
        let config = json!({"navigation": {"groups": [
            {"group": "API", "openapi": "api.yaml", "pages": ["GET /users"]},
            {"group": "All", "openapi": {"source": "api.yaml", "directory": "all"}},
            {"group": "Events", "asyncapi": {"source": "/events.yaml", "directory": "events"}}
        ]}});
        let walked = flatten(&config, "docs.json", &HashMap::new(), dir.path()).unwrap();
        assert_eq!(
            kinds(&walked.nodes),
            vec![
                (NavKind::Group, 0, "API".into()),
                (NavKind::Page, 1, "List users".into()),
                (NavKind::Group, 0, "All".into()),
                (NavKind::Group, 1, "Users".into()),
                (NavKind::Page, 2, "List users".into()),
                (NavKind::Group, 0, "Events".into()),
                (NavKind::Page, 1, "Chat room".into()),
            ]
        );
        let paths: Vec<&str> = walked.generated.iter().map(|g| g.path.as_str()).collect();
        assert_eq!(
            paths,
            ["api-reference/get-users", "all/get-users", "events/chat"]
        );
        assert!(walked.generated[2].source.contains("\"events.yaml chat\""));
        assert!(
            walked.generated[0]
                .source
                .contains("\"api.yaml GET /users\"")
        );
    }

    #[test]
    fn malformed_navigation_names_the_place() {
        let config = json!({"navigation": {"groups": [{"pages": ["x"]}]}});
        let err = flatten(&config, "docs.json", &HashMap::new(), Path::new("."))
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
