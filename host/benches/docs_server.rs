//! Docs server benchmark: `cargo bench -p quire --bench docs_server [-- PAGES]`.
//!
//! Exports a generated site (default 10,000 pages) through a real `quire serve`, then starts a
//! real `quire docs-server` on its bundle link and measures: the time from start to ready
//! (download, verification of every file's SHA-256, unpacking), and page serving under
//! concurrent load over HTTP on 127.0.0.1 (requests per second, p50/p99 latency), for fresh
//! requests and for revalidations that answer 304. Client and server share the machine's cores.

#[path = "../tests/integration/common/mod.rs"]
#[allow(dead_code, unused_imports)]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Api, Instance};
use serde_json::json;

const LOAD_SECONDS: u64 = 10;
const CONCURRENCY: usize = 32;

fn main() {
    let pages: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(run(pages));
}

async fn run(pages: usize) {
    let instance = Instance::new("");
    let key = instance.generated_site("bench.test", pages);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (job_id, last) = api
        .run_job(json!({"domain": "bench.test"}), Duration::from_secs(600))
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let (bundle, _) = api.download_bundle(&job_id).await;
    let link = bundle["bundleUrl"].as_str().expect("link").to_string();
    let size = bundle["sizeBytes"].as_u64().unwrap_or(0);

    let home = tempfile::tempdir().expect("tempdir");
    let started = Instant::now();
    let docs = common::docs_server(&home.path().join("data"), &["--bundle-url", &link]);
    let to_ready = started.elapsed();
    let ready = quire::http_client::client()
        .get(format!("{}/readyz", docs.base))
        .send()
        .await
        .expect("readyz");
    assert_eq!(ready.status(), 200);

    println!("| pages | bundle (.tar.gz) | start to ready (download, verify, unpack) |");
    println!("|---:|---:|---:|");
    println!(
        "| {pages} | {:.1} MiB | {:.2} s |",
        size as f64 / (1024.0 * 1024.0),
        to_ready.as_secs_f64()
    );
    println!();
    println!("| load ({CONCURRENCY} connections, {LOAD_SECONDS} s) | requests/s | p50 | p99 |");
    println!("|---|---:|---:|---:|");
    for revalidate in [false, true] {
        let (rps, latencies) = load(&docs.base, pages, revalidate).await;
        println!(
            "| {} | {rps:.0} | {:.2} ms | {:.2} ms |",
            if revalidate {
                "revalidation (If-None-Match, 304)"
            } else {
                "pages (extensionless URL, 200, gzip)"
            },
            ms(percentile(&latencies, 0.5)),
            ms(percentile(&latencies, 0.99))
        );
    }
}

async fn load(base: &str, pages: usize, revalidate: bool) -> (f64, Vec<Duration>) {
    let base = Arc::new(base.to_string());
    let deadline = Instant::now() + Duration::from_secs(LOAD_SECONDS);
    let started = Instant::now();
    let mut clients = Vec::new();
    for client in 0..CONCURRENCY {
        let base = base.clone();
        clients.push(tokio::spawn(async move {
            let http = quire::http_client::client();
            let mut latencies = Vec::new();
            let mut n = client * 7919;
            let mut etags = std::collections::HashMap::new();
            while Instant::now() < deadline {
                let page = n % pages.min(500);
                n += 1;
                let url = format!("{base}/pages/page-{page}");
                let mut request = http.get(&url).header("accept-encoding", "gzip");
                if revalidate && let Some(etag) = etags.get(&page) {
                    request = request.header("if-none-match", etag);
                }
                let sent = Instant::now();
                let response = request.send().await.expect("get");
                let status = response.status().as_u16();
                if let Some(etag) = response.headers().get("etag") {
                    etags.insert(page, etag.to_str().unwrap_or_default().to_string());
                }
                let _ = response.bytes().await.expect("body");
                assert!(status == 200 || status == 304, "{status}");
                latencies.push(sent.elapsed());
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for client in clients {
        all.extend(client.await.expect("client"));
    }
    let rps = all.len() as f64 / started.elapsed().as_secs_f64();
    all.sort();
    (rps, all)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
