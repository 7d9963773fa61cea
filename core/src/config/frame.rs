//! The frame around every page: the top bar, the footer, the banner and what pages tell search
//! engines.

use serde::Deserialize;

use super::theme::ModeColor;

/// A link of the top bar or the footer: `{label, href}`, or `{type: "github", href}`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Link {
    pub label: Option<String>,
    pub href: Option<String>,
    /// `button`, `github`, ...
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub icon: Option<serde_json::Value>,
}

impl Link {
    /// (label, href), where a GitHub link without a label is called "GitHub".
    pub fn labelled(&self) -> Option<(String, String)> {
        let label = match (&self.label, self.kind.as_deref()) {
            (Some(label), _) => label.clone(),
            (None, Some("github")) => "GitHub".into(),
            (None, _) => return None,
        };
        Some((label, self.href.clone()?))
    }
}

/// `navbar`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Navbar {
    /// Links of the top bar, in order.
    pub links: Vec<Link>,
    /// The button at its end: `{type: "button", label, href}` or `{type: "github", href}`.
    pub primary: Option<Link>,
}

impl Navbar {
    /// The top bar's links as (label, href).
    pub fn labelled_links(&self) -> Vec<(String, String)> {
        self.links.iter().filter_map(Link::labelled).collect()
    }

    /// The primary button as (label, href): a GitHub link is always called "GitHub".
    pub fn primary_button(&self) -> Option<(String, String)> {
        let primary = self.primary.as_ref()?;
        let label = match primary.kind.as_deref() {
            Some("github") => "GitHub".to_string(),
            _ => primary.label.clone()?,
        };
        Some((label, primary.href.clone()?))
    }
}

/// `footer`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Footer {
    /// Social network → URL, in the file's order.
    pub socials: serde_json::Map<String, serde_json::Value>,
    /// Columns of links.
    pub links: Vec<FooterColumn>,
}

impl Footer {
    /// (network, URL) for the socials whose URL is text.
    pub fn social_links(&self) -> Vec<(String, String)> {
        self.socials
            .iter()
            .filter_map(|(name, url)| Some((name.clone(), url.as_str()?.to_string())))
            .collect()
    }
}

/// A column of footer links.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FooterColumn {
    pub header: Option<String>,
    pub items: Vec<Link>,
}

/// `banner`: a line above every page.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Banner {
    /// Inline Markdown.
    pub content: Option<String>,
    /// Readers may close it.
    pub dismissible: Option<bool>,
    /// `info` (the default), `warning` or `critical`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Its background.
    pub color: Option<ModeColor>,
}

/// `seo`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Seo {
    /// Meta tags for every page's head, name → content, in the file's order.
    pub metatags: serde_json::Map<String, serde_json::Value>,
    /// `navigable` (the default: pages in the navigation), `all`, or `none` (no page is indexed).
    pub indexing: Option<String>,
}

impl Seo {
    /// (name, content) of the meta tags whose content is text.
    pub fn tags(&self) -> Vec<(String, String)> {
        self.metatags
            .iter()
            .filter_map(|(name, content)| Some((name.clone(), content.as_str()?.to_string())))
            .collect()
    }
}
