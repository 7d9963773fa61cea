//! The walk over docs.json's navigation (read and checked by `quire_core::config::navigation`):
//! each element in order, its entry pushed where its enclosing elements place it (version,
//! language, hidden, searchable), its children walked one level deeper with what it passes down
//! to them.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use quire_core::config::navigation::{Element, NavigationNode, PageEntry};

use super::{PageMeta, is_operation_entry, page_path};
use crate::sites::api_pages::{ApiSpec, GeneratedPage};
use crate::sites::{NavEntry, NavKind, SiteWarning};

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
        node: &NavigationNode,
        depth: u32,
        at: &str,
        inherited: &Inherited,
    ) {
        let mut here = inherited.clone();
        if let Some(directory) = &node.directory {
            here.directory = Some(directory.clone());
        }
        if let Some(spec) = node.openapi.as_ref().map(ApiSpec::of) {
            here.spec = Some(spec.clone());
            if !node.lists_entries() {
                // A document with no pages listed stands for all its operations.
                self.all_operations(&spec, depth, &format!("{at}.openapi"), &here);
            }
        }
        if let Some(spec) = node.asyncapi.as_ref().map(ApiSpec::of)
            && !node.lists_entries()
        {
            // Likewise an AsyncAPI document, for all its channels.
            self.all_channels(&spec, depth, &format!("{at}.asyncapi"), &here);
        }
        for container in &node.containers {
            let elements = &container.elements;
            let mut order: Vec<usize> = (0..elements.len()).collect();
            if matches!(container.kind, NavKind::Version | NavKind::Language) {
                // The `default: true` version or language comes first: it is where the site
                // opens and what the switchers start from.
                order.sort_by_key(|&i| !elements[i].default);
            }
            for i in order {
                let here_at = format!("{at}.{}[{i}]", container.key);
                self.entry(&elements[i], container.kind, depth, &here_at, &here);
            }
        }
        if let Some(pages) = &node.pages {
            self.pages(pages, depth, &format!("{at}.pages"), &here);
        }
        if let Some(global) = &node.global {
            self.node(global, depth, &format!("{at}.global"), &here);
        }
    }

    /// A tab, group, anchor, ...: an entry, then its children one level deeper. A section with
    /// an `href` and no children holds one link; a group with one is a link.
    fn entry(
        &mut self,
        element: &Element,
        kind: NavKind,
        depth: u32,
        at: &str,
        inherited: &Inherited,
    ) {
        let label = element.label.as_str();
        let icon = element.icon.as_deref();
        let mut inner = inherited.clone();
        inner.hidden |= element.hidden;
        inner.searchable |= element.searchable;
        match kind {
            NavKind::Version => inner.version = Some(label.to_string()),
            NavKind::Language => inner.language = Some(label.to_string()),
            _ => {}
        }
        match &element.href {
            Some(href) if !element.inside.holds_anything() && kind == NavKind::Group => {
                self.push(
                    NavKind::Link,
                    depth,
                    label,
                    Some(href.clone()),
                    icon,
                    &inner,
                );
            }
            Some(href) if !element.inside.holds_anything() => {
                self.push(kind, depth, label, None, icon, &inner);
                self.push(
                    NavKind::Link,
                    depth + 1,
                    label,
                    Some(href.clone()),
                    icon,
                    &inner,
                );
            }
            _ => {
                let root = match &element.root {
                    Some(root) => self.existing_page(root, &format!("{at}.root")),
                    None => None,
                };
                // A group's own `directory` applies to its root page; the walk below passes
                // it on to the groups inside.
                let directory = element
                    .inside
                    .directory
                    .clone()
                    .or_else(|| inherited.directory.clone())
                    .filter(|d| matches!(d.as_str(), "accordion" | "card"));
                let listed = root.is_some() && kind == NavKind::Group;
                let node = self.push(kind, depth, label, root, icon, &inner);
                node.tag = element.tag.clone();
                node.expanded = element.expanded;
                node.directory = directory.filter(|_| listed);
                self.node(&element.inside, depth + 1, at, &inner);
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

    /// A `pages` list: page paths, API operations and nested groups.
    pub(super) fn pages(
        &mut self,
        pages: &[PageEntry],
        depth: u32,
        at: &str,
        inherited: &Inherited,
    ) {
        for (i, page) in pages.iter().enumerate() {
            self.page(page, depth, &format!("{at}[{i}]"), inherited);
        }
    }

    /// One entry of a `pages` list, at `at`.
    pub(super) fn page(&mut self, page: &PageEntry, depth: u32, at: &str, inherited: &Inherited) {
        match page {
            PageEntry::Path(entry) if is_operation_entry(entry) => {
                self.operation(entry.trim(), depth, at, inherited);
            }
            PageEntry::Path(entry) => {
                let Some(path) = self.existing_page(entry, at) else {
                    return;
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
            PageEntry::Group(group) => self.entry(group, NavKind::Group, depth, at, inherited),
        }
    }
}
