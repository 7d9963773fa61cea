//! Deltas: the second export of a site names a delta against the first, and a docs server that
//! serves the first updates from it alone (its whole-bundle link points nowhere), serving the
//! changed page; a damaged delta is refused and the whole bundle taken instead, or, when that
//! cannot be had either, the served version stays.

use super::{api_host, export_bundle, get, ready_version, serve_bytes};
use crate::common::archive::tar_gz_dir;
use crate::common::{self, Api, docs_server};

/// Installs the first export in a docs server on `data`, and stops it.
async fn serving_first(data: &std::path::Path, first_url: &str) {
    let docs = docs_server(data, &["--bundle-url", first_url]);
    assert_eq!(
        ready_version(&docs.base).await.as_deref(),
        Some("v1"),
        "{}",
        docs.log()
    );
}

/// A link nothing answers at.
fn dead_link() -> String {
    format!("http://127.0.0.1:{}/bundle.tar.gz", common::free_port())
}

#[tokio::test]
async fn a_docs_server_updates_from_a_delta_and_falls_back_on_a_bad_one() {
    let (instance, server, key, _) = api_host("");
    let api = Api::new(&server.base, &key);
    let site = tempfile::tempdir().expect("site");
    common::sites::copy_dir(&common::example_site(), site.path());
    let (status, body) = api
        .publish("docs.acme.test", "v1", tar_gz_dir(site.path()))
        .await;
    assert_eq!(status, 201, "{body}");
    let (first, _) = export_bundle(&api, "v1").await;
    assert!(
        first.get("delta").is_none(),
        "nothing to be a delta against: {first}"
    );

    let page = site.path().join("quickstart.mdx");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\nA sentence only the second release has.\n");
    std::fs::write(&page, text).unwrap();
    let (status, body) = api
        .publish("docs.acme.test", "v2", tar_gz_dir(site.path()))
        .await;
    assert_eq!(status, 201, "{body}");
    let (second, _) = export_bundle(&api, "v2").await;
    let delta = &second["delta"];
    assert_eq!(delta["baseJobId"], first["jobId"], "{second}");
    assert_eq!(delta["baseVersion"], "v1", "{second}");
    let (delta_size, full_size) = (
        delta["sizeBytes"].as_u64().expect("sizeBytes"),
        second["sizeBytes"].as_u64().expect("sizeBytes"),
    );
    assert!(
        delta_size * 5 < full_size,
        "the delta ({delta_size} bytes) is a small part of the bundle ({full_size})"
    );
    // Only the last archive's index is kept for the next export.
    let index_of = |bundle: &serde_json::Value| {
        let job = bundle["jobId"].as_str().expect("jobId");
        instance
            .data_dir()
            .join(format!("storage/jobs/{job}/archive-index.json"))
    };
    assert!(index_of(&second).is_file());
    assert!(!index_of(&first).exists(), "the replaced index is removed");
    let delta_url = delta["url"].as_str().expect("url").to_string();
    let delta_bytes = quire::http_client::client()
        .get(&delta_url)
        .send()
        .await
        .expect("download the delta")
        .bytes()
        .await
        .expect("body")
        .to_vec();
    assert_eq!(delta_bytes.len() as u64, delta_size);
    // The whole-site files a page's sentence changes go as patches against v1's contents.
    let entries = crate::common::archive::unpack(&delta_bytes);
    let (_, manifest_patch) = entries
        .iter()
        .find(|(path, _)| *path == "manifest-patch.json")
        .expect("the delta's manifest patch");
    let manifest_patch: serde_json::Value =
        serde_json::from_slice(manifest_patch).expect("manifest patch JSON");
    let patched: Vec<&str> = manifest_patch["patched"]
        .as_array()
        .expect("patched files")
        .iter()
        .filter_map(|p| p["path"].as_str())
        .collect();
    assert!(patched.contains(&"llms-full.txt"), "{patched:?}");
    assert!(
        !entries.iter().any(|(path, _)| *path == "llms-full.txt"),
        "llms-full.txt is patched, not carried whole"
    );

    let home = tempfile::tempdir().expect("tempdir");
    let data = home.path().join("docs-data");
    let first_url = first["bundleUrl"].as_str().unwrap().to_string();
    let second_url = second["bundleUrl"].as_str().unwrap().to_string();

    // Serving v1, then restarted with the delta: its whole-bundle link answers nothing, so v2
    // can only come from the delta.
    serving_first(&data, &first_url).await;
    let docs = docs_server(
        &data,
        &["--bundle-url", &dead_link(), "--delta-url", &delta_url],
    );
    assert_eq!(
        ready_version(&docs.base).await.as_deref(),
        Some("v2"),
        "{}",
        docs.log()
    );
    let (status, _, html) = get(&format!("{}/quickstart", docs.base)).await;
    assert_eq!(status, 200);
    assert!(html.contains("A sentence only the second release has."));
    let (status, _, html) = get(&format!("{}/guides/webhooks", docs.base)).await;
    assert_eq!(status, 200, "an unchanged page, taken from v1");
    assert!(html.contains("<title>Webhooks"));
    assert!(
        docs.log().contains("installed from the delta"),
        "{}",
        docs.log()
    );
    drop(docs);

    // A damaged delta on a server serving v1: refused, and the whole bundle taken instead.
    let mut damaged = delta_bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0xff;
    let damaged_url = serve_bytes(damaged);
    let data = home.path().join("docs-data-2");
    serving_first(&data, &first_url).await;
    let docs = docs_server(
        &data,
        &["--bundle-url", &second_url, "--delta-url", &damaged_url],
    );
    assert_eq!(
        ready_version(&docs.base).await.as_deref(),
        Some("v2"),
        "{}",
        docs.log()
    );
    let log = docs.log();
    assert!(log.contains("the delta cannot be used"), "{log}");
    assert!(!log.contains("installed from the delta"), "{log}");
    drop(docs);

    // The same damaged delta with no whole bundle to be had: v1 stays served, whole.
    let data = home.path().join("docs-data-3");
    serving_first(&data, &first_url).await;
    let docs = docs_server(
        &data,
        &["--bundle-url", &dead_link(), "--delta-url", &damaged_url],
    );
    assert_eq!(
        ready_version(&docs.base).await.as_deref(),
        Some("v1"),
        "{}",
        docs.log()
    );
    let (status, _, html) = get(&format!("{}/quickstart", docs.base)).await;
    assert_eq!(status, 200);
    assert!(!html.contains("A sentence only the second release has."));
    drop(docs);

    // A server serving nothing yet cannot use a delta: it takes the whole bundle.
    let docs = docs_server(
        &home.path().join("docs-data-4"),
        &["--bundle-url", &second_url, "--delta-url", &delta_url],
    );
    assert_eq!(
        ready_version(&docs.base).await.as_deref(),
        Some("v2"),
        "{}",
        docs.log()
    );
    assert!(
        docs.log().contains("no version is served yet"),
        "{}",
        docs.log()
    );
    drop(docs);
}
