//! Reading a site folder: limits, ignored files, links that stay inside, and what is refused.

use super::*;
use sha2::Digest;

const LIMITS: SiteLimits = SiteLimits {
    max_files: 100,
    max_bytes: 1 << 20,
};

fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn mintignore_keeps_files_out_and_what_names_them_is_a_warning() {
    let dir = site(&[
        (
            "docs.json",
            r#"{"name": "Acme", "navigation": {"pages": ["index", "drafts/plan"]}}"#,
        ),
        (
            ".mintignore",
            "# work in progress\ndrafts/\n*.draft.mdx\n[z-a]\n",
        ),
        ("index.mdx", "# Home"),
        ("drafts/plan.mdx", "# Plan"),
        ("guides/a.draft.mdx", "# Draft"),
        ("guides/b.mdx", "# B"),
    ]);
    let m = load_site(dir.path(), LIMITS).unwrap();
    let pages: Vec<_> = m.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(pages, ["index", "guides/b"]);
    assert!(
        m.files.iter().all(|f| !f.path.contains("draft")),
        "{:?}",
        m.files
    );
    let warnings: Vec<String> = m.warnings.iter().map(ToString::to_string).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with(".mintignore: line 4:")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("drafts/plan")),
        "the navigation entry naming an ignored page is a missing page: {warnings:?}"
    );
}

#[test]
fn loads_pages_titles_and_files() {
    let dir = site(&[
        (
            "docs.json",
            r#"{"name": "Acme", "navigation": {"groups": [{"group": "G", "pages": ["index", "guides/a"]}]}}"#,
        ),
        (
            "index.mdx",
            "---\ntitle: Home\nsidebarTitle: Start\ntag: NEW\n---\nHi",
        ),
        ("guides/a.md", "# Guide A\ntext"),
        ("hidden.md", "not in nav"),
        ("images/logo.png", "png"),
        (".git/config", "x"),
    ]);
    let m = load_site(dir.path(), LIMITS).unwrap();
    assert_eq!(m.name, "Acme");
    let pages: Vec<_> = m
        .pages
        .iter()
        .map(|p| (p.path.as_str(), p.title.as_str()))
        .collect();
    assert_eq!(
        pages,
        [
            ("index", "Start"),
            ("guides/a", "Guide A"),
            ("hidden", "hidden")
        ]
    );
    assert_eq!(m.files.len(), 5);
    let home = m.navigation.iter().find(|n| n.label == "Start");
    assert_eq!(home.and_then(|n| n.tag.as_deref()), Some("NEW"));
}

#[test]
fn a_page_with_a_url_is_a_link_and_fields_are_read_as_authors_write_them() {
    let dir = site(&[
        (
            "docs.json",
            r#"{"name": "Acme", "navigation": {"pages": ["index", "changelog", "odd", "year"]}}"#,
        ),
        ("index.md", "# Home"),
        (
            "changelog.mdx",
            "---\ntitle: Changelog\nurl: \"https://example.com/changes\"\n---\nSee there.",
        ),
        // Not another site, and a quoted flag: a page like any other, its title kept.
        (
            "odd.mdx",
            "---\ntitle: Odd\nurl: 7\nhidden: \"false\"\n---\nText.",
        ),
        (
            "year.mdx",
            "---\ntitle: 2024\nicon: {name: star}\nhidden: [x]\n---\nText.",
        ),
    ]);
    let m = load_site(dir.path(), LIMITS).unwrap();
    let link = m
        .navigation
        .iter()
        .find(|n| n.label == "Changelog")
        .expect("the entry");
    assert_eq!(link.kind, NavKind::Link);
    assert_eq!(link.target.as_deref(), Some("https://example.com/changes"));
    let odd = m.navigation.iter().find(|n| n.label == "Odd").expect("odd");
    assert_eq!(odd.kind, NavKind::Page);
    let year = m
        .navigation
        .iter()
        .find(|n| n.label == "2024")
        .expect("year");
    assert_eq!(year.icon.as_deref(), Some("star"));
    assert!(m.pages.iter().any(|p| p.path == "changelog"), "exported");
}

#[test]
fn broken_sites_name_the_file() {
    let none = site(&[("index.md", "x")]);
    assert!(matches!(
        load_site(none.path(), LIMITS),
        Err(SiteError::NoConfig)
    ));
    let bad = site(&[("docs.json", "{\"name\": ")]);
    let err = load_site(bad.path(), LIMITS).unwrap_err().to_string();
    assert!(
        err.starts_with("docs.json: invalid JSON at line 1"),
        "{err}"
    );
    let missing = site(&[
        (
            "docs.json",
            r#"{"name": "A", "navigation": {"groups": [{"group": "G", "pages": ["gone", "here"]}]}}"#,
        ),
        ("here.md", "# Here"),
    ]);
    let manifest = load_site(missing.path(), LIMITS).expect("a missing page is a warning");
    assert_eq!(manifest.pages.len(), 1);
    let warning = manifest.warnings[0].to_string();
    assert!(
        warning.starts_with("docs.json: navigation.groups[0].pages[0]")
            && warning.contains("gone.mdx"),
        "{warning}"
    );
}

#[test]
fn refs_are_followed_but_not_out_of_the_folder() {
    let ok = site(&[
        (
            "docs.json",
            r#"{"name": "A", "navigation": {"$ref": "nav/main.json"}}"#,
        ),
        ("nav/main.json", r#"{"pages": ["index"]}"#),
        ("index.md", "# I"),
    ]);
    assert_eq!(load_site(ok.path(), LIMITS).unwrap().pages.len(), 1);
    let out = site(&[(
        "docs.json",
        r#"{"name": "A", "navigation": {"$ref": "../../etc/passwd"}}"#,
    )]);
    assert!(matches!(
        load_site(out.path(), LIMITS),
        Err(SiteError::Escapes { .. })
    ));
}

#[test]
fn links_out_of_the_folder_are_refused() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.md"), "s").unwrap();
    let dir = site(&[("docs.json", r#"{"name": "A", "navigation": {"pages": []}}"#)]);
    std::os::unix::fs::symlink(outside.path().join("secret.md"), dir.path().join("leak.md"))
        .unwrap();
    let err = load_site(dir.path(), LIMITS).unwrap_err();
    assert!(
        matches!(err, SiteError::Escapes { ref file } if file == "leak.md"),
        "{err}"
    );
}

#[test]
fn limits_are_enforced() {
    let dir = site(&[
        ("docs.json", r#"{"name": "A", "navigation": {"pages": []}}"#),
        ("a.md", "x"),
        ("b.md", "y"),
    ]);
    let tight = SiteLimits {
        max_files: 2,
        max_bytes: 1 << 20,
    };
    assert!(matches!(
        load_site(dir.path(), tight),
        Err(SiteError::TooLarge(_))
    ));
}

#[test]
fn a_page_read_from_contents_with_a_known_hash_is_not_read_again() {
    let dir = site(&[
        (
            "docs.json",
            r#"{"name": "Acme", "variables": {"product": "Widget"}, "navigation": {"pages": ["index"]}}"#,
        ),
        ("index.mdx", "---\ntitle: About {{product}}\n---\nHi"),
    ]);
    let sha256 = |text: &str| hex::encode(sha2::Sha256::digest(text));
    let title = |m: &SiteManifest| m.pages[0].title.clone();
    // A hash no other test uses, so that no other load kept a read under it.
    let first = "---\ntitle: About {{product}}\n---\nHi, from the kept-reads test";
    std::fs::write(dir.path().join("index.mdx"), first).unwrap();
    let hashes = HashMap::from([("index.mdx".to_string(), sha256(first))]);
    let loaded = load_site_hashed(dir.path(), LIMITS, Some(&hashes)).unwrap();
    assert_eq!(title(&loaded), "About Widget");

    // The file changes but the caller says its contents are the ones read before: the kept
    // read stands, so the page was not read.
    let second = "---\ntitle: Changed\n---\nHi";
    std::fs::write(dir.path().join("index.mdx"), second).unwrap();
    let kept = load_site_hashed(dir.path(), LIMITS, Some(&hashes)).unwrap();
    assert_eq!(title(&kept), "About Widget");
    // With the new contents' hash, or no hashes at all, the page is read.
    let hashes = HashMap::from([("index.mdx".to_string(), sha256(second))]);
    let read = load_site_hashed(dir.path(), LIMITS, Some(&hashes)).unwrap();
    assert_eq!(title(&read), "Changed");
    assert_eq!(title(&load_site(dir.path(), LIMITS).unwrap()), "Changed");

    // The variables are part of what is kept: another value reads the page again.
    std::fs::write(dir.path().join("index.mdx"), first).unwrap();
    std::fs::write(
        dir.path().join("docs.json"),
        r#"{"name": "Acme", "variables": {"product": "Gadget"}, "navigation": {"pages": ["index"]}}"#,
    )
    .unwrap();
    let hashes = HashMap::from([("index.mdx".to_string(), sha256(first))]);
    let other = load_site_hashed(dir.path(), LIMITS, Some(&hashes)).unwrap();
    assert_eq!(title(&other), "About Gadget");
}
