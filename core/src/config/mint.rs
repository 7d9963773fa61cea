//! mint.json's site settings in docs.json's places. mint.json is the older navigation file; its
//! settings that docs.json names differently (`topbarCtaButton`, `footerSocials`,
//! `backgroundImage`, `font`, `metadata`, `modeToggle`, `analytics`, ...) are read here, typed,
//! and written to their docs.json places when a site is read, so that renderers, search and the
//! docs server read one shape. What docs.json already names the same way (`name`, `logo`,
//! `favicon`, `colors`, `redirects`, `search.prompt`; `api.playground.mode`, which the model
//! reads as well) is left as it is, and a docs.json key the file sets itself is never
//! overwritten. The navigation (`navigation`, `tabs`, `anchors`, `versions`, `primaryTab`,
//! `topAnchor`) is read by [`super::navigation::SiteNavigation::read`].

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The mint.json settings that move, as the file gives them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct MintSettings {
    topbar_links: Option<Vec<MintLink>>,
    topbar_cta_button: Option<MintLink>,
    footer_socials: Option<Socials>,
    background_image: Option<String>,
    colors: MintColors,
    font: Option<MintFont>,
    /// Meta tags for every page (docs.json's `metadata` is something else: `{timestamp}`).
    metadata: Map<String, Value>,
    seo: MintSeo,
    mode_toggle: ModeToggle,
    analytics: Option<Map<String, Value>>,
    code_block: CodeBlock,
}

/// A link of the top bar, or its button: `{name, url}`, or `{type: "github", url}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct MintLink {
    name: Option<String>,
    url: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

/// `footerSocials`: `platform: url`, or a list of `{type, url}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged, expecting = "{platform: url} or a list of {type, url}")]
enum Socials {
    ByPlatform(Map<String, Value>),
    Listed(Vec<Social>),
}

#[derive(Debug, Clone, Deserialize)]
struct Social {
    #[serde(rename = "type")]
    platform: String,
    url: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct MintColors {
    /// Page backgrounds per mode: docs.json's `background.color`.
    background: Option<Map<String, Value>>,
}

/// `font`: one font for the whole site, or `{headings, body}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged, expecting = "{family, url} or {headings, body}")]
enum MintFont {
    One(FontFace),
    Split {
        #[serde(default)]
        headings: Option<FontFace>,
        #[serde(default)]
        body: Option<FontFace>,
    },
}

#[derive(Debug, Clone, Deserialize)]
struct FontFace {
    family: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    weight: Option<Value>,
    #[serde(default)]
    format: Option<Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct MintSeo {
    index_hidden_pages: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct ModeToggle {
    default: Option<String>,
    is_hidden: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct CodeBlock {
    mode: Option<String>,
}

/// Adds the docs.json form of a mint.json document's settings to it. A value of another shape
/// than mint.json's is skipped: the file is read as docs.json afterwards, which reports what
/// does not fit there.
pub fn upgrade(document: &mut Value) {
    let (mint, _) = super::lenient::read::<MintSettings>(document);
    let Some(settings) = document.as_object_mut() else {
        return;
    };
    for (pointer, value) in mint.docs_json_settings() {
        set_if_absent(settings, pointer, value);
    }
}

impl MintSettings {
    /// The docs.json settings these imply, as (JSON pointer, value) pairs.
    fn docs_json_settings(self) -> Vec<(&'static str, Value)> {
        let mut out = Vec::new();
        if let Some(links) = &self.topbar_links {
            let links: Vec<Value> = links.iter().filter_map(navbar_link).collect();
            out.push(("/navbar/links", Value::Array(links)));
        }
        if let Some(button) = self.topbar_cta_button.as_ref().and_then(navbar_primary) {
            out.push(("/navbar/primary", button));
        }
        if let Some(socials) = self.footer_socials.and_then(footer_socials) {
            out.push(("/footer/socials", socials));
        }
        if let Some(image) = self.background_image {
            out.push(("/background/image", json!(image)));
        }
        if let Some(colors) = self.colors.background {
            out.push(("/background/color", Value::Object(colors)));
        }
        if let Some(fonts) = self.font.and_then(fonts) {
            out.push(("/fonts", fonts));
        }
        let tags: Map<String, Value> = self
            .metadata
            .into_iter()
            .filter(|(_, v)| v.is_string())
            .collect();
        if !tags.is_empty() {
            out.push(("/seo/metatags", Value::Object(tags)));
        }
        if self.seo.index_hidden_pages == Some(true) {
            out.push(("/seo/indexing", json!("all")));
        }
        if let Some(mode) = self.mode_toggle.default {
            out.push(("/appearance/default", json!(mode)));
        }
        if let Some(hidden) = self.mode_toggle.is_hidden {
            out.push(("/appearance/strict", json!(hidden)));
        }
        if let Some(analytics) = self.analytics {
            out.push(("/integrations", Value::Object(analytics)));
        }
        if let Some(mode) = self.code_block.mode {
            let codeblocks = if mode == "dark" { "dark" } else { "system" };
            out.push(("/styling/codeblocks", json!(codeblocks)));
        }
        out
    }
}

/// A `topbarLinks` entry as a `navbar.links` one.
fn navbar_link(link: &MintLink) -> Option<Value> {
    let href = link.url.as_deref()?;
    let label = match (&link.name, link.kind.as_deref()) {
        (Some(name), _) => name.as_str(),
        (None, Some("github")) => "GitHub",
        (None, _) => return None,
    };
    Some(json!({"label": label, "href": href}))
}

/// `topbarCtaButton` as `navbar.primary`.
fn navbar_primary(button: &MintLink) -> Option<Value> {
    let href = button.url.as_deref()?;
    if button.kind.as_deref() == Some("github") {
        return Some(json!({"type": "github", "href": href}));
    }
    let label = button.name.as_deref()?;
    Some(json!({"type": "button", "label": label, "href": href}))
}

/// `footerSocials` as the object `footer.socials` is.
fn footer_socials(socials: Socials) -> Option<Value> {
    let map: Map<String, Value> = match socials {
        Socials::ByPlatform(map) => map.into_iter().filter(|(_, url)| url.is_string()).collect(),
        Socials::Listed(items) => items
            .into_iter()
            .map(|social| (social.platform, json!(social.url)))
            .collect(),
    };
    (!map.is_empty()).then_some(Value::Object(map))
}

/// `font` as `fonts`, whose files are named by `source`.
fn fonts(font: MintFont) -> Option<Value> {
    let one = |face: FontFace| -> Value {
        let mut out = json!({"family": face.family});
        if let Some(url) = face.url {
            out["source"] = json!(url);
        }
        if let Some(weight) = face.weight {
            out["weight"] = weight;
        }
        if let Some(format) = face.format {
            out["format"] = format;
        }
        out
    };
    match font {
        MintFont::One(face) => Some(one(face)),
        MintFont::Split { headings, body } => {
            let mut out = Map::new();
            if let Some(heading) = headings {
                out.insert("heading".into(), one(heading));
            }
            if let Some(body) = body {
                out.insert("body".into(), one(body));
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
    }
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
mod tests;
