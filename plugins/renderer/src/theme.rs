//! The theme's files every page shares: stylesheets, scripts, one navigation script per
//! navigation context, and the feature switches.

use std::collections::BTreeMap;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::icons;
use crate::navigation::NavEntry;
use quire_sdk::escape;

const STYLESHEET: &str = include_str!("../assets/quire.css");
const SCRIPT: &str = include_str!("../assets/quire.js");
const SEARCH_SCRIPT: &str = include_str!("../assets/search.js");
const PLAYGROUND_SCRIPT: &str = include_str!("../assets/playground.js");
const ASSISTANT_SCRIPT: &str = include_str!("../assets/assistant.js");

pub use quire_sdk::features::{DEFAULT as DEFAULT_FEATURES, FILE as FEATURES_FILE};

/// The theme's files, named by their content (`assets/quire.0123abcdef.css`) so servers can let
/// browsers keep them for a year: a changed file gets a new name, and the pages that use it
/// change with it. Built once per site, when it is opened.
#[derive(Debug, Clone)]
pub struct ThemeFiles {
    pub stylesheet: String,
    pub highlight: String,
    pub script: String,
    pub search: String,
    pub playground: String,
    pub assistant: String,
    /// The script naming fonts and analytics on other hosts, if the site has any.
    pub external: Option<String>,
    /// One navigation script per navigation context.
    pub navigation: Vec<String>,
    /// Every file above, as (path, contents).
    pub(crate) files: Vec<(String, Vec<u8>)>,
}

impl ThemeFiles {
    /// The files for `site`'s settings and navigation contexts.
    pub fn build(
        settings: &crate::settings::Settings,
        contexts: &[crate::navigation::NavContext],
    ) -> Self {
        let css = STYLESHEET
            .replace(
                "--quire-primary: #2563eb",
                &format!("--quire-primary: {}", settings.primary),
            )
            .replace(
                "--quire-primary-dark: #60a5fa",
                &format!("--quire-primary-dark: {}", settings.light),
            )
            .replace(
                "--quire-button: #2563eb",
                &format!("--quire-button: {}", settings.dark),
            )
            + &settings.chrome.font_css()
            + &crate::tailwind::stylesheet()
            + &settings.appearance.css();
        let mut files = Vec::new();
        let mut add = |stem: &str, ext: &str, contents: Vec<u8>| -> String {
            let hash = hex::encode(&Sha256::digest(&contents)[..5]);
            let path = format!("assets/{stem}.{hash}.{ext}");
            files.push((path.clone(), contents));
            path
        };
        let stylesheet = add("quire", "css", css.into_bytes());
        let highlight = add("highlight", "css", crate::code::stylesheet().into_bytes());
        let script = add("quire", "js", SCRIPT.as_bytes().to_vec());
        let search = add("search", "js", SEARCH_SCRIPT.as_bytes().to_vec());
        let playground = add("playground", "js", PLAYGROUND_SCRIPT.as_bytes().to_vec());
        let assistant = add("assistant", "js", ASSISTANT_SCRIPT.as_bytes().to_vec());
        let external = settings
            .external
            .script()
            .map(|script| add("external", "js", script.into_bytes()));
        let navigation = contexts
            .iter()
            .enumerate()
            .map(|(i, context)| {
                let icons: BTreeMap<&str, String> = context
                    .items
                    .iter()
                    .filter_map(|item| {
                        let name = item.icon.as_deref()?;
                        let html = settings.icon_html(icons::IconRef::named(name), 16, None)?;
                        Some((name, html))
                    })
                    .collect();
                // Written straight from the entries: a tree of JSON values first cost a large
                // site's open a third of its time (BENCHMARKS.md).
                let navigation = NavigationScript {
                    items: &context.items,
                    icons,
                };
                let json = serde_json::to_string(&navigation)
                    .unwrap_or_else(|_| r#"{"items":[],"icons":{}}"#.to_string());
                let script = format!(
                    "// The navigation of one version and language, drawn into the sidebar by quire.js.\nwindow.QUIRE_NAV = {};\n",
                    escape::script_json(&json)
                );
                add(&format!("nav/{i}"), "js", script.into_bytes())
            })
            .collect();
        Self {
            stylesheet,
            highlight,
            script,
            search,
            playground,
            assistant,
            external,
            navigation,
            files,
        }
    }
}

/// What `window.QUIRE_NAV` holds: a context's entries and the icons they name, drawn.
#[derive(Serialize)]
struct NavigationScript<'a> {
    items: &'a [NavEntry],
    icons: BTreeMap<&'a str, String>,
}

pub use quire_sdk::features::script as features_script;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigation::NavKind;

    /// The navigation script is written from the entries as the tree of JSON values it replaced
    /// wrote it, byte for byte: its content hash names it, and every page links it by that name.
    #[test]
    fn the_navigation_json_is_the_one_a_tree_of_values_gives() {
        let mut group = NavEntry::new(NavKind::Group, 0, "Guides <b>", None);
        group.icon = Some("book".into());
        group.tag = Some("NEW".into());
        group.expanded = true;
        group.directory = Some("card".into());
        let page = NavEntry::new(NavKind::Page, 1, "Start \u{2028}", Some("guides/start"));
        let items = vec![group, page];
        let icons: BTreeMap<&str, String> = [("book", "<svg></svg>".to_string())].into();
        let tree = serde_json::json!({ "items": items, "icons": icons }).to_string();
        let written = serde_json::to_string(&NavigationScript {
            items: &items,
            icons,
        })
        .expect("serializes");
        assert_eq!(written, tree);
    }
}
