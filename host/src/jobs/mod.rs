//! The export job queue: workers claim queued jobs from the store, run them on blocking
//! threads, and record the outcome. On shutdown a running job goes back to the queue; after a
//! crash, start-up recovery does the same (see `Store::recover_interrupted_jobs`).

mod export;

use std::sync::Arc;
use std::time::Duration;

use opendal::Operator;
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use export::ExportError;

use crate::config::JobsConfig;
use crate::plugins::Plugins;
use crate::store::{Job, Store};

/// How long an idle worker waits before looking at the queue again, in case a wake-up was
/// missed (a job queued by another process, say).
const IDLE_POLL: Duration = Duration::from_secs(1);

/// Everything a worker needs to run exports.
pub struct ExportContext {
    pub store: Store,
    pub operator: Operator,
    pub plugins: Plugins,
    pub config: JobsConfig,
    /// Woken when a job is queued.
    pub queued: Notify,
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
    while !shutdown.is_cancelled() {
        match context.store.claim_next_job() {
            Ok(Some(job)) => run(number, &context, job, &shutdown).await,
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

/// Runs the export of `job` on the calling thread (which must not be an async task's) and
/// returns its bundle; the caller records the outcome. `quire build` runs its one job so.
pub fn export_now(
    context: &ExportContext,
    job: &Job,
    runtime: &tokio::runtime::Handle,
    cancel: &CancellationToken,
) -> Result<crate::store::BundleRecord, ExportError> {
    export::run_export(context, job, runtime, cancel)
}

async fn run(number: usize, context: &Arc<ExportContext>, job: Job, shutdown: &CancellationToken) {
    let id = job.id.clone();
    tracing::info!(worker = number, job = %id, domain = %job.domain, version = %job.version, attempt = job.attempts, "export started");
    let started = std::time::Instant::now();
    let runtime = tokio::runtime::Handle::current();
    let (ctx, cancel) = (context.clone(), shutdown.clone());
    let outcome =
        tokio::task::spawn_blocking(move || export::run_export(&ctx, &job, &runtime, &cancel))
            .await;
    let finished = match &outcome {
        Ok(Ok(_)) => "completed",
        Ok(Err(ExportError::Cancelled)) => "requeued",
        _ => "failed",
    };
    crate::metrics::count_outcome(&crate::metrics::get().exports_finished, finished);
    let recorded = match outcome {
        Ok(Ok(bundle)) => {
            let size = bundle.size_bytes;
            context.store.complete_job(&id, bundle).map(|job| {
                tracing::info!(job = %id, pages = job.page_count, bytes = size,
                    seconds = started.elapsed().as_secs_f64(), "export completed");
            })
        }
        Ok(Err(ExportError::Cancelled)) => {
            tracing::info!(job = %id, "export interrupted by shutdown; queued again");
            context.store.requeue_job(&id)
        }
        Ok(Err(e)) => {
            tracing::warn!(job = %id, "export failed: {e}");
            context.store.fail_job(&id, &e.to_string())
        }
        Err(join) => {
            tracing::error!(job = %id, "export crashed: {join}");
            context
                .store
                .fail_job(&id, "the export crashed inside the server; this is a bug")
        }
    };
    if let Err(e) = recorded {
        tracing::error!(job = %id, "cannot record the export's outcome: {e}");
    }
}
