//! API pages rendered whole: OpenAPI operations, AsyncAPI channels, and the site's `api`
//! settings they follow.

use super::*;

#[test]
fn openapi_pages_document_their_operation() {
    let yaml = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\nservers: [{url: 'https://api.test'}]\npaths:\n  /things/{id}:\n    get:\n      summary: Get a thing\n      description: Reads one thing.\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: OK, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}}\n";
    let site = site().with_files(vec![], vec![("openapi.yaml".into(), yaml.into())]);
    let out = render_page(
        &site,
        "quickstart",
        "quickstart.mdx",
        "---\nopenapi: GET /things/{id}\n---\n",
    );
    assert_eq!(out.title, "Get a thing");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert!(out.html.contains("method-get"));
    assert!(out.html.contains("data-path=\"/things/{id}\""));
    assert!(out.html.contains("value=\"https://api.test\""));
    let anchors: Vec<_> = out.headings.iter().map(|h| h.anchor.as_str()).collect();
    assert_eq!(anchors, ["parameters", "responses"]);
    // The endpoint's path is a block of the search text, not run into the description.
    assert!(
        out.sections[0]
            .text
            .starts_with("/things/{id}\nReads one thing."),
        "{:?}",
        out.sections[0].text
    );
    let bad = render_page(
        &site,
        "quickstart",
        "quickstart.mdx",
        "---\nopenapi: GET /nothing\n---\n",
    );
    assert_eq!(bad.warnings[0].line, Some(1));
}

#[test]
fn api_settings_decide_the_playground_side_column_and_code_colours() {
    let yaml = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get: {summary: A, responses: {'200': {description: OK}}}\n";
    let config =
        r#"{"api": {"playground": {"display": "simple"}}, "styling": {"codeblocks": "dark"}}"#;
    let site = Site::new("Acme".into(), "v1".into(), vec![], config, vec![])
        .unwrap()
        .with_files(vec![], vec![("openapi.yaml".into(), yaml.into())]);
    let simple = render_page(&site, "a", "a.mdx", "---\nopenapi: GET /a\n---\n");
    assert!(!simple.html.contains("form class=\"playground\""));
    assert!(
        simple
            .html
            .contains("<html lang=\"en\" dir=\"ltr\" data-mode=\"system\" class=\"code-dark\">")
    );
    // The examples are in the side column, not the article.
    let (article, side) = simple.html.split_once("</article>").unwrap();
    assert!(!article.contains("request-example"));
    assert!(side.contains(
        "<aside class=\"api-side\" aria-label=\"Examples\"><div class=\"api-examples\">"
    ));
    let page_says = "---\nopenapi: GET /a\nplayground: interactive\n---\n";
    let interactive = render_page(&site, "a", "a.mdx", page_says);
    assert!(interactive.html.contains("form class=\"playground\""));
    // A page without a side column keeps its table of contents; a wide one puts the
    // examples after its text.
    let wide = "---\nmode: wide\n---\n<RequestExample>\n```bash\ncurl x\n```\n</RequestExample>\n\nText.\n";
    let wide = render_page(&site, "a", "a.mdx", wide);
    let (article, _) = wide.html.split_once("</article>").unwrap();
    assert!(article.contains("<div class=\"api-side\"><div class=\"example example-request\">"));
    assert!(article.find("Text.") < article.find("api-side"));
}

#[test]
fn asyncapi_pages_document_their_channel_and_settings_problems_are_the_sites() {
    let yaml = "asyncapi: 2.6.0\ninfo: {title: T, version: '1'}\nchannels:\n  user/signedup:\n    subscribe:\n      message: {name: Signed up, payload: {type: object, properties: {email: {type: string}}}}\n";
    let config = r#"{"integrations": {"intercom": {"appId": "x"}}}"#;
    let site = Site::new("Acme".into(), "v1".into(), vec![], config, vec![])
        .unwrap()
        .with_files(vec![], vec![("events.yaml".into(), yaml.into())]);
    let out = render_page(
        &site,
        "events",
        "events.mdx",
        "---\nasyncapi: events.yaml user/signedup\n---\n",
    );
    assert_eq!(out.title, "user/signedup");
    assert!(out.html.contains("Subscribe"), "{}", out.html);
    assert!(out.html.contains("<code class=\"field-name\">email</code>"));
    // The settings problem (an analytics integration) comes with the site's output, not
    // with any page.
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let site_wide = crate::site_output(&site, &[]);
    assert_eq!(site_wide.problems.len(), 1, "{:?}", site_wide.problems);
    assert_eq!(site_wide.settings_file, "docs.json");
    let again = render_page(&site, "b", "b.mdx", "---\nasyncapi: nowhere\n---\n");
    assert_eq!(again.warnings.len(), 1, "{:?}", again.warnings);
    assert!(again.warnings[0].message.contains("no such channel"));
}

#[test]
fn an_operations_code_samples_come_before_the_generated_request() {
    let yaml = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /runs:\n    get:\n      summary: List runs\n      responses: {'200': {description: OK}}\n      x-codeSamples:\n        - lang: TypeScript\n          label: SDK\n          source: |-\n            const runs = await runs.list();\n        - lang: python\n          source: runs.list()\n        - label: no source\n  /other:\n    get: {summary: Other, responses: {'200': {description: OK}}}\n";
    let site = site().with_files(vec![], vec![("openapi.yaml".into(), yaml.into())]);
    let out = render_page(&site, "runs", "runs.mdx", "---\nopenapi: GET /runs\n---\n");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let group = out.html.find("<div class=\"code-group\">").expect("tabs");
    let titles: Vec<usize> = ["SDK</div>", "python</div>", "cURL</div>"]
        .iter()
        .map(|t| out.html[group..].find(t).expect(t))
        .collect();
    assert!(
        titles.windows(2).all(|w| w[0] < w[1]),
        "in order: {titles:?}"
    );
    assert!(out.html.contains("language-typescript"));
    // Without samples, the site's languages: cURL, Python and JavaScript by default, or
    // those `api.examples.languages` names (one is shown alone, as the request).
    let plain = render_page(
        &site,
        "other",
        "other.mdx",
        "---\nopenapi: GET /other\n---\n",
    );
    for title in ["cURL</div>", "Python</div>", "JavaScript</div>"] {
        assert!(plain.html.contains(title), "{title}");
    }
    let items = vec![NavEntry::new(NavKind::Page, 0, "A", Some("a"))];
    let config = r#"{"api": {"examples": {"languages": ["bash"]}}}"#;
    let curl_only = Site::new("Acme".into(), "v1".into(), items, config, vec![])
        .unwrap()
        .with_files(vec![], vec![("openapi.yaml".into(), yaml.into())]);
    let plain = render_page(
        &curl_only,
        "other",
        "other.mdx",
        "---\nopenapi: GET /other\n---\n",
    );
    assert!(plain.html.contains(">Request</div>"), "{}", plain.html);
    assert!(!plain.html.contains("code-group"));
}

#[test]
fn webhook_and_extensionless_document_names() {
    let yaml = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\nwebhooks:\n  order.created:\n    post:\n      summary: Order created\n      responses: {'200': {description: OK}}\npaths:\n  /a:\n    get: {summary: A, responses: {'200': {description: OK}}}\n";
    let site = site().with_files(vec![], vec![("specs/v3.yaml".into(), yaml.into())]);
    for (reference, title) in [
        ("specs/v3 webhook order.created", "Order created"),
        ("webhook order.created", "Order created"),
        ("/specs/v3 GET /a", "A"),
    ] {
        let source = format!("---\nopenapi: \"{reference}\"\n---\n");
        let out = render_page(&site, "quickstart", "quickstart.mdx", &source);
        assert_eq!(out.title, title, "{reference}");
        assert!(out.warnings.is_empty(), "{reference}: {:?}", out.warnings);
    }
}
