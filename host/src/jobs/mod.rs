//! The export job queue: workers claim queued jobs from the store under a lease, keep the lease
//! with heartbeats while they run the export on a blocking thread, and record the outcome. On
//! shutdown a running job goes back to the queue. After a crash, the embedded store's start-up
//! recovery requeues it; with a shared database, another server takes it over once its lease
//! expires, and the worker that lost a lease stops and records nothing.

mod export;
mod kept_archives;
mod start;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use opendal::Operator;
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use crate::export::ExportError;
pub use start::{ExportRequest, StartError, start_export};

use crate::config::JobsConfig;
use crate::plugins::Plugins;
use crate::store::{Job, SharedStore, StoreError};

/// How long an idle worker waits before looking at the queue again, in case a wake-up was
/// missed (a job queued by another process, say).
const IDLE_POLL: Duration = Duration::from_secs(1);

/// Everything a worker needs to run exports.
pub struct ExportContext {
    pub store: SharedStore,
    /// This server among the replicas sharing the store: its workers lease jobs as
    /// `{server_id}/{worker}`.
    pub server_id: String,
    pub operator: Operator,
    pub plugins: Plugins,
    pub config: JobsConfig,
    /// Woken when a job is queued.
    pub queued: Notify,
}

/// Every warning of `job`: the job record's, or, when it kept only the first of them, the
/// complete list its export wrote to storage (the record's, if that cannot be read).
pub async fn all_warnings(operator: &Operator, job: &Job) -> Vec<crate::store::JobWarning> {
    if job.warning_count as usize <= job.warnings.len() {
        return job.warnings.clone();
    }
    let path = crate::storage::paths::job_warnings(&job.id);
    match operator.read(&path).await {
        Ok(bytes) => serde_json::from_slice(&bytes.to_vec()).unwrap_or_else(|e| {
            tracing::warn!(job = %job.id, error = %e, "the job's warnings file is unreadable");
            job.warnings.clone()
        }),
        Err(e) => {
            tracing::warn!(job = %job.id, error = %e, "the job's warnings file cannot be read");
            job.warnings.clone()
        }
    }
}

/// Starts `config.workers` workers; they stop when `shutdown` is cancelled, putting any job
/// they were running back in the queue.
pub fn spawn_workers(
    context: Arc<ExportContext>,
    shutdown: CancellationToken,
) -> Vec<JoinHandle<()>> {
    (0..context.config.workers.max(1))
        .map(|n| tokio::spawn(worker(n, context.clone(), shutdown.clone())))
        .collect()
}

async fn worker(number: usize, context: Arc<ExportContext>, shutdown: CancellationToken) {
    let owner = format!("{}/{number}", context.server_id);
    while !shutdown.is_cancelled() {
        let claimed = context
            .store
            .claim_next_job(&owner, context.config.lease(), context.config.max_attempts)
            .await;
        match claimed {
            Ok(Some(job)) => run(number, &owner, &context, job, &shutdown).await,
            Ok(None) => {
                tokio::select! {
                    _ = context.queued.notified() => {}
                    _ = tokio::time::sleep(IDLE_POLL) => {}
                    _ = shutdown.cancelled() => {}
                }
            }
            Err(e) => {
                tracing::error!(worker = number, "cannot claim a job: {e}");
                tokio::time::sleep(IDLE_POLL).await;
            }
        }
    }
}

async fn run(
    number: usize,
    owner: &str,
    context: &Arc<ExportContext>,
    job: Job,
    shutdown: &CancellationToken,
) {
    let id = job.id.clone();
    tracing::info!(worker = number, job = %id, domain = %job.domain, version = %job.version, attempt = job.attempts, "export started");
    let started = std::time::Instant::now();
    let runtime = tokio::runtime::Handle::current();
    // Cancelled on shutdown, and when the lease is lost.
    let cancel = shutdown.child_token();
    let lease_lost = Arc::new(AtomicBool::new(false));
    let heartbeat = tokio::spawn(keep_lease(
        context.clone(),
        id.clone(),
        owner.to_string(),
        cancel.clone(),
        lease_lost.clone(),
    ));
    let (ctx, job_cancel) = (context.clone(), cancel.clone());
    let outcome =
        tokio::task::spawn_blocking(move || export::run_export(&ctx, &job, &runtime, &job_cancel))
            .await;
    heartbeat.abort();
    if lease_lost.load(Ordering::SeqCst) {
        tracing::warn!(job = %id, "the job's lease passed to another server; this run stops without recording anything");
        crate::metrics::count_outcome(&crate::metrics::get().exports_finished, "taken over");
        return;
    }
    let finished = match &outcome {
        Ok(Ok(_)) => "completed",
        Ok(Err(ExportError::Cancelled)) => "requeued",
        _ => "failed",
    };
    crate::metrics::count_outcome(&crate::metrics::get().exports_finished, finished);
    let store = &context.store;
    let recorded = match outcome {
        Ok(Ok(bundle)) => {
            let size = bundle.size_bytes;
            store.complete_job(&id, owner, bundle).await.map(|job| {
                tracing::info!(job = %id, pages = job.page_count, bytes = size,
                    seconds = started.elapsed().as_secs_f64(), "export completed");
            })
        }
        Ok(Err(ExportError::Cancelled)) => {
            tracing::info!(job = %id, "export interrupted by shutdown; queued again");
            store.requeue_job(&id, owner).await
        }
        Ok(Err(e)) => {
            tracing::warn!(job = %id, "export failed: {e}");
            store.fail_job(&id, owner, &e.to_string()).await
        }
        Err(join) => {
            tracing::error!(job = %id, "export crashed: {join}");
            store
                .fail_job(
                    &id,
                    owner,
                    "the export crashed inside the server; this is a bug",
                )
                .await
        }
    };
    match recorded {
        Ok(()) => {}
        Err(StoreError::LeaseLost(_)) => {
            tracing::warn!(job = %id, "the job's lease passed to another server before its outcome was recorded; that server's run counts");
        }
        Err(e) => tracing::error!(job = %id, "cannot record the export's outcome: {e}"),
    }
}

/// Renews the lease on job `id` every third of its length until aborted. Once the store says
/// another worker holds it, flags `lost` and cancels the run. A failed renewal (the database
/// unreachable for a moment) is retried at the next beat: the lease has two more beats' time.
async fn keep_lease(
    context: Arc<ExportContext>,
    id: String,
    owner: String,
    cancel: CancellationToken,
    lost: Arc<AtomicBool>,
) {
    let lease = context.config.lease();
    loop {
        tokio::time::sleep(lease / 3).await;
        match context.store.renew_lease(&id, &owner, lease).await {
            Ok(()) => {}
            Err(StoreError::LeaseLost(_)) => {
                lost.store(true, Ordering::SeqCst);
                cancel.cancel();
                return;
            }
            Err(e) => tracing::warn!(job = %id, "cannot renew the job's lease: {e}"),
        }
    }
}
