//! The exported example site in a real browser: export it through the API, unpack the bundle
//! and run `tests/browser/bundle.test.mjs` (headless Chromium from Debian's package, driven by
//! playwright-core; `scripts/setup --test` installs both) over `file://` and over HTTP from a
//! sub-path; and `tests/browser/components.test.mjs` over each component page of the example site,
//! in light and dark mode. Screenshots land in `target/browser-artifacts/`.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::archive::unpack;
use crate::common::{Api, Instance};
use serde_json::json;

/// Exports the example site and writes the unpacked bundle to `dir`; returns the job's warnings.
async fn export_example_site(server: &common::Server, key: &str, dir: &Path) -> serde_json::Value {
    let api = Api::new(&server.base, key);
    api.publish_example_site("v1").await;
    let (job_id, last) = api
        .run_job(
            json!({"domain": "docs.acme.test"}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let (_, bytes) = api.download_bundle(&job_id).await;
    for (path, contents) in unpack(&bytes) {
        let target = dir.join(&path);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        std::fs::write(target, contents).expect("write");
    }
    last["warnings"].clone()
}

fn run_browser(bundle: &Path, artifacts: &str, assistant: Option<(&str, &str)>) -> String {
    run_node_test("bundle.test.mjs", bundle, artifacts, assistant)
}

/// Runs one of `tests/browser`'s node test files against the unpacked `bundle`.
fn run_node_test(
    script: &str,
    bundle: &Path,
    artifacts: &str,
    assistant: Option<(&str, &str)>,
) -> String {
    let env: Vec<(&str, &str)> = match assistant {
        Some((endpoint, key)) => vec![
            ("QUIRE_ASSISTANT_ENDPOINT", endpoint),
            ("QUIRE_ASSISTANT_KEY", key),
        ],
        None => Vec::new(),
    };
    run_node_script(script, bundle, artifacts, &env)
}

/// Runs `tests/browser/{script}` against the unpacked `bundle` with `env` set; returns its
/// report (stdout), failing the test if the script fails.
pub fn run_node_script(
    script: &str,
    bundle: &Path,
    artifacts: &str,
    env: &[(&str, &str)],
) -> String {
    let dir = common::workspace().join("host/tests/browser");
    assert!(
        dir.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run scripts/setup --test"
    );
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "Chromium is not installed: run scripts/setup --test"
    );
    let artifacts = common::workspace()
        .join("target/browser-artifacts")
        .join(artifacts);
    let mut command = Command::new("node");
    command
        .arg("--test")
        .arg("--test-concurrency=1")
        .arg(script)
        .current_dir(&dir)
        .env("QUIRE_BUNDLE_DIR", bundle)
        .env("QUIRE_ARTIFACTS", &artifacts)
        .envs(env.iter().copied());
    let output = command.output().expect("run node");
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "the browser test failed:\n{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    report
}

/// A running host with the example site exported and unpacked into a temporary folder, which
/// must export without a warning.
struct Exported {
    /// Kept alive: its folder holds the server's data.
    _instance: Instance,
    server: common::Server,
    admin: String,
    /// A public assistant key of the same organization.
    assistant: String,
    bundle: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

async fn exported_example_site() -> Exported {
    let instance = Instance::new("");
    let admin = instance.organization("acme", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let server = instance.start();
    let dir = tempfile::tempdir().expect("tempdir");
    let bundle = dir.path().join("bundle");
    let warnings = export_example_site(&server, &admin, &bundle).await;
    assert!(
        warnings.as_array().is_none_or(Vec::is_empty),
        "the example site should export without warnings: {warnings}"
    );
    Exported {
        _instance: instance,
        server,
        admin,
        assistant,
        bundle,
        _dir: dir,
    }
}

#[tokio::test]
async fn the_exported_example_site_works_in_a_browser() {
    // Bound whole: its temporary folder holds the bundle until the test ends.
    let exported = exported_example_site().await;
    let (server, admin, assistant, bundle) = (
        &exported.server,
        &exported.admin,
        &exported.assistant,
        &exported.bundle,
    );
    let endpoint = format!(
        "{}/discovery/v1/assistant/docs.acme.test/message",
        server.base
    );
    let report = run_browser(bundle, "example-site", Some((&endpoint, assistant)));
    assert!(report.contains("# pass 6"), "{report}");
    assert!(report.contains("# fail 0"), "{report}");

    // The beacon's page view and the feedback answer reached the API host.
    let api = Api::new(&server.base, admin);
    let (status, counts) = api.get("/v1/analytics/docs.acme.test/pages").await;
    assert_eq!(status, 200, "{counts}");
    let webhooks = counts["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["path"] == "guides/webhooks")
        .cloned()
        .unwrap_or_else(|| panic!("no analytics for guides/webhooks: {counts}"));
    assert!(webhooks["views"].as_u64().unwrap() >= 1, "{webhooks}");
    assert_eq!(webhooks["helpful"], 1, "{webhooks}");
}

#[tokio::test]
async fn every_component_looks_right_in_light_and_dark_mode() {
    let exported = exported_example_site().await;
    let bundle = &exported.bundle;
    let report = run_node_test("components.test.mjs", bundle, "components", None);
    assert!(report.contains("# fail 0"), "{report}");
    let passed: usize = report
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_default();
    // Two modes per component page, and the count check.
    assert!(passed >= 41, "{report}");
}
