//! Several API servers on one PostgreSQL and one S3-compatible server, as real processes: a
//! throwaway PostgreSQL (Debian's packages) and s3s-fs on loopback, two `quire serve` replicas
//! on the same `[database]` and `[storage]`. Jobs, threads and rate limits are shared; a job
//! whose replica is killed is taken over once its lease expires.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common;
use crate::common::postgres::{self, Postgres};
use crate::common::s3::S3Server;
use crate::common::{Api, Instance, Server};

/// A PostgreSQL server, an S3 server, and the configuration replicas share.
struct Cluster {
    _postgres: Postgres,
    _s3: S3Server,
    config: String,
}

impl Cluster {
    fn new(extra: &str) -> Self {
        let postgres = Postgres::start();
        let s3 = S3Server::start();
        let database = postgres::new_database(&postgres.url());
        let config = format!(
            "[database]\nurl = \"{database}\"\n\n{}\n[jobs]\nlease_secs = 3\n\n{extra}\n",
            s3.config()
        );
        Self {
            _postgres: postgres,
            _s3: s3,
            config,
        }
    }

    /// A replica: its own data folder and port, the cluster's database and storage.
    fn replica(&self) -> Instance {
        Instance::with_config(&self.config)
    }
}

/// Prints a server's log if the test panics while it is held.
struct LogOnPanic<'a>(&'a Server);

impl Drop for LogOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = self.0.log();
            let tail: Vec<&str> = log.lines().rev().take(60).collect();
            eprintln!(
                "the server's last log lines:\n{}",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
    }
}

/// A user message as the chat SDK sends it.
fn user(text: &str) -> Value {
    json!({"id": "u1", "role": "user", "content": text, "parts": [{"type": "text", "text": text}]})
}

async fn ask(base: &str, key: &str, body: &Value) -> (u16, reqwest::header::HeaderMap) {
    let response = quire::http_client::client()
        .post(format!(
            "{base}/discovery/v1/assistant/docs.acme.test/message"
        ))
        .bearer_auth(key)
        .json(body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let _ = response.text().await;
    (status, headers)
}

/// How many times each job id appears in `log` as completed.
fn completions(logs: &[String]) -> HashMap<String, usize> {
    let mut seen = HashMap::new();
    for line in logs.iter().flat_map(|log| log.lines()) {
        if line.contains("export completed")
            && let Some(rest) = line.split("job=").nth(1)
        {
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            *seen.entry(id).or_default() += 1;
        }
    }
    seen
}

#[tokio::test]
async fn two_replicas_share_jobs_threads_and_rate_limits() {
    let cluster = Cluster::new("[limits]\norganization_per_hour = 8\n");
    let a = cluster.replica();
    let b = a.replica();
    // Records made through one replica's CLI are the other's too.
    let admin = a.organization("acme", "enterprise");
    let assistant = b.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let site = common::example_site();
    b.publish_folder("docs.acme.test", site.to_str().unwrap(), "acme", None);
    let (server_a, server_b) = (a.start(), b.start());
    let apis = [
        Api::new(&server_a.base, &admin),
        Api::new(&server_b.base, &admin),
    ];

    // Exports started through either replica finish exactly once, seen alike from both.
    let mut jobs = Vec::new();
    for n in 0..6 {
        jobs.push(
            apis[n % 2]
                .start_job(json!({"domain": "docs.acme.test"}))
                .await,
        );
    }
    for (n, job) in jobs.iter().enumerate() {
        let last = apis[(n + 1) % 2]
            .wait_job(job, Duration::from_secs(120))
            .await
            .pop()
            .unwrap();
        assert_eq!(last["status"], "completed", "{last}");
        let (_, other) = apis[n % 2]
            .get(&format!("/v1/static-export/jobs/{job}"))
            .await;
        assert_eq!(other["status"], "completed");
        assert_eq!(other["pageCount"], last["pageCount"]);
    }
    let logs = [server_a.log(), server_b.log()];
    let done = completions(&logs);
    for job in &jobs {
        assert_eq!(done.get(job), Some(&1), "{job} completed {done:?}");
    }
    let (_, bytes) = apis[1].download_bundle(&jobs[0]).await;
    assert!(!common::archive::unpack(&bytes).is_empty());

    // A thread started on one replica continues on the other, and only for its reader.
    let first = json!({"fp": "reader-1", "messages": [user("How do webhooks retry?")]});
    let (status, headers) = ask(&server_a.base, &assistant, &first).await;
    assert_eq!(status, 200);
    let thread = headers["x-thread-id"].to_str().unwrap().to_string();
    let follow =
        |fp: &str| json!({"fp": fp, "threadId": thread, "messages": [user("and signatures?")]});
    let (status, headers) = ask(&server_b.base, &assistant, &follow("reader-1")).await;
    assert_eq!(status, 200, "the thread continues on the other replica");
    assert_eq!(headers["x-thread-id"].to_str().unwrap(), thread);
    let (status, _) = ask(&server_a.base, &assistant, &follow("reader-1")).await;
    assert_eq!(status, 200);
    let (status, _) = ask(&server_b.base, &assistant, &follow("reader-2")).await;
    assert_eq!(status, 404, "another reader's fp");

    // Four requests counted so far (the refused fp counts too): the organization's limit of 8
    // holds across both replicas, whichever one a request reaches.
    let mut admitted = 4;
    let mut refused_by = Vec::new();
    for n in 0..8 {
        let base = [&server_a.base, &server_b.base][n % 2];
        let response = quire::http_client::client()
            .post(format!("{base}/discovery/v1/search/docs.acme.test"))
            .bearer_auth(&assistant)
            .json(&json!({"query": "webhooks"}))
            .send()
            .await
            .unwrap();
        match response.status().as_u16() {
            200 => admitted += 1,
            429 => refused_by.push(base.clone()),
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!(admitted, 8, "the limit, counted across replicas");
    assert_eq!(refused_by.len(), 4);
    assert!(refused_by.contains(&server_a.base) && refused_by.contains(&server_b.base));
}

#[tokio::test]
async fn a_job_whose_replica_is_killed_is_taken_over_after_its_lease() {
    let cluster = Cluster::new("");
    let (a, b) = (cluster.replica(), cluster.replica());
    let key = a.generated_site("big.acme.test", 6000);
    let mut server_a: Server = a.start();
    let api_a = Api::new(&server_a.base, &key);
    let job = api_a.start_job(json!({"domain": "big.acme.test"})).await;
    let before = api_a.wait_mid_export(&job).await;
    // B starts while A holds the job: B's workers find nothing to claim until A's lease ends.
    let server_b = b.start();
    let api_b = Api::new(&server_b.base, &key);
    server_a.signal("-KILL");
    // If the job never finishes, what B did is the answer.
    let _b_log = LogOnPanic(&server_b);

    let seen = api_b.wait_job(&job, Duration::from_secs(180)).await;
    let last = seen.last().unwrap();
    assert_eq!(
        last["status"], "completed",
        "{last} ({before} pages before the kill)"
    );
    assert_eq!(last["pageCount"], 6000);
    let counts: Vec<u64> = seen
        .iter()
        .map(|j| j["pageCount"].as_u64().unwrap())
        .collect();
    assert!(
        counts.windows(2).all(|w| w[0] <= w[1]),
        "progress went back: {counts:?}"
    );
    assert!(counts[0] >= before, "progress went back after the kill");
    assert!(
        server_b
            .log()
            .contains("taking over a job whose lease expired"),
        "{}",
        server_b.log()
    );
    assert_eq!(api_b.bundle_pages(&job).await, 6000);
}

#[tokio::test]
async fn migrate_copies_a_data_folder_into_postgres_and_back() {
    let postgres = Postgres::start();
    let instance = Instance::with_config("");
    let admin = instance.organization("acme", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let site = common::example_site();
    instance.publish_folder("docs.acme.test", site.to_str().unwrap(), "acme", Some("v1"));
    let (job, thread) = {
        let server = instance.start();
        let (job, last) = Api::new(&server.base, &admin)
            .run_job(
                json!({"domain": "docs.acme.test"}),
                Duration::from_secs(120),
            )
            .await;
        assert_eq!(last["status"], "completed");
        let ask_first = json!({"fp": "reader-1", "messages": [user("How do webhooks retry?")]});
        let (status, headers) = ask(&server.base, &assistant, &ask_first).await;
        assert_eq!(status, 200);
        (job, headers["x-thread-id"].to_str().unwrap().to_string())
    };

    // Into PostgreSQL: the same data folder (its files stay in its storage) now served from
    // the database knows the organization, its keys, the site, the job and the thread.
    let database = postgres::new_database(&postgres.url());
    let out = instance.cli(&["migrate", "--to", &database]);
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains("1 organizations, 2 keys, 1 sites, 1 versions, 1 jobs, 1 threads"),
        "{report}"
    );
    let config = instance.dir.path().join("quire.toml");
    let mut toml = std::fs::read_to_string(&config).unwrap();
    toml.push_str(&format!("\n[database]\nurl = \"{database}\"\n"));
    std::fs::write(&config, toml).unwrap();
    std::fs::remove_file(instance.data_dir().join("quire.redb")).unwrap();
    let server = instance.start();
    assert!(
        server.log().contains("backend=\"postgres\"") || server.log().contains("backend=postgres"),
        "{}",
        server.log()
    );
    let api = Api::new(&server.base, &admin);
    let (status, copied) = api.get(&format!("/v1/static-export/jobs/{job}")).await;
    assert_eq!(
        (status, copied["status"].as_str()),
        (200, Some("completed")),
        "{copied}"
    );
    api.download_bundle(&job).await;
    let follow =
        json!({"fp": "reader-1", "threadId": thread, "messages": [user("and signatures?")]});
    let (status, _) = ask(&server.base, &assistant, &follow).await;
    assert_eq!(status, 200, "the thread came along");
    drop(server);

    // And back, into an empty data folder; a second copy into it is refused.
    let back = Instance::with_config("");
    back.cli_ok(&["migrate", "--from", &database]);
    assert_eq!(back.cli_ok(&["org", "list"]), "acme\tenterprise");
    assert_eq!(
        back.cli_ok(&["key", "list", "--org", "acme"])
            .lines()
            .count(),
        2
    );
    let again = back.cli(&["migrate", "--from", &database]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("migrate into an empty one"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}

#[tokio::test]
async fn a_component_replaced_where_the_replicas_read_it_reaches_every_replica() {
    use crate::plugin_operations::{
        copy_component, eventually, page_from_bundle, renderer_sha, replace_file, sha256_of,
    };
    let components = tempfile::tempdir().expect("components dir");
    let renderer = copy_component("quire_renderer", components.path(), "renderer.wasm");
    let minimal = common::wasm("quire_minimal_renderer");
    let cluster = Cluster::new(&format!(
        "[plugins]\nrenderer = \"{}\"\nwatch_interval_ms = 100\n",
        renderer.display()
    ));
    let (a, b) = (cluster.replica(), cluster.replica());
    let key = a.organization("acme", "enterprise");
    let site = common::example_site();
    a.publish_folder("docs.acme.test", site.to_str().unwrap(), "acme", None);
    let servers = [a.start(), b.start()];
    for server in &servers {
        assert_eq!(renderer_sha(&server.base).await, sha256_of(&renderer));
    }

    // One file replaced where both read it (a shared volume, a new image's path).
    replace_file(
        &renderer,
        &std::fs::read(&minimal).expect("minimal renderer"),
    );
    for server in &servers {
        eventually("the replica uses the new renderer", || async {
            renderer_sha(&server.base).await == sha256_of(&minimal)
        })
        .await;
    }
    // Whichever replica's worker claims it, a new export renders with the new component.
    for server in &servers {
        let api = Api::new(&server.base, &key);
        let (job, last) = api
            .run_job(
                json!({"domain": "docs.acme.test", "paths": ["index"]}),
                Duration::from_secs(120),
            )
            .await;
        assert_eq!(last["status"], "completed", "{last}");
        let (_, archive) = api.download_bundle(&job).await;
        assert!(
            page_from_bundle(&archive, "index.html").contains("assets/minimal.css"),
            "rendered by the replaced component"
        );
    }
}
