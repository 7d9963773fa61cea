//! What operators watch: `/metrics` in the Prometheus text format on both servers, request ids
//! on responses and in JSON log lines.

use std::time::Duration;

use crate::common::{Api, Instance, docs_server};
use serde_json::json;

pub(crate) async fn metrics(base: &str) -> String {
    let response = quire::http_client::client()
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("metrics");
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    response.text().await.unwrap()
}

/// The value of the sample whose line starts with `series` (name and labels).
pub(crate) fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(series))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test]
async fn the_api_host_counts_requests_jobs_pages_and_refusals() {
    let instance = Instance::new("[limits]\norganization_per_hour = 2\n");
    let key = instance.generated_site("metrics.acme.test", 40);
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (_, last) = api
        .run_job(
            json!({"domain": "metrics.acme.test"}),
            Duration::from_secs(60),
        )
        .await;
    assert_eq!(last["status"], "completed");
    for _ in 0..3 {
        let response = quire::http_client::client()
            .post(format!(
                "{}/discovery/v1/search/metrics.acme.test",
                server.base
            ))
            .bearer_auth(&assistant)
            .json(&json!({"query": "widget"}))
            .send()
            .await
            .unwrap();
        assert!(response.headers().contains_key("x-request-id"));
    }

    let text = metrics(&server.base).await;
    assert_eq!(
        sample(&text, "quire_jobs{status=\"completed\"}"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "quire_export_pages_total"),
        Some(40.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "quire_exports_finished_total{outcome=\"completed\"}"),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &text,
            "quire_rate_limit_refusals_total{scope=\"organization\"}"
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            "quire_http_requests_total{route=\"/discovery/v1/search/{domain}\",method=\"POST\",status=\"429\"}"
        ),
        Some(1.0),
        "{text}"
    );
    assert!(
        text.contains("quire_http_request_duration_seconds_bucket{le=\"0.001\",route=\"/v1/static-export/jobs\"}")
            || text.contains("quire_http_request_duration_seconds_bucket{route=\"/v1/static-export/jobs\""),
        "{text}"
    );
}

#[tokio::test]
async fn the_docs_server_logs_json_with_request_ids_and_counts_fetches() {
    let instance = Instance::new("");
    let key = instance.generated_site("docs.acme.test", 5);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (job_id, _) = api
        .run_job(json!({"domain": "docs.acme.test"}), Duration::from_secs(60))
        .await;
    let (bundle, _) = api.download_bundle(&job_id).await;
    let home = tempfile::tempdir().unwrap();
    let docs = docs_server(
        &home.path().join("data"),
        &[
            "--log-format",
            "json",
            "--bundle-url",
            bundle["bundleUrl"].as_str().unwrap(),
        ],
    );
    let response = quire::http_client::client()
        .get(format!("{}/pages/page-1", docs.base))
        .header("x-request-id", "req-from-the-ingress")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-request-id"], "req-from-the-ingress");
    let fresh = quire::http_client::client()
        .get(format!("{}/pages/page-2", docs.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        fresh.headers()["x-request-id"].len(),
        36,
        "a new UUID when none is sent"
    );

    let text = metrics(&docs.base).await;
    assert_eq!(
        sample(&text, "quire_bundle_fetches_total{outcome=\"installed\"}"),
        Some(1.0),
        "{text}"
    );
    assert!(
        sample(
            &text,
            "quire_http_requests_total{route=\"static\",method=\"GET\",status=\"200\"}"
        )
        .is_some_and(|n| n >= 2.0),
        "{text}"
    );

    tokio::time::sleep(Duration::from_millis(200)).await;
    let log = docs.log();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l["span"]["request_id"] == "req-from-the-ingress"
                && l["span"]["path"] == "/pages/page-1"),
        "{log}"
    );
}
