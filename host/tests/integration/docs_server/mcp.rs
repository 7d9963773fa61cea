//! The docs server's MCP endpoint (`/mcp`), answered from the bundle it was fed by a real
//! export: the official client's suite and the conformance scenarios, then the deployment
//! switch that turns it off.

use super::{api_host, export_link, features_of, get};
use crate::common::{Api, docs_server};

#[tokio::test]
async fn a_docs_server_serves_its_bundle_over_mcp() {
    let (_instance, server, key, _) = api_host("");
    let api = Api::new(&server.base, &key);
    api.publish_example_site("v1").await;
    let (link, _) = export_link(&api, "v1").await;
    let home = tempfile::tempdir().expect("tempdir");

    // Client-hosted: on, with no key (whoever reads the pages may search them).
    let data = home.path().join("hosted");
    let docs = docs_server(
        &data,
        &["--bundle-url", &link, "--deployment", "client-hosted"],
    );
    let url = format!("{}/mcp", docs.base);
    // Its pages and llms.txt name the endpoint (the contextual menu's install links are
    // checked in a browser by the deployment types' test).
    let features = features_of(&docs.base).await;
    assert_eq!(features["mcp"]["enabled"], true, "{features}");
    assert_eq!(features["mcp"]["endpoint"], "/mcp");
    assert_eq!(features["mcp"]["name"], "Acme Widgets");
    let (status, _, index) = get(&format!("{}/llms.txt", docs.base)).await;
    assert_eq!(status, 200);
    assert!(
        index.starts_with("# Acme Widgets")
            && index.contains("\n## MCP server\n\n- [MCP server](/mcp): "),
        "{index}"
    );
    crate::mcp::run_node_tests("http.test.mjs", &[("QUIRE_MCP_URL", &url)], &|| docs.log());
    crate::mcp::run_conformance(&url, &|| docs.log());
    drop(docs);

    // Air-gapped: on unless switched off; off, `/mcp` is not there.
    let data = home.path().join("gapped");
    let docs = docs_server(
        &data,
        &[
            "--bundle-url",
            &link,
            "--deployment",
            "air-gapped",
            "--mcp",
            "false",
        ],
    );
    let response = quire::http_client::client()
        .post(format!("{}/mcp", docs.base))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 404);
    // Nor do its pages or llms.txt name one.
    assert_eq!(features_of(&docs.base).await["mcp"]["enabled"], false);
    let (status, _, index) = get(&format!("{}/llms.txt", docs.base)).await;
    assert_eq!(status, 200);
    assert!(
        index.starts_with("# Acme") && !index.contains("MCP"),
        "{index}"
    );
}
