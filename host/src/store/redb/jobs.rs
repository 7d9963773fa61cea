//! Static export jobs: each state change is one write transaction, and queued jobs are kept in
//! a separate table in the order they were queued, so claiming the next one is one lookup.
//! Leases need no clock here: only this process opens the file, so a running job's worker is
//! alive until the process stops, and start-up recovery requeues what it left running.

use std::time::Duration;

use async_trait::async_trait;
use redb::{ReadableDatabase, ReadableTable, WriteTransaction};

use super::{JOBS, QUEUE, RedbStore, blocking, decode, encode, scan};
use crate::store::{BundleRecord, Job, JobStatus, JobStore, JobUpdate, StoreError};

#[async_trait]
impl JobStore for RedbStore {
    async fn insert_job(&self, job: &Job) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            txn.open_table(JOBS)?
                .insert(job.id.as_str(), encode(job).as_slice())?;
            txn.open_table(QUEUE)?.insert(queue_key(job).as_str(), ())?;
            txn.commit()?;
            Ok(())
        })
    }

    async fn job_of(&self, organization: &str, id: &str) -> Result<Option<Job>, StoreError> {
        blocking(|| {
            Ok(self
                .get::<Job>(JOBS, id)?
                .filter(|job| job.organization == organization))
        })
    }

    async fn claim_next_job(
        &self,
        owner: &str,
        _lease: Duration,
        _max_attempts: u32,
    ) -> Result<Option<Job>, StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            let claimed = {
                let mut queue = txn.open_table(QUEUE)?;
                let next = queue.first()?.map(|(k, _)| k.value().to_string());
                let Some(key) = next else {
                    return Ok(None);
                };
                queue.remove(key.as_str())?;
                let id = key.rsplit('/').next().unwrap_or_default().to_string();
                modify(&txn, &id, None, |job| job.start(owner))?
            };
            txn.commit()?;
            Ok(claimed)
        })
    }

    async fn renew_lease(&self, id: &str, owner: &str, _lease: Duration) -> Result<(), StoreError> {
        blocking(|| {
            let job: Option<Job> = self.get(JOBS, id)?;
            match job {
                Some(job) => job.check_owner(owner),
                None => Err(StoreError::LeaseLost(id.to_string())),
            }
        })
    }

    async fn update_job_progress(
        &self,
        id: &str,
        owner: &str,
        update: JobUpdate,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            modify(&txn, id, Some(owner), |job| job.record_progress(update))?;
            txn.commit()?;
            Ok(())
        })
    }

    async fn complete_job(
        &self,
        id: &str,
        owner: &str,
        bundle: BundleRecord,
    ) -> Result<Job, StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            let job = modify(&txn, id, Some(owner), |job| job.complete(bundle))?;
            txn.commit()?;
            job.ok_or_else(|| StoreError::NotFound(format!("no job {id:?}")))
        })
    }

    async fn fail_job(&self, id: &str, owner: &str, error: &str) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            modify(&txn, id, Some(owner), |job| job.fail(error))?;
            txn.commit()?;
            Ok(())
        })
    }

    async fn requeue_job(&self, id: &str, owner: &str) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            let job = modify(&txn, id, Some(owner), Job::requeue)?;
            if let Some(job) = job {
                txn.open_table(QUEUE)?
                    .insert(queue_key(&job).as_str(), ())?;
            }
            txn.commit()?;
            Ok(())
        })
    }

    async fn recover_interrupted_jobs(
        &self,
        max_attempts: u32,
    ) -> Result<(usize, usize), StoreError> {
        blocking(|| {
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
                        modify(&txn, &job.id, None, Job::give_up)?;
                        failed += 1;
                    } else {
                        let job = modify(&txn, &job.id, None, Job::requeue_interrupted)?;
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
        })
    }

    /// Number of jobs in each status.
    async fn job_counts(&self) -> Result<[(JobStatus, usize); 4], StoreError> {
        blocking(|| {
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
        })
    }
}

/// Applies `change` to job `id` inside `txn`, after checking that `owner` (when given) runs
/// it; `None` if there is no such job.
fn modify(
    txn: &WriteTransaction,
    id: &str,
    owner: Option<&str>,
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
    if let Some(owner) = owner {
        job.check_owner(owner)?;
    }
    change(&mut job);
    table.insert(id, encode(&job).as_slice())?;
    Ok(Some(job))
}

pub(super) fn queue_key(job: &Job) -> String {
    format!(
        "{:020}/{}",
        job.created_at.unix_timestamp_nanos().max(0),
        job.id
    )
}
