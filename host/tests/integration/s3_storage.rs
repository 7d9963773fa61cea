//! The S3 path, against a real S3-compatible server (s3s-fs, installed by `scripts/setup
//! --test`) on 127.0.0.1: content versions and bundles live in the bucket, and `bundleUrl` is
//! a SigV4 presigned link that the server itself checks and expires.

use std::time::Duration;

use crate::common;
use crate::common::s3::S3Server;
use crate::common::{Api, Instance};
use serde_json::json;

#[tokio::test]
async fn exports_live_in_s3_behind_presigned_expiring_links() {
    let s3 = S3Server::start();
    let instance = Instance::new(&format!("{}\n[links]\nlifetime_secs = 3\n", s3.config()));
    let key = instance.organization("acme", "enterprise");
    let site = common::example_site();
    instance.publish_folder("docs.acme.test", site.to_str().unwrap(), "acme", Some("v1"));
    assert!(
        s3.object("sites/docs.acme.test/versions/v1/site.json")
            .is_file(),
        "the version is in the bucket"
    );
    assert!(
        s3.object("sites/docs.acme.test/versions/v1/files/quickstart.mdx")
            .is_file()
    );

    // The next version, one page changed: its other files are copied within the bucket, and
    // its search index names segments kept there, all but one of them v1's.
    let edited = tempfile::tempdir().unwrap();
    common::sites::copy_dir(&site, edited.path());
    let page = edited.path().join("quickstart.mdx");
    let text = std::fs::read_to_string(&page).unwrap() + "\nWidgets ship with a zeppelin.\n";
    std::fs::write(&page, text).unwrap();
    instance.publish_folder(
        "docs.acme.test",
        edited.path().to_str().unwrap(),
        "acme",
        Some("v2"),
    );
    let stored = |version: &str, file: &str| {
        std::fs::read(s3.object(&format!("sites/docs.acme.test/versions/{version}/{file}")))
            .unwrap_or_else(|e| panic!("{version}/{file}: {e}"))
    };
    assert_eq!(
        stored("v2", "files/concepts.mdx"),
        stored("v1", "files/concepts.mdx")
    );
    assert!(
        String::from_utf8(stored("v2", "files/quickstart.mdx"))
            .unwrap()
            .contains("zeppelin")
    );
    let segments = |version: &str| {
        let list = String::from_utf8(stored(version, "search-index.bin")).unwrap();
        let keys: Vec<String> = list.lines().skip(1).map(String::from).collect();
        assert!(
            list.starts_with("QUIRE-SEGMENT-KEYS/1") && !keys.is_empty(),
            "{list}"
        );
        keys
    };
    let (v1, v2) = (segments("v1"), segments("v2"));
    for key in &v2 {
        let object = format!("search-segments/{}/{}/{}", &key[..2], &key[2..4], &key[4..]);
        assert!(s3.object(&object).is_file(), "{object} is in the bucket");
    }
    assert_eq!(v1.len(), v2.len());
    assert_eq!(
        v2.iter().filter(|key| !v1.contains(key)).count(),
        1,
        "{v1:?} {v2:?}"
    );

    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let hits = quire::http_client::client()
        .post(format!(
            "{}/discovery/v1/search/docs.acme.test",
            server.base
        ))
        .bearer_auth(&assistant)
        .json(&json!({"query": "zeppelin"}))
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap();
    assert_eq!(
        hits[0]["path"], "quickstart",
        "v2's index, read from the bucket: {hits}"
    );
    let (job_id, last) = api
        .run_job(json!({"domain": "docs.acme.test"}), Duration::from_secs(60))
        .await;
    assert_eq!(last["status"], "completed", "{last}\n{}", server.log());
    assert!(s3.object(&format!("bundles/{job_id}.tar.gz")).is_file());

    let (bundle, bytes) = api.download_bundle(&job_id).await;
    let url = bundle["bundleUrl"].as_str().unwrap().to_string();
    assert!(
        url.starts_with(&format!("http://127.0.0.1:{}/", s3.port)),
        "the link points at the S3 server: {url}"
    );
    assert!(
        url.contains("X-Amz-Signature="),
        "a SigV4 presigned link: {url}"
    );
    let files = common::archive::unpack(&bytes);
    assert!(files.contains_key("quickstart.html") && files.contains_key("quire-features.js"));

    let http = quire::http_client::client();
    let tampered = url.replace("X-Amz-Signature=", "X-Amz-Signature=0");
    let status = http.get(&tampered).send().await.unwrap().status();
    assert!(
        status.is_client_error(),
        "a tampered link is refused: {status}"
    );

    tokio::time::sleep(Duration::from_secs(4)).await;
    let status = http.get(&url).send().await.unwrap().status();
    assert_eq!(
        status, 403,
        "an expired link is refused by the storage service"
    );
    let (_, fresh) = api
        .post(
            &format!("/v1/static-export/jobs/{job_id}/bundle"),
            serde_json::Value::Null,
        )
        .await;
    let status = http
        .get(fresh["bundleUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 200, "a fresh link for the same job works");

    // A docs server serves the bundle from the presigned link, and reports the expired one.
    let home = tempfile::tempdir().unwrap();
    let docs = common::docs_server(
        &home.path().join("fresh"),
        &["--bundle-url", fresh["bundleUrl"].as_str().unwrap()],
    );
    let page = quire::http_client::client()
        .get(format!("{}/quickstart", docs.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200, "{}", docs.log());
    assert!(page.text().await.unwrap().contains("<title>Quickstart"));
    drop(docs);
    let docs = common::docs_server(&home.path().join("expired"), &["--bundle-url", &url]);
    let ready = quire::http_client::client()
        .get(format!("{}/readyz", docs.base))
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), 503);
    assert!(
        ready
            .text()
            .await
            .unwrap()
            .contains("the bundle link has expired"),
        "{}",
        docs.log()
    );
}
