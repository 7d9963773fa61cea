//! mint.json, the older navigation file: a list of `{group, pages, version?}` objects, sorted
//! into versions, and into tabs (or anchors) by the folder their `url` names.
//!
//! In mint.json a tab's or an anchor's `url` is either a link to another site, or "the start of
//! the URL that marks what pages go in" it: a folder of the site. A folder tab or anchor holds
//! the groups whose first page lies in that folder; the rest go under a first one named by
//! `primaryTab.name` (tabs) or `topAnchor.name` (anchors), "Documentation" by default.

use quire_core::config::navigation::{MintNavigation, MintSection, PageEntry};

use super::walker::{Inherited, Walker};
use crate::sites::NavKind;

/// A mint.json tab or anchor.
struct Section<'a> {
    name: &'a str,
    icon: Option<&'a str>,
    place: Place,
}

/// Where a section's `url` leads.
enum Place {
    /// A folder of the site, as a prefix of page paths ("api/").
    Folder(String),
    /// Another site (or an e-mail address).
    Link(String),
}

/// Where each of mint.json's tabs or anchors leads.
fn sections(items: &[MintSection]) -> Vec<Section<'_>> {
    items
        .iter()
        .map(|item| {
            let url = item.url.as_str();
            let place = if url.contains(':') || url.starts_with("//") {
                Place::Link(url.to_string())
            } else {
                Place::Folder(format!("{}/", url.trim_matches('/')))
            };
            Section {
                name: &item.name,
                icon: item.icon.as_deref(),
                place,
            }
        })
        .collect()
}

impl Section<'_> {
    fn folder(&self) -> Option<&str> {
        match &self.place {
            Place::Folder(prefix) => Some(prefix),
            Place::Link(_) => None,
        }
    }
}

/// The pages a mint.json group names, its nested groups' too, as paths.
fn group_pages(group: &PageEntry, out: &mut Vec<String>) {
    let PageEntry::Group(group) = group else {
        return;
    };
    for page in group.inside.pages.iter().flatten() {
        match page {
            PageEntry::Path(path) => out.push(super::page_path(path)),
            nested => group_pages(nested, out),
        }
    }
}

impl Walker<'_> {
    /// mint.json's navigation: `{group, pages, version?}` objects. With `versions`, groups go
    /// under the version they name (the first version when they name none). Folder tabs sort the
    /// groups when there are tabs, folder anchors when there are none; link tabs follow the
    /// folder ones, and anchors that do not sort the groups are links, to their site or to the
    /// first page of their folder.
    pub(super) fn mint(&mut self, mint: &MintNavigation) {
        let groups = &mint.groups;
        let versions: Vec<&str> = mint.versions.iter().map(String::as_str).collect();
        let tabs = sections(&mint.tabs);
        let anchors = sections(&mint.anchors);
        let anchors_sort = tabs.is_empty() && anchors.iter().any(|a| a.folder().is_some());
        let (kind, sorting, first) = if !tabs.is_empty() {
            (NavKind::Tab, &tabs, mint.primary_tab.as_deref())
        } else if anchors_sort {
            (NavKind::Anchor, &anchors, mint.top_anchor.as_deref())
        } else {
            (NavKind::Tab, &tabs, None)
        };
        let first = first.unwrap_or("Documentation");
        let folders: Vec<(&Section, &str)> = sorting
            .iter()
            .filter_map(|s| Some((s, s.folder()?)))
            .collect();
        let first_page = |group: &PageEntry| -> Option<String> {
            let mut pages = Vec::new();
            group_pages(group, &mut pages);
            pages.into_iter().next()
        };
        let section_of = |group: &PageEntry| -> Option<usize> {
            let page = first_page(group)?;
            folders
                .iter()
                .position(|(_, prefix)| page.starts_with(prefix))
        };
        let version_list: Vec<Option<&str>> = if versions.is_empty() {
            vec![None]
        } else {
            versions.iter().map(|v| Some(*v)).collect()
        };
        for version in version_list {
            let in_version: Vec<(usize, &PageEntry)> = groups
                .iter()
                .enumerate()
                .filter(|(_, g)| match version {
                    None => true,
                    Some(v) => {
                        let named = match g {
                            PageEntry::Group(group) => group.version.as_deref(),
                            PageEntry::Path(_) => None,
                        };
                        named == Some(v)
                            || (named.is_none() && Some(v) == versions.first().copied())
                    }
                })
                .collect();
            let mut depth = 0;
            let inherited = Inherited {
                version: version.map(String::from),
                ..Inherited::default()
            };
            if let Some(v) = version {
                self.push(NavKind::Version, 0, v, None, None, &inherited);
                depth = 1;
            }
            if sorting.is_empty() {
                for (i, group) in &in_version {
                    self.page(group, depth, &format!("navigation[{i}]"), &inherited);
                }
            } else {
                let names = std::iter::once((first, None))
                    .chain(folders.iter().map(|(s, _)| (s.name, s.icon)));
                for (s, (name, icon)) in names.enumerate() {
                    let members: Vec<_> = in_version
                        .iter()
                        .filter(|(_, g)| section_of(g).map_or(0, |i| i + 1) == s)
                        .collect();
                    if members.is_empty() {
                        continue;
                    }
                    self.push(kind, depth, name, None, icon, &inherited);
                    for (i, group) in members {
                        self.page(group, depth + 1, &format!("navigation[{i}]"), &inherited);
                    }
                }
            }
            for tab in &tabs {
                if let Place::Link(url) = &tab.place {
                    self.push(NavKind::Tab, depth, tab.name, None, tab.icon, &inherited);
                    let link = Some(url.clone());
                    self.push(NavKind::Link, depth + 1, tab.name, link, None, &inherited);
                }
            }
        }
        if !anchors_sort {
            self.anchor_links(&anchors, groups);
        }
    }

    /// Anchors as links, after the navigation: to their site, or to the first page of their
    /// folder (an anchor whose folder has no page in the navigation is a warning, left out).
    fn anchor_links(&mut self, anchors: &[Section<'_>], groups: &[PageEntry]) {
        let mut listed = Vec::new();
        for group in groups {
            group_pages(group, &mut listed);
        }
        for (i, anchor) in anchors.iter().enumerate() {
            let target = match &anchor.place {
                Place::Link(url) => url.clone(),
                Place::Folder(prefix) => {
                    match listed
                        .iter()
                        .find(|p| p.starts_with(prefix.as_str()) && self.pages.contains_key(*p))
                    {
                        Some(page) => format!("/{page}"),
                        None => {
                            self.warn(
                                &format!("anchors[{i}]"),
                                format!(
                                    "the anchor {:?} names the folder {:?}, which holds no page of the navigation; it is left out",
                                    anchor.name,
                                    prefix.trim_end_matches('/')
                                ),
                            );
                            continue;
                        }
                    }
                }
            };
            let site_wide = Inherited::default();
            self.push(
                NavKind::Anchor,
                0,
                anchor.name,
                None,
                anchor.icon,
                &site_wide,
            );
            self.push(
                NavKind::Link,
                1,
                anchor.name,
                Some(target),
                anchor.icon,
                &site_wide,
            );
        }
    }
}
