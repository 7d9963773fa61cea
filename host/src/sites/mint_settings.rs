//! mint.json's site settings in docs.json's shape. mint.json is the older navigation file; its
//! settings that docs.json names differently (`topbarCtaButton`, `footerSocials`,
//! `backgroundImage`, `font`, `metadata`, `modeToggle`, `analytics`, ...) are copied to their
//! docs.json places when a site is read, so that renderers, search and the docs server read one
//! shape. What docs.json already names the same way (`name`, `logo`, `favicon`, `colors`,
//! `redirects`, `search.prompt`; `api.playground.mode`, which the renderer reads itself) is left
//! as it is, and a docs.json key the file sets itself is never overwritten. The navigation
//! (`navigation`, `tabs`, `anchors`, `versions`) is `navigation/mint.rs`'s.

use serde_json::{Map, Value, json};

/// Adds the docs.json form of `config`'s mint.json settings to it.
pub fn upgrade(config: &mut Value) {
    let additions = docs_json_settings(config);
    let Some(settings) = config.as_object_mut() else {
        return;
    };
    for (pointer, value) in additions {
        set_if_absent(settings, pointer, value);
    }
}

/// The docs.json settings `mint` implies, as (JSON pointer, value) pairs.
fn docs_json_settings(mint: &Value) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    let get = |pointer: &str| mint.pointer(pointer).cloned();
    if let Some(links) = mint.get("topbarLinks").and_then(Value::as_array) {
        let links: Vec<Value> = links.iter().filter_map(navbar_link).collect();
        out.push(("/navbar/links", Value::Array(links)));
    }
    if let Some(button) = mint.get("topbarCtaButton").and_then(navbar_primary) {
        out.push(("/navbar/primary", button));
    }
    if let Some(socials) = mint.get("footerSocials").and_then(footer_socials) {
        out.push(("/footer/socials", socials));
    }
    if let Some(image) = mint.get("backgroundImage").filter(|v| v.is_string()) {
        out.push(("/background/image", image.clone()));
    }
    if let Some(colors) = get("/colors/background").filter(Value::is_object) {
        out.push(("/background/color", colors));
    }
    if let Some(fonts) = mint.get("font").and_then(fonts) {
        out.push(("/fonts", fonts));
    }
    // mint.json's `metadata` is a site-wide map of meta tags; docs.json's is `{timestamp}`.
    if let Some(tags) = mint.get("metadata").and_then(Value::as_object) {
        let tags: Map<String, Value> = tags
            .iter()
            .filter(|(_, v)| v.is_string())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !tags.is_empty() {
            out.push(("/seo/metatags", Value::Object(tags)));
        }
    }
    if get("/seo/indexHiddenPages").and_then(|v| v.as_bool()) == Some(true) {
        out.push(("/seo/indexing", json!("all")));
    }
    if let Some(mode) = get("/modeToggle/default").filter(Value::is_string) {
        out.push(("/appearance/default", mode));
    }
    if let Some(hidden) = get("/modeToggle/isHidden").filter(Value::is_boolean) {
        out.push(("/appearance/strict", hidden));
    }
    if let Some(analytics) = mint.get("analytics").filter(|v| v.is_object()) {
        out.push(("/integrations", analytics.clone()));
    }
    if let Some(mode) = get("/codeBlock/mode").and_then(|v| v.as_str().map(String::from)) {
        let codeblocks = if mode == "dark" { "dark" } else { "system" };
        out.push(("/styling/codeblocks", json!(codeblocks)));
    }
    out
}

/// A `topbarLinks` entry (`{name, url}`, or `{type: "github", url}`) as a `navbar.links` one.
fn navbar_link(link: &Value) -> Option<Value> {
    let href = link.get("url")?.as_str()?;
    let label = match link.get("name").and_then(Value::as_str) {
        Some(name) => name,
        None if link.get("type").and_then(Value::as_str) == Some("github") => "GitHub",
        None => return None,
    };
    Some(json!({"label": label, "href": href}))
}

/// `topbarCtaButton` (`{name, url}`, or `{type: "github", url}`) as `navbar.primary`.
fn navbar_primary(button: &Value) -> Option<Value> {
    let href = button.get("url")?.as_str()?;
    if button.get("type").and_then(Value::as_str) == Some("github") {
        return Some(json!({"type": "github", "href": href}));
    }
    let label = button.get("name")?.as_str()?;
    Some(json!({"type": "button", "label": label, "href": href}))
}

/// `footerSocials`, an object of `platform: url` or a list of `{type, url}`, as the object
/// `footer.socials` is.
fn footer_socials(socials: &Value) -> Option<Value> {
    let map: Map<String, Value> = match socials {
        Value::Object(map) => map
            .iter()
            .filter(|(_, url)| url.is_string())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        Value::Array(items) => items
            .iter()
            .filter_map(|item| {
                let platform = item.get("type")?.as_str()?;
                let url = item.get("url")?.as_str()?;
                Some((platform.to_string(), json!(url)))
            })
            .collect(),
        _ => return None,
    };
    (!map.is_empty()).then_some(Value::Object(map))
}

/// `font` (one `{family, url, weight, format}` for the whole site, or `{headings, body}`) as
/// `fonts`, whose files are named by `source`.
fn fonts(font: &Value) -> Option<Value> {
    let one = |font: &Value| -> Option<Value> {
        let family = font.get("family")?.as_str()?;
        let mut out = json!({"family": family});
        if let Some(url) = font.get("url").and_then(Value::as_str) {
            out["source"] = json!(url);
        }
        for key in ["weight", "format"] {
            if let Some(value) = font.get(key) {
                out[key] = value.clone();
            }
        }
        Some(out)
    };
    if font.get("family").is_some() {
        return one(font);
    }
    let mut out = Map::new();
    if let Some(heading) = font.get("headings").and_then(one) {
        out.insert("heading".into(), heading);
    }
    if let Some(body) = font.get("body").and_then(one) {
        out.insert("body".into(), body);
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

/// Sets the value at `pointer` (`/a/b`) unless the file already has one there; an object on
/// the way that is not an object (a mint.json value of another shape) leaves it unset.
fn set_if_absent(settings: &mut Map<String, Value>, pointer: &str, value: Value) {
    let keys: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let Some((last, parents)) = keys.split_last() else {
        return;
    };
    let mut here = settings;
    for key in parents {
        let next = here
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(object) = next.as_object_mut() else {
            return;
        };
        here = object;
    }
    here.entry(last.to_string()).or_insert(value);
}

#[cfg(test)]
mod tests {
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
}
