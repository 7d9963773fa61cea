//! Page paths, one way for every part of Quire: the key a page is known by (`guides/auth`: no
//! leading or trailing `/`, no `.mdx`, `.md` or `.html` ending, no query or fragment), whether
//! it comes from docs.json navigation, a reader's URL, a redirect rule or an API request.

/// The page key `text` names: `/guides/auth.mdx`, `guides/auth/`, `/guides/auth.html?x#y` and
/// ` guides/auth ` are all `guides/auth`. Empty when `text` names no page (`/`, `#top`).
pub fn page_key(text: &str) -> &str {
    let path = text.trim();
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let path = path.trim_matches('/');
    path.strip_suffix(".mdx")
        .or_else(|| path.strip_suffix(".md"))
        .or_else(|| path.strip_suffix(".html"))
        .unwrap_or(path)
}

/// The site path `reference` names from the file or page `from` (both from the site root): a
/// path from the root when it starts with `/`, else relative to `from`'s folder; without `.`,
/// `..` or empty segments. A `..` at the root stays there, as a browser resolves a URL's path,
/// so `../../images/a.png` from `guides/setup` is `images/a.png`.
pub fn resolve(reference: &str, from: &str) -> String {
    let folder = if reference.starts_with('/') {
        ""
    } else {
        from.rsplit_once('/').map_or("", |(folder, _)| folder)
    };
    let mut out: Vec<&str> = Vec::new();
    for segment in folder.split('/').chain(reference.split('/')) {
        match segment {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_from_the_root_or_the_folder() {
        assert_eq!(resolve("/a/b.mdx", "x/y"), "a/b.mdx");
        assert_eq!(resolve("./b.mdx", "x/y"), "x/b.mdx");
        assert_eq!(resolve("../../../b", "x/y"), "b");
        assert_eq!(resolve("c/./d/../e", "page"), "c/e");
        assert_eq!(resolve("/", "x/y"), "");
    }

    #[test]
    fn every_spelling_of_a_page_gives_one_key() {
        for spelling in [
            "guides/auth",
            "/guides/auth",
            "guides/auth/",
            "/guides/auth.mdx",
            "guides/auth.md",
            "/guides/auth.html?tab=js#setup",
            "  guides/auth\n",
        ] {
            assert_eq!(page_key(spelling), "guides/auth", "{spelling:?}");
        }
        assert_eq!(page_key("/"), "");
        assert_eq!(page_key("#top"), "");
        // Only one ending comes off: a page may be named `notes.md` in its own folder.
        assert_eq!(page_key("notes.md.mdx"), "notes.md");
    }
}
