//! What pages may load from other hosts, and only where the deployment lets them: fonts whose
//! docs.json `source` is a URL, and analytics integrations (docs.json `integrations`). The
//! renderer writes them into one script, `window.QUIRE_EXTERNAL`; quire.js applies the fonts on
//! cloud and client-hosted docs servers and starts the integrations only where the feature file
//! switches web analytics on, which an air-gapped server never does. A bundle opened from files
//! has no deployment, so it stays within itself and uses the fallback fonts. A background image
//! on another host is only reported: nothing would stand in for it where it cannot load.

use quire_sdk::config::{Fonts, Image, SiteConfig};
use serde_json::{Map, Value, json};

/// The integrations quire.js can start, with the docs.json fields each needs (the first is
/// required).
pub const INTEGRATIONS: &[(&str, &[&str])] = &[
    ("ga4", &["measurementId"]),
    ("gtm", &["tagId"]),
    ("plausible", &["domain", "server"]),
    ("fathom", &["siteId"]),
    ("posthog", &["apiKey", "apiHost"]),
    ("clarity", &["projectId"]),
    ("hotjar", &["hjid", "hjsv"]),
    ("heap", &["appId"]),
    ("pirsch", &["id"]),
];

/// A font face fetched from another host.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteFont {
    pub family: String,
    pub url: String,
    pub format: Option<String>,
    pub weight: Option<u32>,
}

/// The site's off-bundle resources.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct External {
    pub fonts: Vec<RemoteFont>,
    /// Supported integrations with their checked settings, in docs.json's spelling.
    pub integrations: Map<String, Value>,
    /// What the site names that is left out or used only by some deployments, for the author.
    pub problems: Vec<String>,
}

impl External {
    /// Reads what the site's settings name off the bundle, with a problem for each thing left
    /// out or used only by some deployments.
    pub fn from_config(config: &SiteConfig) -> Self {
        let mut problems = Vec::new();
        let fonts = config
            .fonts
            .as_ref()
            .map(Fonts::each)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(at, font)| {
                let url = font.source.as_deref()?;
                if !is_remote(url) {
                    return None;
                }
                if url.contains(['"', '\\', '\n', '(', ')']) {
                    problems.push(format!("{at}.source {url:?} is not a usable URL; the font is left out"));
                    return None;
                }
                problems.push(format!(
                    "{at}.source {url:?} is on another host: cloud and client-hosted docs servers load it; air-gapped ones, and the bundle opened from files, show the theme's fallback font"
                ));
                Some(RemoteFont {
                    family: font_family(font.family.as_deref()?),
                    url: url.to_string(),
                    format: font
                        .format
                        .clone()
                        .filter(|f| matches!(f.as_str(), "woff" | "woff2" | "truetype" | "opentype")),
                    weight: font
                        .weight
                        .and_then(|w| u32::try_from(w).ok())
                        .filter(|w| (1..=1000).contains(w)),
                })
            })
            .collect();
        let mut integrations = Map::new();
        for (name, settings) in &config.integrations {
            let Some((_, fields)) = INTEGRATIONS.iter().find(|(n, _)| n == name) else {
                // `cookies` configures consent, not a tracker: nothing to start.
                if name != "cookies" {
                    let supported: Vec<&str> = INTEGRATIONS.iter().map(|(n, _)| *n).collect();
                    problems.push(format!(
                        "integrations.{name} is not supported (supported: {}); it is left out",
                        supported.join(", ")
                    ));
                }
                continue;
            };
            let mut checked = Map::new();
            for field in *fields {
                if let Some(value) = settings.get(*field).and_then(setting_text) {
                    checked.insert(field.to_string(), Value::String(value));
                }
            }
            if checked.contains_key(fields[0]) {
                integrations.insert(name.clone(), Value::Object(checked));
            } else {
                problems.push(format!(
                    "integrations.{name}.{} is missing or not an ID; the integration is left out",
                    fields[0]
                ));
            }
        }
        // A background image on another host would be a request off the bundle in every
        // deployment; unlike a font, nothing stands in for it, so it is left out.
        let images = config.background.image.as_ref().map(Image::sources);
        for (at, url) in images.unwrap_or_default() {
            if is_remote(url) {
                problems.push(format!(
                    "{at} {url:?} is on another host, which a bundle does not load from; it is left out (put the image in the site)"
                ));
            }
        }
        Self {
            fonts,
            integrations,
            problems,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.fonts.is_empty() && self.integrations.is_empty()
    }

    /// The script quire.js reads, or `None` when the site names nothing off the bundle.
    pub fn script(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let font_css: String = self
            .fonts
            .iter()
            .map(|font| {
                let format = font
                    .format
                    .as_deref()
                    .map(|f| format!(" format(\"{f}\")"))
                    .unwrap_or_default();
                let weight = font
                    .weight
                    .map(|w| format!(" font-weight: {w};"))
                    .unwrap_or_default();
                format!(
                    "@font-face {{ font-family: \"{}\"; src: url(\"{}\"){format};{weight} font-display: swap; }}\n",
                    font.family, font.url
                )
            })
            .collect();
        let data = json!({"fontCss": font_css, "integrations": self.integrations});
        Some(format!(
            "// Fonts and analytics from other hosts; quire.js uses them only where the deployment allows.\nwindow.QUIRE_EXTERNAL = {};\n",
            quire_sdk::escape::script_json(&data.to_string())
        ))
    }
}

/// Whether a font `source` is on another host (not a file of the site).
pub fn is_remote(source: &str) -> bool {
    source.contains("://") || source.starts_with("//")
}

/// A font family name with only the characters a family name needs, so it cannot leave its
/// CSS string.
pub fn font_family(family: &str) -> String {
    family
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .collect()
}

/// An integration setting as text: IDs, keys, domains and hosts only, nothing that could leave
/// its place in a script URL.
fn setting_text(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let fits = !text.is_empty()
        && text.len() <= 200
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:/".contains(c));
    fits.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_background_image_on_another_host_is_reported() {
        let config = json!({"background": {"image": {"light": "bg.png", "dark": "https://cdn.example/d.png"}}});
        let external = External::from_config(&SiteConfig::of(&config));
        assert_eq!(external.problems.len(), 1, "{:?}", external.problems);
        assert!(external.problems[0].starts_with("background.image.dark"));
    }

    #[test]
    fn remote_fonts_and_known_integrations_are_kept_and_checked() {
        let config = json!({
            "fonts": {
                "family": "Inter", "source": "https://fonts.example.test/inter.woff2", "format": "woff2", "weight": 400,
                "heading": {"family": "Lora", "source": "/fonts/lora.woff2"},
                "body": {"family": "Bad", "source": "https://x.test/a.woff2\"); } body { color: red"}
            },
            "integrations": {
                "ga4": {"measurementId": "G-ABC123"},
                "posthog": {"apiKey": "phc_1", "apiHost": "https://eu.posthog.test"},
                "plausible": {"server": "https://p.test"},
                "hotjar": {"hjid": 123, "hjsv": "6"},
                "gtm": {"tagId": "GTM-1\"><script>"},
                "intercom": {"appId": "x"}
            }
        });
        let external = External::from_config(&SiteConfig::of(&config));
        assert_eq!(external.fonts.len(), 1, "{:?}", external.fonts);
        assert_eq!(external.fonts[0].family, "Inter");
        let names: Vec<&String> = external.integrations.keys().collect();
        assert_eq!(names, ["ga4", "posthog", "hotjar"], "in the file's order");
        assert_eq!(external.integrations["hotjar"]["hjid"], "123");
        let script = external.script().unwrap();
        assert!(
            script.contains("format(\\\"woff2\\\"); font-weight: 400"),
            "{script}"
        );
        assert!(!script.contains("</script"), "{script}");
        assert_eq!(
            External::from_config(&SiteConfig::of(&json!({}))).script(),
            None
        );
        let problems = external.problems.join("\n");
        for expected in [
            "fonts.source \"https://fonts.example.test/inter.woff2\" is on another host",
            "fonts.body.source",
            "integrations.intercom is not supported",
            "integrations.plausible.domain is missing",
            "integrations.gtm.tagId is missing or not an ID",
        ] {
            assert!(problems.contains(expected), "{expected}: {problems}");
        }
        assert_eq!(external.problems.len(), 5, "{problems}");
    }
}
