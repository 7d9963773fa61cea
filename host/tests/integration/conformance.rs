//! Real docs.json sites publish and export completely. Each site in `../shared/corpora` (real
//! public sites, text files only) is published with the real binary and exported over the API,
//! and the bundle is read as a reader's browser reads it: every page the site's navigation
//! names is exported and listed in the sidebar data its own page loads, under its section; no
//! link between pages is broken; no script, style sheet or frame comes from off the bundle. A
//! sample of each site's pages is then served by an air-gapped docs server and opened in
//! headless Chromium: each page's link is current in the sidebar it draws, and no request
//! leaves the server.
//! The figures are printed and written to `target/conformance.md`; BENCHMARKS.md keeps them.

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::archive::{links, resolve, unpack};
use crate::common::{Api, Instance};
use serde_json::{Value, json};

/// Files the corpora leave out (they carry text only), so links to them may be missing; any
/// other link with a file extension counts the same.
/// What the corpora leave out (images, video, fonts; PDFs with them): a link to one may be
/// missing. Any other file a link names must be in the bundle.
const MEDIA: &[&str] = &[
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
    let corpora = common::workspace().join("../shared/corpora");
    assert!(
        corpora.is_dir(),
        "the shared corpora are not at {}: this test needs the shared folder beside the repository",
        corpora.display()
    );
    let mut names: Vec<String> = std::fs::read_dir(&corpora)
        .expect("corpora")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".tar.gz").map(String::from))
        .collect();
    names.sort();
    assert!(
        !names.is_empty(),
        "no .tar.gz site in {}",
        corpora.display()
    );

    let instance = Instance::new("[jobs]\nworkers = 1\n");
    let key = instance.organization("acme", "enterprise");
    let sites = tempfile::tempdir().expect("sites dir");
    let mut roots = Vec::new();
    for name in &names {
        let root = sites.path().join(name);
        let archive = std::fs::read(corpora.join(format!("{name}.tar.gz"))).expect("corpus");
        for (path, contents) in unpack(&archive) {
            if path.ends_with('/') {
                continue; // a folder entry; its files come on their own
            }
            let target = root.join(&path);
            std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
            std::fs::write(target, contents).expect("write");
        }
        instance.publish_folder(
            &format!("{name}.test"),
            root.to_str().expect("utf-8"),
            "acme",
            Some("v1"),
        );
        roots.push(root);
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
        // Every warning, past the 500 the job record keeps.
        assert_eq!(
            all["warnings"].as_array().map(Vec::len),
            all["warningCount"].as_u64().map(|n| n as usize),
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

/// The pages the navigation file names that exist in the site and are not hidden: read here
/// independently of the host, from the docs.json schema's containers.
pub(crate) fn navigation_pages(root: &Path) -> Vec<String> {
    let config: Value = ["docs.json", "mint.json"]
        .iter()
        .find_map(|f| serde_json::from_str(&std::fs::read_to_string(root.join(f)).ok()?).ok())
        .expect("a navigation file");
    let mut out = Vec::new();
    walk(root, &config["navigation"], &mut out);
    let mut seen = HashSet::new();
    out.into_iter()
        .map(|p| {
            let p = p.trim().trim_start_matches('/');
            p.strip_suffix(".mdx")
                .or_else(|| p.strip_suffix(".md"))
                .unwrap_or(p)
                .to_string()
        })
        .filter(|p| seen.insert(p.clone()))
        .filter(|p| {
            ["mdx", "md"].iter().any(|ext| {
                std::fs::read_to_string(root.join(format!("{p}.{ext}")))
                    .is_ok_and(|source| !hidden_in_frontmatter(&source))
            })
        })
        .collect()
}

/// The navigation pages readers open from the sidebar: those whose frontmatter `url` does not
/// send their entry to another site (such a page is a link there, and not searched).
pub(crate) fn reading_pages(root: &Path) -> Vec<String> {
    navigation_pages(root)
        .into_iter()
        .filter(|page| frontmatter_url(root, page).is_none())
        .collect()
}

fn walk(root: &Path, node: &Value, out: &mut Vec<String>) {
    match node {
        Value::String(entry) => {
            let operation = entry.split_whitespace().count() >= 2 && entry.contains(" /");
            if !operation && !entry.contains("://") {
                out.push(entry.clone());
            }
        }
        Value::Array(items) => items.iter().for_each(|i| walk(root, i, out)),
        Value::Object(map) => {
            if map.get("hidden").and_then(Value::as_bool) == Some(true) {
                return;
            }
            if let Some(Value::String(reference)) = map.get("$ref") {
                let text = std::fs::read_to_string(root.join(reference.trim_start_matches('/')));
                if let Some(value) = text.ok().and_then(|t| serde_json::from_str(&t).ok()) {
                    walk(root, &value, out);
                }
            }
            if let Some(Value::String(page)) = map.get("root") {
                out.push(page.clone());
            }
            for key in [
                "pages",
                "groups",
                "tabs",
                "anchors",
                "dropdowns",
                "products",
                "versions",
                "languages",
                "menu",
                "global",
            ] {
                if let Some(child) = map.get(key) {
                    walk(root, child, out);
                }
            }
        }
        _ => {}
    }
}

/// The other site a page's frontmatter `url` sends its navigation entry to.
fn frontmatter_url(root: &Path, page: &str) -> Option<String> {
    let source = ["mdx", "md"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(root.join(format!("{page}.{ext}"))).ok())?;
    let front = source.strip_prefix("---\n")?.split("\n---").next()?;
    let url = front.lines().find_map(|l| l.trim().strip_prefix("url:"))?;
    let url = url.trim().trim_matches(['"', '\'']);
    url.contains("://").then(|| url.to_string())
}

/// Whether some navigation data of the bundle has a link to `url`.
fn link_in_navigation(url: &str, bundle: &BTreeMap<String, Vec<u8>>) -> bool {
    bundle
        .iter()
        .filter(|(path, _)| path.starts_with("assets/nav/"))
        .any(|(_, script)| {
            let text = String::from_utf8_lossy(script);
            let json = text
                .find('{')
                .zip(text.rfind('}'))
                .and_then(|(start, end)| serde_json::from_str::<Value>(&text[start..=end]).ok());
            json.and_then(|j| j["items"].as_array().cloned())
                .is_some_and(|items| {
                    items
                        .iter()
                        .any(|i| i["kind"] == "link" && i["target"].as_str() == Some(url))
                })
        })
}

fn hidden_in_frontmatter(source: &str) -> bool {
    let Some(rest) = source.strip_prefix("---\n") else {
        return false;
    };
    let front = rest.split("\n---").next().unwrap_or("");
    front.lines().any(|l| l.trim() == "hidden: true")
}

fn check(name: &str, root: &Path, bundle: &BTreeMap<String, Vec<u8>>, warnings: &Value) -> Figures {
    let mut f = Figures {
        site: name.to_string(),
        ..Figures::default()
    };
    let expected = navigation_pages(root);
    f.navigation_pages = expected.len();
    for page in &expected {
        if !bundle.contains_key(&format!("{page}.html")) {
            continue;
        }
        f.exported += 1;
        // A page whose frontmatter names a `url` is, in the sidebar, a link to that address.
        let listed = match frontmatter_url(root, page) {
            Some(url) => link_in_navigation(&url, bundle),
            None => in_own_sidebar(page, bundle),
        };
        if listed {
            f.in_sidebar += 1;
        }
    }

    let files: HashSet<&str> = bundle.keys().map(String::as_str).collect();
    for (path, contents) in bundle.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(contents);
        for link in links(&html) {
            let external = link.starts_with("//") || has_scheme(&link);
            if external {
                if off_bundle_asset(&html, &link) {
                    f.off_bundle.push((path.clone(), link));
                }
                continue;
            }
            if link.is_empty() || link.starts_with('#') {
                continue;
            }
            // A link to media may be missing (the corpora carry none); a link to anything else,
            // a page or a file (a notebook, a download), must find it in the bundle.
            let Some(target) = resolve(path, &link) else {
                f.broken_links.push((path.clone(), link));
                continue;
            };
            if target.is_empty()
                || files.contains(target.as_str())
                || files.contains(format!("{target}.html").as_str())
                || files.contains(format!("{}/index.html", target.trim_end_matches('/')).as_str())
            {
                continue;
            }
            let lower = target.to_ascii_lowercase();
            if MEDIA.iter().any(|ext| lower.ends_with(ext)) {
                f.missing_media += 1;
            } else {
                f.broken_links.push((path.clone(), link));
            }
        }
    }

    let mut files_with_warnings = HashSet::new();
    // Every warning, for whoever works on what the table counts.
    let listing: String = warnings
        .as_array()
        .into_iter()
        .flatten()
        .map(|w| {
            let line = w["line"]
                .as_u64()
                .map(|l| format!(":{l}"))
                .unwrap_or_default();
            format!(
                "{}{line} {}\n",
                w["file"].as_str().unwrap_or("-"),
                w["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    let _ = std::fs::write(
        common::workspace().join(format!("target/conformance-{name}-warnings.txt")),
        listing,
    );
    for warning in warnings.as_array().into_iter().flatten() {
        let message = warning["message"].as_str().unwrap_or_default();
        let kind = kind(message);
        if matches!(kind, "page not rendered" | "other") {
            println!("{name}: {}: {message}", warning["file"]);
        }
        *f.warnings.entry(kind).or_default() += 1;
        // Pages only: a problem in a snippet is reported once, against the snippet.
        if let Some(file) = warning["file"].as_str()
            && (file.ends_with(".mdx") || file.ends_with(".md"))
            && !file.starts_with("snippets/")
        {
            files_with_warnings.insert(file.to_string());
        }
    }
    f.pages_with_warnings = files_with_warnings.len();
    let in_navigation: HashSet<&str> = expected.iter().map(String::as_str).collect();
    f.navigation_pages_with_warnings = files_with_warnings
        .iter()
        .filter(|file| {
            let path = file.rsplit_once('.').map_or(file.as_str(), |(p, _)| p);
            in_navigation.contains(path)
        })
        .count();
    f
}

/// Whether `page`'s own navigation data lists it in the part of the sidebar its page shows
/// (the subtree of its section, or everything when it has none).
fn in_own_sidebar(page: &str, bundle: &BTreeMap<String, Vec<u8>>) -> bool {
    let Some((_, shown)) = common::archive::sidebar_of(bundle, page) else {
        return false;
    };
    shown.iter().any(|item| {
        item["target"].as_str() == Some(page)
            && matches!(item["kind"].as_str(), Some("page" | "group"))
    })
}

fn has_scheme(link: &str) -> bool {
    link.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// Whether `link` is loaded by the page (a script, style sheet or frame) rather than followed.
fn off_bundle_asset(html: &str, link: &str) -> bool {
    for tag in ["<script", "<link", "<iframe"] {
        for piece in html.split(tag).skip(1) {
            let Some(end) = piece.find('>') else { continue };
            let attributes = &piece[..end];
            let loads = tag != "<link"
                || attributes.contains("stylesheet")
                || attributes.contains("preload");
            if loads && attributes.contains(&format!("\"{link}\"")) {
                return true;
            }
        }
    }
    false
}

/// A warning's kind, for the table.
fn kind(message: &str) -> &'static str {
    let kinds = [
        ("could not be rendered", "page not rendered"),
        ("names the page", "missing page"),
        ("unknown icon", "icon"),
        ("unknown component", "component"),
        ("unknown setting", "unknown setting"),
        ("needs a JavaScript runtime", "needs JavaScript"),
        ("run no code of their own", "script element"),
        ("math ", "math"),
        ("not evaluated", "expression"),
        ("broken link", "broken link"),
        ("openapi", "API operation"),
        ("OpenAPI", "API operation"),
        ("redirect", "redirect"),
        ("MDX syntax error", "MDX syntax"),
    ];
    kinds
        .iter()
        .find(|(needle, _)| message.contains(needle))
        .map_or("other", |(_, kind)| kind)
}

fn render(table: &[Figures]) -> String {
    let mut out = String::from(
        "| site | pages | navigation pages | exported | in their sidebar | pages with a warning | navigation pages with a warning | warnings by kind | broken links (pages, files) | missing media links | export time |\n\
         |---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n",
    );
    for f in table {
        let kinds: Vec<String> = f.warnings.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} ({:.1}%) | {} ({:.1}%) | {} | {} | {} | {:.1} s |",
            f.site,
            f.pages,
            f.navigation_pages,
            f.exported,
            f.in_sidebar,
            f.pages_with_warnings,
            100.0 * f.pages_with_warnings as f64 / f.pages.max(1) as f64,
            f.navigation_pages_with_warnings,
            100.0 * f.navigation_pages_with_warnings as f64 / f.navigation_pages.max(1) as f64,
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
