//! Web analytics over HTTP: the beacon's events with a public assistant key (validated,
//! rate-limited, counted per page) and the admin endpoint that reads the counts back.

use crate::common::Instance;
use serde_json::{Value, json};

async fn post(base: &str, key: &str, domain: &str, body: Value) -> (u16, Value) {
    let response = quire::http_client::client()
        .post(format!("{base}/discovery/v1/analytics/{domain}/events"))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn counts(base: &str, key: &str, query: &str) -> (u16, Value) {
    let response = quire::http_client::client()
        .get(format!("{base}/v1/analytics/docs.acme.test/pages{query}"))
        .bearer_auth(key)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn page_views_and_feedback_are_counted_and_read_back() {
    let instance = Instance::new("[limits]\norganization_per_hour = 20\n");
    let assistant = instance.example_site_for_assistant();
    let admin = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "admin"]);
    let server = instance.start();
    let base = &server.base;

    for _ in 0..3 {
        let (status, body) = post(
            base,
            &assistant,
            "docs.acme.test",
            json!({"type": "pageview", "path": "/guides/webhooks"}),
        )
        .await;
        assert_eq!(status, 204, "{body}");
    }
    post(
        base,
        &assistant,
        "docs.acme.test",
        json!({"type": "pageview", "path": "quickstart"}),
    )
    .await;
    post(
        base,
        &assistant,
        "docs.acme.test",
        json!({"type": "feedback", "path": "guides/webhooks", "helpful": true}),
    )
    .await;
    post(
        base,
        &assistant,
        "docs.acme.test",
        json!({"type": "feedback", "path": "guides/webhooks", "helpful": false}),
    )
    .await;

    // Bad events name the field; none is counted.
    for (body, field) in [
        (json!({"path": "x"}), "type"),
        (json!({"type": "click", "path": "x"}), "type"),
        (json!({"type": "feedback", "path": "x"}), "helpful"),
        (json!({"type": "pageview", "path": "x".repeat(201)}), "path"),
        (json!({"type": "pageview", "path": 7}), "path"),
    ] {
        let (status, answer) = post(base, &assistant, "docs.acme.test", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(field),
            "{answer}"
        );
    }
    let (status, _) = post(
        base,
        &assistant,
        "docs.nobody.test",
        json!({"type": "pageview", "path": "x"}),
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = post(
        base,
        &admin,
        "docs.acme.test",
        json!({"type": "pageview", "path": "x"}),
    )
    .await;
    assert_eq!(status, 401, "admin keys are not for browsers");

    let (status, report) = counts(base, &admin, "").await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report["pages"][0],
        json!({"path": "guides/webhooks", "views": 3, "helpful": 1, "notHelpful": 1})
    );
    assert_eq!(report["pages"][1]["path"], "quickstart");
    assert_eq!(report["pages"].as_array().unwrap().len(), 2);

    // A range before the events holds nothing; bad ranges are refused.
    let (_, empty) = counts(
        base,
        &admin,
        "?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z",
    )
    .await;
    assert_eq!(empty["pages"], json!([]));
    let (status, answer) = counts(base, &admin, "?from=yesterday").await;
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("from"),
        "{answer}"
    );
    let (status, _) = counts(
        base,
        &admin,
        "?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z",
    )
    .await;
    assert_eq!(status, 400);
    let (status, _) = counts(base, &assistant, "").await;
    assert_eq!(status, 401);

    // Events count against the organization's hourly limit like any discovery call.
    let mut refused = false;
    for _ in 0..20 {
        let (status, _) = post(
            base,
            &assistant,
            "docs.acme.test",
            json!({"type": "pageview", "path": "x"}),
        )
        .await;
        refused |= status == 429;
    }
    assert!(refused, "the rate limit applies");
}
