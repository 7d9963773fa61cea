//! Jobs survive the server dying: a real process killed with SIGKILL mid-export, or stopped
//! with SIGTERM, and started again on the same data directory with the embedded store. (With
//! PostgreSQL, another replica takes the job over: `replicas.rs`.)

use std::time::{Duration, Instant};

use crate::common::{Api, Instance};
use serde_json::json;

#[tokio::test]
async fn a_job_killed_mid_export_completes_after_restart() {
    let instance = Instance::with_config("");
    let key = instance.generated_site("big.acme.test", 6000);
    let mut server = instance.start();
    let api = Api::new(&server.base, &key);
    let job_id = api.start_job(json!({"domain": "big.acme.test"})).await;
    let before = api.wait_mid_export(&job_id).await;
    server.signal("-KILL");

    // The store still says running: nothing could record the crash.
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let last = api
        .wait_job(&job_id, Duration::from_secs(120))
        .await
        .pop()
        .unwrap();
    assert_eq!(
        last["status"], "completed",
        "{last} (had {before} pages before the kill)"
    );
    assert_eq!(last["pageCount"], 6000);
    assert!(
        server
            .log()
            .contains("recovered jobs interrupted by the last stop"),
        "{}",
        server.log()
    );
    assert_eq!(api.bundle_pages(&job_id).await, 6000);
}

#[tokio::test]
async fn sigterm_stops_gracefully_and_the_job_resumes() {
    let instance = Instance::new("");
    let key = instance.generated_site("big.acme.test", 6000);
    let mut server = instance.start();
    let api = Api::new(&server.base, &key);
    let job_id = api.start_job(json!({"domain": "big.acme.test"})).await;
    api.wait_mid_export(&job_id).await;
    let stopping = Instant::now();
    let status = server.signal("-TERM");
    assert!(status.success(), "exit status {status}: {}", server.log());
    assert!(
        stopping.elapsed() < Duration::from_secs(10),
        "shutdown took {:?}",
        stopping.elapsed()
    );
    assert!(server.log().contains("queued again"), "{}", server.log());

    // Not running, not failed: back in the queue, and its attempt was not counted.
    let show = instance.cli(&["org", "list"]);
    assert!(
        show.status.success(),
        "the data directory is free again after shutdown"
    );
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let last = api
        .wait_job(&job_id, Duration::from_secs(120))
        .await
        .pop()
        .unwrap();
    assert_eq!(last["status"], "completed", "{last}");
}

#[tokio::test]
async fn a_job_that_keeps_crashing_the_server_is_failed_with_a_reason() {
    let instance = Instance::with_config("[jobs]\nmax_attempts = 2\n");
    let key = instance.generated_site("big.acme.test", 6000);
    let mut server = instance.start();
    let job_id = Api::new(&server.base, &key)
        .start_job(json!({"domain": "big.acme.test"}))
        .await;
    for _ in 0..2 {
        // A fresh client for each server life: pooled connections died with the process.
        let api = Api::new(&server.base, &key);
        api.wait_mid_export(&job_id).await;
        server.signal("-KILL");
        server = instance.start();
    }
    let api = Api::new(&server.base, &key);
    let (_, job) = api.get(&format!("/v1/static-export/jobs/{job_id}")).await;
    assert_eq!(job["status"], "failed", "{job}");
    assert!(
        job["error"]
            .as_str()
            .unwrap()
            .contains("interrupted 2 times"),
        "{job}"
    );
}
