//! Assistant and search benchmark: `cargo bench -p quire --bench assistant [-- PAGES]`.
//!
//! Publishes a generated site (default 10,000 pages; publishing renders every page and builds
//! the search index), starts a real `quire serve`, then measures over HTTP on 127.0.0.1:
//! search latency (p50/p99 of sequential requests), the memory the loaded index adds to the
//! server, and under concurrent load (requests per second, latency): the search endpoint, the
//! site's MCP server answering `tools/call search` (the same retriever behind JSON-RPC), and
//! the v1 assistant with the built-in generator (time to first byte too). Client and server
//! share the machine's cores.
//!
//! The store: the embedded redb file, or PostgreSQL under `scripts/with-postgres` (which sets
//! `QUIRE_TEST_POSTGRES`). There, `QUIRE_BENCH_REPLICAS=2` runs the assistant load against two
//! `quire serve` replicas on the one database, the clients split between them.

#[path = "../tests/integration/common/mod.rs"]
#[allow(dead_code, unused_imports)]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::Instance;
use serde_json::json;

const SEARCHES: usize = 2_000;
const LOAD_SECONDS: u64 = 10;
const CONCURRENCY: usize = 32;
/// Rounds in which the search endpoint and MCP search each take one turn under load, and how
/// long a turn lasts: short turns, many of them, so a change in the shared machine's load
/// weighs on both alike.
const ROUNDS: usize = 8;
const TURN_SECONDS: u64 = 5;
const QUERIES: [&str; 8] = [
    "widget feature state",
    "enable retries timeout",
    "feature 4242",
    "report state every minute",
    "events transitions",
    "draft active retired",
    "acme widgets enable",
    "plan available",
];

fn main() {
    let pages: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(run(pages));
}

async fn run(pages: usize) {
    let instance =
        Instance::new("[limits]\norganization_per_hour = 100000000\nip_per_day = 100000000\n");
    instance.cli_ok(&["org", "create", "bench", "--plan", "enterprise"]);
    let key = instance.cli_ok(&["key", "create", "--org", "bench", "--kind", "assistant"]);
    let site = tempfile::tempdir().expect("site dir");
    common::sites::generate(site.path(), pages);
    let started = Instant::now();
    instance.publish_folder(
        "bench.test",
        site.path().to_str().unwrap(),
        "bench",
        Some("v1"),
    );
    let publish = started.elapsed();
    let index_bytes = std::fs::metadata(
        instance
            .data_dir()
            .join("storage/sites/bench.test/versions/v1/search-index.bin"),
    )
    .map(|m| m.len())
    .unwrap_or(0);
    let server = instance.start();
    let replicas: usize = std::env::var("QUIRE_BENCH_REPLICAS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut others = Vec::new();
    for _ in 1..replicas {
        let replica = instance.replica();
        others.push((replica.start(), replica));
    }
    let mut bases = vec![server.base.clone()];
    bases.extend(others.iter().map(|(s, _)| s.base.clone()));
    println!(
        "store: {}, replicas: {replicas}",
        common::postgres::store_name()
    );
    let http = quire::http_client::client();
    let search_url = format!("{}/discovery/v1/search/bench.test", server.base);
    let rss_before = rss_kib(server.pid());

    // Warm every instance of the site's pool (two by default), then measure.
    for query in QUERIES {
        answer_bytes(&http, &search_url, &key, &[], search_body(query)).await;
    }
    let rss_loaded = rss_kib(server.pid());
    let mut latencies = Vec::with_capacity(SEARCHES);
    for i in 0..SEARCHES {
        let started = Instant::now();
        answer_bytes(
            &http,
            &search_url,
            &key,
            &[],
            search_body(QUERIES[i % QUERIES.len()]),
        )
        .await;
        latencies.push(started.elapsed());
    }
    latencies.sort();

    println!("| {pages}-page site | figure |");
    println!("|---|---:|");
    println!(
        "| publish (copy, render every page, build the index) | {:.1} s |",
        publish.as_secs_f64()
    );
    println!(
        "| search index on disk | {:.1} MiB |",
        index_bytes as f64 / 1048576.0
    );
    println!(
        "| server RSS after loading the index into 2 instances (before: {:.0} MiB) | {:.0} MiB |",
        rss_before as f64 / 1024.0,
        rss_loaded as f64 / 1024.0
    );
    println!(
        "| search over HTTP, p50 ({SEARCHES} sequential, pageSize 10) | {:.2} ms |",
        ms(percentile(&latencies, 0.50))
    );
    println!(
        "| search over HTTP, p99 | {:.2} ms |",
        ms(percentile(&latencies, 0.99))
    );

    // The search endpoint and MCP's `tools/call search` take turns, three rounds each, so the
    // ratio compares them under the same load of this shared machine.
    let search_urls: Vec<String> = bases
        .iter()
        .map(|base| format!("{base}/discovery/v1/search/bench.test"))
        .collect();
    let mcp_urls: Vec<String> = bases
        .iter()
        .map(|base| format!("{base}/mcp/bench.test"))
        .collect();
    let mcp_headers = [
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let (mut search_bytes, mut mcp_bytes) = (0, 0);
    for query in QUERIES {
        search_bytes += answer_bytes(&http, &search_urls[0], &key, &[], search_body(query)).await;
        mcp_bytes += answer_bytes(&http, &mcp_urls[0], &key, &mcp_headers, mcp_body(query)).await;
    }
    println!(
        "| answer size, mean of the {} queries: search endpoint · MCP `tools/call search` | {} · {} bytes |",
        QUERIES.len(),
        search_bytes / QUERIES.len(),
        mcp_bytes / QUERIES.len()
    );
    let (mut search_runs, mut mcp_runs) = (Vec::new(), Vec::new());
    // The server's CPU time in each kind's turns: per request, it does not depend on how much
    // of the shared machine the server got, as requests per second do.
    let (mut search_cpu, mut mcp_cpu) = (0.0, 0.0);
    let pid = server.pid();
    for round in 0..ROUNDS {
        // Each goes first in half the rounds.
        for turn in 0..2 {
            let before = cpu_seconds(pid);
            if (round + turn) % 2 == 0 {
                search_runs.push(load(&search_urls, &key, &[], search_body, TURN_SECONDS).await);
                search_cpu += cpu_seconds(pid) - before;
            } else {
                mcp_runs.push(load(&mcp_urls, &key, &mcp_headers, mcp_body, TURN_SECONDS).await);
                mcp_cpu += cpu_seconds(pid) - before;
            }
        }
    }
    let search_rps = report("search endpoint", &search_runs);
    let mcp_rps = report("MCP `tools/call search`", &mcp_runs);
    let mut ratios: Vec<f64> = search_rps
        .iter()
        .zip(&mcp_rps)
        .map(|(s, m)| 100.0 * m / s)
        .collect();
    println!(
        "| MCP `tools/call search` / search endpoint, requests/s, round by round | {} |",
        ratios
            .iter()
            .map(|r| format!("{r:.0}%"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    ratios.sort_by(f64::total_cmp);
    println!(
        "| MCP `tools/call search` / search endpoint, median of the rounds | {:.0}% |",
        (ratios[(ROUNDS - 1) / 2] + ratios[ROUNDS / 2]) / 2.0
    );
    let per_request = |cpu: f64, runs: &[(f64, Vec<Duration>, Vec<Duration>)]| {
        1e6 * cpu
            / runs
                .iter()
                .map(|(_, _, total)| total.len())
                .sum::<usize>()
                .max(1) as f64
    };
    let (search_us, mcp_us) = (
        per_request(search_cpu, &search_runs),
        per_request(mcp_cpu, &mcp_runs),
    );
    println!(
        "| server CPU per request, all turns: search endpoint · MCP `tools/call search` (MCP / search) | {search_us:.0} · {mcp_us:.0} µs ({:.0}%) |",
        100.0 * mcp_us / search_us
    );

    let assistant_urls: Vec<String> = bases
        .iter()
        .map(|base| format!("{base}/discovery/v1/assistant/bench.test/message"))
        .collect();
    let (rps, ttfb, total) = load(&assistant_urls, &key, &[], assistant_body, LOAD_SECONDS).await;
    println!(
        "| assistant v1, built-in generator: requests/s ({CONCURRENCY} concurrent clients, {LOAD_SECONDS} s) | {rps:.0} |"
    );
    println!(
        "| assistant time to first byte, p50 | {:.2} ms |",
        ms(percentile(&ttfb, 0.50))
    );
    println!(
        "| assistant time to first byte, p99 | {:.2} ms |",
        ms(percentile(&ttfb, 0.99))
    );
    println!(
        "| assistant whole stream, p50 | {:.2} ms |",
        ms(percentile(&total, 0.50))
    );
}

fn search_body(query: &str) -> serde_json::Value {
    json!({"query": query})
}

fn assistant_body(question: &str) -> serde_json::Value {
    json!({"fp": "anonymous", "messages": [{"id": "u", "role": "user", "content": question, "parts": [{"type": "text", "text": question}]}]})
}

fn mcp_body(query: &str) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
           "params": {"name": "search", "arguments": {"query": query}}})
}

/// The size of the answer to one request.
async fn answer_bytes(
    http: &reqwest::Client,
    url: &str,
    key: &str,
    headers: &[(&'static str, &'static str)],
    body: serde_json::Value,
) -> usize {
    let mut request = http.post(url).bearer_auth(key).json(&body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.bytes().await.expect("answer").len()
}

/// `CONCURRENCY` clients posting `body(query)` with `headers` in a loop for `seconds`,
/// spread over `urls` (one per replica), each answer read whole: requests per second, and each
/// request's time to first byte and to its end.
async fn load(
    urls: &[String],
    key: &str,
    headers: &[(&'static str, &'static str)],
    body: fn(&str) -> serde_json::Value,
    seconds: u64,
) -> (f64, Vec<Duration>, Vec<Duration>) {
    let urls: Vec<Arc<String>> = urls.iter().map(|u| Arc::new(u.clone())).collect();
    let key = Arc::new(key.to_string());
    let headers: Arc<Vec<(&'static str, &'static str)>> = Arc::new(headers.to_vec());
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut clients = Vec::new();
    for client in 0..CONCURRENCY {
        let (url, key, headers) = (
            urls[client % urls.len()].clone(),
            key.clone(),
            headers.clone(),
        );
        clients.push(tokio::spawn(async move {
            let http = quire::http_client::client();
            let (mut ttfb, mut total) = (Vec::new(), Vec::new());
            let mut n = 0;
            while Instant::now() < deadline {
                let query = QUERIES[(client + n) % QUERIES.len()];
                n += 1;
                let sent = Instant::now();
                let mut request = http
                    .post(url.as_str())
                    .bearer_auth(key.as_str())
                    .json(&body(query));
                for (name, value) in headers.iter() {
                    request = request.header(*name, *value);
                }
                let mut response = request.send().await.expect("request");
                assert_eq!(response.status(), 200);
                let mut first = None;
                while let Some(chunk) = response.chunk().await.expect("stream") {
                    if first.is_none() && !chunk.is_empty() {
                        first = Some(sent.elapsed());
                    }
                }
                ttfb.push(first.unwrap_or_default());
                total.push(sent.elapsed());
            }
            (ttfb, total)
        }));
    }
    let (mut ttfb, mut total) = (Vec::new(), Vec::new());
    for client in clients {
        let (t, w) = client.await.expect("client");
        ttfb.extend(t);
        total.extend(w);
    }
    let rps = total.len() as f64 / started.elapsed().as_secs_f64();
    ttfb.sort();
    total.sort();
    (rps, ttfb, total)
}

/// Prints the rounds of one kind of request (requests per second of each, and the latency of
/// the median round) and returns their requests per second.
fn report(name: &str, runs: &[(f64, Vec<Duration>, Vec<Duration>)]) -> Vec<f64> {
    let rps: Vec<f64> = runs.iter().map(|(rps, _, _)| *rps).collect();
    println!(
        "| {name}: requests/s ({CONCURRENCY} concurrent clients, {ROUNDS} turns of {TURN_SECONDS} s) | {} |",
        rps.iter()
            .map(|r| format!("{r:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|a, b| rps[*a].total_cmp(&rps[*b]));
    let (_, _, total) = &runs[order[order.len() / 2]];
    println!(
        "| {name} under load, p50 / p99 (median round) | {:.2} / {:.2} ms |",
        ms(percentile(total, 0.50)),
        ms(percentile(total, 0.99))
    );
    rps
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

/// The CPU time (user and system) process `pid` has used, in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
