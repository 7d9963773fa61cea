//! The self-hosted docs server as an operator runs it: a real API host exports the example
//! site, the signed link goes to a real `quire docs-server` process, and pages are fetched
//! through it. Then new versions, pins, an expired link, a tampered bundle and archives that try
//! to write outside the data directory; the deployment types (`deployment_types.rs`), downloads
//! (`downloads.rs`), bundles carrying more than their manifest lists (`oversized.rs`) and the MCP
//! endpoint (`mcp.rs`) beside it.

mod deltas;
mod deployment_types;
mod downloads;
mod mcp;
mod oversized;

use crate::common;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use crate::common::archive::{tar_gz_dir, unpack};
use crate::common::{Api, Instance, docs_server};
use serde_json::json;

/// A running API host with an enterprise organization; returns its admin and assistant keys.
pub(super) fn api_host(extra_config: &str) -> (Instance, common::Server, String, String) {
    let instance = Instance::new(extra_config);
    let key = instance.organization("acme", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let server = instance.start();
    (instance, server, key, assistant)
}

/// Exports `version`; returns the bundle link and the archive.
pub(super) async fn export_link(api: &Api, version: &str) -> (String, Vec<u8>) {
    let (bundle, bytes) = export_bundle(api, version).await;
    (bundle["bundleUrl"].as_str().unwrap().to_string(), bytes)
}

/// Exports `version`; returns the bundle response and the archive.
pub(super) async fn export_bundle(api: &Api, version: &str) -> (serde_json::Value, Vec<u8>) {
    let (job_id, last) = api
        .run_job(
            json!({"domain": "docs.acme.test", "version": version}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    api.download_bundle(&job_id).await
}

pub(super) async fn get(url: &str) -> (u16, reqwest::header::HeaderMap, String) {
    let response = quire::http_client::client()
        .get(url)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap_or_default())
}

pub(super) async fn features_of(base: &str) -> serde_json::Value {
    let (status, _, script) = get(&format!("{base}/quire-features.js")).await;
    assert_eq!(status, 200);
    let json = script
        .split_once("window.QUIRE_FEATURES = ")
        .map(|(_, rest)| rest.trim().trim_end_matches(';'))
        .expect("feature file");
    serde_json::from_str(json).expect("feature JSON")
}

pub(super) async fn ready_version(base: &str) -> Option<String> {
    let (status, _, body) = get(&format!("{base}/readyz")).await;
    let json: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    (status == 200).then(|| json["version"].as_str().unwrap_or_default().to_string())
}

/// Serves `body` for any request, for archives no API host would make.
pub(super) fn serve_bytes(body: Vec<u8>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    format!("http://{addr}/bundle.tar.gz")
}

/// A `.tar.gz` of `files`, plus raw entries (name, link target) written without the tar
/// crate's path checks, the way a hostile archive would be.
pub(super) fn tar_gz(files: &BTreeMap<String, Vec<u8>>, raw: &[(&str, Option<&str>)]) -> Vec<u8> {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut builder = tar::Builder::new(encoder);
    for (path, contents) in files {
        if path.is_empty() || path.ends_with('/') || path == "." {
            continue; // folder entries
        }
        let mut header = tar::Header::new_gnu();
        header.set_size(contents.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, path, contents.as_slice())
            .expect("append");
    }
    for (name, link) in raw {
        let mut header = tar::Header::new_old();
        let bytes = name.as_bytes();
        header.as_old_mut().name[..bytes.len()].copy_from_slice(bytes);
        header.set_mode(0o644);
        match link {
            Some(target) => {
                header.set_entry_type(tar::EntryType::Symlink);
                header.set_size(0);
                let target = target.as_bytes();
                header.as_old_mut().linkname[..target.len()].copy_from_slice(target);
                header.set_cksum();
                builder
                    .append(&header, std::io::empty())
                    .expect("append link");
            }
            None => {
                let data = b"written outside";
                header.set_size(data.len() as u64);
                header.set_cksum();
                builder.append(&header, &data[..]).expect("append raw");
            }
        }
    }
    builder.into_inner().expect("tar").finish().expect("gzip")
}

#[tokio::test]
async fn a_docs_server_serves_installs_pins_and_refuses_bad_bundles() {
    let (_instance, server, key, _) = api_host("[links]\nlifetime_secs = 6\n");
    let api = Api::new(&server.base, &key);
    api.publish_example_site("v1").await;
    let (link_v1, bytes_v1) = export_link(&api, "v1").await;
    let v1_made = std::time::Instant::now();
    let home = tempfile::tempdir().expect("tempdir");
    let data = home.path().join("docs-data");

    // 1. Serve v1 from its link.
    let docs = docs_server(&data, &["--bundle-url", &link_v1]);
    let base = docs.base.clone();
    assert_eq!(
        ready_version(&base).await.as_deref(),
        Some("v1"),
        "{}",
        docs.log()
    );
    let (status, headers, html) = get(&format!("{base}/")).await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    assert!(html.contains("Welcome to Acme Widgets"));
    let (status, headers, html) = get(&format!("{base}/guides/webhooks")).await;
    assert_eq!(status, 200, "extensionless canonical URLs resolve");
    assert!(html.contains("<title>Webhooks"));
    assert_eq!(headers["cache-control"], "no-cache");
    let etag = headers["etag"].to_str().unwrap().to_string();
    let response = quire::http_client::client()
        .get(format!("{base}/guides/webhooks"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        304,
        "revalidation with the manifest's hash"
    );
    // The theme's files are named by their content: cached for a year.
    let stylesheet = html
        .split("rel=\"stylesheet\" href=\"../")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_string();
    assert!(stylesheet.starts_with("assets/quire."), "{stylesheet}");
    let (status, headers, css) = get(&format!("{base}/{stylesheet}")).await;
    assert_eq!(status, 200);
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/css")
    );
    assert_eq!(
        headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(css.contains("--quire-primary"));
    let gzipped = quire::http_client::client()
        .get(format!("{base}/{stylesheet}"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(gzipped.headers()["content-encoding"], "gzip");
    let (status, _, page) = get(&format!("{base}/no/such/page")).await;
    assert_eq!(status, 404);
    assert!(page.contains("Page not found"), "the bundle's own 404 page");
    // The 404 page finds the bundle's root by asking for its manifest, without its body.
    let head = quire::http_client::client()
        .head(format!("{base}/manifest.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    let (status, _, _) = get(&format!("{base}/..%2f..%2fetc/passwd")).await;
    assert_eq!(status, 404);
    let (_, _, features) = get(&format!("{base}/quire-features.js")).await;
    assert!(features.contains("\"deployment\":\"cloud\""), "{features}");
    assert_eq!(get(&format!("{base}/healthz")).await.0, 200);
    drop(docs);

    // 2. A second export with a new version replaces it.
    let site_v2 = home.path().join("site-v2");
    common::sites::copy_dir(&common::example_site(), &site_v2);
    std::fs::write(
        site_v2.join("index.mdx"),
        "---\ntitle: Version two\n---\n\nThe second edition.\n",
    )
    .unwrap();
    let (status, body) = api
        .publish("docs.acme.test", "v2", tar_gz_dir(&site_v2))
        .await;
    assert_eq!(status, 201, "{body}");
    let (link_v2, _) = export_link(&api, "v2").await;
    let docs = docs_server(&data, &["--bundle-url", &link_v2]);
    assert_eq!(ready_version(&docs.base).await.as_deref(), Some("v2"));
    assert!(
        get(&format!("{}/", docs.base))
            .await
            .2
            .contains("The second edition.")
    );
    drop(docs);

    // 3. Pinned to v1, already unpacked: served without downloading.
    let docs = docs_server(&data, &["--bundle-url", &link_v2, "--version", "v1"]);
    assert_eq!(ready_version(&docs.base).await.as_deref(), Some("v1"));
    assert!(docs.log().contains("already unpacked"), "{}", docs.log());
    drop(docs);

    // 4. Pinned to a version the link does not hold: refused, the current one stays.
    let (link_v2, _) = export_link(&api, "v2").await;
    let other = home.path().join("pin-data");
    let docs = docs_server(&other, &["--bundle-url", &link_v2, "--version", "v7"]);
    assert_eq!(
        ready_version(&docs.base).await,
        None,
        "nothing to serve yet"
    );
    let (status, _, body) = get(&format!("{}/readyz", docs.base)).await;
    assert_eq!(status, 503);
    assert!(body.contains("pinned to \\\"v7\\\""), "{body}");
    drop(docs);

    // 5. An expired link: reported as such, and v1 (the active one) keeps serving.
    tokio::time::sleep(Duration::from_secs(7).saturating_sub(v1_made.elapsed())).await;
    let docs = docs_server(&data, &["--bundle-url", &link_v1]);
    assert_eq!(ready_version(&docs.base).await.as_deref(), Some("v1"));
    assert!(
        docs.log().contains("the bundle link has expired"),
        "{}",
        docs.log()
    );

    // 6. A tampered bundle: refused; nothing changes.
    // Same size, different bytes: only the hash can tell.
    let mut tampered = unpack(&bytes_v1);
    let page = tampered.get_mut("quickstart.html").unwrap();
    let at = page.windows(10).position(|w| w == b"Quickstart").unwrap();
    page[at..at + 10].copy_from_slice(b"Defaced!!!");
    let tampered_url = serve_bytes(tar_gz(&tampered, &[]));
    drop(docs);
    let docs = docs_server(&data, &["--bundle-url", &tampered_url]);
    assert!(
        docs.log()
            .contains("quickstart.html: its SHA-256 does not match"),
        "{}",
        docs.log()
    );
    assert_eq!(ready_version(&docs.base).await.as_deref(), Some("v1"));
    assert!(
        !get(&format!("{}/quickstart", docs.base))
            .await
            .2
            .contains("defaced")
    );
    drop(docs);

    // 7. Archives that climb out or link out: refused, nothing written outside.
    for (name, link, expected) in [
        ("../../escaped.txt", None, "outside the bundle folder"),
        ("innocent.txt", Some("/etc/passwd"), "is a link"),
    ] {
        let url = serve_bytes(tar_gz(&unpack(&bytes_v1), &[(name, link)]));
        let docs = docs_server(&data, &["--bundle-url", &url]);
        assert!(docs.log().contains(expected), "{}", docs.log());
        assert_eq!(ready_version(&docs.base).await.as_deref(), Some("v1"));
        drop(docs);
    }
    assert!(!home.path().join("escaped.txt").exists());
    assert!(!data.join("escaped.txt").exists());
    assert!(!Path::new("/escaped.txt").exists());
}
