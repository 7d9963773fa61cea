//! What pages offer their readers beyond the text: search, the not-found page, the contextual
//! menu, how the sidebar behaves and when a page was last changed.

use serde::Deserialize;

/// `search`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Search {
    /// The search box's placeholder.
    pub prompt: Option<String>,
}

/// `errors`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Errors {
    #[serde(rename = "404")]
    pub not_found: NotFound,
}

/// `errors.404`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NotFound {
    pub title: Option<String>,
    pub description: Option<String>,
    /// `false`: a missing page shows the not-found page rather than sending the reader home.
    pub redirect: Option<bool>,
}

/// `contextual`: the menu of what readers can do with a page.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Contextual {
    pub options: Vec<ContextualOption>,
    /// `toc`: the menu sits under the table of contents rather than under the title.
    pub display: Option<String>,
}

/// An option of the contextual menu: a built-in one by name, or a link of the site's own.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    untagged,
    expecting = "an option's name, or {title, description, icon, href}"
)]
pub enum ContextualOption {
    Builtin(String),
    Custom {
        title: String,
        #[serde(default)]
        description: Option<String>,
        #[serde(default)]
        icon: Option<serde_json::Value>,
        href: OptionHref,
    },
}

/// Where a custom option leads: a URL, or one built from `base` and `query` (in which `$page`
/// and `$path` stand for the page's address and path).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "a URL, or {base, query: [{key, value}]}")]
pub enum OptionHref {
    Url(String),
    Built {
        base: String,
        #[serde(default)]
        query: Vec<QueryPair>,
    },
}

/// One `{key, value}` of a built link's query.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct QueryPair {
    pub key: String,
    pub value: String,
}

/// `interaction`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Interaction {
    /// Opening a sidebar group opens its first page.
    pub drilldown: Option<bool>,
}

/// `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Metadata {
    /// Pages show when their source was last changed.
    pub timestamp: Option<bool>,
}
