//! Reading docs.json's and mint.json's navigation: every element in its place, each wrong shape
//! refused at its place, and no document that makes reading panic.

use super::*;
use proptest::prelude::*;
use serde_json::json;

fn tree(document: Value) -> NavigationNode {
    match SiteNavigation::read(&document) {
        Ok(SiteNavigation::Tree(node)) => node,
        other => panic!("not a docs.json tree: {other:?}"),
    }
}

fn refused(document: Value) -> String {
    SiteNavigation::read(&document)
        .expect_err("the navigation is refused")
        .to_string()
}

#[test]
fn elements_keep_their_settings_and_what_they_hold() {
    let root = tree(json!({"navigation": {
        "directory": "card",
        "versions": [{"version": "v2", "default": true, "tabs": [
            {"tab": "Guides", "icon": {"name": "book", "style": "solid"}, "hidden": true,
             "groups": [{"group": "Start", "root": "start", "tag": "NEW", "expanded": true,
                         "pages": ["index", {"group": "More", "pages": ["a/b"]}, "GET /users"]}]}
        ]}],
        "global": {"anchors": [{"anchor": "Blog", "href": "https://blog.example"}]}
    }}));
    assert_eq!(root.directory.as_deref(), Some("card"));
    assert_eq!(root.containers.len(), 1);
    let version = &root.containers[0].elements[0];
    assert_eq!((version.label.as_str(), version.default), ("v2", true));
    let tab = &version.inside.containers[0];
    assert_eq!((tab.key, tab.kind), ("tabs", NavKind::Tab));
    let guides = &tab.elements[0];
    assert_eq!(
        guides.icon.as_deref(),
        Some("book"),
        "an icon object's name"
    );
    assert!(guides.hidden);
    let start = &guides.inside.containers[0].elements[0];
    assert_eq!(start.root.as_deref(), Some("start"));
    assert_eq!(start.tag.as_deref(), Some("NEW"));
    assert!(start.expanded);
    let pages = start.inside.pages.as_ref().expect("pages");
    assert_eq!(pages[0], PageEntry::Path("index".into()));
    assert!(matches!(&pages[1], PageEntry::Group(g) if g.label == "More"));
    assert_eq!(pages[2], PageEntry::Path("GET /users".into()));
    let blog = &root.global.as_ref().expect("global").containers[0].elements[0];
    assert_eq!(blog.href.as_deref(), Some("https://blog.example"));
    assert!(!blog.inside.holds_anything(), "a link holds nothing");
}

#[test]
fn containers_are_walked_in_a_fixed_order_whatever_the_files_order() {
    let root = tree(json!({"navigation": {
        "groups": [{"group": "G", "pages": []}],
        "tabs": [{"tab": "T", "pages": []}],
        "products": [{"product": "P", "pages": []}]
    }}));
    let keys: Vec<_> = root.containers.iter().map(|c| c.key).collect();
    assert_eq!(keys, ["products", "tabs", "groups"]);
    assert!(
        root.containers[2].elements[0].inside.lists_entries(),
        "an empty pages list still lists"
    );
}

#[test]
fn api_documents_are_named_in_each_of_their_shapes() {
    let read = |value: Value| ApiSource::read(&value);
    assert_eq!(
        read(json!("/openapi.json")),
        Some(ApiSource {
            source: "/openapi.json".into(),
            directory: None
        })
    );
    assert_eq!(
        read(json!({"source": "spec.yaml", "directory": "api"})),
        Some(ApiSource {
            source: "spec.yaml".into(),
            directory: Some("api".into())
        })
    );
    assert_eq!(read(json!(["a.yaml", "b.yaml"])).unwrap().source, "a.yaml");
    assert_eq!(read(json!({"directory": "api"})), None);
    assert_eq!(read(json!(3)), None);
    let node = tree(json!({"navigation": {"tabs": [{"tab": "API", "openapi": 3}]}}));
    let api = &node.containers[0].elements[0].inside;
    assert!(
        api.openapi.is_none() && api.names_api,
        "named, though not readably"
    );
    assert!(api.holds_anything());
}

#[test]
fn each_wrong_shape_is_refused_at_its_place() {
    for (document, message) in [
        (
            json!({"name": "x"}),
            "the required field navigation is missing",
        ),
        (
            json!({"navigation": "pages"}),
            "navigation must be an object (docs.json) or an array (mint.json)",
        ),
        (
            json!({"navigation": {"tabs": {"tab": "T"}}}),
            "navigation.tabs: must be an array",
        ),
        (
            json!({"navigation": {"tabs": ["T"]}}),
            "navigation.tabs[0]: must be an object",
        ),
        (
            json!({"navigation": {"tabs": [{"tab": "T"}, {"name": "U"}]}}),
            "navigation.tabs[1]: the field tab (a string) is required",
        ),
        (
            json!({"navigation": {"groups": [{"group": "G", "pages": "a"}]}}),
            "navigation.groups[0].pages: must be an array",
        ),
        (
            json!({"navigation": {"groups": [{"group": "G", "pages": ["a", 3]}]}}),
            "navigation.groups[0].pages[1]: must be a page path or a group object",
        ),
        (
            json!({"navigation": {"pages": [{"pages": []}]}}),
            "navigation.pages[0]: the field group (a string) is required",
        ),
        (
            json!({"navigation": {"global": []}}),
            "navigation.global: must be an object",
        ),
        (
            json!({"navigation": [{"group": "G", "pages": [true]}]}),
            "navigation[0].pages[0]: must be a page path or a group object",
        ),
    ] {
        assert_eq!(refused(document), message);
    }
}

#[test]
fn settings_of_the_wrong_shape_are_taken_as_not_set() {
    let root = tree(json!({"navigation": {"groups": [
        {"group": "G", "hidden": "yes", "icon": 3, "tag": false, "pages": []}
    ]}}));
    let group = &root.containers[0].elements[0];
    assert!(!group.hidden);
    assert_eq!((group.icon.as_ref(), group.tag.as_ref()), (None, None));
}

#[test]
fn mint_json_groups_and_what_sorts_them() {
    let document = json!({
        "navigation": [{"group": "Start", "version": "v1", "pages": ["intro"]}, "loose"],
        "versions": ["v2", "v1", 3],
        "tabs": [{"name": "API", "url": " api ", "icon": "code"}, {"name": "No URL"}, "x"],
        "anchors": [{"name": "Blog", "url": "https://blog.example"}],
        "primaryTab": {"name": "Guides"},
        "topAnchor": "Home"
    });
    let Ok(SiteNavigation::Mint(mint)) = SiteNavigation::read(&document) else {
        panic!("mint.json navigation")
    };
    assert!(matches!(&mint.groups[0], PageEntry::Group(g) if g.version.as_deref() == Some("v1")));
    assert_eq!(mint.groups[1], PageEntry::Path("loose".into()));
    assert_eq!(mint.versions, ["v2", "v1"]);
    assert_eq!(
        mint.tabs,
        [MintSection {
            name: "API".into(),
            url: "api".into(),
            icon: Some("code".into())
        }]
    );
    assert_eq!(mint.anchors[0].url, "https://blog.example");
    assert_eq!(mint.primary_tab.as_deref(), Some("Guides"));
    assert_eq!(mint.top_anchor, None, "a name must be given as {{name}}");
}

/// Any JSON value, nested a few levels, with keys drawn from the navigation's own.
fn any_navigation() -> impl Strategy<Value = Value> {
    crate::config::arbitrary::json_with_keys(
        vec![
            "tabs",
            "tab",
            "groups",
            "group",
            "pages",
            "versions",
            "version",
            "languages",
            "language",
            "global",
            "anchors",
            "anchor",
            "menu",
            "item",
            "href",
            "root",
            "openapi",
            "source",
            "directory",
            "icon",
            "name",
            "hidden",
            "default",
        ],
        6,
    )
}

proptest! {
    /// Whatever the navigation, reading it ends; a refusal names a place inside the navigation.
    #[test]
    fn any_navigation_is_read_or_refused_without_panicking(navigation in any_navigation()) {
        let document = json!({"navigation": navigation});
        if let Err(NavigationError::Invalid { at, message }) = SiteNavigation::read(&document) {
            prop_assert!(at.starts_with("navigation"), "{at}");
            prop_assert!(!message.is_empty());
        }
    }
}
