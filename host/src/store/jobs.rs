//! Static export jobs: each state change is one write transaction, and queued jobs are kept in
//! a separate table in the order they were queued, so claiming the next one is one lookup.

use redb::{ReadableDatabase, ReadableTable, WriteTransaction};
use time::OffsetDateTime;

use super::{
    BundleRecord, JOBS, Job, JobStatus, JobWarning, QUEUE, Store, StoreError, decode, encode, scan,
};

/// Most warnings kept on a job record; the count keeps growing past it.
const MAX_STORED_WARNINGS: usize = 500;

/// A running job's progress since its last update.
#[derive(Debug, Default)]
pub struct JobUpdate {
    pub page_count: u64,
    pub total_pages: u64,
    pub new_warnings: Vec<JobWarning>,
}

impl Store {
    /// Stores a new job, queued.
    pub fn insert_job(&self, job: &Job) -> Result<(), StoreError> {
        let txn = self.db().begin_write()?;
        txn.open_table(JOBS)?
            .insert(job.id.as_str(), encode(job).as_slice())?;
        txn.open_table(QUEUE)?.insert(queue_key(job).as_str(), ())?;
        txn.commit()?;
        Ok(())
    }

    pub fn job(&self, id: &str) -> Result<Option<Job>, StoreError> {
        self.get(JOBS, id)
    }

    /// Takes the oldest queued job and marks it running, counting the attempt.
    pub fn claim_next_job(&self) -> Result<Option<Job>, StoreError> {
        let txn = self.db().begin_write()?;
        let claimed = {
            let mut queue = txn.open_table(QUEUE)?;
            let next = queue.first()?.map(|(k, _)| k.value().to_string());
            let Some(key) = next else {
                return Ok(None);
            };
            queue.remove(key.as_str())?;
            let id = key.rsplit('/').next().unwrap_or_default().to_string();
            modify(&txn, &id, |job| {
                job.status = JobStatus::Running;
                job.attempts += 1;
                job.page_count = 0;
                job.error = None;
                job.warnings.clear();
                job.warning_count = 0;
            })?
        };
        txn.commit()?;
        Ok(claimed)
    }

    /// Records a running job's progress.
    pub fn update_job_progress(&self, id: &str, update: JobUpdate) -> Result<(), StoreError> {
        let txn = self.db().begin_write()?;
        modify(&txn, id, |job| {
            job.page_count = update.page_count;
            job.total_pages = update.total_pages;
            job.warning_count += update.new_warnings.len() as u64;
            let room = MAX_STORED_WARNINGS.saturating_sub(job.warnings.len());
            job.warnings
                .extend(update.new_warnings.into_iter().take(room));
        })?;
        txn.commit()?;
        Ok(())
    }

    /// Ends a job successfully with its bundle.
    pub fn complete_job(&self, id: &str, bundle: BundleRecord) -> Result<Job, StoreError> {
        let txn = self.db().begin_write()?;
        let job = modify(&txn, id, |job| {
            job.status = JobStatus::Completed;
            job.page_count = job.total_pages;
            job.bundle = Some(bundle);
        })?;
        txn.commit()?;
        job.ok_or_else(|| StoreError::NotFound(format!("no job {id:?}")))
    }

    /// Ends a job as failed with a reason.
    pub fn fail_job(&self, id: &str, error: &str) -> Result<(), StoreError> {
        let txn = self.db().begin_write()?;
        modify(&txn, id, |job| {
            job.status = JobStatus::Failed;
            job.error = Some(error.to_string());
        })?;
        txn.commit()?;
        Ok(())
    }

    /// Puts a running job back in the queue (the server is shutting down); the attempt it
    /// was on is not counted against it.
    pub fn requeue_job(&self, id: &str) -> Result<(), StoreError> {
        let txn = self.db().begin_write()?;
        let job = modify(&txn, id, |job| {
            job.status = JobStatus::Queued;
            job.attempts = job.attempts.saturating_sub(1);
        })?;
        if let Some(job) = job {
            txn.open_table(QUEUE)?
                .insert(queue_key(&job).as_str(), ())?;
        }
        txn.commit()?;
        Ok(())
    }

    /// At start-up: every job still marked running was interrupted by a crash. It is queued
    /// again, or failed once it has used `max_attempts`. Returns (requeued, failed).
    pub fn recover_interrupted_jobs(
        &self,
        max_attempts: u32,
    ) -> Result<(usize, usize), StoreError> {
        let txn = self.db().begin_write()?;
        let (mut requeued, mut failed) = (0, 0);
        {
            let interrupted: Vec<Job> = {
                let table = txn.open_table(JOBS)?;
                scan::<Job>(&table, JOBS)?
                    .into_iter()
                    .map(|(_, j)| j)
                    .filter(|j| j.status == JobStatus::Running)
                    .collect()
            };
            for job in interrupted {
                if job.attempts >= max_attempts {
                    let reason = format!(
                        "the export was interrupted {} times (the server stopped while it ran); giving up",
                        job.attempts
                    );
                    modify(&txn, &job.id, |j| {
                        j.status = JobStatus::Failed;
                        j.error = Some(reason.clone());
                    })?;
                    failed += 1;
                } else {
                    let job = modify(&txn, &job.id, |j| j.status = JobStatus::Queued)?;
                    if let Some(job) = job {
                        txn.open_table(QUEUE)?
                            .insert(queue_key(&job).as_str(), ())?;
                    }
                    requeued += 1;
                }
            }
        }
        txn.commit()?;
        Ok((requeued, failed))
    }

    /// Number of jobs in each status.
    pub fn job_counts(&self) -> Result<[(JobStatus, usize); 4], StoreError> {
        let txn = self.db().begin_read()?;
        let table = txn.open_table(JOBS)?;
        let mut counts = [
            (JobStatus::Queued, 0),
            (JobStatus::Running, 0),
            (JobStatus::Completed, 0),
            (JobStatus::Failed, 0),
        ];
        for (_, job) in scan::<Job>(&table, JOBS)? {
            if let Some(slot) = counts.iter_mut().find(|(s, _)| *s == job.status) {
                slot.1 += 1;
            }
        }
        Ok(counts)
    }
}

/// Applies `change` to job `id` inside `txn` and bumps `updated_at`; `None` if there is no
/// such job.
fn modify(
    txn: &WriteTransaction,
    id: &str,
    change: impl FnOnce(&mut Job),
) -> Result<Option<Job>, StoreError> {
    let mut table = txn.open_table(JOBS)?;
    let current: Option<Job> = table
        .get(id)?
        .map(|v| decode(JOBS, v.value()))
        .transpose()?;
    let Some(mut job) = current else {
        return Ok(None);
    };
    change(&mut job);
    job.updated_at = OffsetDateTime::now_utc();
    table.insert(id, encode(&job).as_slice())?;
    Ok(Some(job))
}

fn queue_key(job: &Job) -> String {
    format!(
        "{:020}/{}",
        job.created_at.unix_timestamp_nanos().max(0),
        job.id
    )
}
