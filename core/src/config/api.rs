//! `api`: how API reference pages look and what their examples hold.

use serde::Deserialize;
use serde_json::Value;

/// `api`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ApiConfig {
    /// OpenAPI documents of the site (a path, a URL, or a list of them).
    pub openapi: Option<Value>,
    /// AsyncAPI documents of the site.
    pub asyncapi: Option<Value>,
    pub playground: Playground,
    pub examples: Examples,
    /// `full`: an endpoint shows its server before its path.
    pub url: Option<String>,
    pub params: Params,
    /// Settings for API pages written by hand.
    pub mdx: Mdx,
}

/// `api.playground`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Playground {
    /// `interactive`, `simple` or `none`.
    pub display: Option<String>,
    /// mint.json's spelling of `display`: `show`, `simple` or `hide`.
    pub mode: Option<String>,
    /// A proxy for "Try it" requests, which a static site does not run.
    pub proxy: Option<Value>,
}

impl Playground {
    /// `display`, or mint.json's `mode`.
    pub fn setting(&self) -> Option<&str> {
        self.display.as_deref().or(self.mode.as_deref())
    }
}

/// `api.examples`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Examples {
    /// The languages of request examples, in order.
    pub languages: Option<Vec<Value>>,
    /// `false`: no request examples are generated.
    pub autogenerate: Option<bool>,
    /// Whether optional parameters appear in examples.
    pub defaults: Option<Value>,
    pub prefill: Option<Value>,
}

/// `api.params`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    pub expanded: Option<ParamsExpanded>,
}

/// `api.params.expanded`: `"all"` in the schema, `true` as some sites write it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "\"all\", \"closed\" or a boolean")]
pub enum ParamsExpanded {
    Flag(bool),
    Named(String),
}

impl ParamsExpanded {
    /// Whether nested fields are drawn open.
    pub fn open(&self) -> bool {
        match self {
            Self::Flag(open) => *open,
            Self::Named(name) => name == "all",
        }
    }
}

/// `api.mdx`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Mdx {
    /// The base URL of pages whose `api` names only a path.
    pub server: Option<MdxServer>,
    pub auth: MdxAuth,
}

/// `api.mdx.server`: one URL or several (the first is used).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "a URL or a list of URLs")]
pub enum MdxServer {
    One(String),
    Several(Vec<Value>),
}

impl MdxServer {
    /// The URL used: the one, or the first of the list that is text; trimmed, not blank.
    pub fn url(&self) -> Option<String> {
        let url = match self {
            Self::One(url) => url.trim().to_string(),
            Self::Several(urls) => urls.iter().find_map(Value::as_str)?.to_string(),
        };
        Some(url).filter(|u| !u.is_empty())
    }
}

/// `api.mdx.auth`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MdxAuth {
    /// `bearer`, `basic`, `key` or `cobo`.
    pub method: Option<String>,
    /// The header a `key` credential travels in.
    pub name: Option<String>,
}
