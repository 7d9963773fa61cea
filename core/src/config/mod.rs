//! docs.json, typed: every site setting Quire reads, in one place, with its shape and (through
//! the readers' accessors) its default. mint.json, the older file, is read into the same model
//! once [`mint::upgrade`] has moved its settings to their docs.json places.
//!
//! Reading is lenient (`lenient.rs`): a setting of the wrong shape, or a key the schema does not
//! have, is left out with a [`ConfigWarning`] naming where it is, and the rest of the file is
//! read. The navigation tree is read on its own, strictly ([`navigation`]): a wrong shape there
//! refuses the site. The document itself is stored as written, so nothing an author wrote is
//! lost.

mod api;
#[cfg(test)]
mod arbitrary;
mod frame;
mod lenient;
pub mod mint;
pub mod navigation;
mod reading;
mod theme;

use serde::Deserialize;
use serde_json::Value;

pub use api::{ApiConfig, Examples, Mdx, MdxAuth, MdxServer, Params, ParamsExpanded, Playground};
pub use frame::{Banner, Footer, FooterColumn, Link, Navbar, Seo};
pub use reading::{
    Contextual, ContextualOption, Errors, Interaction, Metadata, NotFound, OptionHref, QueryPair,
    Search,
};
pub use theme::{
    Appearance, Background, Colors, Favicon, Font, Fonts, Icons, Image, Logo, ModeColor, Styling,
};

/// The settings of a docs.json file (or of a mint.json file moved into its shape).
///
/// Keys of the docs.json schema that change nothing in a static site (`$schema`, `theme`,
/// `thumbnails`, `feedback`, ...) are accepted and not read.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SiteConfig {
    /// The site's name: required by publishing, which says so when it is missing.
    pub name: Option<String>,
    /// The meta description of pages that give none.
    pub description: Option<String>,
    pub colors: Colors,
    pub logo: Option<Logo>,
    pub favicon: Option<Favicon>,
    pub appearance: Appearance,
    pub background: Background,
    pub fonts: Option<Fonts>,
    pub icons: Icons,
    pub styling: Styling,
    pub navbar: Navbar,
    pub footer: Footer,
    pub banner: Option<Banner>,
    pub seo: Seo,
    pub search: Search,
    pub errors: Errors,
    pub contextual: Contextual,
    pub interaction: Interaction,
    pub metadata: Metadata,
    pub api: ApiConfig,
    /// Analytics and other integrations by name, each with its own settings: which ones a
    /// renderer supports, and which fields it needs, is the renderer's to say.
    pub integrations: serde_json::Map<String, Value>,
    /// `{{name}}` placeholders' values, read by `variables::Variables`.
    pub variables: serde_json::Map<String, Value>,
    /// Redirect rules, read (and each checked) by `redirects::Redirects`.
    pub redirects: Option<Value>,
    /// Glob patterns of snippet files outside `snippets/`.
    pub snippets: Option<Value>,
    /// The navigation tree, read by [`navigation::SiteNavigation::read`].
    pub navigation: Option<Value>,
    /// OpenAPI documents named at the top of the file, as mint.json does (docs.json names them
    /// under `api` or in the navigation); publishing finds every document the file names.
    pub openapi: Option<Value>,
    #[serde(rename = "$schema")]
    schema: Option<Value>,
    theme: Option<Value>,
    thumbnails: Option<Value>,
    feedback: Option<Value>,
    /// mint.json's navigation keys, read with its navigation by
    /// [`navigation::SiteNavigation::read`].
    #[serde(rename = "tabs")]
    mint_tabs: Option<Value>,
    #[serde(rename = "anchors")]
    mint_anchors: Option<Value>,
    #[serde(rename = "versions")]
    mint_versions: Option<Value>,
    #[serde(rename = "primaryTab")]
    mint_primary_tab: Option<Value>,
    #[serde(rename = "topAnchor")]
    mint_top_anchor: Option<Value>,
}

/// A setting that could not be used, and where it is (`colors.primary`, `navbar.links[2]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigWarning {
    pub at: String,
    pub message: String,
    /// The key is not one of docs.json's (rather than a value of the wrong shape).
    pub unknown_key: bool,
}

impl std::fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// The navigation file's text is not a JSON document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("site configuration is not valid JSON: {0}")]
pub struct ConfigError(String);

impl SiteConfig {
    /// Reads the settings from the navigation file's text (an empty text has none).
    pub fn parse(text: &str) -> Result<(Self, Vec<ConfigWarning>), ConfigError> {
        Ok(Self::read(&document(text)?))
    }

    /// Reads the settings from the parsed navigation file, leaving out what does not fit.
    pub fn read(document: &Value) -> (Self, Vec<ConfigWarning>) {
        match document {
            Value::Null => (Self::default(), Vec::new()),
            Value::Object(_) => lenient::read(document),
            _ => {
                let warning = ConfigWarning {
                    at: ".".into(),
                    message: "the file is not a JSON object of settings; none are read".into(),
                    unknown_key: false,
                };
                (Self::default(), vec![warning])
            }
        }
    }

    /// The settings, and nothing of what was wrong with them (a reader that is not the one to
    /// report it: the host warns about the file once, when the site is published).
    pub fn of(document: &Value) -> Self {
        Self::read(document).0
    }

    /// Which file the settings came from, as authors know it: mint.json's navigation is a list.
    pub fn file_name(&self) -> &'static str {
        match self.navigation {
            Some(Value::Array(_)) => "mint.json",
            _ => "docs.json",
        }
    }
}

/// The navigation file's text, parsed (`Null` for an empty text).
pub fn document(text: &str) -> Result<Value, ConfigError> {
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_str(text).map_err(|e| ConfigError(e.to_string()))
}

/// The trimmed text of a setting, if it is not blank: how every text setting is read.
pub fn trimmed(text: &Option<String>) -> Option<&str> {
    text.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests;
