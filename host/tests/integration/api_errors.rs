//! Every error the static export and publishing endpoints can answer, over a real socket:
//! status, the `{"error"}` body, and a message that names what is wrong.

use crate::common;

use std::time::Duration;

use crate::common::archive::tar_gz_dir;
use crate::common::{Api, Instance, Server};
use serde_json::{Value, json};

struct World {
    _instance: Instance,
    server: Server,
    admin: String,
    assistant: String,
    revoked: String,
    pro_admin: String,
    other_admin: String,
}

/// Two enterprise organizations with a site each, a pro organization, and keys of every kind.
fn world(config: &str) -> World {
    let instance = Instance::new(config);
    let admin = instance.organization("acme", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let revoked = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "admin"]);
    instance.cli_ok(&["key", "revoke", &revoked]);
    let pro_admin = instance.organization("smallco", "pro");
    let other_admin = instance.organization("rival", "enterprise");
    let site = common::example_site();
    let site = site.to_str().unwrap();
    instance.publish_folder("docs.acme.test", site, "acme", Some("v1"));
    instance.publish_folder("docs.rival.test", site, "rival", Some("v1"));
    instance.publish_folder("docs.smallco.test", site, "smallco", Some("v1"));
    let server = instance.start();
    World {
        _instance: instance,
        server,
        admin,
        assistant,
        revoked,
        pro_admin,
        other_admin,
    }
}

fn assert_error(status: u16, body: &Value, expected: u16, needle: &str) {
    assert_eq!(status, expected, "{body}");
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {body}"));
    assert!(
        message.contains(needle),
        "{message:?} should mention {needle:?}"
    );
}

#[tokio::test]
async fn keys_are_checked_on_every_static_export_endpoint() {
    let w = world("");
    let good = Api::new(&w.server.base, &w.admin);
    let job_id = good.start_job(json!({"domain": "docs.acme.test"})).await;
    good.wait_job(&job_id, Duration::from_secs(30)).await;

    let http = quire::http_client::client();
    let endpoints = [
        ("POST", "/v1/static-export/jobs".to_string()),
        ("GET", format!("/v1/static-export/jobs/{job_id}")),
        ("POST", format!("/v1/static-export/jobs/{job_id}/bundle")),
    ];
    for (method, path) in &endpoints {
        let url = format!("{}{path}", w.server.base);
        let request = |key: Option<&str>| {
            let builder = if *method == "GET" {
                http.get(&url)
            } else {
                http.post(&url).json(&json!({"domain": "docs.acme.test"}))
            };
            match key {
                Some(k) => builder.bearer_auth(k),
                None => builder,
            }
        };
        for (key, needle) in [
            (None, "missing API key"),
            (Some("svc_not_a_real_key"), "invalid API key"),
            (Some(w.revoked.as_str()), "revoked"),
            (Some(w.assistant.as_str()), "needs an admin API key"),
        ] {
            let response = request(key).send().await.unwrap();
            let status = response.status().as_u16();
            let body: Value = response.json().await.unwrap();
            assert_error(status, &body, 401, needle);
        }
        let response = request(Some(&w.pro_admin)).send().await.unwrap();
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap();
        assert_error(
            status,
            &body,
            403,
            "Static export is not enabled for this organization",
        );
    }
}

#[tokio::test]
async fn start_job_validates_its_body() {
    let w = world("");
    let api = Api::new(&w.server.base, &w.admin);
    let cases = [
        (json!({}), 400, "domain is required"),
        (json!({"domain": ""}), 400, "domain is required"),
        (json!({"domain": 42}), 400, "domain"),
        (
            json!({"domain": "https://docs.acme.test"}),
            400,
            "no protocol",
        ),
        (json!({"domain": "docs.acme.test/guides"}), 400, "no path"),
        (
            json!({"domain": "docs.acme.test", "version": "../v1"}),
            400,
            "version",
        ),
        (
            json!({"domain": "docs.acme.test", "paths": "quickstart"}),
            400,
            "paths",
        ),
        (
            json!({"domain": "docs.acme.test", "paths": []}),
            400,
            "paths must not be empty",
        ),
        (
            json!({"domain": "docs.acme.test", "paths": ["quickstart", "nope"]}),
            400,
            "paths[1]",
        ),
        (
            json!({"domain": "docs.acme.test", "paths": [""]}),
            400,
            "paths[0] is empty",
        ),
        (json!({"domain": "unknown.acme.test"}), 404, "no site"),
        (json!({"domain": "docs.rival.test"}), 404, "no site"),
        (
            json!({"domain": "docs.acme.test", "version": "v9"}),
            404,
            "no published version \"v9\"",
        ),
    ];
    for (body, status, needle) in cases {
        let (got, response) = api.post("/v1/static-export/jobs", body.clone()).await;
        assert_error(got, &response, status, needle);
    }
    let raw = quire::http_client::client()
        .post(format!("{}/v1/static-export/jobs", w.server.base))
        .bearer_auth(&w.admin)
        .header("content-type", "application/json")
        .body("{\"domain\": ")
        .send()
        .await
        .unwrap();
    let status = raw.status().as_u16();
    let body: Value = raw.json().await.unwrap();
    assert_error(status, &body, 400, "");
    assert!(
        w.server.log().lines().all(|l| !l.contains("panicked")),
        "{}",
        w.server.log()
    );
}

#[tokio::test]
async fn jobs_of_other_organizations_do_not_exist() {
    let w = world("");
    let mine = Api::new(&w.server.base, &w.admin);
    let theirs = Api::new(&w.server.base, &w.other_admin);
    let job_id = mine.start_job(json!({"domain": "docs.acme.test"})).await;
    for (status, body) in [
        theirs
            .get(&format!("/v1/static-export/jobs/{job_id}"))
            .await,
        theirs
            .post(
                &format!("/v1/static-export/jobs/{job_id}/bundle"),
                Value::Null,
            )
            .await,
        mine.get("/v1/static-export/jobs/se_0000000000000000").await,
        mine.post(
            "/v1/static-export/jobs/se_0000000000000000/bundle",
            Value::Null,
        )
        .await,
    ] {
        assert_error(status, &body, 404, "no static export job");
    }
}

#[tokio::test]
async fn bundles_of_unfinished_and_failed_jobs_conflict() {
    // A page limit below the site's size makes the second job fail.
    let w = world("[jobs]\nmax_pages = 5\nworkers = 1\n");
    let api = Api::new(&w.server.base, &w.admin);
    let small = api
        .start_job(json!({"domain": "docs.acme.test", "paths": ["index"]}))
        .await;
    let failing = api.start_job(json!({"domain": "docs.acme.test"})).await;
    // The single worker takes `small` first, so `failing` is still queued right now.
    let (status, body) = api
        .post(
            &format!("/v1/static-export/jobs/{failing}/bundle"),
            Value::Null,
        )
        .await;
    let state = api
        .get(&format!("/v1/static-export/jobs/{failing}"))
        .await
        .1["status"]
        .clone();
    if state != "failed" {
        assert_error(status, &body, 409, "once it is completed");
    }
    let last = api
        .wait_job(&failing, Duration::from_secs(30))
        .await
        .pop()
        .unwrap();
    assert_eq!(last["status"], "failed");
    assert!(
        last["error"]
            .as_str()
            .unwrap()
            .contains("more than the limit of 5"),
        "{last}"
    );
    let (status, body) = api
        .post(
            &format!("/v1/static-export/jobs/{failing}/bundle"),
            Value::Null,
        )
        .await;
    assert_error(status, &body, 409, "failed");
    let done = api
        .wait_job(&small, Duration::from_secs(30))
        .await
        .pop()
        .unwrap();
    assert_eq!(done["status"], "completed");
    assert!(done.get("error").is_none());
}

#[tokio::test]
async fn download_links_expire_and_refuse_tampering() {
    let w = world("[links]\nlifetime_secs = 2\n");
    let api = Api::new(&w.server.base, &w.admin);
    let job_id = api.start_job(json!({"domain": "docs.acme.test"})).await;
    api.wait_job(&job_id, Duration::from_secs(30)).await;
    let (_, bundle) = api
        .post(
            &format!("/v1/static-export/jobs/{job_id}/bundle"),
            Value::Null,
        )
        .await;
    let url = bundle["bundleUrl"].as_str().unwrap().to_string();
    let http = quire::http_client::client();
    assert_eq!(http.get(&url).send().await.unwrap().status(), 200);

    let flipped = if url.ends_with('0') {
        format!("{}1", &url[..url.len() - 1])
    } else {
        format!("{}0", &url[..url.len() - 1])
    };
    let other_job = url.replace(&job_id, "se_ffffffffffffffff");
    let later = {
        let (head, tail) = url.split_once("expires=").unwrap();
        let (expires, rest) = tail.split_once('&').unwrap();
        format!(
            "{head}expires={}&{rest}",
            expires.parse::<i64>().unwrap() + 3600
        )
    };
    let unsigned = url.split_once('?').unwrap().0.to_string();
    for (bad, needle) in [
        (flipped, "invalid"),
        (other_job, "invalid"),
        (later, "invalid"),
        (unsigned, "missing"),
    ] {
        let response = http.get(&bad).send().await.unwrap();
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap();
        assert_error(status, &body, 403, needle);
    }

    tokio::time::sleep(Duration::from_millis(3100)).await;
    let response = http.get(&url).send().await.unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    assert_error(status, &body, 403, "expired");

    // After expiry, the same job gives a fresh link that works.
    let (_, fresh) = api
        .post(
            &format!("/v1/static-export/jobs/{job_id}/bundle"),
            Value::Null,
        )
        .await;
    assert_eq!(
        http.get(fresh["bundleUrl"].as_str().unwrap())
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn publishing_over_http_refuses_broken_sites() {
    let w = world("");
    let api = Api::new(&w.server.base, &w.admin);
    let site = |files: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        tar_gz_dir(dir.path())
    };
    let cases = [
        (
            site(&[("index.md", "# x")]),
            400,
            "no docs.json or mint.json",
        ),
        (
            site(&[("docs.json", "{\"name\": \"A\",")]),
            400,
            "docs.json: invalid JSON at line 1",
        ),
        (b"definitely not gzip".to_vec(), 400, "not a .tar.gz"),
        (Vec::new(), 400, ".tar.gz of the site folder"),
    ];
    for (body, status, needle) in cases {
        let (got, response) = api.publish("new.acme.test", "v1", body).await;
        assert_error(got, &response, status, needle);
    }
    // A navigation page that is not in the folder: refused with ?strict=true, else published
    // without it, with a warning.
    let missing = site(&[
        (
            "docs.json",
            r#"{"name": "A", "navigation": {"pages": ["gone", "here"]}}"#,
        ),
        ("here.md", "# Here"),
    ]);
    let response = quire::http_client::client()
        .post(format!(
            "{}/v1/sites/new.acme.test/versions?version=s&strict=true",
            w.server.base
        ))
        .bearer_auth(&w.admin)
        .header("content-type", "application/gzip")
        .body(missing.clone())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    assert_error(status, &body, 400, "gone.mdx");
    let (status, body) = api.publish("new.acme.test", "v1", missing).await;
    assert_eq!(status, 201, "{body}");
    assert!(
        body["warnings"][0].as_str().unwrap().contains("gone.mdx"),
        "{body}"
    );
    assert_eq!(body["pageCount"], 1, "{body}");

    let example = tar_gz_dir(&common::example_site());
    let (status, body) = api.publish("docs.acme.test", "v1", example.clone()).await;
    assert_error(status, &body, 409, "already published");
    let (status, body) = api.publish("docs.rival.test", "v2", example.clone()).await;
    assert_error(status, &body, 409, "another organization");
    let (status, body) = api.publish("Bad_Domain", "v2", example.clone()).await;
    assert_error(status, &body, 400, "hostname-like");
    let (status, body) = api
        .publish("docs.acme.test", "no%20spaces", example.clone())
        .await;
    assert_error(status, &body, 400, "version must be");
    let assistant = Api::new(&w.server.base, &w.assistant);
    let (status, body) = assistant.publish("docs.acme.test", "v3", example).await;
    assert_error(status, &body, 401, "admin API key");
}

#[tokio::test]
async fn the_openapi_document_describes_the_api() {
    let w = world("");
    let doc: Value = quire::http_client::client()
        .get(format!("{}/openapi.json", w.server.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/v1/static-export/jobs",
        "/v1/static-export/jobs/{jobId}",
        "/v1/static-export/jobs/{jobId}/bundle",
        "/v1/sites/{domain}/versions",
        "/v1/sites/{domain}/files/missing",
    ] {
        assert!(
            paths.contains_key(path),
            "{path} missing from {:?}",
            paths.keys()
        );
    }
    let start = &paths["/v1/static-export/jobs"]["post"];
    for status in ["202", "400", "401", "403", "404"] {
        assert!(
            start["responses"].get(status).is_some(),
            "start job lacks {status}"
        );
    }
    assert!(
        doc["components"]["schemas"]["JobView"]["properties"]
            .get("pageCount")
            .is_some()
    );
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
}
