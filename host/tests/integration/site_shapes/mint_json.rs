//! A site in mint.json's older shape, end to end with `quire build`.

use super::{lists, sidebar, write};
use crate::common::archive::unpack;
use crate::common::{self, Instance};
use serde_json::json;

/// A site in mint.json's older shape: its tabs and anchors, as folders and as links, and its
/// settings under their mint.json names, built with `quire build`.
#[test]
fn a_mint_json_site_builds_with_its_sections_and_settings() {
    let instance = Instance::new("");
    let root = tempfile::tempdir().expect("site");
    let mint = json!({
        "name": "Legacy",
        "topbarLinks": [{"name": "Support", "url": "mailto:help@example.com"}],
        "topbarCtaButton": {"name": "Dashboard", "url": "https://app.example"},
        "tabs": [{"name": "API", "url": "api"}, {"name": "Changelog", "url": "https://changes.example"}],
        "anchors": [{"name": "Reference", "icon": "code", "url": "api"},
                    {"name": "Community", "url": "https://community.example"}],
        "navigation": [
            {"group": "Start", "pages": ["intro", {"group": "More", "pages": ["guides/more"]}]},
            {"group": "Endpoints", "pages": ["api/users"]}
        ],
        "footerSocials": [{"type": "github", "url": "https://github.com/acme"}],
        "metadata": {"og:site_name": "Legacy"},
        "backgroundImage": "/images/bg.png",
        "modeToggle": {"default": "dark", "isHidden": true}
    });
    write(
        root.path(),
        &[
            ("mint.json", &mint.to_string()),
            ("intro.mdx", "---\ntitle: Intro\n---\n\nHello.\n"),
            ("guides/more.mdx", "---\ntitle: More\n---\n\nMore.\n"),
            ("api/users.mdx", "---\ntitle: Users\n---\n\nUsers.\n"),
        ],
    );
    let archive = instance.dir.path().join("legacy.tar.gz");
    instance.cli_ok(&[
        "build",
        root.path().to_str().expect("utf-8"),
        "-o",
        archive.to_str().expect("utf-8"),
        "--format",
        "tar.gz",
    ]);
    let bundle = unpack(&std::fs::read(&archive).expect("the archive"));

    // Folder tabs hold their pages; the link tab and both anchors lead where they say, the
    // folder anchor to its folder's first page.
    for page in ["intro", "guides/more", "api/users"] {
        let (_, shown) = sidebar(&bundle, page);
        assert!(
            lists(&shown, page),
            "{page} is not in its sidebar: {shown:?}"
        );
    }
    let (items, _) = sidebar(&bundle, "intro");
    let link = |label: &str| {
        items
            .iter()
            .find(|i| i["label"] == label && i["kind"] == "link")
            .map(|i| i["target"].as_str().unwrap_or_default().to_string())
    };
    assert_eq!(
        link("Changelog").as_deref(),
        Some("https://changes.example")
    );
    assert_eq!(
        link("Community").as_deref(),
        Some("https://community.example")
    );
    assert!(
        link("Reference").is_some_and(|t| t.contains("api/users")),
        "{items:?}"
    );
    for (path, bytes) in &bundle {
        if path.ends_with(".html") {
            for href in common::archive::links(&String::from_utf8_lossy(bytes)) {
                let local = !href.contains(':') && !href.starts_with('#');
                if local && let Some(target) = common::archive::resolve(path, &href) {
                    assert!(
                        bundle.contains_key(&target) || target.starts_with("images/"),
                        "{path} links to {href}, which the bundle does not have"
                    );
                }
            }
        }
    }

    // The settings, read under their mint.json names.
    let page = String::from_utf8_lossy(&bundle["intro.html"]).into_owned();
    assert!(page.contains(">Dashboard</a>"), "the top bar's button");
    assert!(
        page.contains("mailto:help@example.com"),
        "the top bar's link"
    );
    assert!(
        page.contains("https://github.com/acme"),
        "the footer's socials"
    );
    assert!(page.contains(r#"content="Legacy""#), "the site's meta tags");
    assert!(
        page.contains(r#"data-mode="dark" data-strict"#) && !page.contains("theme-toggle"),
        "the fixed dark mode, with no toggle"
    );
    let stylesheet = bundle
        .iter()
        .find(|(p, _)| p.starts_with("assets/quire.") && p.ends_with(".css"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .expect("the stylesheet");
    assert!(stylesheet.contains(r#"url("../images/bg.png")"#));
}
