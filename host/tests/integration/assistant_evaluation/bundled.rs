//! The evaluation asked again of the assistant an exported bundle carries, in Chromium from
//! `file://` (`tests/browser/bundle-assistant.test.mjs`).

use std::time::Duration;

use serde_json::{Value, json};

use super::{ask_on, user};
use crate::common::archive::unpack;
use crate::common::{self, Api};

/// Exports the site, then asks each of `cases` (conversations with the server's answers) of the
/// assistant the bundle carries, in Chromium from `file://`, and one through its widget as a
/// reader on the home page asks it; returns the script's figures. Any answer unlike the
/// server's fails the test.
pub async fn bundle_answers(
    server: &common::Server,
    admin: &str,
    key: &str,
    domain: &str,
    site: &str,
    cases: Vec<Value>,
) -> Value {
    let api = Api::new(&server.base, admin);
    let (job_id, last) = api
        .run_job(json!({"domain": domain}), Duration::from_secs(600))
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let (_, bytes) = api.download_bundle(&job_id).await;
    let dir = tempfile::tempdir().expect("bundle folder");
    let bundle = dir.path().join("bundle");
    for (path, contents) in unpack(&bytes) {
        let target = bundle.join(&path);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        std::fs::write(target, contents).expect("write");
    }
    let features = std::fs::read_to_string(bundle.join("quire-features.js")).expect("features");
    assert!(
        features.contains(r#""offline":true"#),
        "the export switches its assistant on: {features}"
    );
    // The widget's question: the first one, by a reader on the home page, which is whatever
    // page the bundle's `index.html` shows (a site without an `index` page sends the browser on
    // to its first navigation page), as the widget names it.
    let first = cases[0]["messages"][0]["content"]
        .as_str()
        .expect("question");
    let home = std::fs::read_to_string(bundle.join("index.html")).expect("index.html");
    let home_page = home
        .split_once("data-page=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(page, _)| format!("/{page}"))
        .or_else(|| {
            let (_, rest) = home.split_once("; url=")?;
            let (target, _) = rest.split_once('"')?;
            Some(format!(
                "/{}",
                target.strip_suffix(".html").unwrap_or(target)
            ))
        })
        .unwrap_or_else(|| panic!("index.html names no page: {home}"));
    let (widget, _) = ask_on(
        &server.base,
        key,
        domain,
        vec![user(first)],
        Some(&home_page),
    )
    .await;
    let file = dir.path().join("cases.json");
    let cases = json!({"cases": cases, "widget": {"question": first, "expected": widget}});
    std::fs::write(&file, cases.to_string()).expect("cases");
    let report = crate::browser::run_node_script(
        "bundle-assistant.test.mjs",
        &bundle,
        &format!("bundle-assistant/{site}"),
        &[("QUIRE_ASSISTANT_CASES", file.to_str().expect("utf-8"))],
    );
    let figures = report
        .lines()
        .find_map(|l| Some(l.split_once("bundle-assistant: ")?.1))
        .unwrap_or_else(|| panic!("no figures in the browser's report:\n{report}"));
    serde_json::from_str(figures).expect("figures")
}
