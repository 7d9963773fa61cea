//! The README walkthrough as a test: publish over HTTP, start an export, poll it, generate the
//! bundle link and download the archive, all against a real server on a real socket.

use crate::common;

use std::collections::BTreeMap;
use std::time::Duration;

use crate::common::archive::{links, resolve, unpack};
use crate::common::{Api, Instance};
use serde_json::{Value, json};

/// Every page path listed in a docs.json navigation.
fn navigation_pages(config: &Value, out: &mut Vec<String>) {
    match config {
        Value::String(_) => {}
        Value::Array(items) => items.iter().for_each(|v| navigation_pages(v, out)),
        Value::Object(map) => {
            if let Some(Value::Array(pages)) = map.get("pages") {
                for page in pages {
                    match page {
                        Value::String(p) => out.push(p.clone()),
                        other => navigation_pages(other, out),
                    }
                }
            }
            for (key, value) in map {
                if key != "pages" {
                    navigation_pages(value, out);
                }
            }
        }
        _ => {}
    }
}

/// Asserts every local link of every HTML file (and of the navigation data) resolves to a
/// file of the bundle.
fn assert_self_contained(files: &BTreeMap<String, Vec<u8>>) {
    let mut checked = 0;
    for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(bytes);
        for link in links(&html) {
            if link.starts_with('#') || link.starts_with("mailto:") {
                continue;
            }
            assert!(
                !link.contains("://") && !link.starts_with("//") && !link.starts_with('/'),
                "{path} links outside the bundle: {link}"
            );
            let target = resolve(path, &link)
                .unwrap_or_else(|| panic!("{path}: {link} climbs out of the bundle"));
            assert!(
                files.contains_key(&target),
                "{path}: {link} -> {target} is not in the bundle"
            );
            checked += 1;
        }
    }
    let scripts: Vec<_> = files
        .iter()
        .filter(|(p, _)| p.starts_with("assets/nav/"))
        .collect();
    assert!(!scripts.is_empty(), "no navigation scripts");
    for (path, bytes) in scripts {
        let nav = String::from_utf8_lossy(bytes);
        let json = nav
            .split_once("window.QUIRE_NAV = ")
            .map(|(_, rest)| rest.trim().trim_end_matches(';'))
            .expect("navigation data");
        let nav: Value = serde_json::from_str(json).expect("navigation JSON");
        for item in nav["items"].as_array().expect("items") {
            if item["kind"] == "page" {
                let target = format!("{}.html", item["target"].as_str().unwrap_or_default());
                assert!(
                    files.contains_key(&target),
                    "{path} links to missing {target}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} links checked");
}

/// The site-wide files: sitemap, robots, llms files, search index, feature file, and a
/// manifest whose sizes and hashes match every file.
fn assert_site_files(files: &BTreeMap<String, Vec<u8>>, pages: usize) {
    use sha2::{Digest, Sha256};
    let text = |p: &str| String::from_utf8_lossy(&files[p]).into_owned();
    let sitemap = text("sitemap.xml");
    assert!(
        sitemap.contains("<loc>https://docs.acme.test/</loc>"),
        "{sitemap}"
    );
    assert!(sitemap.contains("<loc>https://docs.acme.test/guides/webhooks</loc>"));
    assert!(
        !sitemap.contains(".html"),
        "canonical URLs have no extension"
    );
    assert_eq!(sitemap.matches("<loc>").count(), pages);
    assert!(text("robots.txt").contains("Sitemap: https://docs.acme.test/sitemap.xml"));
    assert!(text("llms.txt").contains("- [Webhooks](guides/webhooks.md)"));
    assert!(
        text("llms.txt")
            .starts_with("# Acme Widgets\n\n> Build, ship and watch widgets with the Acme API.\n"),
        "docs.json's description is llms.txt's summary"
    );
    assert!(text("llms-full.txt").contains("Source: guides/webhooks.md"));
    assert!(text("quire-features.js").contains("window.QUIRE_FEATURES"));
    assert!(files.contains_key("search/index.js") && files.contains_key("search/d0.js"));
    assert!(files.contains_key("404.html"));

    let manifest: Value = serde_json::from_slice(&files["manifest.json"]).expect("manifest");
    assert!(manifest["contentVersion"].is_string() && manifest["createdAt"].is_string());
    let listed = manifest["files"].as_array().expect("files");
    assert_eq!(
        listed.len(),
        files.len() - 1,
        "every file but the manifest itself"
    );
    for entry in listed {
        let path = entry["path"].as_str().unwrap();
        let bytes = &files[path];
        assert_eq!(entry["size"], bytes.len() as u64, "{path}");
        assert_eq!(
            entry["sha256"],
            hex::encode(Sha256::digest(bytes)),
            "{path}"
        );
    }
}

#[tokio::test]
async fn walkthrough_publish_export_poll_download() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let api = Api::new(&server.base, &key);

    let version = api.publish_example_site("v1").await;
    assert_eq!(version["label"], "v1");

    let (status, job) = api
        .post(
            "/v1/static-export/jobs",
            json!({"domain": "docs.acme.test"}),
        )
        .await;
    assert_eq!(status, 202, "{job}");
    assert_eq!(job["status"], "queued");
    assert!(job["jobId"].as_str().unwrap().starts_with("se_"));
    for field in ["progress", "pageCount", "createdAt", "updatedAt"] {
        assert!(job.get(field).is_some(), "job object lacks {field}: {job}");
    }
    let job_id = job["jobId"].as_str().unwrap();
    let seen = api.wait_job(job_id, Duration::from_secs(60)).await;
    let last = seen.last().unwrap();
    assert_eq!(last["status"], "completed", "{last}");
    assert_eq!(last["progress"], 100.0);

    let config: Value =
        serde_json::from_slice(&std::fs::read(common::example_site().join("docs.json")).unwrap())
            .unwrap();
    let mut pages = Vec::new();
    navigation_pages(&config["navigation"], &mut pages);
    // The navigation's AsyncAPI group generates a page for the document's one channel.
    let generated = ["api-reference/events/widgetupdates"];
    assert_eq!(last["pageCount"], (pages.len() + generated.len()) as u64);

    let (bundle, bytes) = api.download_bundle(job_id).await;
    assert_eq!(bundle["sizeBytes"], bytes.len() as u64);
    assert!(bundle["expiresAt"].as_str().unwrap().ends_with('Z'));
    let files = unpack(&bytes);
    for page in &pages {
        assert!(
            files.contains_key(&format!("{page}.html")),
            "{page}.html missing from {:?}",
            files.keys()
        );
    }
    assert!(files.contains_key("images/webhook-timeline.svg"));
    assert!(
        files
            .keys()
            .any(|f| f.starts_with("assets/quire.") && f.ends_with(".css")),
        "the theme's stylesheet, named by its content"
    );
    assert!(!files.keys().any(|f| f.ends_with(".mdx")), "no MDX sources");
    for page in &pages {
        let source = &files[&format!("{page}.md")];
        let original = ["mdx", "md"]
            .iter()
            .find_map(|ext| {
                std::fs::read(common::example_site().join(format!("{page}.{ext}"))).ok()
            })
            .unwrap();
        assert_eq!(source, &original, "{page}.md is the page's source");
    }
    for page in generated {
        let html = String::from_utf8_lossy(&files[&format!("{page}.html")]);
        assert!(html.contains("<h1 class=\"page-title\">Widget updates</h1>"));
    }
    assert_site_files(&files, pages.len() + generated.len());
    let quickstart = String::from_utf8_lossy(&files["quickstart.html"]);
    assert!(quickstart.contains("<title>Quickstart · Acme Widgets</title>"));
    assert!(quickstart.contains("callout callout-warning"));
    assert_self_contained(&files);

    // A second link for the same job, later: fresh, same archive, not rebuilt.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (again, bytes_again) = api.download_bundle(job_id).await;
    assert_ne!(again["bundleUrl"], bundle["bundleUrl"]);
    assert!(again["expiresAt"].as_str() > bundle["expiresAt"].as_str());
    assert_eq!(bytes_again, bytes);
    let (_, after) = api.get(&format!("/v1/static-export/jobs/{job_id}")).await;
    assert_eq!(
        after["updatedAt"], last["updatedAt"],
        "the job was not touched"
    );
}

#[tokio::test]
async fn progress_rises_while_a_large_site_exports() {
    let instance = Instance::new("");
    let key = instance.generated_site("big.acme.test", 3000);
    let server = instance.start();
    let api = Api::new(&server.base, &key);

    let job_id = api.start_job(json!({"domain": "big.acme.test"})).await;
    let seen = api.wait_job(&job_id, Duration::from_secs(120)).await;
    let progress: Vec<f64> = seen
        .iter()
        .map(|j| j["progress"].as_f64().unwrap())
        .collect();
    let counts: Vec<u64> = seen
        .iter()
        .map(|j| j["pageCount"].as_u64().unwrap())
        .collect();
    assert!(
        progress.windows(2).all(|w| w[0] <= w[1]),
        "progress went backwards: {progress:?}"
    );
    assert!(
        counts.windows(2).all(|w| w[0] <= w[1]),
        "pageCount went backwards: {counts:?}"
    );
    let running: Vec<_> = seen.iter().filter(|j| j["status"] == "running").collect();
    assert!(
        running.iter().any(|j| {
            let p = j["progress"].as_f64().unwrap();
            p > 0.0 && p < 100.0
        }),
        "no intermediate progress observed: {progress:?}"
    );
    let last = seen.last().unwrap();
    assert_eq!(last["status"], "completed", "{last}");
    assert_eq!(last["pageCount"], 3000);
    assert_eq!(last["totalPages"], 3000);

    let (_, bytes) = api.download_bundle(&job_id).await;
    let files = unpack(&bytes);
    assert_eq!(
        files
            .keys()
            .filter(|f| f.starts_with("pages/") && f.ends_with(".html"))
            .count(),
        3000
    );
    assert_self_contained(&files);
}

#[tokio::test]
async fn a_chosen_version_and_chosen_pages() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let site = common::example_site();
    let site = site.to_str().unwrap();
    instance.publish_folder("docs.acme.test", site, "acme", Some("v1"));
    instance.publish_folder("docs.acme.test", site, "acme", Some("v2"));
    let server = instance.start();
    let api = Api::new(&server.base, &key);

    let (job_id, last) = api.run_job(json!({"domain": "docs.acme.test", "version": "v1", "paths": ["/quickstart", "guides/webhooks"], "extra": true}), Duration::from_secs(60)).await;
    assert_eq!(last["status"], "completed", "{last}");
    assert_eq!(last["version"], "v1");
    assert_eq!(last["pageCount"], 2);
    let (_, bytes) = api.download_bundle(&job_id).await;
    let files = unpack(&bytes);
    let pages: Vec<_> = files
        .keys()
        .filter(|f| f.ends_with(".html") && *f != "404.html" && *f != "index.html")
        .collect();
    assert_eq!(pages, ["guides/webhooks.html", "quickstart.html"]);

    // Without a version, the latest is exported.
    let (_, job) = api
        .post(
            "/v1/static-export/jobs",
            json!({"domain": "docs.acme.test"}),
        )
        .await;
    assert_eq!(job["version"], "v2");
}

#[tokio::test]
async fn a_site_with_broken_pages_exports_with_warnings() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let site = tempfile::tempdir().unwrap();
    std::fs::write(
        site.path().join("docs.json"),
        r#"{"name": "Broken", "navigation": {"pages": ["good", "bad"]}}"#,
    )
    .unwrap();
    std::fs::write(
        site.path().join("good.mdx"),
        "# Good\n\n<Mystery>kept</Mystery>\n\n[gone](/missing)\n",
    )
    .unwrap();
    std::fs::write(site.path().join("bad.mdx"), "# Bad\n\n<Note>\nunclosed {\n").unwrap();
    instance.publish_folder(
        "broken.acme.test",
        site.path().to_str().unwrap(),
        "acme",
        None,
    );
    let server = instance.start();
    let api = Api::new(&server.base, &key);

    let (job_id, last) = api
        .run_job(
            json!({"domain": "broken.acme.test"}),
            Duration::from_secs(60),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let warnings = last["warnings"].as_array().unwrap();
    assert_eq!(last["warningCount"], warnings.len() as u64);
    let has = |file: &str, text: &str, line: u64| {
        warnings.iter().any(|w| {
            w["file"] == file && w["line"] == line && w["message"].as_str().unwrap().contains(text)
        })
    };
    assert!(has("good.mdx", "<Mystery>", 3), "{warnings:?}");
    assert!(has("good.mdx", "broken link", 5), "{warnings:?}");
    assert!(
        warnings.iter().any(|w| w["file"] == "bad.mdx"
            && w["message"].as_str().unwrap().contains("MDX syntax error")),
        "{warnings:?}"
    );
    let (_, bytes) = api.download_bundle(&job_id).await;
    let files = unpack(&bytes);
    assert!(String::from_utf8_lossy(&files["good.html"]).contains("kept"));
    assert!(files.contains_key("bad.html"));
}

#[tokio::test]
async fn workers_run_jobs_in_parallel_up_to_the_configured_count() {
    for (workers, expect_overlap) in [(2, true), (1, false)] {
        let instance = Instance::new(&format!("[jobs]\nworkers = {workers}\n"));
        let key = instance.generated_site("big.acme.test", 3000);
        let server = instance.start();
        let api = Api::new(&server.base, &key);
        let first = api.start_job(json!({"domain": "big.acme.test"})).await;
        let second = api.start_job(json!({"domain": "big.acme.test"})).await;
        let mut overlapped = false;
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        loop {
            // Two reads are two moments: the first job may finish and the second start between
            // them. A job runs until it completes, so the first job running before and after
            // the second's read was running at that read too.
            let (_, a) = api.get(&format!("/v1/static-export/jobs/{first}")).await;
            let (_, b) = api.get(&format!("/v1/static-export/jobs/{second}")).await;
            let (_, a_after) = api.get(&format!("/v1/static-export/jobs/{first}")).await;
            overlapped |= a["status"] == "running"
                && b["status"] == "running"
                && a_after["status"] == "running";
            if a_after["status"] == "completed" && b["status"] == "completed" {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "jobs did not finish: {a} {b}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(overlapped, expect_overlap, "with {workers} worker(s)");
    }
}
