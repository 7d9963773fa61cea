//! docs.json `redirects` in a bundle (the rules themselves are `quire_core::redirects`, shared
//! with renderers, which resolve links with them): a small page at every plain source, which
//! sends the reader on with relative links (so it works from `file://` too), and
//! `redirects.json`, the table a docs server answers 308 (or 307) from.

use std::collections::HashSet;

use quire_core::redirects::{PageIndex, Redirects, Rule, is_external, is_plain, page_of};
use serde_json::Value;

use crate::plugins::OutputFile;

/// The table a docs server reads from a bundle.
pub const TABLE_FILE: &str = "redirects.json";

/// `redirects` with each plain rule leading straight to the page it ends on: the page itself,
/// its folder's `index`, or the folder's first page (`pages` are in reading order). A rule
/// that ends on no page leads nowhere and is left out, with a warning.
pub fn settle(redirects: &Redirects, pages: &[&str]) -> (Redirects, Vec<String>) {
    let index = PageIndex::new(pages.iter().copied());
    let mut warnings = Vec::new();
    let mut rules = Vec::new();
    for rule in redirects.rules() {
        if !is_plain(&rule.source) {
            rules.push(rule.clone());
            continue;
        }
        let Some((destination, permanent)) = redirects.resolve(&rule.source) else {
            continue;
        };
        if is_external(&destination) {
            rules.push(Rule {
                destination,
                permanent,
                ..rule.clone()
            });
            continue;
        }
        let (path, suffix) = match destination.find(['#', '?']) {
            Some(i) => destination.split_at(i),
            None => (destination.as_str(), ""),
        };
        let target = path.trim_matches('/');
        let target = if target.is_empty() { "index" } else { target };
        match index.page(target) {
            Some(page) => rules.push(Rule {
                source: rule.source.clone(),
                destination: format!("/{page}{suffix}"),
                permanent,
            }),
            None => warnings.push(format!(
                "redirects: {:?} leads to {destination:?}, which is no page of the site; it is left out",
                rule.source
            )),
        }
    }
    (Redirects::from_rules(rules), warnings)
}

/// The files a bundle carries for `redirects`: a redirect page at every plain source, and the
/// table; none without rules.
pub fn files(redirects: &Redirects) -> Vec<OutputFile> {
    if redirects.is_empty() {
        return Vec::new();
    }
    // One page per path, the first rule's; a source with a fragment names no page of its own
    // (browsers never send the fragment).
    let mut paths = HashSet::new();
    let mut files: Vec<OutputFile> = redirects
        .rules()
        .iter()
        .filter(|r| is_plain(&r.source) && !r.source.contains('#'))
        .filter(|r| page_of(&r.source).is_some_and(|page| paths.insert(page.to_string())))
        .filter_map(|rule| {
            let (destination, _) = redirects.resolve(&rule.source)?;
            let page = page_of(&rule.source)?;
            Some(OutputFile {
                path: format!("{page}.html"),
                contents: redirect_page(page, &destination).into_bytes(),
            })
        })
        .collect();
    let table: Vec<Value> = redirects
        .rules()
        .iter()
        .map(|r| {
            serde_json::json!({"source": r.source, "destination": r.destination, "permanent": r.permanent})
        })
        .collect();
    files.push(OutputFile {
        path: TABLE_FILE.to_string(),
        contents: serde_json::to_vec_pretty(&table).unwrap_or_default(),
    });
    files
}

/// Reads a bundle's table.
pub fn from_table(bytes: &[u8]) -> Result<Redirects, String> {
    let table: Vec<Value> = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let rules = table
        .iter()
        .map(Rule::from_json)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Redirects::from_rules(rules))
}

/// A page at `page` that sends the reader to `destination` (a site path or a URL), with
/// relative links so it works from `file://` and any sub-path.
fn redirect_page(page: &str, destination: &str) -> String {
    let href = if is_external(destination) {
        destination.to_string()
    } else {
        let root = "../".repeat(page.matches('/').count());
        let (path, suffix) = match destination.find(['#', '?']) {
            Some(i) => destination.split_at(i),
            None => (destination, ""),
        };
        let target = path.trim_matches('/');
        if target.is_empty() {
            format!("{root}index.html{suffix}")
        } else {
            format!("{root}{target}.html{suffix}")
        }
    };
    let attribute = quire_core::escape::attribute(&href);
    let script = quire_core::escape::script_json(&serde_json::to_string(&href).unwrap_or_default());
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Moved</title>\n<meta name=\"robots\" content=\"noindex\">\n\
         <meta http-equiv=\"refresh\" content=\"0; url={attribute}\">\n\
         <script>location.replace({script} + location.hash)</script>\n</head>\n\
         <body>\n<p>This page has moved to <a href=\"{attribute}\">{attribute}</a>.</p>\n</body>\n</html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_sources_get_relative_redirect_pages_and_the_table_is_carried() {
        let config = serde_json::json!({"redirects": [
            {"source": "/guides/old", "destination": "/guides/new"},
            {"source": "/api/:op", "destination": "/reference/:op"},
            {"source": "/guides/old#part", "destination": "/guides/other"},
            {"source": "/guides/old/", "destination": "/guides/other"},
        ]});
        let (redirects, _) =
            Redirects::of(&quire_core::config::SiteConfig::of(&config), &|_| false);
        let written = files(&redirects);
        let page = written
            .iter()
            .find(|f| f.path == "guides/old.html")
            .expect("a page");
        let html = String::from_utf8(page.contents.clone()).unwrap();
        assert!(html.contains("url=../guides/new.html"), "{html}");
        assert!(html.contains("location.replace(\"../guides/new.html\" + location.hash)"));
        let table = written
            .iter()
            .find(|f| f.path == TABLE_FILE)
            .expect("the table");
        let back = from_table(&table.contents).unwrap();
        assert_eq!(
            back.resolve("/api/list"),
            Some(("/reference/list".into(), true))
        );
        assert_eq!(written.len(), 2, "no page for a pattern");
        assert!(files(&Redirects::default()).is_empty());
    }

    #[test]
    fn plain_rules_settle_on_pages_and_folders_or_are_left_out() {
        let config = serde_json::json!({"redirects": [
            {"source": "/a", "destination": "/guides"},
            {"source": "/b", "destination": "/b2#x"},
            {"source": "/b2", "destination": "/guides/setup"},
            {"source": "/c", "destination": "/nowhere"},
            {"source": "/d/:x", "destination": "/nowhere/:x"},
        ]});
        let (redirects, _) =
            Redirects::of(&quire_core::config::SiteConfig::of(&config), &|_| false);
        let (settled, warnings) = settle(&redirects, &["guides/intro", "guides/setup"]);
        assert_eq!(settled.resolve("/a"), Some(("/guides/intro".into(), true)));
        assert_eq!(settled.resolve("/b"), Some(("/guides/setup".into(), true)));
        assert_eq!(settled.resolve("/c"), None);
        assert!(settled.resolve("/d/y").is_some(), "patterns are kept");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
    }
}
