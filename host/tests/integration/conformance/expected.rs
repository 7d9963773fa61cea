//! What a site's own files say a complete export holds, read here independently of the host:
//! the pages its navigation names (from the docs.json schema's containers, or mint.json's
//! groups), less hidden ones, and which of them lead elsewhere.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde_json::Value;

/// The pages the navigation file names that exist in the site and are not hidden: read here
/// independently of the host, from the docs.json schema's containers.
pub(crate) fn navigation_pages(root: &Path) -> Vec<String> {
    let config: Value = ["docs.json", "mint.json"]
        .iter()
        .find_map(|f| serde_json::from_str(&std::fs::read_to_string(root.join(f)).ok()?).ok())
        .expect("a navigation file");
    let mut out = Vec::new();
    walk(root, &config["navigation"], &mut out);
    let mut seen = HashSet::new();
    out.into_iter()
        .map(|p| {
            let p = p.trim().trim_start_matches('/');
            p.strip_suffix(".mdx")
                .or_else(|| p.strip_suffix(".md"))
                .unwrap_or(p)
                .to_string()
        })
        .filter(|p| seen.insert(p.clone()))
        .filter(|p| {
            ["mdx", "md"].iter().any(|ext| {
                std::fs::read_to_string(root.join(format!("{p}.{ext}")))
                    .is_ok_and(|source| !hidden_in_frontmatter(&source))
            })
        })
        .collect()
}

/// The navigation pages readers open from the sidebar: those whose frontmatter `url` does not
/// send their entry to another site (such a page is a link there, and not searched).
pub(crate) fn reading_pages(root: &Path) -> Vec<String> {
    navigation_pages(root)
        .into_iter()
        .filter(|page| frontmatter_url(root, page).is_none())
        .collect()
}

fn walk(root: &Path, node: &Value, out: &mut Vec<String>) {
    match node {
        Value::String(entry) => {
            let operation = entry.split_whitespace().count() >= 2 && entry.contains(" /");
            if !operation && !entry.contains("://") {
                out.push(entry.clone());
            }
        }
        Value::Array(items) => items.iter().for_each(|i| walk(root, i, out)),
        Value::Object(map) => {
            if map.get("hidden").and_then(Value::as_bool) == Some(true) {
                return;
            }
            if let Some(Value::String(reference)) = map.get("$ref") {
                let text = std::fs::read_to_string(root.join(reference.trim_start_matches('/')));
                if let Some(value) = text.ok().and_then(|t| serde_json::from_str(&t).ok()) {
                    walk(root, &value, out);
                }
            }
            if let Some(Value::String(page)) = map.get("root") {
                out.push(page.clone());
            }
            for key in [
                "pages",
                "groups",
                "tabs",
                "anchors",
                "dropdowns",
                "products",
                "versions",
                "languages",
                "menu",
                "global",
            ] {
                if let Some(child) = map.get(key) {
                    walk(root, child, out);
                }
            }
        }
        _ => {}
    }
}

/// The other site a page's frontmatter `url` sends its navigation entry to.
pub(super) fn frontmatter_url(root: &Path, page: &str) -> Option<String> {
    let source = ["mdx", "md"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(root.join(format!("{page}.{ext}"))).ok())?;
    let front = source.strip_prefix("---\n")?.split("\n---").next()?;
    let url = front.lines().find_map(|l| l.trim().strip_prefix("url:"))?;
    let url = url.trim().trim_matches(['"', '\'']);
    url.contains("://").then(|| url.to_string())
}

/// Whether some navigation data of the bundle has a link to `url`.
pub(super) fn link_in_navigation(url: &str, bundle: &BTreeMap<String, Vec<u8>>) -> bool {
    bundle
        .iter()
        .filter(|(path, _)| path.starts_with("assets/nav/"))
        .any(|(_, script)| {
            let text = String::from_utf8_lossy(script);
            let json = text
                .find('{')
                .zip(text.rfind('}'))
                .and_then(|(start, end)| serde_json::from_str::<Value>(&text[start..=end]).ok());
            json.and_then(|j| j["items"].as_array().cloned())
                .is_some_and(|items| {
                    items
                        .iter()
                        .any(|i| i["kind"] == "link" && i["target"].as_str() == Some(url))
                })
        })
}

fn hidden_in_frontmatter(source: &str) -> bool {
    let Some(rest) = source.strip_prefix("---\n") else {
        return false;
    };
    let front = rest.split("\n---").next().unwrap_or("");
    front.lines().any(|l| l.trim() == "hidden: true")
}
