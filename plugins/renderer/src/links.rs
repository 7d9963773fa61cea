//! Links between pages: site-absolute or relative page links in the source become relative
//! `.html` links that work from any sub-path and from `file://`.

use std::collections::HashSet;

use quire_sdk::redirects::{PageIndex, Redirects};

/// The `../` prefix that leads from `page_path` back to the site root.
pub fn root_prefix(page_path: &str) -> String {
    "../".repeat(page_path.matches('/').count())
}

/// A rewritten link, and why it may be broken.
pub struct Rewritten {
    pub href: String,
    pub problem: Option<String>,
    /// The link names a page the site does not have (nor a redirect to one), or a file the
    /// bundle does not carry: a bundle keeping it would send readers to nothing.
    pub leads_nowhere: bool,
}

/// Rewrites `href` found on the page at `page_path`. External links (with a scheme, or
/// protocol-relative) and pure fragments stay as they are.
/// What links can lead to: the site's pages (and the first page of each folder, for links
/// that name a folder) and the site's redirects.
#[derive(Debug, Default)]
pub struct Targets {
    pub pages: PageIndex,
    pub redirects: Redirects,
    /// The other files the bundle carries (paths from the root); `None` when the host did not
    /// say, and links to files are then taken as they are.
    pub files: Option<HashSet<String>>,
}

impl Targets {
    /// `pages` in reading order first (they decide each folder's first page), then the rest.
    pub fn new<'a>(pages: impl IntoIterator<Item = &'a str>, redirects: Redirects) -> Self {
        Self {
            pages: PageIndex::new(pages),
            redirects,
            files: None,
        }
    }

    /// Whether a link to the file `path` finds it in the bundle. Media (images, video, audio,
    /// fonts, PDF) are taken as they are: a missing one shows as a gap in the page, not a
    /// link to nowhere, and copies of sites without their media are common.
    fn has_file(&self, path: &str) -> bool {
        self.files
            .as_ref()
            .is_none_or(|files| files.contains(path) || is_media(path))
    }

    /// The page a link to `page` opens: the page, its folder's `index`, or the folder's first
    /// page.
    pub fn page(&self, page: &str) -> Option<String> {
        self.pages.page(page)
    }
}

pub fn rewrite(href: &str, page_path: &str, targets: &Targets) -> Rewritten {
    let unchanged = |problem| Rewritten {
        href: href.to_string(),
        problem,
        leads_nowhere: false,
    };
    if href.is_empty() || href.starts_with('#') || is_external(href) {
        return unchanged(None);
    }
    let (path_part, suffix) = match href.find(['#', '?']) {
        Some(i) => href.split_at(i),
        None => (href, ""),
    };
    let target = resolve(path_part, page_path);
    let prefix = root_prefix(page_path);
    let last = target.rsplit('/').next().unwrap_or("");
    let page = strip_page_extension(&target);
    if page.is_none() && last.contains('.') && targets.page(&target).is_none() {
        // A file such as an image or a download, copied into the export under its own path.
        let found = targets.has_file(&target);
        return Rewritten {
            href: format!("{prefix}{target}{suffix}"),
            problem: (!found).then(|| {
                format!("broken link {href:?}: no file {target:?} in the site; the link is shown as text")
            }),
            leads_nowhere: !found,
        };
    }
    let page = page.unwrap_or(&target).trim_end_matches('/');
    let page = if page.is_empty() { "index" } else { page };
    let found = targets.page(page);
    if found.is_none()
        && let Some((destination, _)) = targets.redirects.resolve(&format!("/{page}"))
    {
        // A moved page: the link goes where the site's redirects say it went.
        let suffix = if destination.contains('#') {
            ""
        } else {
            suffix
        };
        if is_external(&destination) {
            return Rewritten {
                href: format!("{destination}{suffix}"),
                problem: None,
                leads_nowhere: false,
            };
        }
        let (path, own) = match destination.find(['#', '?']) {
            Some(i) => destination.split_at(i),
            None => (destination.as_str(), ""),
        };
        let target = path.trim_matches('/');
        let target = if target.is_empty() { "index" } else { target };
        return match targets.page(target) {
            Some(moved) => Rewritten {
                href: format!("{prefix}{moved}.html{own}{suffix}"),
                problem: None,
                leads_nowhere: false,
            },
            None => Rewritten {
                href: format!("{prefix}{target}.html{own}{suffix}"),
                problem: Some(format!(
                    "broken link {href:?}: it redirects to {destination:?}, which is no page in the site; the link is shown as text"
                )),
                leads_nowhere: true,
            },
        };
    }
    let problem = found.is_none().then(|| {
        format!("broken link {href:?}: no page {page:?} in the site; the link is shown as text")
    });
    let leads_nowhere = found.is_none();
    let resolved = found.unwrap_or_else(|| page.to_string());
    Rewritten {
        href: format!("{prefix}{resolved}.html{suffix}"),
        problem,
        leads_nowhere,
    }
}

/// Where a link in navigation or site settings (`https://…`, `mailto:…`, or a site path such
/// as `/changelog`) leads from a page whose way back to the root is `root`.
pub fn navigation_href(link: &str, root: &str) -> String {
    if is_external(link) || link.starts_with('#') {
        return link.to_string();
    }
    let path = link.trim_start_matches('/');
    let (path, suffix) = match path.find(['#', '?']) {
        Some(i) => path.split_at(i),
        None => (path, ""),
    };
    let last = path.rsplit('/').next().unwrap_or("");
    match strip_page_extension(path) {
        Some(page) => format!("{root}{page}.html{suffix}"),
        None if last.contains('.') => format!("{root}{path}{suffix}"),
        None if path.trim_end_matches('/').is_empty() => format!("{root}index.html{suffix}"),
        None => format!("{root}{}.html{suffix}", path.trim_end_matches('/')),
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

/// Whether `path` names an image, a video, an audio file, a font or a PDF.
fn is_media(path: &str) -> bool {
    let extension = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(
        extension.as_deref(),
        Some(
            "png"
                | "jpg"
                | "jpeg"
                | "gif"
                | "webp"
                | "svg"
                | "ico"
                | "avif"
                | "bmp"
                | "tif"
                | "tiff"
                | "mp4"
                | "webm"
                | "mov"
                | "m4v"
                | "ogv"
                | "mp3"
                | "wav"
                | "ogg"
                | "m4a"
                | "woff"
                | "woff2"
                | "ttf"
                | "otf"
                | "eot"
                | "pdf"
        )
    )
}

fn strip_page_extension(path: &str) -> Option<&str> {
    [".mdx", ".md", ".html"]
        .iter()
        .find_map(|ext| path.strip_suffix(ext))
}

/// Resolves `link` against the directory of `page_path` into a site-root-relative path without
/// `.` or `..` segments. A `..` at the root stays there, as a browser resolves it (the URL
/// standard's path shortening), so `../../images/a.png` on a page one folder deep is the
/// root's `images/a.png` on the live site and in the bundle alike.
fn resolve(link: &str, page_path: &str) -> String {
    let mut joined = quire_sdk::paths::resolve(link, page_path);
    // A folder link keeps its slash: it opens the folder's first page.
    if link.ends_with('/') && link.len() > 1 {
        joined.push('/');
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn navigation_links_lead_to_pages_files_or_elsewhere() {
        assert_eq!(
            navigation_href("https://x.test/a", "../"),
            "https://x.test/a"
        );
        assert_eq!(navigation_href("mailto:a@x.test", "../"), "mailto:a@x.test");
        assert_eq!(navigation_href("/changelog", "../"), "../changelog.html");
        assert_eq!(navigation_href("/guides/a#b", ""), "guides/a.html#b");
        assert_eq!(navigation_href("/openapi.json", ""), "openapi.json");
        assert_eq!(navigation_href("/", "../"), "../index.html");
    }

    fn pages() -> std::collections::HashSet<String> {
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

    fn targets() -> Targets {
        Targets::new(pages().iter().map(String::as_str), Redirects::default())
    }

    fn href(link: &str, from: &str) -> String {
        rewrite(link, from, &targets()).href
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
    fn climbing_above_the_root_stays_at_the_root_as_in_a_browser() {
        let climbed = rewrite("../../images/a.png", "guides/auth", &targets());
        assert_eq!(climbed.href, "../images/a.png");
        assert!(climbed.problem.is_none());
        assert_eq!(
            href("../../../quickstart", "guides/auth"),
            "../quickstart.html"
        );
    }

    #[test]
    fn links_to_files_the_site_does_not_have_are_broken() {
        let mut targets = targets();
        targets.files = Some(["downloads/sdk.zip".to_string()].into_iter().collect());
        let go = |link: &str| rewrite(link, "guides/auth", &targets);
        assert_eq!(go("/downloads/sdk.zip").href, "../downloads/sdk.zip");
        assert!(go("/downloads/sdk.zip").problem.is_none());
        let notebook = go("../tools/search.ipynb");
        assert!(notebook.leads_nowhere);
        assert!(
            notebook
                .problem
                .unwrap()
                .contains("no file \"tools/search.ipynb\" in the site")
        );
        // Media are taken as they are; a page whose name has a dot is a page.
        assert!(!go("/images/missing.png").leads_nowhere);
        let dotted = Targets::new(["guides/v1.2"], Redirects::default());
        assert_eq!(
            rewrite("/guides/v1.2", "index", &dotted).href,
            "guides/v1.2.html"
        );
        // Without the host's list, files are taken as they are.
        assert!(!rewrite("/a.zip", "index", &super::tests::targets()).leads_nowhere);
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
    fn links_to_moved_pages_follow_the_redirects() {
        let config = serde_json::json!({"redirects": [
            {"source": "/old", "destination": "/quickstart"},
            {"source": "/docs/:slug", "destination": "/guides/:slug"},
            {"source": "/gone", "destination": "/nowhere"},
            {"source": "/away", "destination": "https://x.test/a"},
        ]});
        let (redirects, _) = Redirects::of(&quire_sdk::config::SiteConfig::of(&config), &|_| false);
        let targets = Targets::new(pages().iter().map(String::as_str), redirects);
        let go = |link: &str| rewrite(link, "guides/auth", &targets);
        assert_eq!(go("/old#step").href, "../quickstart.html#step");
        assert_eq!(go("/docs/auth").href, "../guides/auth.html");
        assert!(go("/docs/auth").problem.is_none());
        assert_eq!(go("/away").href, "https://x.test/a");
        assert!(go("/gone").problem.unwrap().contains("redirects to"));
        assert!(go("/gone").leads_nowhere);
        assert!(!go("/old").leads_nowhere);
    }

    #[test]
    fn links_to_a_folder_open_its_first_page() {
        let targets = Targets::new(
            ["start", "tasks/overview", "tasks/retries"],
            Redirects::default(),
        );
        let link = rewrite("/tasks#batch", "start", &targets);
        assert_eq!(link.href, "tasks/overview.html#batch");
        assert!(link.problem.is_none());
    }

    #[test]
    fn broken_links_are_reported() {
        assert!(rewrite("/nope", "index", &targets()).problem.is_some());
        // Climbing above the root lands at the root, where there is no page "x".
        assert!(
            rewrite("../../x", "guides/auth", &targets())
                .problem
                .is_some()
        );
        assert!(
            rewrite("/quickstart", "index", &targets())
                .problem
                .is_none()
        );
    }
}
