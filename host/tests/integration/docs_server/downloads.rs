//! Fetching a bundle: retries over a flaky link, the download size limit, and a graceful
//! shutdown while serving.

use std::io::{Read, Write};

use super::{api_host, export_link, ready_version};
use crate::common::{Api, docs_server};
/// Answers 503 to the first `failures` requests, then serves `body`.
fn serve_flaky(
    body: Vec<u8>,
    failures: usize,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            if n < failures {
                let _ = stream.write_all(
                    b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy",
                );
                continue;
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    (format!("http://{addr}/bundle.tar.gz"), seen)
}

#[tokio::test]
async fn downloads_retry_respect_the_size_limit_and_shut_down_gracefully() {
    let (_instance, server, key, _) = api_host("");
    let api = Api::new(&server.base, &key);
    api.publish_example_site("v1").await;
    let (_, bytes) = export_link(&api, "v1").await;
    let home = tempfile::tempdir().expect("tempdir");

    // Two 503s, then the bundle: installed on the third attempt.
    let (url, seen) = serve_flaky(bytes.clone(), 2);
    let mut docs = docs_server(&home.path().join("retry"), &["--bundle-url", &url]);
    assert_eq!(
        ready_version(&docs.base).await.as_deref(),
        Some("v1"),
        "{}",
        docs.log()
    );
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 3);
    assert_eq!(
        docs.log().matches("bundle download failed").count(),
        2,
        "{}",
        docs.log()
    );

    // SIGTERM: the server finishes and exits cleanly.
    let status = docs.signal("-TERM");
    assert!(status.success(), "{status}: {}", docs.log());

    // Always failing: gives up after the attempts it was given.
    let (url, seen) = serve_flaky(bytes.clone(), usize::MAX);
    let docs = docs_server(
        &home.path().join("down"),
        &["--bundle-url", &url, "--download-attempts", "2"],
    );
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 2);
    assert!(docs.log().contains("after 2 attempts"), "{}", docs.log());
    drop(docs);

    // Larger than the limit: refused without filling the disk.
    let (url, _) = serve_flaky(vec![0u8; 3 << 20], 0);
    let docs = docs_server(
        &home.path().join("big"),
        &["--bundle-url", &url, "--max-bundle-mib", "1"],
    );
    assert!(
        docs.log()
            .contains("larger than the limit of 1048576 bytes"),
        "{}",
        docs.log()
    );
    assert_eq!(ready_version(&docs.base).await, None);
}
