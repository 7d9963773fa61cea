//! Links between pages: site-absolute or relative page links in the source become relative
//! `.html` links that work from any sub-path and from `file://`.

use std::collections::HashSet;

/// The `../` prefix that leads from `page_path` back to the site root.
pub fn root_prefix(page_path: &str) -> String {
    "../".repeat(page_path.matches('/').count())
}

/// A rewritten link, and why it may be broken.
pub struct Rewritten {
    pub href: String,
    pub problem: Option<String>,
}

/// Rewrites `href` found on the page at `page_path`. External links (with a scheme, or
/// protocol-relative) and pure fragments stay as they are.
pub fn rewrite(href: &str, page_path: &str, pages: &HashSet<String>) -> Rewritten {
    let unchanged = |problem| Rewritten {
        href: href.to_string(),
        problem,
    };
    if href.is_empty() || href.starts_with('#') || is_external(href) {
        return unchanged(None);
    }
    let (path_part, suffix) = match href.find(['#', '?']) {
        Some(i) => href.split_at(i),
        None => (href, ""),
    };
    let Some(target) = resolve(path_part, page_path) else {
        return unchanged(Some(format!("link {href:?} points outside the site")));
    };
    let prefix = root_prefix(page_path);
    let last = target.rsplit('/').next().unwrap_or("");
    let page = strip_page_extension(&target);
    if page.is_none() && last.contains('.') {
        // A file such as an image or a download, copied into the export under its own path.
        return Rewritten {
            href: format!("{prefix}{target}{suffix}"),
            problem: None,
        };
    }
    let page = page.unwrap_or(&target).trim_end_matches('/');
    let page = if page.is_empty() { "index" } else { page };
    let found = [page.to_string(), format!("{page}/index")]
        .into_iter()
        .find(|p| pages.contains(p));
    let problem = found
        .is_none()
        .then(|| format!("broken link {href:?}: no page {page:?} in the site"));
    let resolved = found.unwrap_or_else(|| page.to_string());
    Rewritten {
        href: format!("{prefix}{resolved}.html{suffix}"),
        problem,
    }
}

fn is_external(href: &str) -> bool {
    if href.starts_with("//") {
        return true;
    }
    match href.find(':') {
        Some(i) => {
            let scheme = &href[..i];
            !scheme.is_empty()
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

fn strip_page_extension(path: &str) -> Option<&str> {
    [".mdx", ".md", ".html"]
        .iter()
        .find_map(|ext| path.strip_suffix(ext))
}

/// Resolves `link` against the directory of `page_path` into a site-root-relative path without
/// `.` or `..` segments; `None` if it climbs above the root.
fn resolve(link: &str, page_path: &str) -> Option<String> {
    let mut segments: Vec<&str> = Vec::new();
    if !link.starts_with('/') {
        segments.extend(page_path.split('/'));
        segments.pop();
    }
    let trailing_slash = link.ends_with('/') && link.len() > 1;
    for segment in link.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            s => segments.push(s),
        }
    }
    let mut joined = segments.join("/");
    if trailing_slash {
        joined.push('/');
    }
    Some(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages() -> HashSet<String> {
        [
            "index",
            "quickstart",
            "guides/auth",
            "guides/index",
            "api/users/list",
        ]
        .into_iter()
        .map(String::from)
        .collect()
    }

    fn href(link: &str, from: &str) -> String {
        rewrite(link, from, &pages()).href
    }

    #[test]
    fn absolute_page_links_become_relative_html() {
        assert_eq!(href("/guides/auth", "quickstart"), "guides/auth.html");
        assert_eq!(
            href("/quickstart", "api/users/list"),
            "../../quickstart.html"
        );
        assert_eq!(
            href("/guides/auth#tokens", "guides/auth"),
            "../guides/auth.html#tokens"
        );
    }

    #[test]
    fn relative_links_resolve_against_the_page_directory() {
        assert_eq!(href("auth", "guides/index"), "../guides/auth.html");
        assert_eq!(
            href("../quickstart.mdx", "guides/auth"),
            "../quickstart.html"
        );
        assert_eq!(
            href("./auth.md?x=1", "guides/index"),
            "../guides/auth.html?x=1"
        );
    }

    #[test]
    fn directory_links_find_their_index_page() {
        assert_eq!(href("/guides/", "quickstart"), "guides/index.html");
        assert_eq!(href("/", "guides/auth"), "../index.html");
    }

    #[test]
    fn files_keep_their_extension() {
        assert_eq!(
            href("/images/logo.png", "guides/auth"),
            "../images/logo.png"
        );
    }

    #[test]
    fn external_links_and_fragments_are_untouched() {
        for link in [
            "https://example.com/a",
            "mailto:a@b.c",
            "//cdn.example/x.js",
            "#top",
        ] {
            assert_eq!(href(link, "guides/auth"), link);
        }
    }

    #[test]
    fn broken_and_escaping_links_are_reported() {
        assert!(rewrite("/nope", "index", &pages()).problem.is_some());
        assert!(
            rewrite("../../x", "guides/auth", &pages())
                .problem
                .is_some()
        );
        assert!(rewrite("/quickstart", "index", &pages()).problem.is_none());
    }
}
