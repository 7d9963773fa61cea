//! Site uploads are checked as they arrive, never held whole: four concurrent 250 MB bodies of
//! zeros (not gzip) are refused after the server has read at most the first megabyte of each,
//! and its memory grows by less than 50 MB. (A body over `max_upload_mib` is in
//! `request_rejections.rs`.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::common::Instance;

const UPLOAD: usize = 250 << 20;
const CHUNK: usize = 64 << 10;

/// The resident memory of process `pid`, in bytes.
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib << 10)
}

/// A streamed body of `size` zero bytes, made chunk by chunk as the client sends it.
fn zeros(size: usize) -> reqwest::Body {
    let chunks = futures::stream::iter(
        (0..size / CHUNK)
            .map(|_| Ok::<_, std::io::Error>(axum::body::Bytes::from_static(&[0u8; CHUNK]))),
    );
    reqwest::Body::wrap_stream(chunks)
}

/// The `bytes_read=N` of each "upload refused" line of the server's log.
fn refusals(log: &str) -> Vec<u64> {
    log.lines()
        .filter(|l| l.contains("upload refused"))
        .filter_map(|l| l.split("bytes_read=").nth(1))
        .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .filter_map(|n| n.parse().ok())
        .collect()
}

#[tokio::test]
async fn uploads_are_checked_as_they_arrive_and_never_held_whole() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let pid = server.pid();
    // A fresh connection per upload: the server closes one whose body it stopped reading, and
    // a pooled connection reused after that would fail on the client's side.
    let client = quire::http_client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("client");
    let url = |version: &str| {
        format!(
            "{}/v1/sites/docs.acme.test/versions?version={version}",
            server.base
        )
    };
    // One upload first, so what the server allocates once (buffers, pools) is in the baseline.
    let _ = client
        .post(url("warm"))
        .bearer_auth(&key)
        .body(vec![0u8; 1 << 20])
        .send()
        .await;
    let baseline = rss(pid);
    let (done, peak) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
    );
    let watcher = {
        let (done, peak) = (done.clone(), peak.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                peak.fetch_max(rss(pid), Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let uploads = (0..4).map(|i| {
        client
            .post(url(&format!("zeros-{i}")))
            .bearer_auth(&key)
            .header("content-type", "application/gzip")
            .body(zeros(UPLOAD))
            .send()
    });
    let answers = futures::future::join_all(uploads).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    done.store(true, Ordering::SeqCst);
    watcher.join().expect("watcher");

    // The server answers as soon as it knows and stops reading; a client still sending may
    // see the connection closed instead of the answer.
    for response in answers.into_iter().flatten() {
        assert_eq!(response.status(), 400);
        let body: serde_json::Value = response.json().await.expect("a JSON error");
        assert!(
            body["error"]
                .as_str()
                .unwrap_or_default()
                .contains("no gzip header"),
            "{body}"
        );
    }
    let log = server.log();
    let read = refusals(&log);
    let zero_uploads: Vec<_> = read.iter().skip(1).collect();
    assert_eq!(zero_uploads.len(), 4, "each upload is refused once:\n{log}");
    assert!(
        zero_uploads.iter().all(|&&n| n <= 1 << 20),
        "each refused after at most 1 MiB read: {zero_uploads:?}"
    );
    let growth = peak.load(Ordering::SeqCst).saturating_sub(baseline);
    eprintln!(
        "4 concurrent {} MiB uploads of zeros: refused after reading {zero_uploads:?} bytes; \
         memory grew by {:.1} MiB (from {} MiB)",
        UPLOAD >> 20,
        growth as f64 / f64::from(1 << 20),
        baseline >> 20
    );
    assert!(
        growth < 50 << 20,
        "the server's memory grew by {} MiB",
        growth >> 20
    );
}
