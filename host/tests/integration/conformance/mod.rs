//! Real docs.json sites publish and export completely. Each site in `../shared/corpora` (real
//! public sites, text files only) is published with the real binary and exported over the API,
//! and the bundle is read as a reader's browser reads it: every page the site's navigation
//! names is exported and listed in the sidebar data its own page loads, under its section; no
//! link between pages is broken; no script, style sheet or frame comes from off the bundle. A
//! sample of each site's pages is then served by an air-gapped docs server and opened in
//! headless Chromium: each page's link is current in the sidebar it draws, and no request
//! leaves the server.
//! The figures are printed and written to `target/conformance.md`; BENCHMARKS.md keeps them.
//! What the site's files expect is read in `expected.rs`, the bundle checked in `check.rs`.

mod check;
mod expected;

use check::check;
pub(crate) use expected::reading_pages;

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::archive::unpack;
use crate::common::{Api, Instance};
use serde_json::json;

/// Files the corpora leave out (they carry text only), so links to them may be missing; any
/// other link with a file extension counts the same.
/// What the corpora leave out (images, video, fonts; PDFs with them): a link to one may be
/// missing. Any other file a link names must be in the bundle.
pub(super) const MEDIA: &[&str] = &[
    ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".avif", ".mp4", ".webm", ".mov",
    ".mp3", ".woff", ".woff2", ".ttf", ".otf", ".pdf",
];

/// One site's figures.
#[derive(Debug, Default)]
struct Figures {
    site: String,
    pages: usize,
    navigation_pages: usize,
    exported: usize,
    in_sidebar: usize,
    pages_with_warnings: usize,
    /// Of those, pages the navigation names (what readers browse).
    navigation_pages_with_warnings: usize,
    warnings: BTreeMap<&'static str, usize>,
    broken_links: Vec<(String, String)>,
    missing_media: usize,
    off_bundle: Vec<(String, String)>,
    export_seconds: f64,
}

#[tokio::test]
async fn shared_corpora_publish_and_export_completely() {
    let instance = Instance::new("[jobs]\nworkers = 1\n");
    let key = instance.organization("acme", "enterprise");
    let sites = tempfile::tempdir().expect("sites dir");
    let (names, roots): (Vec<String>, Vec<_>) = common::sites::unpack_corpora(sites.path())
        .into_iter()
        .unzip();
    for (name, root) in names.iter().zip(&roots) {
        instance.publish_folder(
            &format!("{name}.test"),
            root.to_str().expect("utf-8"),
            "acme",
            Some("v1"),
        );
    }

    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let mut table = Vec::new();
    for (name, root) in names.iter().zip(&roots) {
        let started = Instant::now();
        let job_id = api
            .start_job(json!({"domain": format!("{name}.test")}))
            .await;
        let last = api
            .wait_job(&job_id, Duration::from_secs(900))
            .await
            .pop()
            .expect("a state");
        let export_seconds = started.elapsed().as_secs_f64();
        assert_eq!(last["status"], "completed", "{name}: {last}");
        let (_, all) = api
            .get(&format!("/v1/static-export/jobs/{job_id}?warnings=all"))
            .await;
        // Every warning, past the 500 the job record keeps (the list is left out when empty).
        assert_eq!(
            all["warnings"].as_array().map_or(0, Vec::len),
            all["warningCount"]
                .as_u64()
                .map_or(usize::MAX, |n| n as usize),
            "{name}: ?warnings=all lists every warning"
        );
        let (view, bytes) = api.download_bundle(&job_id).await;
        let bundle = unpack(&bytes);
        // QUIRE_CONFORMANCE_KEEP=DIR keeps each export, unpacked, for a look in a browser.
        if let Some(keep) = std::env::var_os("QUIRE_CONFORMANCE_KEEP") {
            for (path, contents) in &bundle {
                let target = Path::new(&keep).join(name).join(path);
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).expect("mkdir");
                }
                std::fs::write(target, contents).expect("keep the export");
            }
        }
        let mut figures = check(name, root, &bundle, &all["warnings"]);
        let url = view["bundleUrl"].as_str().expect("bundleUrl");
        let data = instance.dir.path().join(format!("docs-{name}"));
        let docs = common::docs_server(&data, &["--bundle-url", url, "--deployment", "air-gapped"]);
        wait_until_ready(&docs.base).await;
        in_chromium(name, &docs.base, &sample(&bundle, &reading_pages(root)));
        drop(docs);
        figures.export_seconds = export_seconds;
        figures.pages = last["totalPages"].as_u64().unwrap_or_default() as usize;
        table.push(figures);
    }

    let report = render(&table);
    println!("{report}");
    let out = common::workspace().join("target/conformance.md");
    std::fs::write(&out, &report).expect("write the report");
    for f in &table {
        assert_eq!(
            f.exported, f.navigation_pages,
            "{}: navigation pages not exported",
            f.site
        );
        assert_eq!(
            f.in_sidebar, f.navigation_pages,
            "{}: navigation pages not in their sidebar",
            f.site
        );
        assert!(
            f.broken_links.is_empty(),
            "{}: {} broken links, such as {:?}",
            f.site,
            f.broken_links.len(),
            &f.broken_links[..f.broken_links.len().min(5)]
        );
        assert_eq!(
            f.warnings.get(check::UNKNOWN_ELEMENT),
            None,
            "{}: lowercase tags (HTML, SVG, MathML elements) taken for components",
            f.site
        );
        assert!(
            f.navigation_pages_with_warnings * 50 < f.navigation_pages.max(1),
            "{}: {} of {} navigation pages have a warning (2% at most)",
            f.site,
            f.navigation_pages_with_warnings,
            f.navigation_pages
        );
        assert!(
            f.off_bundle.is_empty(),
            "{}: scripts, styles or frames from off the bundle: {:?}",
            f.site,
            &f.off_bundle[..f.off_bundle.len().min(5)]
        );
    }
}

/// About eight navigation pages spread over the site, among those that have a sidebar.
fn sample(bundle: &BTreeMap<String, Vec<u8>>, pages: &[String]) -> Vec<String> {
    let with_sidebar: Vec<&String> = pages
        .iter()
        .filter(|p| {
            bundle
                .get(&format!("{p}.html"))
                .is_some_and(|html| String::from_utf8_lossy(html).contains("id=\"sidebar-tree\""))
        })
        .collect();
    let step = (with_sidebar.len() / 8).max(1);
    let mut sample: Vec<String> = with_sidebar
        .iter()
        .step_by(step)
        .take(8)
        .map(|p| (*p).clone())
        .collect();
    // And two pages with a Mermaid diagram, which must be drawn with no request off the server,
    // and one with an embed from another site, which must become a link card.
    for (marker, count) in [("mermaid-block", 2), ("data-quire-embed", 1)] {
        let pages = with_sidebar.iter().filter(|p| {
            bundle
                .get(&format!("{p}.html"))
                .is_some_and(|html| String::from_utf8_lossy(html).contains(marker))
        });
        for page in pages.take(count) {
            if !sample.contains(page) {
                sample.push((*page).clone());
            }
        }
    }
    sample
}

/// Waits until the docs server at `base` has installed its bundle.
async fn wait_until_ready(base: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let ready = quire::http_client::client()
            .get(format!("{base}/readyz"))
            .send()
            .await;
        if ready.is_ok_and(|r| r.status() == 200) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the docs server at {base} did not become ready"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Opens `pages` of the site served at `base` in headless Chromium (`tests/browser/sidebar.test.mjs`).
fn in_chromium(name: &str, base: &str, pages: &[String]) {
    let dir = common::workspace().join("host/tests/browser");
    assert!(
        dir.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run scripts/setup --test"
    );
    let artifacts = common::workspace()
        .join("target/browser-artifacts/conformance")
        .join(name);
    let output = std::process::Command::new("node")
        .args(["--test", "--test-concurrency=1", "sidebar.test.mjs"])
        .current_dir(&dir)
        .env("QUIRE_DOCS_BASE", base)
        .env("QUIRE_PAGES", serde_json::to_string(pages).expect("json"))
        .env("QUIRE_ARTIFACTS", &artifacts)
        .output()
        .expect("run node");
    assert!(
        output.status.success(),
        "{name} in Chromium:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn render(table: &[Figures]) -> String {
    let mut out = String::from(
        "| site | pages | navigation pages | exported | in their sidebar | pages with a warning | navigation pages with a warning | lowercase tags taken for components | warnings by kind | broken links (pages, files) | missing media links | export time |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n",
    );
    for f in table {
        let kinds: Vec<String> = f.warnings.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} ({:.1}%) | {} ({:.1}%) | {} | {} | {} | {} | {:.1} s |",
            f.site,
            f.pages,
            f.navigation_pages,
            f.exported,
            f.in_sidebar,
            f.pages_with_warnings,
            100.0 * f.pages_with_warnings as f64 / f.pages.max(1) as f64,
            f.navigation_pages_with_warnings,
            100.0 * f.navigation_pages_with_warnings as f64 / f.navigation_pages.max(1) as f64,
            f.warnings
                .get(check::UNKNOWN_ELEMENT)
                .copied()
                .unwrap_or_default(),
            if kinds.is_empty() {
                "none".to_string()
            } else {
                kinds.join(", ")
            },
            f.broken_links.len(),
            f.missing_media,
            f.export_seconds,
        );
    }
    out
}
