//! Archive formats: the example zip packager configured as a further format, chosen per export
//! (`format`) or per deployment type, and a docs server serving the `.zip` bundle it wrote.

use crate::common;

use std::io::Read;
use std::time::Duration;

use crate::common::{Api, Instance};
use serde_json::{Value, json};

fn zip_config() -> String {
    format!(
        "[plugins.formats]\nzip = \"{}\"\n",
        common::wasm("quire_zip_packager").display()
    )
}

/// Reads `name` from a zip archive.
fn zip_entry(archive: &[u8], name: &str) -> String {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive)).expect("a readable zip");
    let mut text = String::new();
    zip.by_name(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .read_to_string(&mut text)
        .expect("inflates");
    text
}

#[tokio::test]
async fn an_export_asks_for_zip_and_a_docs_server_serves_it() {
    let instance = Instance::new(&zip_config());
    let key = instance.generated_site("docs.acme.test", 30);
    let server = instance.start();
    let api = Api::new(&server.base, &key);

    let ready: Value = quire::http_client::client()
        .get(format!("{}/readyz", server.base))
        .send()
        .await
        .expect("readyz")
        .json()
        .await
        .expect("JSON");
    assert_eq!(ready["plugins"]["defaultFormat"], "tar.gz");
    assert_eq!(
        ready["plugins"]["formats"]["zip"]["name"],
        "quire_zip_packager"
    );

    let (job_id, last) = api
        .run_job(
            json!({"domain": "docs.acme.test", "format": "zip"}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let (bundle, archive) = api.download_bundle(&job_id).await;
    let url = bundle["bundleUrl"].as_str().expect("bundleUrl").to_string();
    assert!(url.contains(".zip"), "{url}");
    assert_eq!(&archive[..4], b"PK\x03\x04");
    assert_eq!(bundle["sizeBytes"].as_u64(), Some(archive.len() as u64));
    let manifest: Value =
        serde_json::from_str(&zip_entry(&archive, "manifest.json")).expect("manifest");
    assert_eq!(manifest["files"].as_array().expect("files").len() + 1, {
        let zip = zip::ZipArchive::new(std::io::Cursor::new(&archive)).expect("zip");
        zip.len()
    });
    assert!(zip_entry(&archive, "pages/page-3.html").contains("Page 3"));

    // Without `format`, the default.
    let (job_id, _) = api
        .run_job(
            json!({"domain": "docs.acme.test"}),
            Duration::from_secs(120),
        )
        .await;
    let (_, archive) = api.download_bundle(&job_id).await;
    assert_eq!(&archive[..2], [0x1f, 0x8b], "a .tar.gz");

    // The docs server takes the zip link as it takes a .tar.gz one.
    let data = tempfile::tempdir().expect("docs server data");
    let docs = common::docs_server(&data.path().join("docs"), &["--bundle-url", &url]);
    let page = quire::http_client::client()
        .get(format!("{}/pages/page-3", docs.base))
        .send()
        .await
        .expect("page");
    assert_eq!(page.status(), 200);
    assert!(page.text().await.expect("text").contains("Page 3"));
}

#[tokio::test]
async fn an_unknown_format_is_a_400_naming_the_field_and_the_formats() {
    let instance = Instance::new(&zip_config());
    let key = instance.generated_site("docs.acme.test", 3);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (status, body) = api
        .post(
            "/v1/static-export/jobs",
            json!({"domain": "docs.acme.test", "format": "rar"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let message = body.to_string();
    assert!(
        message.contains("format") && message.contains("rar") && message.contains("tar.gz, zip"),
        "{message}"
    );
}

#[tokio::test]
async fn a_deployment_type_can_make_zip_the_default_and_a_mislabelled_format_never_starts() {
    let zip = common::wasm("quire_zip_packager");
    let instance = Instance::new(&format!(
        "[deployment]\ntype = \"air-gapped\"\n\n[plugins.deployments.air-gapped]\npackager = \"{}\"\n",
        zip.display()
    ));
    let key = instance.generated_site("docs.acme.test", 3);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (job_id, last) = api
        .run_job(json!({"domain": "docs.acme.test"}), Duration::from_secs(60))
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let (_, archive) = api.download_bundle(&job_id).await;
    assert_eq!(&archive[..4], b"PK\x03\x04");

    let mislabelled = Instance::new(&format!(
        "[plugins.formats]\nzip = \"{}\"\n",
        common::wasm("quire_packager").display()
    ));
    let out = mislabelled.cli(&["serve"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("writes \"tar.gz\" archives, but it is configured for \"zip\""),
        "{stderr}"
    );
}
