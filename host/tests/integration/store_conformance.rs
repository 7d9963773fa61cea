//! The store conformance suite: what every [`Store`] backend must do, checked on the embedded
//! store (a real redb file) and on the shared one (a throwaway PostgreSQL on loopback) by the
//! same checks: organization and key records, tenant scoping, site and version rules, job
//! transitions and leases, threads, rate counts, settings, analytics, and dump/restore.
//!
//! The API suite runs once, on the embedded store; what differs between backends is this
//! trait, and it is all here.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use quire::store::{
    ApiKeyRecord, BothTaken, BundleRecord, ContentVersion, Job, JobStatus, JobUpdate, JobWarning,
    KeyKind, MAX_STORED_WARNINGS, MAX_THREAD_MESSAGES, PageEvent, Plan, PostgresStore, RateWindow,
    RedbStore, Store, StoreError, Thread, ThreadMessage,
};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::common::postgres::{Postgres, new_database};

/// A fresh, empty store of the backend under test.
trait Backend {
    async fn fresh(&self) -> Arc<dyn Store>;
    /// How the backend takes back a job whose worker vanished.
    const RECOVERY: Recovery;
}

/// How a backend takes back a job whose worker vanished (`JobStore::recover_interrupted_jobs`).
#[derive(Clone, Copy, PartialEq)]
enum Recovery {
    /// One process opens the store: at its next start, every running job is requeued (or
    /// failed past its attempts).
    AtStart,
    /// Replicas share the store: another worker claims the job once its lease expires.
    ByLease,
}

/// Embedded stores, each in a folder of its own under one removed with the backend.
struct Embedded(tempfile::TempDir, AtomicUsize);

impl Backend for Embedded {
    const RECOVERY: Recovery = Recovery::AtStart;

    async fn fresh(&self) -> Arc<dyn Store> {
        let n = self.1.fetch_add(1, Ordering::Relaxed);
        Arc::new(RedbStore::open(&self.0.path().join(format!("store-{n}"))).unwrap())
    }
}

/// Shared stores, each a new database on one PostgreSQL server (stopped with the backend).
struct Shared(Postgres);

impl Backend for Shared {
    const RECOVERY: Recovery = Recovery::ByLease;

    async fn fresh(&self) -> Arc<dyn Store> {
        let url = new_database(&self.0.url());
        Arc::new(PostgresStore::connect(&url).await.unwrap())
    }
}

/// Every check, each on a fresh store; a failure names the check and the backend.
async fn conforms<B: Backend>(backend: &B, name: &str) {
    macro_rules! checks {
        ($($check:ident),* $(,)?) => {$(
            eprintln!("{name}: {}", stringify!($check));
            $check(backend.fresh().await.as_ref()).await;
        )*};
    }
    checks!(
        organizations_and_keys,
        keys_are_scoped_and_revoked,
        sites_and_versions,
        sites_are_scoped_to_their_organization,
        jobs_are_claimed_oldest_first_and_scoped,
        a_lease_is_held_by_one_worker,
        progress_never_goes_back_and_warnings_are_capped,
        a_clean_requeue_does_not_count,
        job_outcomes_are_counted,
        threads_keep_their_newest_messages,
        rate_counts_take_both_windows_or_neither,
        settings_keep_the_first_value,
        analytics_add_up_per_page_and_hour,
    );
    eprintln!("{name}: interrupted_jobs_are_taken_back");
    interrupted_jobs_are_taken_back(backend.fresh().await.as_ref(), B::RECOVERY).await;
    eprintln!("{name}: dump_and_load_round_trip");
    let (store, empty) = (backend.fresh().await, backend.fresh().await);
    dump_and_load_round_trip(store.as_ref(), empty.as_ref()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_embedded_store_conforms() {
    conforms(
        &Embedded(tempfile::tempdir().unwrap(), AtomicUsize::new(0)),
        "redb",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_shared_store_conforms() {
    conforms(&Shared(Postgres::start()), "postgres").await;
}

fn key(id: &str, organization: &str, kind: KeyKind) -> ApiKeyRecord {
    ApiKeyRecord {
        id: id.to_string(),
        organization: organization.to_string(),
        kind,
        created_at: OffsetDateTime::now_utc(),
        revoked_at: None,
    }
}

fn version(domain: &str, label: &str, created_at: OffsetDateTime) -> ContentVersion {
    ContentVersion {
        domain: domain.to_string(),
        label: label.to_string(),
        created_at,
        page_count: 3,
        file_count: 5,
        size_bytes: 1234,
        indexed_sections: 7,
        index_problems: Vec::new(),
        warnings: vec!["docs.json: a warning".into()],
    }
}

fn job(id: &str, organization: &str, created_at: OffsetDateTime) -> Job {
    Job {
        id: id.to_string(),
        organization: organization.to_string(),
        domain: "docs.acme.test".to_string(),
        version: "v1".to_string(),
        paths: None,
        format: None,
        status: JobStatus::Queued,
        page_count: 0,
        total_pages: 10,
        created_at,
        updated_at: created_at,
        attempts: 0,
        error: None,
        warnings: Vec::new(),
        warning_count: 0,
        bundle: None,
        features: None,
        lease_owner: None,
    }
}

fn warning(n: usize) -> JobWarning {
    JobWarning {
        file: format!("page-{n}.mdx"),
        line: Some(1),
        message: "a warning".to_string(),
    }
}

fn bundle() -> BundleRecord {
    BundleRecord {
        path: "bundles/job.tar.gz".to_string(),
        size_bytes: 42,
        media_type: "application/gzip".to_string(),
    }
}

const LEASE: Duration = Duration::from_secs(60);

async fn organizations_and_keys(store: &dyn Store) {
    let acme = store
        .create_organization("acme", Plan::Enterprise)
        .await
        .unwrap();
    assert_eq!((acme.name.as_str(), acme.plan), ("acme", Plan::Enterprise));
    assert!(matches!(
        store.create_organization("acme", Plan::Free).await,
        Err(StoreError::Conflict(_))
    ));
    store.create_organization("beta", Plan::Pro).await.unwrap();
    let names: Vec<String> = store
        .organizations()
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.name)
        .collect();
    assert_eq!(names, ["acme", "beta"]);
    assert_eq!(
        store.organization("beta").await.unwrap().unwrap().plan,
        Plan::Pro
    );
    assert!(store.organization("nobody").await.unwrap().is_none());
    assert!(matches!(
        store
            .add_key("hash-x", &key("x", "nobody", KeyKind::Admin))
            .await,
        Err(StoreError::NotFound(_))
    ));
}

async fn keys_are_scoped_and_revoked(store: &dyn Store) {
    for organization in ["acme", "beta"] {
        store
            .create_organization(organization, Plan::Enterprise)
            .await
            .unwrap();
    }
    store
        .add_key("hash-a", &key("a", "acme", KeyKind::Admin))
        .await
        .unwrap();
    store
        .add_key("hash-b", &key("b", "acme", KeyKind::Assistant))
        .await
        .unwrap();
    store
        .add_key("hash-c", &key("c", "beta", KeyKind::Admin))
        .await
        .unwrap();
    let (found, organization) = store
        .key_with_organization("hash-b")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.id.as_str(), found.kind), ("b", KeyKind::Assistant));
    assert_eq!(organization.name, "acme");
    assert!(store.key_by_hash("hash-zz").await.unwrap().is_none());
    let mut ids: Vec<String> = store
        .keys_of("acme")
        .await
        .unwrap()
        .into_iter()
        .map(|k| k.id)
        .collect();
    ids.sort();
    assert_eq!(ids, ["a", "b"]);
    // By public id, and by hash; revoking twice keeps the first time.
    let revoked = store.revoke_key(None, "a").await.unwrap();
    let first = revoked.revoked_at.expect("revoked");
    let again = store.revoke_key(Some("hash-a"), "a").await.unwrap();
    assert_eq!(again.revoked_at, Some(first));
    assert!(
        store
            .key_by_hash("hash-a")
            .await
            .unwrap()
            .unwrap()
            .revoked_at
            .is_some()
    );
    assert!(matches!(
        store.revoke_key(None, "missing").await,
        Err(StoreError::NotFound(_))
    ));
}

async fn sites_and_versions(store: &dyn Store) {
    store
        .create_organization("acme", Plan::Enterprise)
        .await
        .unwrap();
    let domain = "docs.acme.test";
    let older = datetime!(2026-11-01 10:00 UTC);
    let newer = datetime!(2026-11-02 10:00 UTC);
    store
        .add_version("acme", &version(domain, "v2", newer))
        .await
        .unwrap();
    store
        .add_version("acme", &version(domain, "v1", older))
        .await
        .unwrap();
    let site = store.site(domain).await.unwrap().unwrap();
    assert_eq!(site.organization, "acme");
    // The latest is the one published last, whatever its date.
    assert_eq!(site.latest_version.as_deref(), Some("v1"));
    let labels: Vec<String> = store
        .versions(domain)
        .await
        .unwrap()
        .into_iter()
        .map(|v| v.label)
        .collect();
    assert_eq!(labels, ["v1", "v2"], "oldest first");
    let stored = store.version(domain, "v2").await.unwrap().unwrap();
    assert_eq!(
        (stored.page_count, stored.size_bytes, stored.warnings.len()),
        (3, 1234, 1)
    );
    // Versions are immutable.
    assert!(matches!(
        store
            .add_version("acme", &version(domain, "v2", newer))
            .await,
        Err(StoreError::Conflict(_))
    ));
    assert!(store.version(domain, "v3").await.unwrap().is_none());
    // A domain that is a prefix of another keeps its own versions.
    store
        .add_version("acme", &version("docs.acme.test.extra", "v9", newer))
        .await
        .unwrap();
    assert_eq!(store.versions(domain).await.unwrap().len(), 2);
    assert_eq!(store.sites().await.unwrap().len(), 2);
}

async fn sites_are_scoped_to_their_organization(store: &dyn Store) {
    for organization in ["acme", "rival"] {
        store
            .create_organization(organization, Plan::Enterprise)
            .await
            .unwrap();
    }
    let domain = "docs.acme.test";
    let at = OffsetDateTime::now_utc();
    store
        .add_version("acme", &version(domain, "v1", at))
        .await
        .unwrap();
    assert!(store.site_of("acme", domain).await.unwrap().is_some());
    assert!(store.site_of("rival", domain).await.unwrap().is_none());
    assert!(matches!(
        store.check_domain_owner("rival", domain).await,
        Err(StoreError::Conflict(_))
    ));
    store.check_domain_owner("acme", domain).await.unwrap();
    store
        .check_domain_owner("rival", "docs.new.test")
        .await
        .unwrap();
    assert!(matches!(
        store.add_version("rival", &version(domain, "v2", at)).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(store.version(domain, "v2").await.unwrap().is_none());
}

async fn jobs_are_claimed_oldest_first_and_scoped(store: &dyn Store) {
    let first = job("job-b", "acme", datetime!(2026-11-01 10:00 UTC));
    let second = job("job-a", "acme", datetime!(2026-11-01 11:00 UTC));
    store.insert_job(&second).await.unwrap();
    store.insert_job(&first).await.unwrap();
    assert!(store.job_of("rival", "job-a").await.unwrap().is_none());
    let stored = store.job_of("acme", "job-a").await.unwrap().unwrap();
    assert_eq!(stored.status, JobStatus::Queued);
    let claimed = store
        .claim_next_job("worker-1", LEASE, 3)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claimed.id, "job-b", "the oldest queued job first");
    assert_eq!(
        (
            claimed.status,
            claimed.attempts,
            claimed.lease_owner.as_deref()
        ),
        (JobStatus::Running, 1, Some("worker-1"))
    );
    let next = store
        .claim_next_job("worker-2", LEASE, 3)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(next.id, "job-a");
    assert!(
        store
            .claim_next_job("worker-3", LEASE, 3)
            .await
            .unwrap()
            .is_none(),
        "running jobs with live leases are not claimed"
    );
}

async fn a_lease_is_held_by_one_worker(store: &dyn Store) {
    store
        .insert_job(&job("job-1", "acme", OffsetDateTime::now_utc()))
        .await
        .unwrap();
    store
        .claim_next_job("worker-1", LEASE, 3)
        .await
        .unwrap()
        .unwrap();
    store.renew_lease("job-1", "worker-1", LEASE).await.unwrap();
    let lost = |result: Result<_, StoreError>| matches!(result, Err(StoreError::LeaseLost(_)));
    assert!(lost(store.renew_lease("job-1", "worker-2", LEASE).await));
    assert!(lost(
        store
            .update_job_progress("job-1", "worker-2", JobUpdate::default())
            .await
    ));
    assert!(lost(
        store
            .complete_job("job-1", "worker-2", bundle())
            .await
            .map(|_| ())
    ));
    assert!(lost(store.fail_job("job-1", "worker-2", "no").await));
    assert!(lost(store.requeue_job("job-1", "worker-2").await));
    let done = store
        .complete_job("job-1", "worker-1", bundle())
        .await
        .unwrap();
    assert_eq!(done.status, JobStatus::Completed);
    assert_eq!(done.page_count, done.total_pages);
    assert_eq!(done.bundle.as_ref().map(|b| b.size_bytes), Some(42));
    // A job completes exactly once.
    assert!(lost(
        store
            .complete_job("job-1", "worker-1", bundle())
            .await
            .map(|_| ())
    ));
}

async fn progress_never_goes_back_and_warnings_are_capped(store: &dyn Store) {
    store
        .insert_job(&job("job-1", "acme", OffsetDateTime::now_utc()))
        .await
        .unwrap();
    store
        .claim_next_job("worker-1", LEASE, 3)
        .await
        .unwrap()
        .unwrap();
    let update = |page_count, warnings: std::ops::Range<usize>| JobUpdate {
        page_count,
        total_pages: 10,
        new_warnings: warnings.map(warning).collect(),
    };
    store
        .update_job_progress("job-1", "worker-1", update(6, 0..300))
        .await
        .unwrap();
    store
        .update_job_progress("job-1", "worker-1", update(4, 300..700))
        .await
        .unwrap();
    let stored = store.job_of("acme", "job-1").await.unwrap().unwrap();
    assert_eq!(stored.page_count, 6, "progress never goes back");
    assert_eq!(stored.warning_count, 700);
    assert_eq!(stored.warnings.len(), MAX_STORED_WARNINGS);
    assert_eq!(stored.warnings[299].file, "page-299.mdx");
}

async fn a_clean_requeue_does_not_count(store: &dyn Store) {
    store
        .insert_job(&job("job-1", "acme", OffsetDateTime::now_utc()))
        .await
        .unwrap();
    store
        .claim_next_job("worker-1", LEASE, 2)
        .await
        .unwrap()
        .unwrap();
    // A clean shutdown gives the job back without counting the attempt.
    store.requeue_job("job-1", "worker-1").await.unwrap();
    let requeued = store.job_of("acme", "job-1").await.unwrap().unwrap();
    assert_eq!(
        (requeued.status, requeued.attempts, requeued.lease_owner),
        (JobStatus::Queued, 0, None)
    );
    let again = store
        .claim_next_job("worker-2", LEASE, 2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((again.id.as_str(), again.attempts), ("job-1", 1));
}

/// A job whose worker vanished is run again, its attempt counted, and failed once it has been
/// interrupted as often as allowed; each backend by its own way of noticing.
async fn interrupted_jobs_are_taken_back(store: &dyn Store, recovery: Recovery) {
    store
        .insert_job(&job("job-1", "acme", OffsetDateTime::now_utc()))
        .await
        .unwrap();
    let short = Duration::from_millis(200);
    store
        .claim_next_job("worker-1", short, 2)
        .await
        .unwrap()
        .unwrap();
    match recovery {
        Recovery::AtStart => {
            assert_eq!(store.recover_interrupted_jobs(2).await.unwrap(), (1, 0));
            let taken = store
                .claim_next_job("worker-2", short, 2)
                .await
                .unwrap()
                .expect("a requeued job is claimed");
            assert_eq!(taken.attempts, 2);
            assert_eq!(store.recover_interrupted_jobs(2).await.unwrap(), (0, 1));
        }
        Recovery::ByLease => {
            // Another replica may still be running it: a start takes nothing back.
            assert_eq!(store.recover_interrupted_jobs(2).await.unwrap(), (0, 0));
            tokio::time::sleep(Duration::from_millis(400)).await;
            let taken = store
                .claim_next_job("worker-2", short, 2)
                .await
                .unwrap()
                .expect("an expired lease is taken over");
            assert_eq!(
                (taken.attempts, taken.lease_owner.as_deref()),
                (2, Some("worker-2"))
            );
            assert!(matches!(
                store.renew_lease("job-1", "worker-1", LEASE).await,
                Err(StoreError::LeaseLost(_))
            ));
            // Past its attempts, an expired job is failed rather than claimed again.
            tokio::time::sleep(Duration::from_millis(400)).await;
            assert!(
                store
                    .claim_next_job("worker-3", short, 2)
                    .await
                    .unwrap()
                    .is_none()
            );
        }
    }
    let failed = store.job_of("acme", "job-1").await.unwrap().unwrap();
    assert_eq!(failed.status, JobStatus::Failed);
    assert!(failed.error.unwrap().contains("interrupted 2 times"));
}

async fn job_outcomes_are_counted(store: &dyn Store) {
    let now = OffsetDateTime::now_utc();
    for id in ["job-1", "job-2", "job-3"] {
        store.insert_job(&job(id, "acme", now)).await.unwrap();
    }
    let claimed = store
        .claim_next_job("worker-1", LEASE, 3)
        .await
        .unwrap()
        .unwrap();
    store
        .fail_job(&claimed.id, "worker-1", "the renderer broke")
        .await
        .unwrap();
    let failed = store.job_of("acme", &claimed.id).await.unwrap().unwrap();
    assert_eq!(failed.error.as_deref(), Some("the renderer broke"));
    store
        .claim_next_job("worker-1", LEASE, 3)
        .await
        .unwrap()
        .unwrap();
    let counts = store.job_counts().await.unwrap();
    let count = |status| counts.iter().find(|(s, _)| *s == status).unwrap().1;
    assert_eq!(
        [
            count(JobStatus::Queued),
            count(JobStatus::Running),
            count(JobStatus::Completed),
            count(JobStatus::Failed)
        ],
        [1, 1, 0, 1]
    );
}

fn message(n: usize) -> ThreadMessage {
    ThreadMessage {
        role: if n.is_multiple_of(2) {
            "user"
        } else {
            "assistant"
        }
        .to_string(),
        content: format!("message {n}"),
        created_at: OffsetDateTime::now_utc(),
    }
}

async fn threads_keep_their_newest_messages(store: &dyn Store) {
    let now = OffsetDateTime::now_utc();
    let thread = Thread {
        id: "thread-1".to_string(),
        organization: "acme".to_string(),
        domain: "docs.acme.test".to_string(),
        fp: "reader".to_string(),
        messages: Vec::new(),
        created_at: now,
        updated_at: now,
    };
    store
        .record_turns(vec![(thread.clone(), (0..2).map(message).collect())])
        .await
        .unwrap();
    assert!(
        store
            .thread_of("rival", "thread-1")
            .await
            .unwrap()
            .is_none()
    );
    let stored = store.thread_of("acme", "thread-1").await.unwrap().unwrap();
    assert_eq!(stored.messages.len(), 2);
    assert_eq!(stored.fp, "reader");
    // Several turns in one call, the same thread twice: appended in order, the oldest dropped.
    let turns = (1..=2)
        .map(|turn| {
            let from = turn * 150;
            (thread.clone(), (from..from + 150).map(message).collect())
        })
        .collect();
    store.record_turns(turns).await.unwrap();
    let stored = store.thread_of("acme", "thread-1").await.unwrap().unwrap();
    assert_eq!(stored.messages.len(), MAX_THREAD_MESSAGES);
    assert_eq!(
        stored.messages.last().map(|m| m.content.as_str()),
        Some("message 449")
    );
    assert_eq!(
        stored.messages[0].content,
        format!("message {}", 450 - MAX_THREAD_MESSAGES)
    );
}

async fn rate_counts_take_both_windows_or_neither(store: &dyn Store) {
    let minute = RateWindow {
        scope: "minute",
        key: "key-1",
        window: 1000,
    };
    let day = RateWindow {
        scope: "day",
        key: "key-1",
        window: 7,
    };
    assert_eq!(
        store.take_both((minute, 2), (day, 3)).await.unwrap(),
        BothTaken::Counted(1, 1)
    );
    assert_eq!(
        store.take_both((minute, 2), (day, 3)).await.unwrap(),
        BothTaken::Counted(2, 2)
    );
    assert_eq!(
        store.take_both((minute, 2), (day, 3)).await.unwrap(),
        BothTaken::RefusedByFirst(2)
    );
    // The next minute: the day is at 2 of 3, one more fits, then the day refuses.
    let next_minute = RateWindow {
        window: 1001,
        ..minute
    };
    assert_eq!(
        store.take_both((next_minute, 2), (day, 3)).await.unwrap(),
        BothTaken::Counted(1, 3)
    );
    assert_eq!(
        store.take_both((next_minute, 2), (day, 3)).await.unwrap(),
        BothTaken::RefusedBySecond(3)
    );
    // A refused request counted in neither window.
    let later = RateWindow {
        window: 1002,
        ..minute
    };
    assert_eq!(
        store.take_both((next_minute, 5), (later, 5)).await.unwrap(),
        BothTaken::Counted(2, 1)
    );
    // Another key has counts of its own.
    let other = RateWindow {
        key: "key-2",
        ..minute
    };
    assert_eq!(
        store.take_both((other, 2), (day, 9)).await.unwrap(),
        BothTaken::Counted(1, 4)
    );
}

async fn settings_keep_the_first_value(store: &dyn Store) {
    let first = store
        .setting_or_init("secret", b"one".to_vec())
        .await
        .unwrap();
    let second = store
        .setting_or_init("secret", b"two".to_vec())
        .await
        .unwrap();
    assert_eq!(
        (first.as_slice(), second.as_slice()),
        (&b"one"[..], &b"one"[..])
    );
}

async fn analytics_add_up_per_page_and_hour(store: &dyn Store) {
    let at = datetime!(2026-11-21 10:30 UTC);
    let record = |domain, path, at, event| store.record_page_event(domain, path, at, event);
    for _ in 0..3 {
        record("docs.acme.test", "quickstart", at, PageEvent::View)
            .await
            .unwrap();
    }
    record(
        "docs.acme.test",
        "quickstart",
        at,
        PageEvent::Feedback { helpful: true },
    )
    .await
    .unwrap();
    record(
        "docs.acme.test",
        "auth",
        at + time::Duration::hours(2),
        PageEvent::Feedback { helpful: false },
    )
    .await
    .unwrap();
    record("docs.rival.test", "quickstart", at, PageEvent::View)
        .await
        .unwrap();
    let counts = store
        .page_counts("docs.acme.test", at, at + time::Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(counts.len(), 1, "{counts:?}");
    assert_eq!(
        (counts[0].path.as_str(), counts[0].views, counts[0].helpful),
        ("quickstart", 3, 1)
    );
    let all = store
        .page_counts("docs.acme.test", at, at + time::Duration::hours(3))
        .await
        .unwrap();
    let paths: Vec<&str> = all.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["quickstart", "auth"], "most viewed first");
    assert_eq!(all[1].not_helpful, 1);
}

/// What one store dumps, another (empty) loads whole; a store with records refuses a load.
async fn dump_and_load_round_trip(store: &dyn Store, empty: &dyn Store) {
    store
        .create_organization("acme", Plan::Enterprise)
        .await
        .unwrap();
    store
        .add_key("hash-a", &key("a", "acme", KeyKind::Admin))
        .await
        .unwrap();
    let now = OffsetDateTime::now_utc();
    store
        .add_version("acme", &version("docs.acme.test", "v1", now))
        .await
        .unwrap();
    store.insert_job(&job("job-1", "acme", now)).await.unwrap();
    store
        .record_page_event("docs.acme.test", "quickstart", now, PageEvent::View)
        .await
        .unwrap();
    store
        .setting_or_init("secret", b"s".to_vec())
        .await
        .unwrap();
    let dump = store.dump().await.unwrap();
    assert_eq!(
        dump.summary(),
        "1 organizations, 1 keys, 1 sites, 1 versions, 1 jobs, 0 threads, 1 analytics rows, 1 settings"
    );
    assert!(store.load(&dump).await.is_err());
    assert_eq!(store.dump().await.unwrap().summary(), dump.summary());
    empty.load(&dump).await.unwrap();
    let loaded = empty.dump().await.unwrap();
    assert_eq!(loaded.summary(), dump.summary());
    let (key, _) = empty
        .key_with_organization("hash-a")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(key.id, "a");
    let job = empty.job_of("acme", "job-1").await.unwrap().unwrap();
    assert_eq!(job.total_pages, 10);
    assert_eq!(
        empty
            .setting_or_init("secret", b"x".to_vec())
            .await
            .unwrap(),
        b"s"
    );
    assert_eq!(loaded.analytics, dump.analytics);
}
