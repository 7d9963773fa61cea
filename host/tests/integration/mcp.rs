//! The sites' MCP servers, driven by the official TypeScript client (`host/tests/mcp/`,
//! installed by `scripts/setup --test`): the API host's `/mcp/{domain}` on both stores, open
//! and keyed, `quire mcp` over stdio, and the MCP conformance suite's scenarios that apply to a
//! docs server. The docs server's `/mcp` is in `docs_server/mcp.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{self, Instance, postgres::Postgres};

fn mcp_tests_dir() -> PathBuf {
    let dir = common::workspace().join("host/tests/mcp");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").is_dir(),
        "the MCP client is not installed: run scripts/setup --test"
    );
    dir
}

/// Runs a Node test file of `host/tests/mcp` with `env`; asserts every test passed, showing
/// `log` (the server's) if not.
pub fn run_node_tests(file: &str, env: &[(&str, &str)], log: &dyn Fn() -> String) {
    let dir = mcp_tests_dir();
    let output = Command::new("node")
        .arg("--test")
        .arg(file)
        .current_dir(&dir)
        .envs(env.iter().copied())
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&output.stdout);
    println!("{report}");
    assert!(
        output.status.success() && report.contains("# fail 0"),
        "the MCP client tests failed:\n{report}\n{}\nserver log:\n{}",
        String::from_utf8_lossy(&output.stderr),
        log()
    );
}

/// Publishes the example site on `instance`, starts it and runs the client suite against
/// `/mcp/docs.acme.test` with the site's assistant key.
fn client_suite_on(instance: &Instance) {
    let key = instance.example_site_for_assistant();
    let server = instance.start();
    let url = format!("{}/mcp/docs.acme.test", server.base);
    run_node_tests(
        "http.test.mjs",
        &[("QUIRE_MCP_URL", &url), ("QUIRE_KEY", &key)],
        &|| server.log(),
    );
    // The client's searches took the direct path (its answers are the SDK's, held equal by a
    // unit test), and everything else the SDK.
    let metrics = tokio::runtime::Runtime::new()
        .expect("runtime")
        .block_on(async {
            quire::http_client::client()
                .get(format!("{}/metrics", server.base))
                .send()
                .await?
                .text()
                .await
        })
        .expect("metrics");
    for answered_by in ["direct", "sdk"] {
        let series = format!("quire_mcp_requests_total{{outcome=\"{answered_by}\"}} ");
        assert!(metrics.contains(&series), "{series} in {metrics}");
    }
}

#[test]
fn the_official_client_drives_a_sites_mcp_server_on_redb() {
    client_suite_on(&Instance::with_config(""));
}

#[test]
fn the_official_client_drives_a_sites_mcp_server_on_postgresql() {
    let postgres = Postgres::start();
    let database = common::postgres::new_database(&postgres.url());
    client_suite_on(&Instance::with_config(&format!(
        "[database]\nurl = \"{database}\"\n"
    )));
}

/// The conformance suite's scenarios that apply to a docs server (tools and resources of its
/// own, no prompts, sampling, elicitation or logging). The others read or call the suite's own
/// fixtures, which a docs server does not have: `resources-read-text` reads the resource
/// `test://static-text`, the `tools-call-*` scenarios call `test_simple_text` and the like
/// (README.md, "Docs for agents", lists them). Reading a real page as a resource is checked by
/// the client suite (`suite.mjs`).
pub const CONFORMANCE_SCENARIOS: &[&str] = &[
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "dns-rebinding-protection",
    "server-sse-polling",
    "server-sse-multiple-streams",
];

/// Runs the MCP conformance suite's `scenarios` against the MCP endpoint at `url` with Node
/// 22 (the suite's own requirement), asserting each passes.
pub fn run_conformance(url: &str, log: &dyn Fn() -> String) {
    let dir = mcp_tests_dir();
    let node = dir.join("node_modules/.bin/node");
    let suite = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    for scenario in CONFORMANCE_SCENARIOS {
        let results = tempfile::tempdir().expect("results dir");
        let output = Command::new(&node)
            .arg(&suite)
            .args(["server", "--url", url, "--scenario", scenario, "-o"])
            .arg(results.path())
            .current_dir(&dir)
            .output()
            .expect("run the conformance suite");
        let report = String::from_utf8_lossy(&output.stdout);
        println!("{scenario}:\n{report}");
        assert!(
            output.status.success() && !failed_checks(results.path()),
            "conformance scenario {scenario} failed:\n{report}\n{}\nserver log:\n{}",
            String::from_utf8_lossy(&output.stderr),
            log()
        );
    }
}

/// Whether any check the suite wrote under `dir` failed.
fn failed_checks(dir: &Path) -> bool {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
        .any(|text| {
            text.contains("\"status\": \"FAILURE\"") || text.contains("\"status\":\"FAILURE\"")
        })
}

#[test]
fn an_open_sites_mcp_server_passes_the_conformance_suite() {
    let instance = Instance::new("[mcp]\nopen_sites = [\"docs.acme.test\"]\n");
    instance.example_site_for_assistant();
    let server = instance.start();
    let url = format!("{}/mcp/docs.acme.test", server.base);
    // Open: the client suite runs with no key at all.
    run_node_tests("http.test.mjs", &[("QUIRE_MCP_URL", &url)], &|| {
        server.log()
    });
    run_conformance(&url, &|| server.log());
}

#[test]
fn quire_mcp_serves_a_bundle_and_a_site_folder_over_stdio() {
    let instance = Instance::with_config("");
    let bundle = instance.dir.path().join("docs.tar.gz");
    let site = common::example_site();
    instance.cli_ok(&[
        "build",
        site.to_str().expect("utf-8 path"),
        "-o",
        bundle.to_str().expect("utf-8 path"),
        "--format",
        "tar.gz",
        "--domain",
        "docs.acme.test",
    ]);
    let data_dir = instance.data_dir();
    run_node_tests(
        "stdio.test.mjs",
        &[
            ("QUIRE_BIN", env!("CARGO_BIN_EXE_quire")),
            ("QUIRE_DATA_DIR", data_dir.to_str().expect("utf-8 path")),
            ("QUIRE_PLUGINS__CACHE_DIR", common::plugin_cache()),
            ("QUIRE_BUNDLE", bundle.to_str().expect("utf-8 path")),
            ("QUIRE_SITE", site.to_str().expect("utf-8 path")),
        ],
        &String::new,
    );
}
