//! The model read from documents authors write, right and wrong.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

#[test]
fn every_setting_is_read_in_its_place() {
    let (config, warnings) = SiteConfig::parse(
        r##"{"$schema":"https://mintlify.com/docs.json","theme":"mint","name":"Acme",
            "colors":{"primary":"#0D9373","dark":"#55efc4"},
            "logo":{"light":"/logo/light.svg","href":"https://acme.test"},
            "favicon":{"dark":"/fav.svg"},"appearance":{"default":"dark","strict":true},
            "navbar":{"links":[{"label":"Support","href":"mailto:help@acme.test"},{"type":"github","href":"https://github.com/acme"}],
                      "primary":{"type":"github","href":"https://github.com/acme"}},
            "footer":{"socials":{"x":"https://x.com/acme","bad":3},"links":[{"header":"Company","items":[{"label":"Blog","href":"/blog"}]}]},
            "banner":{"content":"News","color":{"light":"#fff"}},
            "fonts":{"family":"Inter","heading":{"family":"Lora","source":"/fonts/lora.woff2"}},
            "api":{"params":{"expanded":true},"mdx":{"server":["https://api.acme.test"],"auth":{"method":"bearer"}}},
            "contextual":{"options":["copy",{"title":"Ask","href":{"base":"https://ask.test","query":[{"key":"q","value":"$page"}]}}]},
            "errors":{"404":{"redirect":false}},"styling":{"codeblocks":"dark"},
            "navigation":{"pages":["index"]}}"##,
    )
    .unwrap();
    assert_eq!(
        warnings,
        [],
        "a document in the schema reads without warnings"
    );
    assert_eq!(config.name.as_deref(), Some("Acme"));
    assert_eq!(config.colors.dark.as_deref(), Some("#55efc4"));
    let logo = config.logo.as_ref().unwrap();
    assert_eq!(
        logo.images(),
        (Some("logo/light.svg".into()), Some("logo/light.svg".into()))
    );
    assert_eq!(logo.href(), Some("https://acme.test"));
    assert_eq!(
        config.favicon.as_ref().unwrap().path().as_deref(),
        Some("fav.svg")
    );
    assert_eq!(config.appearance.default_mode(), "dark");
    assert_eq!(config.navbar.labelled_links()[1].0, "GitHub");
    assert_eq!(config.navbar.primary_button().unwrap().0, "GitHub");
    assert_eq!(
        config.footer.social_links(),
        [("x".to_string(), "https://x.com/acme".to_string())]
    );
    assert_eq!(
        config.fonts.as_ref().unwrap().heading_family(),
        Some("Lora")
    );
    assert_eq!(config.fonts.as_ref().unwrap().each().len(), 2);
    assert!(config.api.params.expanded.as_ref().unwrap().open());
    assert_eq!(
        config.api.mdx.server.as_ref().unwrap().url().as_deref(),
        Some("https://api.acme.test")
    );
    assert_eq!(config.contextual.options.len(), 2);
    assert_eq!(config.errors.not_found.redirect, Some(false));
    assert!(config.styling.dark_code_blocks());
    assert_eq!(config.file_name(), "docs.json");
}

#[test]
fn a_wrong_setting_costs_only_itself_with_a_warning_at_its_place() {
    let (config, warnings) = SiteConfig::read(&json!({
        "name": "Acme",
        "colors": {"primary": 3, "light": "#fff"},
        "navbar": {"links": [{"label": "A", "href": "/a"}, {"label": ["no"], "href": "/b"}, {"label": "C", "href": "/c"}]},
        "logo": 7,
        "seo": {"indexing": "all", "sitemap": true},
        "head": "<script>"
    }));
    assert_eq!(config.name.as_deref(), Some("Acme"));
    assert_eq!(config.colors.primary, None);
    assert_eq!(config.colors.light.as_deref(), Some("#fff"));
    assert_eq!(config.logo, None);
    assert_eq!(config.seo.indexing.as_deref(), Some("all"));
    let labels: Vec<_> = config
        .navbar
        .labelled_links()
        .into_iter()
        .map(|l| l.0)
        .collect();
    assert_eq!(labels, ["A", "C"], "only the link at fault is left out");
    let places: Vec<&str> = warnings.iter().map(|w| w.at.as_str()).collect();
    assert_eq!(
        places,
        [
            "colors.primary",
            "navbar.links[1].label",
            "logo",
            "seo.sitemap",
            "head"
        ],
        "{warnings:?}"
    );
    assert!(
        warnings[0].message.contains("expected a string"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[2]
            .message
            .contains("a path, or {light, dark, href}"),
        "{}",
        warnings[2]
    );
    assert!(
        warnings[4].message.starts_with("unknown setting `head`"),
        "{}",
        warnings[4]
    );
}

#[test]
fn a_document_that_is_not_an_object_has_no_settings() {
    let (config, warnings) = SiteConfig::read(&json!(["index"]));
    assert_eq!(config, SiteConfig::default());
    assert_eq!(warnings.len(), 1);
    assert_eq!(SiteConfig::parse("  ").unwrap().0, SiteConfig::default());
    assert!(SiteConfig::parse("{").is_err());
}

#[test]
fn a_mint_json_navigation_is_a_list() {
    let config =
        SiteConfig::of(&json!({"name": "Old", "navigation": [{"group": "G", "pages": ["a"]}]}));
    assert_eq!(config.file_name(), "mint.json");
}

/// Any JSON value, nested a few levels, with keys drawn from the schema's settings.
fn any_json() -> impl Strategy<Value = Value> {
    super::arbitrary::json_with_keys(
        vec![
            "name",
            "colors",
            "primary",
            "logo",
            "light",
            "dark",
            "href",
            "navbar",
            "links",
            "label",
            "type",
            "footer",
            "socials",
            "items",
            "banner",
            "color",
            "fonts",
            "heading",
            "api",
            "params",
            "expanded",
            "mdx",
            "server",
            "contextual",
            "options",
            "query",
            "key",
            "value",
            "errors",
            "404",
            "navigation",
            "x",
        ],
        4,
    )
}

proptest! {
    /// Whatever the document, reading it ends, and every warning names a place.
    #[test]
    fn any_document_is_read_without_panicking(document in any_json()) {
        let (_, warnings) = SiteConfig::read(&document);
        for warning in warnings {
            prop_assert!(!warning.at.is_empty() && !warning.message.is_empty());
        }
    }
}
