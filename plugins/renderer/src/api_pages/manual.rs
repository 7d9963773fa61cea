//! API pages written by hand: frontmatter `api: "POST /v1/users"` (a path after docs.json
//! `api.mdx.server`, or a full URL) with the endpoint's parameters written as `<ParamField>`s in
//! the page. The page gets what an OpenAPI page gets from its document: the endpoint bar, a
//! request example built from those fields and the credential (`api.mdx.auth`, or the page's
//! `authMethod`), and the "Try it" form.

use markdown::mdast::Node;
use serde_json::{Map, Value};

use super::{endpoint, playground};
use crate::api::auth::Credential;
use crate::api::request_examples::ExampleRequest;
use crate::api::{ApiSettings, PlaygroundDisplay, Schemas};
use crate::markup::Markup;
use crate::markup::components::{Attrs, element};
use quire_sdk::frontmatter::Frontmatter;

/// Fields nested deeper than this are left out of the example body.
const MAX_DEPTH: usize = 8;

/// The endpoint a page's `api` field names.
#[derive(Debug, PartialEq, Eq)]
pub struct ManualEndpoint {
    pub method: String,
    /// The scheme and host (and any base path) the path follows; empty when neither the field
    /// nor the site names one.
    pub server: String,
    pub path: String,
}

impl ManualEndpoint {
    /// Reads `"METHOD URL"`: a full URL keeps its own server; a path takes `mdx_server`. A
    /// missing server is a warning, not an error: the page still shows the path.
    pub fn parse(value: &str, mdx_server: Option<&str>) -> Result<(Self, Option<String>), String> {
        let mut words = value.split_whitespace();
        let (Some(method), Some(url), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!(
                "api {value:?} should be a method and a URL or path, like \"POST /v1/users\"; the page has no endpoint"
            ));
        };
        let method = method.to_ascii_uppercase();
        if !crate::api::is_http_method(&method) {
            return Err(format!(
                "api {value:?}: {method} is not an HTTP method; the page has no endpoint"
            ));
        }
        if let Some((scheme, rest)) = url.split_once("://") {
            let (host, path) = match rest.find('/') {
                Some(at) => rest.split_at(at),
                None => (rest, "/"),
            };
            let server = format!("{scheme}://{host}");
            return Ok((
                Self {
                    method,
                    server,
                    path: path.to_string(),
                },
                None,
            ));
        }
        let path = format!("/{}", url.trim_start_matches('/'));
        let (server, warning) = match mdx_server {
            Some(server) => (server.trim_end_matches('/').to_string(), None),
            None => (
                String::new(),
                Some(format!(
                    "api {value:?} names a path, but docs.json sets no api.mdx.server: the request example shows the path alone"
                )),
            ),
        };
        Ok((
            Self {
                method,
                server,
                path,
            },
            warning,
        ))
    }
}

/// The endpoint and credential a page's frontmatter names (`api`, `authMethod`), with
/// docs.json's `api.mdx` filling in the server and credential; `None` when the page names no
/// endpoint. Problems come back as warnings: the page still renders.
pub fn from_frontmatter(
    settings: &ApiSettings,
    frontmatter: &Frontmatter,
) -> (Option<(ManualEndpoint, Option<Credential>)>, Vec<String>) {
    let Some(value) = frontmatter.api.as_deref() else {
        return (None, Vec::new());
    };
    let mut warnings = Vec::new();
    let endpoint = match ManualEndpoint::parse(value, settings.mdx_server.as_deref()) {
        Ok((endpoint, warning)) => {
            warnings.extend(warning);
            endpoint
        }
        Err(message) => return (None, vec![message]),
    };
    let credential = match frontmatter.auth_method.as_deref() {
        Some(method) => {
            // A page's `key` travels in the header the site names.
            Credential::from_method(method, settings.mdx_key_name.as_deref()).unwrap_or_else(
                |problem| {
                    warnings.push(format!("authMethod: {problem}"));
                    None
                },
            )
        }
        None => settings.mdx_auth.clone(),
    };
    (Some((endpoint, credential)), warnings)
}

/// One `<ParamField>` of the page, with the value the example sends.
#[derive(Debug, PartialEq)]
struct Param {
    location: &'static str,
    name: String,
    required: bool,
    value: Value,
}

/// Draws the endpoint bar into the page, the generated request example into the side column
/// (unless the page has its own `<RequestExample>`), and the "Try it" form when `display` asks.
pub fn render(
    m: &mut Markup<'_>,
    api: &ManualEndpoint,
    tree: &Node,
    credential: Option<&Credential>,
    display: PlaygroundDisplay,
) {
    endpoint::bar(m, &api.method, &api.server, &api.path);
    let mut params = Vec::new();
    collect_params(tree, 0, &mut params);
    let body = body_of(&params);
    if !has_element(tree, "RequestExample") {
        let mut request = ExampleRequest {
            method: api.method.clone(),
            url: format!("{}{}", api.server, api.path),
            headers: Vec::new(),
            body: body.clone(),
        };
        for p in &params {
            request.add_parameter(p.location, &p.name, &p.value, p.required);
        }
        if let Some(credential) = credential {
            credential.apply(&mut request);
        }
        let site = m.site;
        m.aside(|m| {
            m.html.push_str("<div class=\"api-examples\">");
            endpoint::request_tabs(
                m,
                Vec::new(),
                &request,
                &site.settings.api.request_languages,
            );
            m.html.push_str("</div>\n");
        });
    }
    if display == PlaygroundDisplay::Interactive {
        let mut inputs: Vec<Value> = params
            .iter()
            .filter(|p| p.location != "body")
            .map(|p| serde_json::json!({"name": p.name, "in": p.location, "example": p.value}))
            .collect();
        inputs.extend(credential.map(Credential::as_parameter));
        let inputs: Vec<&Value> = inputs.iter().collect();
        let nothing = Value::Null;
        playground::form(
            m,
            &playground::Request {
                method: &api.method,
                path: &api.path,
                server: &api.server,
                parameters: &inputs,
                body: body.as_ref(),
            },
            Schemas { document: &nothing },
        );
    }
}

/// The `<ParamField>`s under `node` in page order; a body field's own nested fields become
/// its value's properties.
fn collect_params(node: &Node, depth: usize, out: &mut Vec<Param>) {
    for child in node.children().into_iter().flatten() {
        match element(child) {
            Some(("ParamField", attrs)) => {
                let Some((location, name)) = ["path", "query", "body", "header"]
                    .into_iter()
                    .find_map(|loc| attrs.string(loc).map(|name| (loc, name)))
                else {
                    continue;
                };
                let mut nested = Vec::new();
                if depth < MAX_DEPTH {
                    collect_params(child, depth + 1, &mut nested);
                }
                out.push(Param {
                    location,
                    value: example_value(&attrs, nested),
                    required: attrs.flag("required"),
                    name,
                });
            }
            // The author's own examples are code, not fields.
            Some(("RequestExample" | "ResponseExample" | "ResponseField", _)) => {}
            _ => collect_params(child, depth, out),
        }
    }
}

/// The JSON body the body fields make, if there are any.
fn body_of(params: &[Param]) -> Option<Value> {
    let fields: Map<String, Value> = params
        .iter()
        .filter(|p| p.location == "body" && !p.name.is_empty())
        .map(|p| (p.name.clone(), p.value.clone()))
        .collect();
    (!fields.is_empty()).then_some(Value::Object(fields))
}

/// What the example sends for a field: its `default`, else its `placeholder`, else a
/// placeholder of its `type` (an object of its nested fields).
fn example_value(attrs: &Attrs<'_>, nested: Vec<Param>) -> Value {
    let kind = attrs
        .string("type")
        .unwrap_or_else(|| "string".into())
        .to_ascii_lowercase();
    if let Some(default) = attrs.string("default").filter(|d| !d.is_empty()) {
        return typed(&kind, &default);
    }
    if let Some(placeholder) = attrs.string("placeholder").filter(|p| !p.is_empty()) {
        return Value::String(placeholder);
    }
    if let Some(item) = kind.strip_suffix("[]") {
        return Value::Array(vec![placeholder_of(item, nested)]);
    }
    placeholder_of(&kind, nested)
}

fn placeholder_of(kind: &str, nested: Vec<Param>) -> Value {
    match kind {
        "integer" | "int" | "number" | "float" => Value::from(123),
        "boolean" | "bool" => Value::Bool(true),
        "object" | "json" => Value::Object(
            nested
                .into_iter()
                .map(|p| (p.name, p.value))
                .collect::<Map<String, Value>>(),
        ),
        "array" => Value::Array(Vec::new()),
        other => Value::String(format!("<{other}>")),
    }
}

/// A `default` as its type's JSON value (`10` for an integer), else as written.
fn typed(kind: &str, text: &str) -> Value {
    match kind {
        "integer" | "int" | "number" | "float" | "boolean" | "bool" => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.into()))
        }
        _ => Value::String(text.into()),
    }
}

/// Whether the page has a `name` element anywhere.
fn has_element(node: &Node, name: &str) -> bool {
    node.children()
        .into_iter()
        .flatten()
        .any(|child| element(child).is_some_and(|(n, _)| n == name) || has_element(child, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::render_page;
    use crate::site::Site;

    const USERS: &str = r#"---
title: Update a user
api: "PATCH /v1/users/{id}"
---

<ParamField path="id" type="string" required>The user.</ParamField>
<ParamField query="notify" type="boolean" required default="false">Email them.</ParamField>
<ParamField query="page" type="integer">Not sent: optional.</ParamField>
<ParamField header="X-Trace" placeholder="trace-1">A trace id.</ParamField>
<ParamField body="name" type="string" required>Their name.</ParamField>
<ParamField body="address" type="object">
  <Expandable title="properties">
    <ParamField body="city" type="string" default="Paris">The city.</ParamField>
  </Expandable>
</ParamField>
<ParamField body="tags" type="string[]">Labels.</ParamField>
"#;

    fn site(config: &str) -> Site {
        Site::new("Acme".into(), "v1".into(), vec![], config, vec![]).unwrap()
    }

    /// The text of the page's side column, without the highlighting's markup.
    fn side_text(html: &str) -> String {
        let side = html.split_once("</article>").map(|(_, s)| s).unwrap_or("");
        let mut text = String::new();
        let mut in_tag = false;
        for c in side.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                _ if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    #[test]
    fn the_api_field_names_a_method_and_a_url_or_path() {
        let (full, warning) =
            ManualEndpoint::parse("post https://api.acme.test/v1/users/{id}", None).unwrap();
        assert_eq!(
            (
                full.method.as_str(),
                full.server.as_str(),
                full.path.as_str()
            ),
            ("POST", "https://api.acme.test", "/v1/users/{id}")
        );
        assert!(warning.is_none());
        let (relative, warning) =
            ManualEndpoint::parse("GET v1/users", Some("https://api.acme.test/")).unwrap();
        assert_eq!(
            (relative.server.as_str(), relative.path.as_str()),
            ("https://api.acme.test", "/v1/users")
        );
        assert!(warning.is_none());
        let (_, warning) = ManualEndpoint::parse("GET /v1/users", None).unwrap();
        assert!(warning.unwrap().contains("api.mdx.server"));
        assert!(
            ManualEndpoint::parse("FETCH /x", None)
                .unwrap_err()
                .contains("FETCH")
        );
        assert!(ManualEndpoint::parse("/x", None).is_err());
        assert!(ManualEndpoint::parse("GET /x extra", None).is_err());
    }

    #[test]
    fn a_hand_written_page_gets_its_endpoint_example_and_form() {
        let config = r#"{"api": {"mdx": {"server": "https://api.acme.test",
            "auth": {"method": "key", "name": "X-Acme-Key"}}}}"#;
        let out = render_page(&site(config), "users", "users.mdx", USERS);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert!(
            out.html.contains("<span class=\"method method-patch\">PATCH</span><code class=\"api-path\">/v1/users/{id}</code>"),
            "{}",
            out.html
        );
        let side = side_text(&out.html);
        assert!(
            side.contains("curl -X PATCH \"https://api.acme.test/v1/users/{id}?notify=false\""),
            "{side}"
        );
        assert!(side.contains("-H 'X-Trace: trace-1'"), "{side}");
        assert!(side.contains("-H 'X-Acme-Key: <api-key>'"), "{side}");
        assert!(
            side.contains(
                r#"-d '{"name":"<string>","address":{"city":"Paris"},"tags":["<string>"]}'"#
            ),
            "{side}"
        );
        assert!(side.contains("import requests"), "{side}");
        let form = out.html.split_once("<form class=\"playground\"").unwrap().1;
        for input in [
            "data-name=\"id\"",
            "data-name=\"notify\"",
            "data-name=\"X-Acme-Key\"",
            "name=\"body\"",
        ] {
            assert!(form.contains(input), "{input}: {form}");
        }
        // The fields are still drawn in the page, as on any page.
        assert!(out.html.contains("<code class=\"field-name\">city</code>"));
    }

    #[test]
    fn the_page_decides_its_credential_examples_and_form() {
        let config = r#"{"api": {"mdx": {"auth": {"method": "bearer"}},
            "playground": {"display": "none"}, "url": "full"}}"#;
        let site = site(config);
        let page = "---\napi: GET https://eu.acme.test/v2/ping\nauthMethod: none\n---\n";
        let out = render_page(&site, "ping", "ping.mdx", page);
        let side = side_text(&out.html);
        assert!(
            side.contains("curl -X GET \"https://eu.acme.test/v2/ping\""),
            "{side}"
        );
        assert!(!side.contains("Authorization"), "{side}");
        assert!(!out.html.contains("<form class=\"playground\""));
        assert!(
            out.html
                .contains("<code class=\"api-path\">https://eu.acme.test/v2/ping</code>")
        );

        let own = "---\napi: GET /ping\n---\n<RequestExample>\n```bash\ncurl mine\n```\n</RequestExample>\n";
        let out = render_page(&site, "ping", "ping.mdx", own);
        let side = side_text(&out.html);
        assert!(
            side.contains("curl mine") && !side.contains("curl -X"),
            "{side}"
        );
        assert!(
            out.warnings[0].message.contains("api.mdx.server"),
            "{:?}",
            out.warnings
        );

        let bearer = render_page(
            &site,
            "p",
            "p.mdx",
            "---\napi: DELETE https://x.test/a\n---\n",
        );
        assert!(side_text(&bearer.html).contains("-H 'Authorization: Bearer <token>'"));

        let bad = render_page(
            &site,
            "p",
            "p.mdx",
            "---\napi: FETCH /a\nauthMethod: magic\n---\nText.\n",
        );
        assert!(
            bad.warnings[0].message.contains("FETCH"),
            "{:?}",
            bad.warnings
        );
        assert!(!bad.html.contains("api-endpoint") && bad.html.contains("Text."));
    }
}
