//! Export benchmark: `cargo bench -p quire --bench export [-- PAGES...]`.
//!
//! For each site size (default 1,000 and 10,000 generated pages) it publishes the site, runs
//! one export through a real `quire serve` process, and prints the export time (queued to
//! completed, as the job records it), pages per second, the server's peak resident memory
//! (VmHWM), the archive size and the unpacked bundle, and what the bundle's offline search loads
//! for a first query (the same files `assets/search.js` would fetch). Then it measures the
//! plugin runtime in-process: compiling the renderer cold, loading it from the compiled cache,
//! and one instantiation plus call, and opening a 25,000-page site in a fresh instance (what a
//! render session pays before its first page). The render cache is off, so every export renders
//! every page (`scripts/bench-incremental` measures what the cache saves). `-- --plugins` runs
//! only the plugin runtime's part; `QUIRE_BENCH_RENDERER=FILE` measures another build of the
//! renderer component there.

#[path = "../tests/integration/common/mod.rs"]
#[allow(dead_code, unused_imports)]
mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

use common::{Api, Instance};
use quire::plugins::{
    NavEntry, NavKind, PageInput, PluginRuntime, RendererSession, Role, SiteInfo,
};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

thread_local! {
    /// Rows of the bundle-size breakdown, printed after the main table.
    static BREAKDOWN: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn main() {
    if std::env::args().any(|arg| arg == "--plugins") {
        plugin_costs();
        return;
    }
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 10_000]
    } else {
        sizes
    };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    println!(
        "| pages | export time | pages/s | server peak RSS | archive (.tar.gz) | unpacked | unpacked bytes/page | files | first search payload |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for pages in sizes {
        runtime.block_on(export(pages));
    }
    println!();
    println!(
        "| pages | HTML bytes/page | Markdown sources bytes/page | search index bytes/page | everything else bytes/page |"
    );
    println!("|---:|---:|---:|---:|---:|");
    BREAKDOWN.with(|b| b.borrow().iter().for_each(|row| println!("{row}")));
    println!();
    let replicas: usize = std::env::var("QUIRE_BENCH_REPLICAS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    runtime.block_on(concurrent_exports(
        CONCURRENT_PAGES,
        CONCURRENT_JOBS,
        replicas,
    ));
    println!();
    plugin_costs();
}

/// Pages of the site the concurrent exports share, and how many jobs run at once.
const CONCURRENT_PAGES: usize = 2_000;
const CONCURRENT_JOBS: usize = 4;

/// `jobs` exports of one site started at once, spread over `replicas` servers (more than one
/// needs PostgreSQL: `scripts/with-postgres`); prints the pages exported per second of wall time.
/// Renders every page, as before the render cache: what an export costs from nothing.
const NO_RENDER_CACHE: &str = "[plugins]\nrender_cache = false\n";

async fn concurrent_exports(pages: usize, jobs: usize, replicas: usize) {
    let instance = Instance::new(NO_RENDER_CACHE);
    let key = instance.generated_site("bench.test", pages);
    let mut servers = vec![instance.start()];
    let mut others = Vec::new();
    for _ in 1..replicas {
        let replica = instance.replica();
        servers.push(replica.start());
        others.push(replica);
    }
    let apis: Vec<Api> = servers.iter().map(|s| Api::new(&s.base, &key)).collect();
    let started = std::time::Instant::now();
    let mut ids = Vec::new();
    for n in 0..jobs {
        ids.push(
            apis[n % apis.len()]
                .start_job(json!({"domain": "bench.test"}))
                .await,
        );
    }
    for id in &ids {
        let last = apis[0]
            .wait_job(id, Duration::from_secs(600))
            .await
            .pop()
            .expect("job");
        assert_eq!(last["status"], "completed", "{last}");
    }
    let seconds = started.elapsed().as_secs_f64();
    let store = common::postgres::store_name();
    println!("| store | replicas | jobs at once | pages each | wall time | pages/s, all jobs |");
    println!("|---|---:|---:|---:|---:|---:|");
    println!(
        "| {store} | {replicas} | {jobs} | {pages} | {seconds:.2} s | {:.0} |",
        (jobs * pages) as f64 / seconds
    );
}

async fn export(pages: usize) {
    let instance = Instance::new(NO_RENDER_CACHE);
    let key = instance.generated_site("bench.test", pages);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let job_id = api.start_job(json!({"domain": "bench.test"})).await;
    let last = api
        .wait_job(&job_id, Duration::from_secs(600))
        .await
        .pop()
        .expect("job");
    assert_eq!(last["status"], "completed", "{last}");
    let created = OffsetDateTime::parse(last["createdAt"].as_str().unwrap(), &Rfc3339).unwrap();
    let updated = OffsetDateTime::parse(last["updatedAt"].as_str().unwrap(), &Rfc3339).unwrap();
    let seconds = (updated - created).as_seconds_f64();
    let peak_kib = peak_rss_kib(server.pid());
    let size = last["sizeBytes"].as_u64().unwrap_or(0);
    let (_, bytes) = api.download_bundle(&job_id).await;
    let files = common::archive::unpack(&bytes);
    let unpacked: usize = files.values().map(Vec::len).sum();
    let payload = first_search_payload(&files, "widget feature 4242 retries");
    let bytes_of = |keep: &dyn Fn(&str) -> bool| -> usize {
        files
            .iter()
            .filter(|(p, _)| keep(p))
            .map(|(_, b)| b.len())
            .sum()
    };
    let html = bytes_of(&|p| p.ends_with(".html"));
    let sources = bytes_of(&|p| p.ends_with(".md"));
    let search = bytes_of(&|p| p.starts_with("search/"));
    BREAKDOWN.with(|b| {
        b.borrow_mut().push(format!(
            "| {pages} | {} | {} | {} | {} |",
            html / pages,
            sources / pages,
            search / pages,
            (unpacked - html - sources - search) / pages
        ))
    });
    let mib = |b: f64| b / (1024.0 * 1024.0);
    println!(
        "| {pages} | {seconds:.2} s | {:.0} | {:.0} MiB | {:.1} MiB | {:.1} MiB | {} | {} | {:.0} kB |",
        pages as f64 / seconds,
        peak_kib as f64 / 1024.0,
        mib(size as f64),
        mib(unpacked as f64),
        unpacked / pages,
        files.len(),
        payload as f64 / 1000.0
    );
}

/// Bytes the bundle's search script loads to answer `query` on a fresh page: the index header,
/// one term shard per query word, and the document chunks of the eight best results (ranked as
/// the script ranks them).
fn first_search_payload(files: &BTreeMap<String, Vec<u8>>, query: &str) -> usize {
    let data = |name: &str| -> Value {
        let text = String::from_utf8_lossy(&files[&format!("search/{name}.js")]).into_owned();
        let json = text
            .split_once(',')
            .map(|(_, rest)| rest.trim_end().trim_end_matches(");"))
            .expect("index file");
        serde_json::from_str(json).expect("index JSON")
    };
    let size = |name: &str| files[&format!("search/{name}.js")].len();
    let meta = data("index");
    let shards = meta["shards"].as_u64().expect("shards") as usize;
    let documents = meta["documents"].as_f64().expect("documents");
    let chunk = meta["chunk"].as_u64().expect("chunk");
    let mut loaded: BTreeSet<String> = BTreeSet::from(["index".to_string()]);
    let mut scores: HashMap<u64, f64> = HashMap::new();
    let terms: BTreeSet<String> = quire::bundle::tokens(query).collect();
    for term in terms {
        let shard = format!("t{}", quire::bundle::shard_of(&term, shards));
        let postings = data(&shard)[&term].clone();
        loaded.insert(shard);
        let Some(list) = postings.as_array() else {
            continue;
        };
        let df = list[0].as_f64().unwrap_or(1.0);
        let idf = (1.0 + (documents - df + 0.5) / (df + 0.5)).ln();
        let mut doc = 0;
        for pair in list[1..].chunks(2) {
            doc += pair[0].as_u64().unwrap_or(0);
            *scores.entry(doc).or_default() += idf * pair[1].as_f64().unwrap_or(0.0) / 100.0;
        }
    }
    let mut ranked: Vec<_> = scores.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    for (doc, _) in ranked.into_iter().take(8) {
        loaded.insert(format!("d{}", doc / chunk));
    }
    loaded.iter().map(|name| size(name)).sum()
}

/// The peak resident set of a process, from /proc (Linux).
fn peak_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse().ok())
        })
        .unwrap_or(0)
}

fn plugin_costs() {
    let renderer = std::env::var_os("QUIRE_BENCH_RENDERER")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| common::wasm("quire_renderer"));
    let cache = tempfile::tempdir().expect("cache dir");
    let runtime =
        PluginRuntime::new(Default::default(), Some(cache.path().to_path_buf())).expect("runtime");
    let started = Instant::now();
    runtime.load(Role::Renderer, &renderer).expect("compile");
    let cold = started.elapsed();
    let started = Instant::now();
    let plugin = runtime
        .load(Role::Renderer, &renderer)
        .expect("load cached");
    let cached = started.elapsed();

    let site = SiteInfo {
        name: "Bench".into(),
        version: "v1".into(),
        navigation: vec![NavEntry {
            kind: NavKind::Page,
            depth: 0,
            label: "Page".into(),
            target: Some("page".into()),
            icon: None,
            tag: None,
            expanded: false,
            directory: None,
        }],
        pages: vec!["page".into()],
        config_json: "{}".into(),
        snippets: Vec::new(),
        api_documents: Vec::new(),
        stylesheets: Vec::new(),
        files: Vec::new(),
        scripts: Vec::new(),
    };
    let page = PageInput {
        path: "page".into(),
        file: "page.mdx".into(),
        source: "---\ntitle: Page\n---\n\n## Hello\n\n<Note>Some **text**.</Note>\n".into(),
        modified: None,
    };
    let rounds = 200;
    let started = Instant::now();
    for _ in 0..rounds {
        let mut session = RendererSession::open(&runtime, &plugin, &site, "bench").expect("open");
        session.render_page(&page).expect("render");
    }
    let per_instance = started.elapsed() / rounds;
    let mut session = RendererSession::open(&runtime, &plugin, &site, "bench").expect("open");
    let started = Instant::now();
    for _ in 0..rounds {
        session.render_page(&page).expect("render");
    }
    let per_call = started.elapsed() / rounds;
    let large = large_site(25_000);
    let mut opens: Vec<Duration> = (0..11)
        .map(|_| {
            let started = Instant::now();
            RendererSession::open(&runtime, &plugin, &large, "bench").expect("open large site");
            started.elapsed()
        })
        .collect();
    opens.sort();
    println!("| plugin runtime (renderer component) | time |");
    println!("|---|---:|");
    println!(
        "| compile, cold (no cache) | {:.0} ms |",
        cold.as_secs_f64() * 1e3
    );
    println!(
        "| load from the compiled-artifact cache | {:.1} ms |",
        cached.as_secs_f64() * 1e3
    );
    println!(
        "| fresh store + instantiate + open site + render one page | {:.0} µs |",
        per_instance.as_secs_f64() * 1e6
    );
    println!(
        "| render one page on an open instance | {:.0} µs |",
        per_call.as_secs_f64() * 1e6
    );
    println!(
        "| fresh store + instantiate + open a 25,000-page site (median of 11) | {:.1} ms |",
        opens[opens.len() / 2].as_secs_f64() * 1e3
    );
}

/// A site of `pages` pages as the renderer is given it, shaped as `scripts/bench-vs-hugo`'s
/// generated one: two versions, two languages, groups of 50 pages.
fn large_site(pages: usize) -> SiteInfo {
    let entry = |kind, depth, label: &str, target: Option<&str>| NavEntry {
        kind,
        depth,
        label: label.into(),
        target: target.map(str::to_string),
        icon: None,
        tag: None,
        expanded: false,
        directory: None,
    };
    let per_context = (pages / 4).max(1);
    let (mut navigation, mut paths, mut versions) = (Vec::new(), Vec::new(), Vec::new());
    for version in ["v2", "v1"] {
        navigation.push(entry(NavKind::Version, 0, version, None));
        let mut languages = Vec::new();
        for language in ["en", "fr"] {
            navigation.push(entry(NavKind::Language, 1, language, None));
            let mut groups = Vec::new();
            for start in (0..per_context).step_by(50) {
                let label = format!("Section {}", start / 50);
                navigation.push(entry(NavKind::Group, 2, &label, None));
                let mut names = Vec::new();
                for i in start..(start + 50).min(per_context) {
                    let path = format!("{version}/{language}/section-{}/page-{i}", start / 50);
                    navigation.push(entry(NavKind::Page, 3, &path, Some(&path)));
                    names.push(path.clone());
                    paths.push(path);
                }
                groups.push(json!({ "group": label, "pages": names }));
            }
            languages.push(json!({ "language": language, "groups": groups }));
        }
        versions.push(json!({ "version": version, "languages": languages }));
    }
    SiteInfo {
        name: "Generated".into(),
        version: "v3".into(),
        navigation,
        pages: paths,
        config_json:
            json!({ "name": "Generated", "theme": "mint", "navigation": { "versions": versions } })
                .to_string(),
        snippets: Vec::new(),
        api_documents: Vec::new(),
        stylesheets: Vec::new(),
        files: Vec::new(),
        scripts: Vec::new(),
    }
}
