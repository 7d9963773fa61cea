//! How an API page's requests authenticate, so its request examples and "Try it" form carry
//! the credential: an OpenAPI operation's security schemes, or for pages written by hand
//! docs.json `api.mdx.auth` and a page's `authMethod`.

use serde_json::Value;

use super::request_examples::ExampleRequest;

/// Where a credential travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialIn {
    Header,
    Query,
    Cookie,
}

impl CredentialIn {
    /// The name an OpenAPI parameter's `in` gives the place.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Header => "header",
            Self::Query => "query",
            Self::Cookie => "cookie",
        }
    }
}

/// One credential a request carries, with a placeholder for its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    pub location: CredentialIn,
    pub name: String,
    pub placeholder: String,
}

impl Credential {
    fn header(name: &str, placeholder: &str) -> Self {
        Self {
            location: CredentialIn::Header,
            name: name.into(),
            placeholder: placeholder.into(),
        }
    }

    /// A method as docs.json `api.mdx.auth.method` or a page's `authMethod` names it
    /// (`bearer`, `basic`, `key` with the header `name`); `Ok(None)` for `none`, `Err` for a
    /// method this renderer does not know.
    pub fn from_method(method: &str, name: Option<&str>) -> Result<Option<Self>, String> {
        let name = name.map(str::trim).filter(|n| !n.is_empty());
        match method.trim().to_ascii_lowercase().as_str() {
            "bearer" => Ok(Some(Self::header("Authorization", "Bearer <token>"))),
            "basic" => Ok(Some(Self::header("Authorization", "Basic <encoded-value>"))),
            "key" => Ok(Some(Self::header(name.unwrap_or("x-api-key"), "<api-key>"))),
            "none" => Ok(None),
            other => Err(format!(
                "authentication method {other:?} is not one of bearer, basic, key or none; the examples carry no credential"
            )),
        }
    }

    /// The credentials an OpenAPI operation asks for: the first alternative of its `security`
    /// (the document's when it has none of its own; `security: []` asks for none), each scheme
    /// read from `components.securitySchemes`.
    pub fn from_openapi(document: &Value, operation: &Value) -> Vec<Self> {
        let requirements = operation
            .get("security")
            .or_else(|| document.get("security"))
            .and_then(Value::as_array);
        let Some(first) = requirements
            .and_then(|r| r.first())
            .and_then(Value::as_object)
        else {
            return Vec::new();
        };
        first
            .keys()
            .filter_map(|scheme| {
                let pointer = format!(
                    "/components/securitySchemes/{}",
                    super::pointer_escape(scheme)
                );
                Self::from_scheme(document.pointer(&pointer)?)
            })
            .collect()
    }

    /// One OpenAPI security scheme: HTTP bearer or basic, an API key in a header, query or
    /// cookie, or OAuth 2 and OpenID Connect (a bearer token).
    fn from_scheme(scheme: &Value) -> Option<Self> {
        let text = |key: &str| scheme.get(key).and_then(Value::as_str);
        match text("type")? {
            "http" => match text("scheme")
                .unwrap_or("bearer")
                .to_ascii_lowercase()
                .as_str()
            {
                "basic" => Some(Self::header("Authorization", "Basic <encoded-value>")),
                "bearer" => Some(Self::header("Authorization", "Bearer <token>")),
                other => Some(Self::header(
                    "Authorization",
                    &format!("{} <credentials>", capitalised(other)),
                )),
            },
            "apiKey" => {
                let location = match text("in")? {
                    "query" => CredentialIn::Query,
                    "cookie" => CredentialIn::Cookie,
                    _ => CredentialIn::Header,
                };
                Some(Self {
                    location,
                    name: text("name")?.to_string(),
                    placeholder: "<api-key>".into(),
                })
            }
            "oauth2" | "openIdConnect" => Some(Self::header("Authorization", "Bearer <token>")),
            _ => None,
        }
    }

    /// Puts the credential on `request`.
    pub fn apply(&self, request: &mut ExampleRequest) {
        match self.location {
            CredentialIn::Header => request
                .headers
                .push((self.name.clone(), self.placeholder.clone())),
            CredentialIn::Query => request.add_query(&self.name, &self.placeholder),
            CredentialIn::Cookie => request.headers.push((
                "Cookie".into(),
                format!("{}={}", self.name, self.placeholder),
            )),
        }
    }

    /// The credential as an OpenAPI parameter, for the "Try it" form's inputs: empty, with the
    /// placeholder showing what to type (`Bearer <token>`).
    pub fn as_parameter(&self) -> Value {
        serde_json::json!({
            "name": self.name,
            "in": self.location.as_str(),
            "x-placeholder": self.placeholder,
        })
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_pages_name_a_method() {
        assert_eq!(
            Credential::from_method("bearer", None).unwrap(),
            Some(Credential::header("Authorization", "Bearer <token>"))
        );
        let key = Credential::from_method("key", Some("X-Acme-Key"))
            .unwrap()
            .unwrap();
        assert_eq!(
            (key.name.as_str(), key.placeholder.as_str()),
            ("X-Acme-Key", "<api-key>")
        );
        assert_eq!(Credential::from_method("none", None).unwrap(), None);
        assert!(
            Credential::from_method("magic", None)
                .unwrap_err()
                .contains("magic")
        );
    }

    #[test]
    fn openapi_operations_use_their_own_or_the_documents_security() {
        let document = serde_json::json!({
            "security": [{"token": []}],
            "components": {"securitySchemes": {
                "token": {"type": "http", "scheme": "bearer"},
                "key": {"type": "apiKey", "in": "query", "name": "api_key"},
                "session": {"type": "apiKey", "in": "cookie", "name": "sid"},
            }}
        });
        let inherited = Credential::from_openapi(&document, &serde_json::json!({}));
        assert_eq!(
            inherited,
            [Credential::header("Authorization", "Bearer <token>")]
        );
        let own = serde_json::json!({"security": [{"key": [], "session": []}, {"token": []}]});
        let mut request = ExampleRequest {
            method: "GET".into(),
            url: "https://x.test/a".into(),
            ..Default::default()
        };
        for credential in Credential::from_openapi(&document, &own) {
            credential.apply(&mut request);
        }
        assert_eq!(request.url, "https://x.test/a?api_key=<api-key>");
        assert_eq!(
            request.headers,
            [("Cookie".to_string(), "sid=<api-key>".to_string())]
        );
        let public = serde_json::json!({"security": []});
        assert!(Credential::from_openapi(&document, &public).is_empty());
        let form = Credential::header("Authorization", "Bearer <token>").as_parameter();
        assert_eq!(form["x-placeholder"], "Bearer <token>");
        assert!(form.get("example").is_none());
    }
}
