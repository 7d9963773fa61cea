//! docs.json `api`: how API pages look and what their examples hold. The playground, the
//! request examples' languages (and whether they are generated at all), the endpoint shown with
//! its server, nested fields shown open, and for pages written by hand (`api.mdx`) the base URL
//! and authentication.

use serde_json::Value;

use super::PlaygroundDisplay;
use super::auth::Credential;
use super::request_examples::{self, Language};

/// The site's API page settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiSettings {
    /// `api.playground.display`: whether API pages offer "Try it".
    pub playground: PlaygroundDisplay,
    /// `api.examples.languages`: the request examples written for an API page, in order; none
    /// when `api.examples.autogenerate` is false.
    pub request_languages: Vec<Language>,
    /// `api.url: "full"`: the endpoint shows its server before the path.
    pub full_url: bool,
    /// `api.params.expanded: "all"`: nested fields are drawn open.
    pub params_expanded: bool,
    /// `api.mdx.server`: the base URL of hand-written pages whose `api` names only a path
    /// (the first, when it lists several).
    pub mdx_server: Option<String>,
    /// `api.mdx.auth`: the credential hand-written pages' requests carry, unless a page's
    /// `authMethod` says otherwise.
    pub mdx_auth: Option<Credential>,
    /// `api.mdx.auth.name`: the header a `key` credential travels in, for pages whose
    /// `authMethod` is `key` too.
    pub mdx_key_name: Option<String>,
}

impl Default for ApiSettings {
    fn default() -> Self {
        Self::from_config(&Value::Null).0
    }
}

impl ApiSettings {
    /// Reads the settings, with a problem for each value that cannot be used.
    pub fn from_config(config: &Value) -> (Self, Vec<String>) {
        let (mut request_languages, mut problems) = request_examples::from_config(config);
        if config.pointer("/api/examples/autogenerate") == Some(&Value::Bool(false)) {
            request_languages.clear();
        }
        let mdx_server = match config.pointer("/api/mdx/server") {
            Some(Value::String(s)) => Some(s.trim().to_string()),
            Some(Value::Array(list)) => list.iter().find_map(Value::as_str).map(String::from),
            _ => None,
        }
        .filter(|s| !s.is_empty());
        let mdx_key_name = config
            .pointer("/api/mdx/auth/name")
            .and_then(Value::as_str)
            .map(String::from);
        let method = config
            .pointer("/api/mdx/auth/method")
            .and_then(Value::as_str);
        let mdx_auth = method.and_then(|method| {
            Credential::from_method(method, mdx_key_name.as_deref()).unwrap_or_else(|problem| {
                problems.push(format!("api.mdx.auth: {problem}"));
                None
            })
        });
        let settings = Self {
            playground: PlaygroundDisplay::from_config(config),
            request_languages,
            full_url: config.pointer("/api/url").and_then(Value::as_str) == Some("full"),
            // `"all"` in the schema; `true` as some sites write it.
            params_expanded: match config.pointer("/api/params/expanded") {
                Some(Value::Bool(open)) => *open,
                Some(Value::String(s)) => s == "all",
                _ => false,
            },
            mdx_server,
            mdx_auth,
            mdx_key_name,
        };
        (settings, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_api_setting_is_read() {
        let config = serde_json::json!({"api": {
            "url": "full",
            "params": {"expanded": "all"},
            "playground": {"display": "simple"},
            "examples": {"languages": ["go"]},
            "mdx": {"server": ["https://api.acme.test", "https://eu.acme.test"],
                    "auth": {"method": "key", "name": "X-Acme-Key"}},
        }});
        let (api, problems) = ApiSettings::from_config(&config);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(api.full_url && api.params_expanded);
        assert_eq!(api.playground, PlaygroundDisplay::Simple);
        assert_eq!(api.request_languages, [Language::Go]);
        assert_eq!(api.mdx_server.as_deref(), Some("https://api.acme.test"));
        assert_eq!(api.mdx_auth.map(|c| c.name).as_deref(), Some("X-Acme-Key"));

        let defaults = ApiSettings::default();
        assert!(!defaults.full_url && !defaults.params_expanded);
        assert_eq!(defaults.request_languages, request_examples::DEFAULT);
        assert!(defaults.mdx_server.is_none() && defaults.mdx_auth.is_none());

        let off = serde_json::json!({"api": {"examples": {"autogenerate": false},
            "mdx": {"auth": {"method": "cobo"}}}});
        let (api, problems) = ApiSettings::from_config(&off);
        assert!(api.request_languages.is_empty());
        assert!(problems[0].contains("api.mdx.auth") && problems[0].contains("cobo"));
    }
}
