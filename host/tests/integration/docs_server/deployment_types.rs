//! Deployment types decide the docs server's features: the feature file, the assistant and
//! search endpoints, and remote fonts and analytics in a real browser.

use std::process::Command;
use std::time::Duration;

use super::{api_host, features_of};
use crate::common::archive::tar_gz_dir;
use crate::common::{self, Api, docs_server};
use serde_json::json;
#[tokio::test]
async fn deployment_types_decide_the_features() {
    // The API host, air-gapped: no assistant or search endpoints.
    let (_instance, server, key, assistant) = api_host("[deployment]\ntype = \"air-gapped\"\n");
    let api = Api::new(&server.base, &key);
    // The example site, with a font on another host and an analytics integration.
    let site = tempfile::tempdir().expect("tempdir");
    common::sites::copy_dir(&common::example_site(), site.path());
    let config_path = site.path().join("docs.json");
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config_path).unwrap()).unwrap();
    config["fonts"] = json!({"family": "Acme Sans", "source": "https://fonts.acme.test/acme-sans.woff2", "format": "woff2"});
    config["integrations"] = json!({"ga4": {"measurementId": "G-QUIRETEST"}});
    std::fs::write(&config_path, config.to_string()).unwrap();
    let (status, _) = api
        .publish("docs.acme.test", "v1", tar_gz_dir(site.path()))
        .await;
    assert_eq!(status, 201);
    for path in [
        "/discovery/v1/assistant/docs.acme.test/message",
        "/discovery/v2/assistant/docs.acme.test/message",
        "/discovery/v1/search/docs.acme.test",
        "/discovery/v1/page/docs.acme.test",
        "/discovery/v1/analytics/docs.acme.test/events",
    ] {
        let response = quire::http_client::client()
            .post(format!("{}{path}", server.base))
            .bearer_auth(&assistant)
            .json(&json!({"fp": "anonymous", "messages": [], "query": "x", "path": "index"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 404, "{path}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("unavailable in this deployment type (air-gapped)"),
            "{body}"
        );
    }
    // Static export still works; the remote font is a warning about the settings file.
    let (job_id, last) = api
        .run_job(
            json!({"domain": "docs.acme.test", "version": "v1"}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let warnings = last["warnings"].to_string();
    assert!(
        warnings.contains("docs.json")
            && warnings.contains(
                "fonts.source \\\"https://fonts.acme.test/acme-sans.woff2\\\" is on another host"
            ),
        "{warnings}"
    );
    let (bundle, _) = api.download_bundle(&job_id).await;
    let link = bundle["bundleUrl"].as_str().unwrap().to_string();
    let home = tempfile::tempdir().expect("tempdir");

    // The docs server, air-gapped, asked for the assistant: refused at startup, and the
    // feature file leaves everything online off (the offline search box stays).
    let docs = docs_server(
        &home.path().join("gapped"),
        &[
            "--bundle-url",
            &link,
            "--deployment",
            "air-gapped",
            "--assistant",
            "true",
            "--api-url",
            &server.base,
            "--assistant-key",
            &assistant,
        ],
    );
    assert!(
        docs.log().contains(
            "assistant is unavailable in air-gapped deployments and cannot be switched on"
        ),
        "{}",
        docs.log()
    );
    let features = features_of(&docs.base).await;
    assert_eq!(features["search"], true);
    assert_eq!(features["assistant"]["enabled"], false);
    assert_eq!(features["analytics"]["enabled"], false);
    assert_eq!(features["playground"], true);
    assert_eq!(
        features["assistant"]["offline"], true,
        "the bundle's own assistant answers where the API's cannot"
    );
    // In a browser, the air-gapped site makes no request outside its own origin, its own
    // assistant included.
    let node = Command::new("node")
        .args(["--test", "served.test.mjs"])
        .current_dir(common::workspace().join("host/tests/browser"))
        .env("QUIRE_SITE_URL", &docs.base)
        .env("QUIRE_EXPECT_DEPLOYMENT", "air-gapped")
        .env("QUIRE_EXPECT_MCP", "on")
        .env("QUIRE_EXPECT_BUNDLE_ASSISTANT", "on")
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&node.stdout);
    assert!(
        node.status.success() && report.contains("# pass 2"),
        "{report}\n{}",
        String::from_utf8_lossy(&node.stderr)
    );
    // The remote font and the analytics integration stay off.
    browse_external(&docs.base, false, false);
    drop(docs);

    // Client-hosted with the assistant switched on: the widget points at the API host.
    let docs = docs_server(
        &home.path().join("client"),
        &[
            "--bundle-url",
            &link,
            "--deployment",
            "client-hosted",
            "--assistant",
            "true",
            "--api-url",
            &server.base,
            "--assistant-key",
            &assistant,
        ],
    );
    let features = features_of(&docs.base).await;
    assert_eq!(features["assistant"]["enabled"], true);
    assert_eq!(
        features["assistant"]["endpoint"],
        format!(
            "{}/discovery/v1/assistant/docs.acme.test/message",
            server.base
        )
    );
    assert_eq!(
        features["analytics"]["enabled"], false,
        "client-hosted defaults off"
    );
    assert_eq!(features["integrations"], false);
    // The font loads; analytics integrations follow web analytics, off here.
    browse_external(&docs.base, true, false);
    drop(docs);

    // Cloud: everything on; air-gapped with the playground switched off.
    let docs = docs_server(
        &home.path().join("cloud"),
        &[
            "--bundle-url",
            &link,
            "--api-url",
            &server.base,
            "--assistant-key",
            &assistant,
        ],
    );
    let features = features_of(&docs.base).await;
    assert_eq!(features["assistant"]["enabled"], true);
    assert_eq!(features["analytics"]["enabled"], true);
    assert_eq!(features["integrations"], true);
    assert_eq!(
        features["assistant"]["offline"], false,
        "cloud keeps the server's assistant"
    );
    browse_external(&docs.base, true, true);
    drop(docs);
    let docs = docs_server(
        &home.path().join("gapped-2"),
        &[
            "--bundle-url",
            &link,
            "--deployment",
            "air-gapped",
            "--playground",
            "false",
            "--bundle-assistant",
            "false",
        ],
    );
    let features = features_of(&docs.base).await;
    assert_eq!(features["playground"], false);
    assert_eq!(features["assistant"]["offline"], false, "switched off");
}

/// Runs `tests/browser/external.test.mjs` against the docs server at `base`, expecting the
/// site's remote font and analytics integration to be used or not.
fn browse_external(base: &str, fonts: bool, analytics: bool) {
    let yes_no = |on: bool| if on { "yes" } else { "no" };
    let node = Command::new("node")
        .args(["--test", "external.test.mjs"])
        .current_dir(common::workspace().join("host/tests/browser"))
        .env("QUIRE_SITE_URL", base)
        .env("QUIRE_EXPECT_FONTS", yes_no(fonts))
        .env("QUIRE_EXPECT_ANALYTICS", yes_no(analytics))
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&node.stdout);
    assert!(
        node.status.success() && report.contains("# pass 1"),
        "fonts {fonts}, analytics {analytics}: {report}\n{}",
        String::from_utf8_lossy(&node.stderr)
    );
}
