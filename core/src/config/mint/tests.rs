//! mint.json settings moved to their docs.json places, and what the file already says kept.

use super::*;

#[test]
fn mint_json_settings_get_their_docs_json_places() {
    let mut config = json!({
        "name": "Legacy",
        "topbarLinks": [{"name": "Support", "url": "mailto:hi@example.com"},
                        {"type": "github", "url": "https://github.com/acme/x"}],
        "topbarCtaButton": {"name": "Dashboard", "url": "https://app.example"},
        "footerSocials": [{"type": "github", "url": "https://github.com/acme"}],
        "backgroundImage": "/images/bg.png",
        "colors": {"primary": "#0D9373", "background": {"light": "#ffffff", "dark": "#0b0d0e"}},
        "font": {"headings": {"family": "Oswald"}, "body": {"family": "Inter", "url": "/fonts/inter.woff2", "weight": 400}},
        "metadata": {"og:site_name": "Legacy", "timestamp": true},
        "seo": {"indexHiddenPages": true},
        "modeToggle": {"default": "dark", "isHidden": true},
        "analytics": {"ga4": {"measurementId": "G-1"}},
        "codeBlock": {"mode": "dark"}
    });
    upgrade(&mut config);
    let at = |pointer: &str| config.pointer(pointer).cloned().unwrap_or(Value::Null);
    assert_eq!(
        at("/navbar/links"),
        json!([{"label": "Support", "href": "mailto:hi@example.com"},
               {"label": "GitHub", "href": "https://github.com/acme/x"}])
    );
    assert_eq!(at("/navbar/primary/label"), "Dashboard");
    assert_eq!(
        at("/footer/socials"),
        json!({"github": "https://github.com/acme"})
    );
    assert_eq!(at("/background/image"), "/images/bg.png");
    assert_eq!(at("/background/color/dark"), "#0b0d0e");
    assert_eq!(at("/fonts/heading/family"), "Oswald");
    assert_eq!(at("/fonts/body/source"), "/fonts/inter.woff2");
    assert_eq!(at("/seo/metatags"), json!({"og:site_name": "Legacy"}));
    assert_eq!(at("/seo/indexing"), "all");
    assert_eq!(
        at("/appearance"),
        json!({"default": "dark", "strict": true})
    );
    assert_eq!(at("/integrations/ga4/measurementId"), "G-1");
    assert_eq!(at("/styling/codeblocks"), "dark");
    // What mint.json and docs.json spell alike is left alone.
    assert_eq!(at("/colors/primary"), "#0D9373");
    assert_eq!(at("/metadata/timestamp"), true);
}

#[test]
fn settings_the_file_gives_in_docs_json_form_win_and_odd_shapes_are_skipped() {
    let mut config = json!({
        "topbarCtaButton": {"name": "Old", "url": "https://old.example"},
        "navbar": {"primary": {"type": "button", "label": "New", "href": "https://new.example"}},
        "footerSocials": "not a map",
        "font": {"weight": 400},
        "backgroundImage": "/bg.png",
        "background": "oops"
    });
    let before = config.clone();
    upgrade(&mut config);
    assert_eq!(config, before);
}
