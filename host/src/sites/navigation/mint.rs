//! mint.json, the older navigation file: a list of `{group, pages, version?}` objects, sorted
//! into tabs by URL prefix and into versions.

use serde_json::Value;

use super::Walker;
use crate::sites::{NavKind, SiteError};

impl Walker<'_> {
    /// mint.json's navigation: `{group, pages, version?}` objects. With `versions`, groups go
    /// under the version they name (the first version when they name none); with `tabs`
    /// (`{name, url}`), a group goes under the tab whose `url` prefixes its first page, and the
    /// rest under a first tab named by `primaryTab.name` (default "Documentation").
    pub(super) fn mint(&mut self, config: &Value, groups: &[Value]) -> Result<(), SiteError> {
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
                self.push_container(NavKind::Version, v, 0);
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
                    self.push_container(NavKind::Tab, name, depth);
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
}
