//! Operators and components: which component serves each role per deployment type, checked at
//! startup; contract versions; per-role limits; and replacing a component file while the server
//! runs (work in flight finishes on the old one, a broken replacement is refused).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{Api, Instance};
use serde_json::{Value, json};

/// Copies `name`'s built component into `dir` (so the test may replace it) and returns the copy.
pub(crate) fn copy_component(name: &str, dir: &Path, as_name: &str) -> PathBuf {
    let target = dir.join(as_name);
    std::fs::copy(common::wasm(name), &target).expect("copy component");
    target
}

/// Replaces `target` with `bytes` the way operators should: write beside it, then rename.
pub(crate) fn replace_file(target: &Path, bytes: &[u8]) {
    let temp = target.with_extension("incoming");
    std::fs::write(&temp, bytes).expect("write replacement");
    std::fs::rename(&temp, target).expect("rename replacement");
}

async fn ready(base: &str) -> Value {
    quire::http_client::client()
        .get(format!("{base}/readyz"))
        .send()
        .await
        .expect("readyz")
        .json()
        .await
        .expect("readyz JSON")
}

pub(crate) async fn renderer_sha(base: &str) -> String {
    ready(base).await["plugins"]["renderer"]["sha256"]
        .as_str()
        .expect("sha256")
        .to_string()
}

pub(crate) fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(std::fs::read(path).expect("read")))
}

/// Waits until `condition` holds, up to 60 s.
pub(crate) async fn eventually<F, Fut>(what: &str, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(60);
    while !condition().await {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The HTML of `page` inside a `.tar.gz` bundle.
pub(crate) fn page_from_bundle(archive: &[u8], page: &str) -> String {
    let mut tar = tar::Archive::new(flate2::read::MultiGzDecoder::new(archive));
    for entry in tar.entries().expect("entries") {
        let mut entry = entry.expect("entry");
        if entry.path().expect("path").to_string_lossy() == page {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut entry, &mut text).expect("read page");
            return text;
        }
    }
    panic!("{page} is not in the bundle");
}

#[tokio::test]
async fn a_replaced_renderer_serves_new_jobs_while_the_running_job_finishes_on_the_old_one() {
    let components = tempfile::tempdir().expect("components dir");
    let renderer = copy_component("quire_renderer", components.path(), "renderer.wasm");
    let minimal = common::wasm("quire_minimal_renderer");
    let instance = Instance::new(&format!(
        "[plugins]\nrenderer = \"{}\"\nwatch_interval_ms = 100\n\n[jobs]\nworkers = 1\n",
        renderer.display()
    ));
    let key = instance.generated_site("big.acme.test", 6000);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let original = renderer_sha(&server.base).await;
    assert_eq!(original, sha256_of(&renderer));

    // A long export starts on the default renderer...
    let running = api.start_job(json!({"domain": "big.acme.test"})).await;
    eventually("the export is under way", || async {
        let (_, job) = api.get(&format!("/v1/static-export/jobs/{running}")).await;
        job["pageCount"].as_u64().unwrap_or(0) > 0
    })
    .await;
    // ...and the renderer file is replaced under it.
    replace_file(
        &renderer,
        &std::fs::read(&minimal).expect("minimal renderer"),
    );
    eventually("the server uses the new renderer", || async {
        renderer_sha(&server.base).await == sha256_of(&minimal)
    })
    .await;
    let (_, job) = api.get(&format!("/v1/static-export/jobs/{running}")).await;
    println!(
        "the swap landed at page {} of {}",
        job["pageCount"], job["totalPages"]
    );
    assert_eq!(
        job["status"], "running",
        "the swap must land while the export runs, or this test proves nothing: {job}"
    );
    assert!(
        server
            .log()
            .contains("plugin replaced; new work uses the new component")
    );

    let states = api.wait_job(&running, Duration::from_secs(300)).await;
    let last = states.last().expect("state");
    assert_eq!(last["status"], "completed", "{last}");
    let (_, archive) = api.download_bundle(&running).await;
    let page = page_from_bundle(&archive, "pages/page-5999.html");
    assert!(
        !page.contains("assets/minimal.css"),
        "the running job finished on the renderer it started with"
    );

    // New work uses the new renderer.
    let (job_id, last) = api
        .run_job(
            json!({"domain": "big.acme.test", "paths": ["pages/page-1"]}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let (_, archive) = api.download_bundle(&job_id).await;
    assert!(page_from_bundle(&archive, "pages/page-1.html").contains("assets/minimal.css"));
}

#[tokio::test]
async fn a_broken_or_wrong_replacement_is_refused_and_the_previous_component_stays() {
    let components = tempfile::tempdir().expect("components dir");
    let renderer = copy_component("quire_minimal_renderer", components.path(), "renderer.wasm");
    let instance = Instance::new(&format!(
        "[plugins]\nrenderer = \"{}\"\nwatch_interval_ms = 100\n",
        renderer.display()
    ));
    let key = instance.generated_site("docs.acme.test", 5);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let original = renderer_sha(&server.base).await;

    let metrics = |base: String| async move {
        quire::http_client::client()
            .get(format!("{base}/metrics"))
            .send()
            .await
            .expect("metrics")
            .text()
            .await
            .expect("metrics text")
    };
    let refused = |text: &str| {
        text.lines()
            .find(|l| {
                l.starts_with("quire_plugin_reloads_total")
                    && l.contains("role=\"renderer\"")
                    && l.contains("outcome=\"refused\"")
            })
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0)
    };

    // Not WebAssembly at all.
    replace_file(&renderer, b"this is not a component");
    eventually("the broken file is refused", || async {
        refused(&metrics(server.base.clone()).await) >= 1
    })
    .await;
    assert!(server.log().contains("plugin replacement refused"));
    assert!(
        server
            .log()
            .contains("is not a valid WebAssembly component")
    );
    assert_eq!(renderer_sha(&server.base).await, original);

    // A real component, but of another role.
    replace_file(
        &renderer,
        &std::fs::read(common::wasm("quire_zip_packager")).expect("zip packager"),
    );
    eventually("the packager is refused as a renderer", || async {
        refused(&metrics(server.base.clone()).await) >= 2
    })
    .await;
    assert!(
        server
            .log()
            .contains("does not satisfy the renderer contract")
    );
    assert_eq!(renderer_sha(&server.base).await, original);

    // Exports still work, on the previous renderer.
    let (_, last) = api
        .run_job(json!({"domain": "docs.acme.test"}), Duration::from_secs(60))
        .await;
    assert_eq!(last["status"], "completed", "{last}");
}

#[tokio::test]
async fn components_are_chosen_per_deployment_type_and_checked_at_startup() {
    let minimal = common::wasm("quire_minimal_renderer");
    let title = common::wasm("quire_title_retriever");
    let overrides = format!(
        "[plugins.deployments.air-gapped]\nrenderer = \"{}\"\n\n[plugins.deployments.cloud]\nretriever = \"{}\"\n",
        minimal.display(),
        title.display()
    );

    let air = Instance::new(&format!(
        "[deployment]\ntype = \"air-gapped\"\n\n{overrides}"
    ));
    let server = air.start();
    let plugins = &ready(&server.base).await["plugins"];
    assert_eq!(plugins["renderer"]["name"], "quire_minimal_renderer");
    assert_eq!(plugins["retriever"]["name"], "quire_retriever");
    drop(server);

    let cloud = Instance::new(&format!("[deployment]\ntype = \"cloud\"\n\n{overrides}"));
    let listing = cloud.cli_ok(&["plugins", "list"]);
    assert!(listing.contains("deployment type cloud"), "{listing}");
    assert!(listing.contains("quire_title_retriever"), "{listing}");
    assert!(listing.contains("quire_renderer"), "{listing}");

    // A component that does not satisfy its role stops the server before it listens.
    let wrong = Instance::new(&format!(
        "[plugins.deployments.cloud]\nrenderer = \"{}\"\n",
        common::wasm("quire_zip_packager").display()
    ));
    let out = wrong.cli(&["serve"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("does not satisfy the renderer contract")
            && stderr.contains("quire_zip_packager.wasm"),
        "{stderr}"
    );

    // So does a deployment type the configuration does not know.
    let unknown = Instance::new("[plugins.deployments.on-prem]\nrenderer = \"x.wasm\"\n");
    let out = unknown.cli(&["serve"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("on-prem"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn a_component_built_against_another_contract_version_is_refused_naming_both() {
    let old = common::wasm("quire_old_contract_renderer");
    let instance = Instance::new(&format!("[plugins]\nrenderer = \"{}\"\n", old.display()));

    let out = instance.cli(&[
        "plugins",
        "check",
        old.to_str().unwrap(),
        "--role",
        "renderer",
    ]);
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("built against contract version 0.1.0")
            && text.contains("this host supports 0.9.0")
            && text.contains("rebuild the plugin with this release's quire-sdk"),
        "{text}"
    );

    let out = instance.cli(&["serve"]);
    assert!(!out.status.success(), "the server must not start");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("contract version 0.1.0") && stderr.contains("supports 0.9.0"),
        "{stderr}"
    );
}

#[tokio::test]
async fn limits_can_be_set_per_role() {
    let hostile = common::wasm("quire_hostile_renderer");
    let instance = Instance::new(&format!(
        "[plugins]\nrenderer = \"{}\"\ncpu_time_limit_ms = 20000\n\n[plugins.limits.renderer]\ncpu_time_limit_ms = 700\nmemory_limit_mib = 48\n",
        hostile.display()
    ));
    let listing = instance.cli_ok(&["plugins", "list"]);
    let renderer_line = listing
        .lines()
        .find(|l| l.starts_with("renderer"))
        .expect("renderer line");
    assert!(
        renderer_line.contains("48 MiB") && renderer_line.contains("700 ms"),
        "{listing}"
    );
    let packager_line = listing
        .lines()
        .find(|l| l.starts_with("packager"))
        .expect("packager line");
    assert!(
        packager_line.contains("256 MiB") && packager_line.contains("20000 ms"),
        "{listing}"
    );

    let key = instance.organization("acme", "enterprise");
    let site = tempfile::tempdir().expect("site dir");
    common::sites::hostile(site.path());
    instance.publish_folder(
        "hostile.acme.test",
        site.path().to_str().unwrap(),
        "acme",
        None,
    );
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (_, last) = api
        .run_job(
            json!({"domain": "hostile.acme.test", "paths": ["loop"]}),
            Duration::from_secs(60),
        )
        .await;
    // The renderer's own limit, not the general one, ends the page: it becomes a warning and a
    // fallback page, and the export completes.
    assert_eq!(last["status"], "completed", "{last}");
    let warning = last["warnings"][0]["message"].as_str().unwrap_or_default();
    assert!(
        warning.contains("exceeded its CPU time limit of 700ms"),
        "{last}"
    );
}

#[tokio::test]
async fn a_retriever_that_cannot_read_an_older_index_says_to_publish_again() {
    let instance = Instance::new("");
    instance.organization("acme", "pro");
    let key = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let site = common::example_site();
    let site = site.to_str().expect("utf-8 path");
    instance.publish_folder("docs.acme.test", site, "acme", None);

    // The operator swaps the retriever by configuration; the stored index is the old format.
    let config_file = instance.dir.path().join("quire.toml");
    let config = format!(
        "{}\n[plugins]\nretriever = \"{}\"\n",
        std::fs::read_to_string(&config_file).expect("config"),
        common::wasm("quire_title_retriever").display()
    );
    std::fs::write(&config_file, config).expect("config");
    let search = |api: Api| async move {
        api.post(
            "/discovery/v1/search/docs.acme.test",
            json!({"query": "webhook signatures"}),
        )
        .await
    };
    let server = instance.start();
    let (status, body) = search(Api::new(&server.base, &key)).await;
    assert_eq!(status, 503, "{body}");
    let message = body["error"].as_str().unwrap_or_default();
    assert!(
        message.contains("quire_title_retriever") && message.contains("publish the site again"),
        "{body}"
    );
    drop(server);

    // Publishing again builds the index with the configured retriever.
    instance.publish_folder("docs.acme.test", site, "acme", None);
    let server = instance.start();
    let (status, body) = search(Api::new(&server.base, &key)).await;
    assert_eq!(status, 200, "{body}");
    assert!(!body.as_array().expect("results").is_empty(), "{body}");
}
