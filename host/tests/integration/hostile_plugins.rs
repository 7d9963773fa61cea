//! Misbehaving plugins: a page they cannot render becomes a warning and a fallback page within
//! their limits, the export goes on with a fresh instance, and the server goes on serving.

use crate::common;

use std::time::{Duration, Instant};

use crate::common::{Api, Instance};
use serde_json::json;

/// A server whose renderer is the hostile fixture, with the hostile site published;
/// `config` adds settings after the renderer line.
fn hostile_world(config: &str) -> (Instance, common::Server, Api) {
    hostile_world_of(config, common::sites::HOSTILE_PAGES)
}

/// The same with a hostile site of `pages` only.
fn hostile_world_of(config: &str, pages: &[&str]) -> (Instance, common::Server, Api) {
    let hostile = common::wasm("quire_hostile_renderer");
    let instance = Instance::new(&format!(
        "[plugins]\nrenderer = \"{}\"\n{config}",
        hostile.display()
    ));
    let key = instance.organization("acme", "enterprise");
    let site = tempfile::tempdir().expect("site dir");
    common::sites::hostile_pages(site.path(), pages);
    let path = site.path().to_str().expect("utf-8 path");
    instance.publish_folder("hostile.acme.test", path, "acme", None);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    (instance, server, api)
}

#[tokio::test]
async fn each_misbehaving_page_becomes_a_warning_and_a_fallback_page() {
    let (_instance, server, api) = hostile_world(
        "memory_limit_mib = 64\ncpu_time_limit_ms = 1000\noutput_limit_mib = 16\n\n[jobs]\nworkers = 1\n",
    );

    let cases = [
        ("trap", "crashed (trapped) while rendering trap.md"),
        (
            "loop",
            "exceeded its CPU time limit of 1s while rendering loop.md",
        ),
        (
            "hoard",
            "exceeded its memory limit of 64 MiB while rendering hoard.md",
        ),
        ("flood", "more than its output limit of 16777216 bytes"),
    ];
    for (page, expected) in cases {
        let started = Instant::now();
        let (job_id, last) = api
            .run_job(
                json!({"domain": "hostile.acme.test", "paths": [page]}),
                Duration::from_secs(60),
            )
            .await;
        let elapsed = started.elapsed();
        assert_eq!(last["status"], "completed", "{page}: {last}");
        let warning = &last["warnings"][0];
        assert_eq!(warning["file"], format!("{page}.md"), "{last}");
        let message = warning["message"].as_str().unwrap();
        assert!(
            message.contains("quire_hostile_renderer"),
            "{page}: {message}"
        );
        assert!(
            message.contains(expected),
            "{page}: {message:?} should contain {expected:?}"
        );
        assert!(
            elapsed < Duration::from_secs(15),
            "{page} took {elapsed:?} to end"
        );
        let (_, bytes) = api.download_bundle(&job_id).await;
        let files = common::archive::unpack(&bytes);
        let html = String::from_utf8_lossy(&files[&format!("{page}.html")]).into_owned();
        assert!(html.contains("data-quire-fallback"), "{page}: {html}");
        let health = quire::http_client::client()
            .get(format!("{}/healthz", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(health.status(), 200, "the server must survive {page}");
    }

    // Bad pages among good ones: the renderer is replaced after each, and the rest render.
    let (job_id, last) = api
        .run_job(
            json!({"domain": "hostile.acme.test", "paths": ["fine", "trap", "loop", "fine2"]}),
            Duration::from_secs(60),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    assert_eq!(last["warningCount"], 2, "{last}");
    let (_, bytes) = api.download_bundle(&job_id).await;
    let files = common::archive::unpack(&bytes);
    for good in ["fine.html", "fine2.html"] {
        let html = String::from_utf8_lossy(&files[good]).into_owned();
        assert!(!html.contains("data-quire-fallback"), "{good}: {html}");
    }
    assert!(
        server.log().contains("hostile renderer opened"),
        "plugin log lines reach the host log"
    );

    // Operators see them in /metrics, by kind.
    let metrics = quire::http_client::client()
        .get(format!("{}/metrics", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for (kind, count) in [("trap", 2), ("timeout", 2), ("memory", 1)] {
        let series = format!(
            "quire_plugin_traps_total{{plugin=\"quire_hostile_renderer\",kind=\"{kind}\"}} {count}"
        );
        assert!(metrics.contains(&series), "{series} in {metrics}");
    }
    assert!(
        metrics.contains("quire_export_page_failures_total 6"),
        "{metrics}"
    );
    assert!(
        metrics.contains("quire_exports_finished_total{outcome=\"completed\"} 5"),
        "{metrics}"
    );
}

#[tokio::test]
async fn plugins_see_no_files_environment_network_or_clock() {
    let (_instance, _server, api) = hostile_world("cpu_time_limit_ms = 1000\n");
    let (job_id, last) = api
        .run_job(
            json!({"domain": "hostile.acme.test", "paths": ["snoop"]}),
            Duration::from_secs(30),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let (_, bytes) = api.download_bundle(&job_id).await;
    let files = common::archive::unpack(&bytes);
    let report = String::from_utf8_lossy(&files["snoop.html"]).into_owned();
    let line = |name: &str| {
        report
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("files").starts_with("denied"), "{report}");
    assert!(line("cwd_file").starts_with("denied"), "{report}");
    assert_eq!(line("env"), "0", "{report}");
    assert_eq!(line("args"), "0", "{report}");
    assert!(line("network").starts_with("denied"), "{report}");
    assert_eq!(line("clock"), "0", "the clock is frozen: {report}");
}

/// What a plugin call may hand the host is bounded by the plugin's own memory limit, not by
/// wasmtime's default of 128 MiB: a page of 136 MiB renders when the limits allow it (the
/// finished search index of a large site is such a return).
#[tokio::test]
async fn a_call_may_return_as_much_as_the_limits_allow() {
    let (_instance, _server, api) = hostile_world_of(
        "memory_limit_mib = 512\noutput_limit_mib = 200\n\n[plugins.limits.packager]\nmemory_limit_mib = 1024\n\n[jobs]\nworkers = 1\n",
        &["fine", "deluge"],
    );
    let (job_id, last) = api
        .run_job(
            json!({"domain": "hostile.acme.test", "paths": ["deluge"]}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    assert_eq!(last["warningCount"], 0, "job {job_id}: {last}");
}
