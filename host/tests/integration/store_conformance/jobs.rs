//! The checks on export jobs: claims, leases, progress, requeue and recovery, outcomes.

use std::time::Duration;

use quire::store::*;
use time::OffsetDateTime;
use time::macros::datetime;

use super::Recovery;

pub(super) fn job(id: &str, organization: &str, created_at: OffsetDateTime) -> Job {
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

pub(super) fn warning(n: usize) -> JobWarning {
    JobWarning {
        file: format!("page-{n}.mdx"),
        line: Some(1),
        message: "a warning".to_string(),
    }
}

pub(super) fn bundle() -> BundleRecord {
    BundleRecord {
        path: "bundles/job.tar.gz".to_string(),
        size_bytes: 42,
        media_type: "application/gzip".to_string(),
        delta: Some(DeltaRecord {
            path: "bundles/job.delta.tar.gz".to_string(),
            size_bytes: 7,
            files: 3,
            base_job: "job-0".to_string(),
            base_version: "v0".to_string(),
        }),
    }
}

pub(super) const LEASE: Duration = Duration::from_secs(60);

pub(super) async fn jobs_are_claimed_oldest_first_and_scoped(store: &dyn Store) {
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

pub(super) async fn a_lease_is_held_by_one_worker(store: &dyn Store) {
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
    let stored = store.job_of("acme", "job-1").await.unwrap().unwrap();
    let delta = stored
        .bundle
        .and_then(|b| b.delta)
        .expect("the delta is kept");
    assert_eq!((delta.base_job.as_str(), delta.size_bytes), ("job-0", 7));
    // A job completes exactly once.
    assert!(lost(
        store
            .complete_job("job-1", "worker-1", bundle())
            .await
            .map(|_| ())
    ));
}

pub(super) async fn progress_never_goes_back_and_warnings_are_capped(store: &dyn Store) {
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

pub(super) async fn a_clean_requeue_does_not_count(store: &dyn Store) {
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
pub(super) async fn interrupted_jobs_are_taken_back(store: &dyn Store, recovery: Recovery) {
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

pub(super) async fn job_outcomes_are_counted(store: &dyn Store) {
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
