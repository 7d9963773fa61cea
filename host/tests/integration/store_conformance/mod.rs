//! The store conformance suite: what every [`Store`] backend must do, checked on the embedded
//! store (a real redb file) and on the shared one (a throwaway PostgreSQL on loopback) by the
//! same checks: organization and key records, tenant scoping, site and version rules, job
//! transitions and leases, threads, rate counts, settings, analytics, and dump/restore.
//!
//! The API suite runs once, on the embedded store; what differs between backends is this
//! trait, and it is all here.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use quire::store::{PostgresStore, RedbStore, Store};

use crate::common::postgres::{Postgres, new_database};

mod jobs;
mod records;

use jobs::*;
use records::*;

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
