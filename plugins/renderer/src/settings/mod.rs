//! The site-wide settings of docs.json (or mint.json) that shape the theme: colors, logo,
//! favicon, appearance and top-bar links. Values that could break out of their place in the
//! HTML or CSS (a color that is not a color) fall back to the default.

pub mod appearance;
pub mod banner;
pub mod chrome;
pub mod external;
pub mod values;

use quire_sdk::config::SiteConfig;
use serde_json::Value;

use crate::settings::values::is_hex_color;

/// The theme settings of a site.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The accent color in light mode (`colors.primary`).
    pub primary: String,
    /// The accent in dark mode (`colors.light`: a lighter shade that reads on dark
    /// backgrounds), defaulting to `primary`.
    pub light: String,
    /// The color of buttons and hover states (`colors.dark`), defaulting to `primary`.
    pub dark: String,
    /// Logo image paths (`logo` as a string, or `logo.light` / `logo.dark`).
    pub logo_light: Option<String>,
    pub logo_dark: Option<String>,
    /// Favicon path (`favicon`).
    pub favicon: Option<String>,
    /// `appearance.default` (mint.json's `modeToggle.default`, read into it by the host):
    /// "light", "dark" or "system".
    pub default_mode: String,
    /// Links for the top bar (`navbar.links`), as (label, href).
    pub navbar_links: Vec<(String, String)>,
    /// The frame around pages: navbar button, footer, banner, meta tags, fonts.
    pub chrome: crate::settings::chrome::Chrome,
    /// The library icon names are looked up in first (`icons.library`).
    pub icon_library: crate::icons::Library,
    /// Background, eyebrows, search prompt, not-found page and contextual menu.
    pub appearance: crate::settings::appearance::Appearance,
    /// docs.json `api`: the playground, request examples and hand-written API pages.
    pub api: crate::api::ApiSettings,
    /// docs.json `description`: the meta description of pages that give none.
    pub description: Option<String>,
    /// Fonts and analytics from other hosts, for deployments that allow them.
    pub external: crate::settings::external::External,
    /// The navigation file's name as authors know it (`docs.json`, or `mint.json` for the older
    /// shape), for warnings about its settings.
    pub config_file: &'static str,
    /// The top bar links and frame of the languages (`navigation.languages` entries) that give
    /// their own `navbar`, `footer` or `banner`.
    pub language_frames: std::collections::HashMap<String, Frame>,
}

/// What a language may give in its own words: the top bar's links and the frame around pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub navbar_links: Vec<(String, String)>,
    pub chrome: crate::settings::chrome::Chrome,
}

const DEFAULT_PRIMARY: &str = "#2563eb";

impl Settings {
    /// Reads the settings from the navigation file's JSON text.
    pub fn parse(config_json: &str) -> Result<Self, String> {
        let document = quire_sdk::config::document(config_json).map_err(|e| e.to_string())?;
        Ok(Self::from_config(&document))
    }

    /// Reads the settings from the parsed navigation file (`Null` for none). What does not fit
    /// docs.json's model is left out; the host warns about it once, when the site is published.
    pub fn from_config(document: &Value) -> Self {
        Self::of(&SiteConfig::of(document))
    }

    /// Reads the settings from docs.json's model.
    pub fn of(config: &SiteConfig) -> Self {
        let color = |c: &Option<String>| c.clone().filter(|c| is_hex_color(c));
        let primary = color(&config.colors.primary).unwrap_or_else(|| DEFAULT_PRIMARY.to_string());
        let light = color(&config.colors.light).unwrap_or_else(|| primary.clone());
        let dark = color(&config.colors.dark).unwrap_or_else(|| primary.clone());
        let (logo_light, logo_dark) = config.logo.as_ref().map(|l| l.images()).unwrap_or_default();
        let (api, api_problems) = crate::api::ApiSettings::from_config(&config.api);
        let mut external = crate::settings::external::External::from_config(config);
        external.problems.extend(api_problems);
        Self {
            api,
            description: values::trimmed(&config.description),
            primary,
            light,
            dark,
            logo_light,
            logo_dark,
            favicon: config.favicon.as_ref().and_then(|f| f.path()),
            default_mode: config.appearance.default_mode().to_string(),
            navbar_links: config.navbar.labelled_links(),
            chrome: crate::settings::chrome::Chrome::from_config(config),
            appearance: crate::settings::appearance::Appearance::from_config(config),
            external,
            config_file: config.file_name(),
            icon_library: crate::icons::Library::parse(config.icons.library.as_deref()),
            language_frames: language_frames(config),
        }
    }

    /// The top bar links and frame for pages in `language`: its own where it gives them.
    pub fn frame(
        &self,
        language: Option<&str>,
    ) -> (&[(String, String)], &crate::settings::chrome::Chrome) {
        match language.and_then(|l| self.language_frames.get(l)) {
            Some(frame) => (&frame.navbar_links, &frame.chrome),
            None => (&self.navbar_links, &self.chrome),
        }
    }
}

/// The frames of the `languages` entries, at any depth of the navigation, that set `navbar`,
/// `footer` or `banner`: the site's settings with those replaced.
fn language_frames(config: &SiteConfig) -> std::collections::HashMap<String, Frame> {
    const OWN: [&str; 3] = ["navbar", "footer", "banner"];
    fn walk<'a>(node: &'a Value, out: &mut Vec<&'a serde_json::Map<String, Value>>) {
        match node {
            Value::Object(map) => {
                if map.contains_key("language") && OWN.iter().any(|k| map.contains_key(*k)) {
                    out.push(map);
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut entries = Vec::new();
    if let Some(navigation) = &config.navigation {
        walk(navigation, &mut entries);
    }
    let mut frames = std::collections::HashMap::new();
    if entries.is_empty() {
        return frames;
    }
    // The site's settings without its navigation, which may be large and is not read here.
    let mut site = config.clone();
    site.navigation = None;
    for entry in entries {
        let Some(Value::String(language)) = entry.get("language") else {
            continue;
        };
        if frames.contains_key(language) {
            continue;
        }
        // The language's own parts read as the site's settings would be, in their places.
        let own: serde_json::Map<String, Value> = OWN
            .iter()
            .filter_map(|key| Some((key.to_string(), entry.get(*key)?.clone())))
            .collect();
        let own = SiteConfig::of(&Value::Object(own));
        let mut merged = site.clone();
        if entry.contains_key("navbar") {
            merged.navbar = own.navbar;
        }
        if entry.contains_key("footer") {
            merged.footer = own.footer;
        }
        if entry.contains_key("banner") {
            merged.banner = own.banner;
        }
        frames.insert(
            language.clone(),
            Frame {
                navbar_links: merged.navbar.labelled_links(),
                chrome: crate::settings::chrome::Chrome::from_config(&merged),
            },
        );
    }
    frames
}

impl Settings {
    /// An icon of the site's library as HTML, or `None` for an unknown name. `root` leads from
    /// the page to the bundle's root, for icons that are images in the site; `None` (the shared
    /// navigation file, which no single page owns) leaves the path in `data-root-src` for
    /// quire.js to complete on the page that shows it.
    pub fn icon_html(
        &self,
        icon: crate::icons::IconRef<'_>,
        size: u32,
        root: Option<&str>,
    ) -> Option<String> {
        Some(match crate::icons::draw(self.icon_library, icon, size)? {
            crate::icons::Drawn::Svg(svg) => svg,
            crate::icons::Drawn::Image(src) => {
                let external = src.contains(':') || src.starts_with("//");
                let (attribute, src) = match root {
                    _ if external => ("src", src),
                    Some(root) => ("src", format!("{root}{}", src.trim_start_matches('/'))),
                    None => ("data-root-src", src.trim_start_matches('/').to_string()),
                };
                format!(
                    "<img class=\"icon\" {attribute}=\"{}\" width=\"{size}\" height=\"{size}\" alt=\"\">",
                    quire_sdk::escape::html(&src)
                )
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors_logo_and_links_are_read_and_checked() {
        let s = Settings::parse(
            r##"{"colors":{"primary":"#0D9373","dark":"#55efc4"},"logo":{"light":"/logo/light.svg"},
                "favicon":"/favicon.svg","appearance":{"default":"dark"},
                "navbar":{"links":[{"label":"Support","href":"mailto:help@example.com"}]}}"##,
        )
        .unwrap();
        assert_eq!(
            (s.primary.as_str(), s.light.as_str(), s.dark.as_str()),
            ("#0D9373", "#0D9373", "#55efc4")
        );
        assert_eq!(s.logo_dark.as_deref(), Some("logo/light.svg"));
        assert_eq!(s.favicon.as_deref(), Some("favicon.svg"));
        assert_eq!(s.default_mode, "dark");
        assert_eq!(s.navbar_links.len(), 1);
        let bad = Settings::parse(r#"{"colors":{"primary":"red;}"}}"#).unwrap();
        assert_eq!(bad.primary, DEFAULT_PRIMARY);
        assert!(Settings::parse("{").is_err());
    }

    #[test]
    fn a_language_may_give_its_own_navbar_footer_and_banner() {
        let s = Settings::parse(
            r#"{"navbar":{"links":[{"label":"Support","href":"https://help.example"}]},
                "banner":{"content":"News"},
                "footer":{"socials":{"github":"https://github.com/acme"}},
                "navigation":{"versions":[{"version":"v1","languages":[
                    {"language":"en","pages":["a"]},
                    {"language":"es","pages":["es/a"],"navbar":{"links":[{"label":"Ayuda","href":"https://help.example/es"},{"type":"github","href":"https://github.com/acme"}]},
                     "banner":{"content":"Novedades"}}]}]}}"#,
        )
        .unwrap();
        let (links, chrome) = s.frame(Some("es"));
        assert_eq!(links[0].0, "Ayuda");
        assert_eq!(links[1].0, "GitHub");
        assert_eq!(chrome.banner.as_deref(), Some("Novedades"));
        assert_eq!(
            chrome.socials.len(),
            1,
            "the site's footer where the language gives none"
        );
        let (links, chrome) = s.frame(Some("en"));
        assert_eq!(
            (links[0].0.as_str(), chrome.banner.as_deref()),
            ("Support", Some("News"))
        );
        assert_eq!(s.frame(None).0[0].0, "Support");
    }
}
