//! The walk over docs.json's navigation: each element in order, its entry pushed where its
//! enclosing elements place it (version, language, hidden, searchable), its children walked one
//! level deeper with what it passes down to them.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value};

use super::{CONTAINERS, PageMeta, is_operation_entry, page_path};
use crate::sites::api_pages::{ApiSpec, GeneratedPage};
use crate::sites::{NavEntry, NavKind, SiteError, SiteWarning};

/// What an element of the navigation passes down to what it holds: its placement (version,
/// language, hidden, searchable) and the settings its children inherit. A value, handed to each
/// child, so nothing has to be restored on the way back up.
#[derive(Debug, Clone, Default)]
pub(super) struct Inherited {
    /// The `versions` and `languages` entries the walk is inside of.
    pub version: Option<String>,
    pub language: Option<String>,
    /// Inside an entry marked `hidden`.
    pub hidden: bool,
    /// Inside an entry marked `searchable`.
    pub searchable: bool,
    /// The nearest `directory` setting above: how a group's root page lists its entries.
    pub directory: Option<String>,
    /// The OpenAPI document the nearest enclosing element names.
    pub spec: Option<ApiSpec>,
}

/// The walk over the navigation: what it has gathered so far.
pub(super) struct Walker<'a> {
    pub pages: &'a HashMap<String, PageMeta>,
    pub out: Vec<NavEntry>,
    pub warnings: Vec<SiteWarning>,
    pub file: &'a str,
    pub root: &'a Path,
    /// OpenAPI documents read so far (`None`: unreadable, already warned about).
    pub documents: HashMap<String, Option<serde_yaml_ng::Value>>,
    /// Page paths in use, so generated pages get their own.
    pub taken: HashSet<String>,
    pub generated: Vec<GeneratedPage>,
}

impl Walker<'_> {
    pub(super) fn invalid(&self, at: &str, message: &str) -> SiteError {
        SiteError::Invalid {
            file: self.file.to_string(),
            message: format!("{at}: {message}"),
        }
    }

    pub(super) fn warn(&mut self, at: &str, message: String) {
        self.warnings.push(SiteWarning {
            file: self.file.to_string(),
            message: format!("{at}: {message}"),
        });
    }

    /// An entry at `depth`, placed where `inherited` says.
    pub(super) fn push(
        &mut self,
        kind: NavKind,
        depth: u32,
        label: &str,
        target: Option<String>,
        icon: Option<&str>,
        inherited: &Inherited,
    ) -> &mut NavEntry {
        self.out.push(NavEntry {
            target,
            icon: icon.map(String::from),
            version: inherited.version.clone(),
            language: inherited.language.clone(),
            hidden: inherited.hidden,
            searchable: inherited.searchable,
            ..NavEntry::new(kind, depth, label, None)
        });
        self.out.last_mut().expect("just pushed")
    }

    /// A navigation object: its containers in a fixed order, then its pages, then its `global`
    /// entries (site-wide at the top, or per version or language below it).
    pub(super) fn node(
        &mut self,
        node: &Map<String, Value>,
        depth: u32,
        at: &str,
        inherited: &Inherited,
    ) -> Result<(), SiteError> {
        let mut here = inherited.clone();
        if let Some(directory) = node.get("directory").and_then(Value::as_str) {
            here.directory = Some(directory.to_string());
        }
        let listed =
            CONTAINERS.iter().any(|(k, _, _)| node.contains_key(*k)) || node.contains_key("pages");
        if let Some(spec) = node.get("openapi").and_then(ApiSpec::from_field) {
            here.spec = Some(spec.clone());
            if !listed {
                // A document with no pages listed stands for all its operations.
                self.all_operations(&spec, depth, &format!("{at}.openapi"), &here);
            }
        }
        if let Some(spec) = node.get("asyncapi").and_then(ApiSpec::from_field)
            && !listed
        {
            // Likewise an AsyncAPI document, for all its channels.
            self.all_channels(&spec, depth, &format!("{at}.asyncapi"), &here);
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
                let here_at = format!("{at}.{key}[{i}]");
                let Value::Object(item) = &items[i] else {
                    return Err(self.invalid(&here_at, "must be an object"));
                };
                self.entry(item, label_key, *kind, depth, &here_at, &here)?;
            }
        }
        if let Some(value) = node.get("pages") {
            let Value::Array(pages) = value else {
                return Err(self.invalid(&format!("{at}.pages"), "must be an array"));
            };
            self.pages(pages, depth, &format!("{at}.pages"), &here)?;
        }
        if let Some(global) = node.get("global") {
            let Value::Object(global) = global else {
                return Err(self.invalid(&format!("{at}.global"), "must be an object"));
            };
            self.node(global, depth, &format!("{at}.global"), &here)?;
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
        inherited: &Inherited,
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
        let mut inner = inherited.clone();
        inner.hidden |= item.get("hidden").and_then(Value::as_bool) == Some(true);
        inner.searchable |= item.get("searchable").and_then(Value::as_bool) == Some(true);
        match label_key {
            "version" => inner.version = Some(label.to_string()),
            "language" => inner.language = Some(label.to_string()),
            _ => {}
        }
        let href = item.get("href").and_then(Value::as_str).map(String::from);
        match href {
            Some(href) if !has_children && kind == NavKind::Group => {
                self.push(NavKind::Link, depth, label, Some(href), icon, &inner);
                Ok(())
            }
            Some(href) if !has_children => {
                self.push(kind, depth, label, None, icon, &inner);
                self.push(NavKind::Link, depth + 1, label, Some(href), icon, &inner);
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
                    .or_else(|| inherited.directory.clone())
                    .filter(|d| matches!(d.as_str(), "accordion" | "card"));
                let listed = root.is_some() && kind == NavKind::Group;
                let node = self.push(kind, depth, label, root, icon, &inner);
                node.tag = item.get("tag").and_then(Value::as_str).map(String::from);
                node.expanded = item.get("expanded").and_then(Value::as_bool) == Some(true);
                node.directory = directory.filter(|_| listed);
                self.node(item, depth + 1, at, &inner)
            }
        }
    }

    /// `entry` as a page path if that page exists; else a warning, and `None`.
    pub(super) fn existing_page(&mut self, entry: &str, at: &str) -> Option<String> {
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

    /// A `pages` array: page paths, API operations and nested groups.
    pub(super) fn pages(
        &mut self,
        pages: &[Value],
        depth: u32,
        at: &str,
        inherited: &Inherited,
    ) -> Result<(), SiteError> {
        for (i, page) in pages.iter().enumerate() {
            let here = format!("{at}[{i}]");
            match page {
                Value::String(entry) if is_operation_entry(entry) => {
                    self.operation(entry.trim(), depth, &here, inherited);
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
                    let node = self.push(
                        kind,
                        depth,
                        &label,
                        Some(target),
                        icon.as_deref(),
                        inherited,
                    );
                    node.hidden |= hidden;
                    node.tag = tag;
                }
                Value::Object(group) => {
                    self.entry(group, "group", NavKind::Group, depth, &here, inherited)?;
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
