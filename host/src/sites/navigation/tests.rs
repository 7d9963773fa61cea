//! The navigation walk on docs.json and mint.json shapes, right and wrong.

use super::*;
use crate::sites::NavKind;
use serde_json::json;

fn kinds(nodes: &[NavEntry]) -> Vec<(NavKind, u32, String)> {
    nodes
        .iter()
        .map(|n| (n.kind, n.depth, n.label.clone()))
        .collect()
}

/// Pages that exist, labelled by their file name.
fn existing(paths: &[&str]) -> HashMap<String, PageMeta> {
    paths
        .iter()
        .map(|p| {
            let label = p.rsplit('/').next().unwrap_or(p).to_string();
            (
                p.to_string(),
                PageMeta {
                    label,
                    icon: None,
                    hidden: false,
                    noindex: false,
                    url: None,
                    tag: None,
                },
            )
        })
        .collect()
}

fn walk(config: &Value, pages: &HashMap<String, PageMeta>) -> Navigation {
    flatten(config, "docs.json", pages, Path::new(".")).unwrap()
}

#[test]
fn docs_json_tabs_groups_and_nested_groups() {
    let config = json!({"navigation": {"tabs": [{"tab": "Guides", "groups": [
        {"group": "Start", "pages": ["index", {"group": "More", "pages": ["a/b"]}]}
    ]}], "global": {"anchors": [{"anchor": "Blog", "href": "https://blog.example"}]}}});
    let mut pages = existing(&["a/b"]);
    pages.insert(
        "index".to_string(),
        PageMeta {
            label: "Welcome".into(),
            icon: Some("house".into()),
            hidden: false,
            noindex: false,
            url: None,
            tag: Some("v4".into()),
        },
    );
    let nav = walk(&config, &pages).nodes;
    assert_eq!(nav[2].icon.as_deref(), Some("house"));
    assert_eq!(
        nav[2].tag.as_deref(),
        Some("v4"),
        "a page's frontmatter tag"
    );
    assert_eq!(
        kinds(&nav),
        vec![
            (NavKind::Tab, 0, "Guides".into()),
            (NavKind::Group, 1, "Start".into()),
            (NavKind::Page, 2, "Welcome".into()),
            (NavKind::Group, 2, "More".into()),
            (NavKind::Page, 3, "b".into()),
            (NavKind::Anchor, 0, "Blog".into()),
            (NavKind::Link, 1, "Blog".into()),
        ]
    );
}

#[test]
fn pages_carry_their_version_and_language() {
    let config = json!({"navigation": {"versions": [
        {"version": "v2", "languages": [{"language": "en", "pages": ["v2/en/a"]}, {"language": "fr", "pages": ["v2/fr/a"]}]},
        {"version": "v1", "pages": ["v1/a"]}
    ], "pages": ["shared"]}});
    let nav = walk(
        &config,
        &existing(&["v2/en/a", "v2/fr/a", "v1/a", "shared"]),
    )
    .nodes;
    let scope = |path: &str| {
        let n = nav
            .iter()
            .find(|n| n.target.as_deref() == Some(path))
            .unwrap();
        (n.version.clone(), n.language.clone())
    };
    assert_eq!(scope("v2/en/a"), (Some("v2".into()), Some("en".into())));
    assert_eq!(scope("v2/fr/a"), (Some("v2".into()), Some("fr".into())));
    assert_eq!(scope("v1/a"), (Some("v1".into()), None));
    assert_eq!(scope("shared"), (None, None));
}

#[test]
fn mint_json_tabs_by_url_prefix_and_versions() {
    let config = json!({
        "navigation": [
            {"group": "Start", "pages": ["intro"]},
            {"group": "API", "pages": ["api/widgets"]},
            {"group": "Old", "version": "v1", "pages": ["v1/intro"]}
        ],
        "tabs": [{"name": "API reference", "url": "api"}],
        "versions": ["v2", "v1"]
    });
    let pages = existing(&["intro", "api/widgets", "v1/intro"]);
    let nav = flatten(&config, "mint.json", &pages, Path::new("."))
        .unwrap()
        .nodes;
    assert_eq!(
        kinds(&nav),
        vec![
            (NavKind::Version, 0, "v2".into()),
            (NavKind::Tab, 1, "Documentation".into()),
            (NavKind::Group, 2, "Start".into()),
            (NavKind::Page, 3, "intro".into()),
            (NavKind::Tab, 1, "API reference".into()),
            (NavKind::Group, 2, "API".into()),
            (NavKind::Page, 3, "widgets".into()),
            (NavKind::Version, 0, "v1".into()),
            (NavKind::Tab, 1, "Documentation".into()),
            (NavKind::Group, 2, "Old".into()),
            (NavKind::Page, 3, "intro".into()),
        ]
    );
    assert_eq!(nav[10].version.as_deref(), Some("v1"));
}

#[test]
fn mint_json_anchors_sort_folders_and_link_tabs_and_anchors_lead_out() {
    let pages = existing(&["intro", "api/users", "api/auth", "guides/a"]);
    let mint = |extra: Value| {
        let mut config = json!({"navigation": [
            {"group": "Start", "pages": ["intro"]},
            {"group": "API", "pages": [{"group": "Auth", "pages": ["api/auth"]}, "api/users"]}
        ]});
        config
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        flatten(&config, "mint.json", &pages, Path::new(".")).unwrap()
    };
    // Without tabs, anchors naming a folder sort the groups, as tabs do.
    let nav = mint(json!({
        "topAnchor": {"name": "Guides"},
        "anchors": [{"name": "API", "icon": "code", "url": "api"},
                    {"name": "Blog", "url": "https://blog.example"}]
    }));
    assert_eq!(
        kinds(&nav.nodes),
        vec![
            (NavKind::Anchor, 0, "Guides".into()),
            (NavKind::Group, 1, "Start".into()),
            (NavKind::Page, 2, "intro".into()),
            (NavKind::Anchor, 0, "API".into()),
            (NavKind::Group, 1, "API".into()),
            (NavKind::Group, 2, "Auth".into()),
            (NavKind::Page, 3, "auth".into()),
            (NavKind::Page, 2, "users".into()),
        ]
    );
    assert_eq!(nav.nodes[3].icon.as_deref(), Some("code"));
    // With tabs, a link tab follows the folder tabs, and a folder anchor links to the first
    // page of its folder; one whose folder holds no page is a warning.
    let nav = mint(json!({
        "tabs": [{"name": "API", "url": "api"}, {"name": "Changelog", "url": "https://changes.example"}],
        "anchors": [{"name": "Reference", "url": "/api/"}, {"name": "Guides", "url": "guides"}]
    }));
    let links: Vec<_> = nav
        .nodes
        .iter()
        .filter(|n| n.kind == NavKind::Link)
        .map(|n| (n.depth, n.label.as_str(), n.target.as_deref().unwrap()))
        .collect();
    assert_eq!(
        links,
        vec![
            (1, "Changelog", "https://changes.example"),
            (1, "Reference", "/api/auth"),
        ]
    );
    assert_eq!(nav.nodes[0].label, "Documentation");
    assert_eq!(nav.warnings.len(), 1, "{:?}", nav.warnings);
    assert!(nav.warnings[0].message.contains("\"guides\""));
}

#[test]
fn hidden_entries_are_kept_marked_and_groups_keep_tag_and_expanded() {
    let config = json!({"navigation": {"tabs": [
        {"tab": "Docs", "groups": [{"group": "G", "tag": "NEW", "expanded": true, "pages": ["a", "secret"]}]},
        {"tab": "Internal", "hidden": true, "pages": ["internal"]}
    ]}});
    let mut pages = existing(&["a", "internal"]);
    pages.insert(
        "secret".into(),
        PageMeta {
            label: "Secret".into(),
            icon: None,
            hidden: true,
            noindex: false,
            url: None,
            tag: None,
        },
    );
    let nav = walk(&config, &pages).nodes;
    assert_eq!(nav[1].tag.as_deref(), Some("NEW"));
    assert!(nav[1].expanded);
    let hidden: Vec<&str> = nav
        .iter()
        .filter(|n| n.hidden)
        .map(|n| n.label.as_str())
        .collect();
    assert_eq!(hidden, ["Secret", "Internal", "internal"]);
}

#[test]
fn directory_listings_are_inherited_by_groups_with_a_root_page() {
    let config = json!({"navigation": {"directory": "card", "tabs": [
        {"tab": "Docs", "groups": [
            {"group": "Cards", "root": "a", "pages": ["b",
                {"group": "Inner", "root": "c", "directory": "accordion", "pages": ["d"]},
                {"group": "Off", "root": "e", "directory": "none", "pages": ["f"]}]},
            {"group": "No root", "pages": ["g"]}
        ]}
    ]}});
    let pages = existing(&["a", "b", "c", "d", "e", "f", "g"]);
    let nav = walk(&config, &pages).nodes;
    let directory = |label: &str| {
        nav.iter()
            .find(|n| n.label == label)
            .and_then(|n| n.directory.clone())
    };
    assert_eq!(directory("Cards").as_deref(), Some("card"));
    assert_eq!(directory("Inner").as_deref(), Some("accordion"));
    assert_eq!(directory("Off"), None);
    assert_eq!(
        directory("No root"),
        None,
        "a group without a root page lists nothing"
    );
    assert_eq!(directory("Docs"), None, "only groups list");
}

#[test]
fn roots_menus_links_defaults_and_global_anchors_per_language() {
    let config = json!({"navigation": {"languages": [
        {"language": "en", "tabs": [
            {"tab": "Guides", "menu": [{"item": "Start", "groups": [{"group": "G", "root": "g/index", "pages": ["g/a"]}]}]},
            {"tab": "Blog", "href": "https://blog.example"}
        ]},
        {"language": "ar", "default": true, "pages": ["ar/a"],
         "global": {"anchors": [{"anchor": "Community", "href": "https://c.example"}]}}
    ]}});
    let nav = walk(&config, &existing(&["g/index", "g/a", "ar/a"])).nodes;
    assert_eq!(
        kinds(&nav),
        vec![
            (NavKind::Language, 0, "ar".into()),
            (NavKind::Page, 1, "a".into()),
            (NavKind::Anchor, 1, "Community".into()),
            (NavKind::Link, 2, "Community".into()),
            (NavKind::Language, 0, "en".into()),
            (NavKind::Tab, 1, "Guides".into()),
            (NavKind::Dropdown, 2, "Start".into()),
            (NavKind::Group, 3, "G".into()),
            (NavKind::Page, 4, "a".into()),
            (NavKind::Tab, 1, "Blog".into()),
            (NavKind::Link, 2, "Blog".into()),
        ]
    );
    assert_eq!(
        nav[7].target.as_deref(),
        Some("g/index"),
        "the group opens its root page"
    );
    assert_eq!(nav[2].language.as_deref(), Some("ar"));
}

#[test]
fn missing_pages_are_warnings_with_their_place() {
    let config = json!({"navigation": {"groups": [{"group": "G", "root": "/gone-root", "pages": ["a.mdx", "/gone"]}]}});
    let walked = walk(&config, &existing(&["a"]));
    assert_eq!(
        kinds(&walked.nodes),
        vec![
            (NavKind::Group, 0, "G".into()),
            (NavKind::Page, 1, "a".into()),
        ]
    );
    let warnings: Vec<String> = walked.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with("docs.json: navigation.groups[0].root:")
            && warnings[0].contains("gone-root.mdx")
    );
    assert!(warnings[1].starts_with("docs.json: navigation.groups[0].pages[1]:"));
}

#[test]
fn operation_entries_and_documents_generate_pages() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("api.yaml"),
        "paths:\n  /users:\n    get: {summary: List users, tags: [Users]}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("events.yaml"),
        "asyncapi: 3.0.0\nchannels:\n  chat: {title: Chat room}\n",
    )
    .unwrap();
    let config = json!({"navigation": {"groups": [
        {"group": "API", "openapi": "api.yaml", "pages": ["GET /users"]},
        {"group": "All", "openapi": {"source": "api.yaml", "directory": "all"}},
        {"group": "Events", "asyncapi": {"source": "/events.yaml", "directory": "events"}}
    ]}});
    let walked = flatten(&config, "docs.json", &HashMap::new(), dir.path()).unwrap();
    assert_eq!(
        kinds(&walked.nodes),
        vec![
            (NavKind::Group, 0, "API".into()),
            (NavKind::Page, 1, "List users".into()),
            (NavKind::Group, 0, "All".into()),
            (NavKind::Group, 1, "Users".into()),
            (NavKind::Page, 2, "List users".into()),
            (NavKind::Group, 0, "Events".into()),
            (NavKind::Page, 1, "Chat room".into()),
        ]
    );
    let paths: Vec<&str> = walked.generated.iter().map(|g| g.path.as_str()).collect();
    assert_eq!(
        paths,
        ["api-reference/get-users", "all/get-users", "events/chat"]
    );
    assert!(walked.generated[2].source.contains("\"events.yaml chat\""));
    assert!(
        walked.generated[0]
            .source
            .contains("\"api.yaml GET /users\"")
    );
}

#[test]
fn malformed_navigation_names_the_place() {
    let config = json!({"navigation": {"groups": [{"pages": ["x"]}]}});
    let err = flatten(&config, "docs.json", &HashMap::new(), Path::new("."))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("docs.json") && err.contains("navigation.groups[0]") && err.contains("group"),
        "{err}"
    );
}
