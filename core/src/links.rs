//! Links between pages. Exported sites are opened from `file://` and from any sub-path, so every
//! link between pages is relative: from `guides/a` to `reference/b` is `../reference/b.html`.

/// Where a link in a page's source points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// Another page of the site (path without extension), with its `#anchor` if any.
    Page {
        path: String,
        anchor: Option<String>,
    },
    /// A place on the same page.
    Anchor(String),
    /// Outside the site (`https:`, `mailto:`, ...), or a file of the site that is not a page.
    External(String),
    /// A page of the site that does not exist.
    Missing(String),
}

/// Resolves `href` as written in page `from` (a path without extension) against the site's
/// `pages`: root-relative (`/guides/a`), relative (`../a`, `a.md`, `a.mdx`) or external.
pub fn resolve(from: &str, href: &str, pages: &[String]) -> LinkTarget {
    if let Some(anchor) = href.strip_prefix('#') {
        return LinkTarget::Anchor(anchor.to_string());
    }
    if href.contains("://") || href.starts_with("mailto:") || href.starts_with("tel:") {
        return LinkTarget::External(href.to_string());
    }
    let (path_part, anchor) = match href.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (href, None),
    };
    let base: Vec<&str> = if path_part.starts_with('/') {
        Vec::new()
    } else {
        let mut segments: Vec<&str> = from.split('/').collect();
        segments.pop();
        segments
    };
    let mut segments = base;
    for segment in path_part.trim_start_matches('/').split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    let joined = segments.join("/");
    let path = ["mdx", "md", "html"]
        .iter()
        .find_map(|ext| joined.strip_suffix(&format!(".{ext}")))
        .unwrap_or(&joined)
        .to_string();
    let path = if path.is_empty() {
        "index".to_string()
    } else {
        path
    };
    if pages.contains(&path) {
        LinkTarget::Page { path, anchor }
    } else if pages.iter().any(|p| *p == format!("{path}/index")) {
        LinkTarget::Page {
            path: format!("{path}/index"),
            anchor,
        }
    } else {
        LinkTarget::Missing(path)
    }
}

/// The relative URL of page `to` from page `from`, both paths without extension.
pub fn page_href(from: &str, to: &str) -> String {
    format!("{}{to}.html", root_prefix(from))
}

/// The relative URL of a site file (`assets/site.css`) from page `from`.
pub fn asset_href(from: &str, file: &str) -> String {
    format!("{}{file}", root_prefix(from))
}

/// `../` once per folder `page` is in.
pub fn root_prefix(page: &str) -> String {
    "../".repeat(page.matches('/').count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages() -> Vec<String> {
        ["index", "guides/a", "guides/b", "reference/index"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn links_resolve_from_the_linking_page() {
        assert_eq!(
            resolve("guides/a", "b.mdx#x", &pages()),
            LinkTarget::Page {
                path: "guides/b".into(),
                anchor: Some("x".into())
            }
        );
        assert_eq!(
            resolve("guides/a", "/reference", &pages()),
            LinkTarget::Page {
                path: "reference/index".into(),
                anchor: None
            }
        );
        assert_eq!(
            resolve("guides/a", "../index", &pages()),
            LinkTarget::Page {
                path: "index".into(),
                anchor: None
            }
        );
        assert_eq!(
            resolve("index", "nope", &pages()),
            LinkTarget::Missing("nope".into())
        );
        assert!(matches!(
            resolve("index", "https://x.dev", &pages()),
            LinkTarget::External(_)
        ));
        assert_eq!(
            resolve("index", "#top", &pages()),
            LinkTarget::Anchor("top".into())
        );
    }

    #[test]
    fn hrefs_are_relative_to_the_page() {
        assert_eq!(
            page_href("guides/a", "reference/index"),
            "../reference/index.html"
        );
        assert_eq!(page_href("index", "guides/a"), "guides/a.html");
        assert_eq!(asset_href("a/b/c", "assets/x.css"), "../../assets/x.css");
    }
}
