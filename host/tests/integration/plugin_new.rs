//! `quire plugin new`: each role's template, as generated, builds and passes its own test (which
//! runs the component in Quire's runtime); the generated renderer then runs in a server, whose
//! log shows the plugin's own lines under its name.
//!
//! The generated crates build in the workspace's target folder, with the workspace's lock file and
//! in its release profile. The SDK's runtime pins its dependencies' features to the workspace's
//! (the `workspace-hack` crate), so they reuse the wasmtime the workspace built rather than
//! compiling it again; the test fails if they do not, since that costs minutes of every CI run.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::{Api, Instance};
use serde_json::json;

/// Creates the plugin `name` of `role` in `parent` and runs its tests; returns their output.
fn create_and_test(role: &str, name: &str, parent: &Path) -> String {
    let created = Command::new(env!("CARGO_BIN_EXE_quire"))
        .args(["plugin", "new", role, name, "--path"])
        .arg(parent)
        .output()
        .expect("run quire plugin new");
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let stdout = String::from_utf8_lossy(&created.stdout);
    assert!(
        stdout.contains("cargo test"),
        "it says what to do next: {stdout}"
    );
    let dir = parent.join(name);
    for file in ["Cargo.toml", "src/lib.rs", "tests/plugin.rs", "README.md"] {
        assert!(dir.join(file).is_file(), "{file} is created");
    }
    std::fs::copy(
        common::workspace().join("Cargo.lock"),
        dir.join("Cargo.lock"),
    )
    .expect("lock file");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // `cargo test` as the template's README says, in the release profile the workspace's own
    // build used, so that wasmtime is not compiled a second time.
    let tested = Command::new(cargo)
        .args(["test", "--release", "--offline"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", common::workspace().join("target"))
        .output()
        .expect("run cargo test");
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&tested.stdout),
        String::from_utf8_lossy(&tested.stderr)
    );
    assert!(
        tested.status.success(),
        "the {role} template's tests fail:\n{output}"
    );
    assert!(output.contains("1 passed"), "{output}");
    assert!(
        !output.contains("Compiling wasmtime v"),
        "the {role} template compiled wasmtime again instead of reusing the workspace's: a \
         shared dependency's features differ between the two (see workspace-hack/Cargo.toml):\n{output}"
    );
    output
}

#[tokio::test]
async fn every_template_builds_and_passes_its_own_test_and_the_renderer_runs_in_the_host() {
    let parent = tempfile::tempdir().expect("plugins folder");
    for (role, name) in [
        ("renderer", "template-check-renderer"),
        ("retriever", "template-check-retriever"),
        ("packager", "template-check-packager"),
    ] {
        create_and_test(role, name, parent.path());
    }

    // The renderer, built by its own test, serves a real export.
    let wasm = common::wasm("template_check_renderer");
    let instance = Instance::new(&format!("[plugins]\nrenderer = \"{}\"\n", wasm.display()));
    let key = instance.generated_site("docs.acme.test", 4);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (_, last) = api
        .run_job(json!({"domain": "docs.acme.test"}), Duration::from_secs(60))
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let log = server.log();
    let line = log
        .lines()
        .find(|l| l.contains("rendering 4 pages of Generated"))
        .unwrap_or_else(|| panic!("the plugin's log line reaches the host's log:\n{log}"));
    assert!(line.contains("template_check_renderer (job"), "{line}");
}

#[test]
fn a_bad_name_or_an_existing_folder_is_refused() {
    let parent = tempfile::tempdir().expect("plugins folder");
    let run = |name: &str| {
        Command::new(env!("CARGO_BIN_EXE_quire"))
            .args(["plugin", "new", "renderer", name, "--path"])
            .arg(parent.path())
            .output()
            .expect("run quire plugin new")
    };
    let bad = run("My Plugin");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("must start with a letter"));
    assert!(run("fine").status.success());
    let again = run("fine");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
}
