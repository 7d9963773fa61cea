//! One site's bundle checked as a reader's browser reads it, into its row of figures: pages
//! exported and in their own sidebar, warnings by kind, broken links, off-bundle assets.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde_json::Value;

use super::expected::{frontmatter_url, link_in_navigation, navigation_pages};
use super::{Figures, MEDIA};
use crate::common;
use crate::common::archive::{links, resolve};

pub(super) fn check(
    name: &str,
    root: &Path,
    bundle: &BTreeMap<String, Vec<u8>>,
    warnings: &Value,
) -> Figures {
    let mut f = Figures {
        site: name.to_string(),
        ..Figures::default()
    };
    let expected = navigation_pages(root);
    f.navigation_pages = expected.len();
    for page in &expected {
        if !bundle.contains_key(&format!("{page}.html")) {
            continue;
        }
        f.exported += 1;
        // A page whose frontmatter names a `url` is, in the sidebar, a link to that address.
        let listed = match frontmatter_url(root, page) {
            Some(url) => link_in_navigation(&url, bundle),
            None => in_own_sidebar(page, bundle),
        };
        if listed {
            f.in_sidebar += 1;
        }
    }

    let files: HashSet<&str> = bundle.keys().map(String::as_str).collect();
    for (path, contents) in bundle.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(contents);
        for link in links(&html) {
            let external = link.starts_with("//") || has_scheme(&link);
            if external {
                if off_bundle_asset(&html, &link) {
                    f.off_bundle.push((path.clone(), link));
                }
                continue;
            }
            if link.is_empty() || link.starts_with('#') {
                continue;
            }
            // A link to media may be missing (the corpora carry none); a link to anything else,
            // a page or a file (a notebook, a download), must find it in the bundle.
            let Some(target) = resolve(path, &link) else {
                f.broken_links.push((path.clone(), link));
                continue;
            };
            if target.is_empty()
                || files.contains(target.as_str())
                || files.contains(format!("{target}.html").as_str())
                || files.contains(format!("{}/index.html", target.trim_end_matches('/')).as_str())
            {
                continue;
            }
            let lower = target.to_ascii_lowercase();
            if MEDIA.iter().any(|ext| lower.ends_with(ext)) {
                f.missing_media += 1;
            } else {
                f.broken_links.push((path.clone(), link));
            }
        }
    }

    let mut files_with_warnings = HashSet::new();
    // Every warning, for whoever works on what the table counts.
    let listing: String = warnings
        .as_array()
        .into_iter()
        .flatten()
        .map(|w| {
            let line = w["line"]
                .as_u64()
                .map(|l| format!(":{l}"))
                .unwrap_or_default();
            format!(
                "{}{line} {}\n",
                w["file"].as_str().unwrap_or("-"),
                w["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    let _ = std::fs::write(
        common::workspace().join(format!("target/conformance-{name}-warnings.txt")),
        listing,
    );
    for warning in warnings.as_array().into_iter().flatten() {
        let message = warning["message"].as_str().unwrap_or_default();
        let kind = kind(message);
        if matches!(kind, "page not rendered" | "other") {
            println!("{name}: {}: {message}", warning["file"]);
        }
        *f.warnings.entry(kind).or_default() += 1;
        // Pages only: a problem in a snippet is reported once, against the snippet.
        if let Some(file) = warning["file"].as_str()
            && (file.ends_with(".mdx") || file.ends_with(".md"))
            && !file.starts_with("snippets/")
        {
            files_with_warnings.insert(file.to_string());
        }
    }
    f.pages_with_warnings = files_with_warnings.len();
    let in_navigation: HashSet<&str> = expected.iter().map(String::as_str).collect();
    f.navigation_pages_with_warnings = files_with_warnings
        .iter()
        .filter(|file| {
            let path = file.rsplit_once('.').map_or(file.as_str(), |(p, _)| p);
            in_navigation.contains(path)
        })
        .count();
    f
}

/// Whether `page`'s own navigation data lists it in the part of the sidebar its page shows
/// (the subtree of its section, or everything when it has none).
fn in_own_sidebar(page: &str, bundle: &BTreeMap<String, Vec<u8>>) -> bool {
    let Some((_, shown)) = common::archive::sidebar_of(bundle, page) else {
        return false;
    };
    shown.iter().any(|item| {
        item["target"].as_str() == Some(page)
            && matches!(item["kind"].as_str(), Some("page" | "group"))
    })
}

fn has_scheme(link: &str) -> bool {
    link.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// Whether `link` is loaded by the page (a script, style sheet or frame) rather than followed.
fn off_bundle_asset(html: &str, link: &str) -> bool {
    for tag in ["<script", "<link", "<iframe"] {
        for piece in html.split(tag).skip(1) {
            let Some(end) = piece.find('>') else { continue };
            let attributes = &piece[..end];
            let loads = tag != "<link"
                || attributes.contains("stylesheet")
                || attributes.contains("preload");
            if loads && attributes.contains(&format!("\"{link}\"")) {
                return true;
            }
        }
    }
    false
}

/// The kind of an "unknown component" warning for a lowercase tag.
pub(super) const UNKNOWN_ELEMENT: &str = "unknown lowercase tag";

/// A warning's kind, for the table.
fn kind(message: &str) -> &'static str {
    // A lowercase tag is an HTML, SVG or MathML element, never a component.
    if message
        .strip_prefix("unknown component <")
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c.is_lowercase())
    {
        return UNKNOWN_ELEMENT;
    }
    let kinds = [
        ("could not be rendered", "page not rendered"),
        ("names the page", "missing page"),
        ("unknown icon", "icon"),
        ("unknown component", "component"),
        ("unknown setting", "unknown setting"),
        ("needs a JavaScript runtime", "needs JavaScript"),
        ("run no code of their own", "left-out element"),
        ("math ", "math"),
        ("not evaluated", "expression"),
        ("broken link", "broken link"),
        ("openapi", "API operation"),
        ("OpenAPI", "API operation"),
        ("redirect", "redirect"),
        ("MDX syntax error", "MDX syntax"),
    ];
    kinds
        .iter()
        .find(|(needle, _)| message.contains(needle))
        .map_or("other", |(_, kind)| kind)
}
