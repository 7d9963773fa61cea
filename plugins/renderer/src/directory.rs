//! Directory listings (docs.json `directory`): the root page of a group lists the group's
//! entries below its own content, as cards (one a page, a link or a sub-group) or as an
//! accordion (its pages as a list, each sub-group a collapsible part listing its own). The
//! host works out which groups list (`directory` is inherited down the navigation).

use quire_sdk::navigation::{NavEntry, NavKind};

use crate::links::{navigation_href, root_prefix};
use crate::site::Site;
use quire_sdk::escape;

/// The listing under the page at `path`, when it is the root page of a group that lists its
/// entries; empty otherwise.
pub fn listing(site: &Site, path: &str) -> String {
    let Some(context) = site.context(path) else {
        return String::new();
    };
    let items = &context.items;
    let Some(at) = context.listing_group(path) else {
        return String::new();
    };
    let group = &items[at];
    let root = root_prefix(path);
    let children = children(items, at);
    if children.is_empty() {
        return String::new();
    }
    match group.directory.as_deref() {
        Some("card") => cards(items, &children, &root),
        Some("accordion") => accordion(items, &children, &root),
        _ => String::new(),
    }
}

/// The indexes of the entry at `at`'s direct children.
fn children(items: &[NavEntry], at: usize) -> Vec<usize> {
    let depth = items[at].depth;
    items
        .iter()
        .enumerate()
        .skip(at + 1)
        .take_while(|(_, e)| e.depth > depth)
        .filter(|(_, e)| e.depth == depth + 1)
        .map(|(i, _)| i)
        .collect()
}

/// Where an entry leads: a page, a link, or a group's root page (else its first page).
fn href(items: &[NavEntry], at: usize, root: &str) -> Option<String> {
    let entry = &items[at];
    match entry.kind {
        NavKind::Page => entry
            .target
            .as_ref()
            .map(|page| navigation_href(&format!("/{page}"), root)),
        NavKind::Link => entry.target.as_ref().map(|t| navigation_href(t, root)),
        NavKind::Group => match &entry.target {
            Some(page) => Some(navigation_href(&format!("/{page}"), root)),
            None => children(items, at)
                .into_iter()
                .find_map(|child| href(items, child, root)),
        },
        _ => None,
    }
}

fn cards(items: &[NavEntry], children: &[usize], root: &str) -> String {
    let mut out = String::from("<div class=\"directory card-group cols-2\">");
    for &child in children {
        let Some(href) = href(items, child, root) else {
            continue;
        };
        out.push_str(&format!(
            "<a class=\"card\" href=\"{}\"><div class=\"card-content\"><div class=\"card-title\">{}</div></div></a>",
            escape::html(&href),
            escape::html(&items[child].label)
        ));
    }
    out.push_str("</div>\n");
    out
}

fn accordion(items: &[NavEntry], children: &[usize], root: &str) -> String {
    let mut out = String::from("<div class=\"directory\">");
    let mut list = String::new();
    let flush = |list: &mut String, out: &mut String| {
        if !list.is_empty() {
            out.push_str(&format!("<ul>{}</ul>", std::mem::take(list)));
        }
    };
    for &child in children {
        let entry = &items[child];
        if entry.kind == NavKind::Group {
            flush(&mut list, &mut out);
            out.push_str(&format!(
                "<details class=\"accordion\"><summary>{}</summary><ul>",
                escape::html(&entry.label)
            ));
            for grandchild in self::children(items, child) {
                if let Some(href) = href(items, grandchild, root) {
                    out.push_str(&link_item(&href, &items[grandchild].label));
                }
            }
            out.push_str("</ul></details>");
        } else if let Some(href) = href(items, child, root) {
            list.push_str(&link_item(&href, &entry.label));
        }
    }
    flush(&mut list, &mut out);
    out.push_str("</div>\n");
    out
}

fn link_item(href: &str, label: &str) -> String {
    format!(
        "<li><a href=\"{}\">{}</a></li>",
        escape::html(href),
        escape::html(label)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use NavKind::{Group, Link, Page};

    fn site(directory: &str) -> Site {
        let mut group = NavEntry::new(Group, 0, "Guides", Some("guides"));
        group.directory = Some(directory.to_string());
        let items = vec![
            group,
            NavEntry::new(Page, 1, "Setup & run", Some("guides/setup")),
            NavEntry::new(Group, 1, "Deeper", None),
            NavEntry::new(Page, 2, "Tuning", Some("guides/tuning")),
            NavEntry::new(Link, 1, "Blog", Some("https://blog.example")),
            NavEntry::new(Page, 0, "Other", Some("other")),
        ];
        Site::new("Acme".into(), "v1".into(), items, "{}", vec![]).unwrap()
    }

    #[test]
    fn cards_list_the_groups_entries() {
        let html = listing(&site("card"), "guides");
        assert!(html.contains("href=\"guides/setup.html\""), "{html}");
        assert!(html.contains("Setup &amp; run"));
        // A sub-group leads to its first page; a link where it points.
        assert!(html.contains("href=\"guides/tuning.html\"><div class=\"card-content\"><div class=\"card-title\">Deeper"));
        assert!(html.contains("href=\"https://blog.example\""));
        assert!(!html.contains("Other"));
        assert_eq!(
            listing(&site("card"), "guides/setup"),
            "",
            "not a root page"
        );
    }

    #[test]
    fn an_accordion_opens_sub_groups_to_their_pages() {
        let html = listing(&site("accordion"), "guides");
        assert!(html.contains("<details class=\"accordion\"><summary>Deeper</summary><ul><li><a href=\"guides/tuning.html\">Tuning</a></li></ul></details>"), "{html}");
        assert!(html.contains("<li><a href=\"guides/setup.html\">Setup &amp; run</a></li>"));
    }
}
