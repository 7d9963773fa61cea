//! The request example of an API page in each language docs.json `api.examples.languages`
//! names (cURL, Python and JavaScript when it names none): the operation's method and URL, and
//! its JSON body when it has one, written with each language's usual HTTP client.

use serde_json::Value;

/// A language a request example is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Curl,
    Python,
    JavaScript,
    Go,
    Php,
    Ruby,
    Java,
}

/// The examples a site gets when it names no languages.
pub const DEFAULT: [Language; 3] = [Language::Curl, Language::Python, Language::JavaScript];

impl Language {
    /// A language as docs.json names it (`bash`, `curl`, `python`, `javascript`, `node`, `go`,
    /// `php`, `ruby`, `java`).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "bash" | "curl" | "shell" | "sh" => Self::Curl,
            "python" | "py" => Self::Python,
            "javascript" | "js" | "node" | "nodejs" | "typescript" | "ts" => Self::JavaScript,
            "go" | "golang" => Self::Go,
            "php" => Self::Php,
            "ruby" | "rb" => Self::Ruby,
            "java" => Self::Java,
            _ => return None,
        })
    }

    /// The tab's title.
    pub fn label(self) -> &'static str {
        match self {
            Self::Curl => "cURL",
            Self::Python => "Python",
            Self::JavaScript => "JavaScript",
            Self::Go => "Go",
            Self::Php => "PHP",
            Self::Ruby => "Ruby",
            Self::Java => "Java",
        }
    }

    /// The code fence's language, for highlighting.
    pub fn fence(self) -> &'static str {
        match self {
            Self::Curl => "bash",
            Self::Python => "python",
            Self::JavaScript => "javascript",
            Self::Go => "go",
            Self::Php => "php",
            Self::Ruby => "ruby",
            Self::Java => "java",
        }
    }

    /// `request` written in this language: its method, URL, headers and JSON body.
    pub fn request(self, request: &ExampleRequest) -> String {
        let ExampleRequest {
            method, url, body, ..
        } = request;
        let headers = request.all_headers();
        let compact = body
            .as_ref()
            .map(|b| serde_json::to_string(b).unwrap_or_default());
        let pretty = body
            .as_ref()
            .map(|b| serde_json::to_string_pretty(b).unwrap_or_default());
        // A JSON string literal is a valid string literal in JavaScript, Go, Java and PHP too.
        let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
        match self {
            Self::Curl => {
                let mut out = format!("curl -X {method} {}", quoted(url));
                for (name, value) in &headers {
                    out.push_str(" \\\n  -H ");
                    out.push_str(&shell_quoted(&format!("{name}: {value}")));
                }
                if let Some(json) = &compact {
                    out.push_str(" \\\n  -d ");
                    out.push_str(&shell_quoted(json));
                }
                out
            }
            Self::Python => {
                let mut out = format!("import requests\n\nurl = {}\n", quoted(url));
                let mut arguments = String::new();
                // `requests` sets the JSON content type itself.
                if !request.headers.is_empty() {
                    let entries: Vec<String> = request
                        .headers
                        .iter()
                        .map(|(n, v)| format!("    {}: {}", quoted(n), quoted(v)))
                        .collect();
                    out.push_str(&format!("headers = {{\n{}\n}}\n", entries.join(",\n")));
                    arguments.push_str(", headers=headers");
                }
                if let Some(body) = body {
                    out.push_str(&format!("payload = {}\n", python_literal(body, 0)));
                    arguments.push_str(", json=payload");
                }
                out.push_str(&format!(
                    "\nresponse = requests.request({}, url{arguments})\nprint(response.json())",
                    quoted(method)
                ));
                out
            }
            Self::JavaScript => {
                let mut options = format!("  method: {},\n", quoted(method));
                if !headers.is_empty() {
                    let entries: Vec<String> = headers
                        .iter()
                        .map(|(n, v)| format!("    {}: {}", quoted(n), quoted(v)))
                        .collect();
                    options.push_str(&format!("  headers: {{\n{}\n  }},\n", entries.join(",\n")));
                }
                if let Some(json) = &pretty {
                    let indented = json.replace('\n', "\n  ");
                    options.push_str(&format!("  body: JSON.stringify({indented}),\n"));
                }
                format!(
                    "const response = await fetch({}, {{\n{options}}});\nconst data = await response.json();\nconsole.log(data);",
                    quoted(url)
                )
            }
            Self::Go => {
                let (reader, imports) = match &compact {
                    Some(json) => (
                        format!("strings.NewReader({})", quoted(json)),
                        "\t\"fmt\"\n\t\"io\"\n\t\"net/http\"\n\t\"strings\"\n",
                    ),
                    None => ("nil".to_string(), "\t\"fmt\"\n\t\"io\"\n\t\"net/http\"\n"),
                };
                let header_lines: String = headers
                    .iter()
                    .map(|(n, v)| format!("\treq.Header.Set({}, {})\n", quoted(n), quoted(v)))
                    .collect();
                format!(
                    "package main\n\nimport (\n{imports})\n\nfunc main() {{\n\treq, _ := http.NewRequest({}, {}, {reader})\n{header_lines}\tres, _ := http.DefaultClient.Do(req)\n\tdefer res.Body.Close()\n\tbody, _ := io.ReadAll(res.Body)\n\tfmt.Println(string(body))\n}}",
                    quoted(method),
                    quoted(url)
                )
            }
            Self::Php => {
                let mut out = format!(
                    "<?php\n$curl = curl_init({});\ncurl_setopt($curl, CURLOPT_CUSTOMREQUEST, {});\ncurl_setopt($curl, CURLOPT_RETURNTRANSFER, true);\n",
                    single_quoted(url),
                    single_quoted(method)
                );
                if !headers.is_empty() {
                    let entries: Vec<String> = headers
                        .iter()
                        .map(|(n, v)| single_quoted(&format!("{n}: {v}")))
                        .collect();
                    out.push_str(&format!(
                        "curl_setopt($curl, CURLOPT_HTTPHEADER, [{}]);\n",
                        entries.join(", ")
                    ));
                }
                if let Some(json) = &compact {
                    out.push_str(&format!(
                        "curl_setopt($curl, CURLOPT_POSTFIELDS, {});\n",
                        single_quoted(json)
                    ));
                }
                out.push_str("echo curl_exec($curl);");
                out
            }
            Self::Ruby => {
                let mut out = format!(
                    "require \"net/http\"\n\nuri = URI({})\nhttp = Net::HTTP.new(uri.host, uri.port)\nhttp.use_ssl = uri.scheme == \"https\"\n",
                    quoted(url)
                );
                let entries: Vec<String> = headers
                    .iter()
                    .map(|(n, v)| format!("{} => {}", quoted(n), quoted(v)))
                    .collect();
                let init = if entries.is_empty() {
                    String::new()
                } else {
                    format!(", {{ {} }}", entries.join(", "))
                };
                out.push_str(&format!(
                    "request = Net::HTTPGenericRequest.new({}, {}, true, uri.request_uri{init})\n",
                    quoted(method),
                    compact.is_some()
                ));
                if let Some(json) = &compact {
                    out.push_str(&format!("request.body = {}\n", single_quoted(json)));
                }
                out.push_str("puts http.request(request).body");
                out
            }
            Self::Java => {
                let publisher = match &compact {
                    Some(json) => format!("HttpRequest.BodyPublishers.ofString({})", quoted(json)),
                    None => "HttpRequest.BodyPublishers.noBody()".to_string(),
                };
                let header_lines: String = headers
                    .iter()
                    .map(|(n, v)| format!("    .header({}, {})\n", quoted(n), quoted(v)))
                    .collect();
                format!(
                    "HttpRequest request = HttpRequest.newBuilder()\n    .uri(URI.create({}))\n{header_lines}    .method({}, {publisher})\n    .build();\nHttpResponse<String> response = HttpClient.newHttpClient()\n    .send(request, HttpResponse.BodyHandlers.ofString());\nSystem.out.println(response.body());",
                    quoted(url),
                    quoted(method)
                )
            }
        }
    }
}

/// What a generated request example sends.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExampleRequest {
    pub method: String,
    /// The whole URL: server, path (parameters as `{name}`) and query string.
    pub url: String,
    /// Headers besides the JSON content type (added with a body): authentication and the
    /// operation's header parameters.
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
}

impl ExampleRequest {
    /// The headers as sent: the request's own, then the content type when there is a body.
    fn all_headers(&self) -> Vec<(String, String)> {
        let mut headers = self.headers.clone();
        if self.body.is_some() {
            headers.push(("Content-Type".into(), "application/json".into()));
        }
        headers
    }

    /// Puts a parameter where an example sends it: a required query parameter on the URL, a
    /// header among the headers; others (optional query, path, cookie) stay out.
    pub fn add_parameter(&mut self, location: &str, name: &str, value: &Value, required: bool) {
        match location {
            "query" if required => self.add_query(name, &value_text(value)),
            "header" => self.headers.push((name.to_string(), value_text(value))),
            _ => {}
        }
    }

    /// Adds `name=value` to the URL's query string.
    pub fn add_query(&mut self, name: &str, value: &str) {
        let separator = if self.url.contains('?') { '&' } else { '?' };
        self.url.push(separator);
        self.url.push_str(&query_escaped(name));
        self.url.push('=');
        self.url.push_str(&query_escaped(value));
    }
}

/// A JSON value as it stands in a URL, a header or a form input: a string as itself, anything
/// else as JSON.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `text` with what cannot stand in a query string percent-encoded; `<` `>` `{` `}` stay so a
/// placeholder (`<string>`) reads as one.
fn query_escaped(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b'<'
            | b'>'
            | b'{'
            | b'}' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// A single-quoted shell word: a `'` inside closes, escapes and reopens the quote.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The languages `api.examples.languages` names, in order (the default when it names none
/// this renderer writes), and a problem for each name it does not know.
pub fn from_config(names: Option<&[Value]>) -> (Vec<Language>, Vec<String>) {
    let Some(names) = names else {
        return (DEFAULT.to_vec(), Vec::new());
    };
    let mut languages = Vec::new();
    let mut problems = Vec::new();
    for name in names.iter().filter_map(Value::as_str) {
        match Language::parse(name) {
            Some(language) if !languages.contains(&language) => languages.push(language),
            Some(_) => {}
            None => problems.push(format!(
                "api.examples.languages names {name:?}, which has no generated request example (bash, python, javascript, go, php, ruby, java); it is left out"
            )),
        }
    }
    if languages.is_empty() {
        languages = DEFAULT.to_vec();
    }
    (languages, problems)
}

/// A single-quoted PHP or Ruby string: only `\` and `'` need escaping there.
fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// `value` as a Python literal (`True`, `None`, dicts and lists), indented from `depth`.
fn python_literal(value: &Value, depth: usize) -> String {
    let pad = "    ".repeat(depth + 1);
    let end = "    ".repeat(depth);
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Array(items) if items.is_empty() => "[]".into(),
        Value::Array(items) => {
            let inner: Vec<String> = items
                .iter()
                .map(|i| format!("{pad}{}", python_literal(i, depth + 1)))
                .collect();
            format!("[\n{}\n{end}]", inner.join(",\n"))
        }
        Value::Object(map) if map.is_empty() => "{}".into(),
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{pad}{}: {}",
                        serde_json::to_string(k).unwrap_or_default(),
                        python_literal(v, depth + 1)
                    )
                })
                .collect();
            format!("{{\n{}\n{end}}}", inner.join(",\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, body: Option<Value>) -> ExampleRequest {
        ExampleRequest {
            method: method.into(),
            url: "https://api.example.com/users".into(),
            headers: vec![("Authorization".into(), "Bearer <token>".into())],
            body,
        }
    }

    #[test]
    fn each_language_writes_the_method_url_headers_and_body() {
        let body = serde_json::json!({"name": "Ada", "admin": false, "tags": [], "boss": null});
        for language in [
            Language::Curl,
            Language::Python,
            Language::JavaScript,
            Language::Go,
            Language::Php,
            Language::Ruby,
            Language::Java,
        ] {
            let code = language.request(&request("POST", Some(body.clone())));
            assert!(code.contains("POST"), "{language:?}: {code}");
            assert!(code.contains("https://api.example.com/users"), "{code}");
            assert!(code.contains("Ada"), "{code}");
            assert!(code.contains("Authorization"), "{language:?}: {code}");
            assert!(code.contains("Bearer <token>"), "{language:?}: {code}");
            // Python's `requests` sets the content type for `json=` itself.
            let typed = code.contains("application/json") || language == Language::Python;
            assert!(typed, "{language:?}: {code}");
            let mut plain = request("GET", None);
            plain.headers.clear();
            let plain = language.request(&plain);
            assert!(!plain.contains("application/json"), "{language:?}: {plain}");
            assert!(!plain.contains("Authorization"), "{language:?}: {plain}");
        }
        let python = Language::Python.request(&request("POST", Some(body)));
        assert!(
            python.contains("\"admin\": False") && python.contains("\"boss\": None"),
            "{python}"
        );
        assert!(python.contains("headers=headers, json=payload"), "{python}");
        let mut quote = request("POST", Some(serde_json::json!({"q": "it's"})));
        quote.headers.clear();
        let curl = Language::Curl.request(&quote);
        assert!(curl.contains(r#"-d '{"q":"it'\''s"}'"#), "{curl}");
        assert!(
            curl.contains("-H 'Content-Type: application/json'"),
            "{curl}"
        );
    }

    #[test]
    fn query_values_are_appended_and_escaped() {
        let mut r = request("GET", None);
        r.add_query("limit", "10");
        r.add_query("q", "a b&c");
        r.add_query("cursor", "<string>");
        assert_eq!(
            r.url,
            "https://api.example.com/users?limit=10&q=a%20b%26c&cursor=<string>"
        );
    }

    #[test]
    fn the_sites_languages_are_read_in_order_with_unknown_ones_reported() {
        let names = serde_json::json!(["python", "curl", "bash", "cobol"]);
        let (languages, problems) = from_config(names.as_array().map(Vec::as_slice));
        assert_eq!(languages, [Language::Python, Language::Curl]);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("cobol"));
        assert_eq!(from_config(None).0, DEFAULT);
    }
}
