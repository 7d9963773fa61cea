//! docs.json `api`: how API pages look and what their examples hold. The playground, the
//! request examples' languages (and whether they are generated at all), the endpoint shown with
//! its server, nested fields shown open, and for pages written by hand (`api.mdx`) the base URL
//! and authentication.

use quire_sdk::config::{ApiConfig, MdxServer, ParamsExpanded};

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
        Self::from_config(&ApiConfig::default()).0
    }
}

impl ApiSettings {
    /// Reads docs.json `api`, with a problem for each value that cannot be used.
    pub fn from_config(api: &ApiConfig) -> (Self, Vec<String>) {
        let (mut request_languages, mut problems) =
            request_examples::from_config(api.examples.languages.as_deref());
        if api.examples.autogenerate == Some(false) {
            request_languages.clear();
        }
        let mdx_key_name = api.mdx.auth.name.clone();
        let mdx_auth = api.mdx.auth.method.as_deref().and_then(|method| {
            Credential::from_method(method, mdx_key_name.as_deref()).unwrap_or_else(|problem| {
                problems.push(format!("api.mdx.auth: {problem}"));
                None
            })
        });
        let settings = Self {
            playground: PlaygroundDisplay::from_config(api),
            request_languages,
            full_url: api.url.as_deref() == Some("full"),
            params_expanded: api
                .params
                .expanded
                .as_ref()
                .is_some_and(ParamsExpanded::open),
            mdx_server: api.mdx.server.as_ref().and_then(MdxServer::url),
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
        let (api, problems) =
            ApiSettings::from_config(&quire_sdk::config::SiteConfig::of(&config).api);
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
        let (api, problems) =
            ApiSettings::from_config(&quire_sdk::config::SiteConfig::of(&off).api);
        assert!(api.request_languages.is_empty());
        assert!(problems[0].contains("api.mdx.auth") && problems[0].contains("cobo"));
    }
}
