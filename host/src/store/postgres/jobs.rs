//! Static export jobs shared by replicas. A worker claims a job with `FOR UPDATE SKIP LOCKED`
//! (two replicas never get the same row) and holds a lease on it, timed by the database's clock
//! and renewed by heartbeats; a running job whose lease expired (its replica died) is claimable
//! again. Every change a worker makes locks the row and checks it still holds the lease.

use std::time::Duration;

use async_trait::async_trait;

use super::{PostgresStore, json, record};
use crate::store::{BundleRecord, Job, JobStatus, JobStore, JobUpdate, StoreError};

const STATUSES: [JobStatus; 4] = [
    JobStatus::Queued,
    JobStatus::Running,
    JobStatus::Completed,
    JobStatus::Failed,
];

/// Writes `job` back, with its lease running `lease` from now while it is leased.
async fn write(
    client: &deadpool_postgres::Transaction<'_>,
    job: &Job,
    lease: Option<Duration>,
) -> Result<(), StoreError> {
    let lease_secs = lease.map(|l| l.as_secs_f64());
    client
        .execute(
            "UPDATE jobs SET status = $2, lease_owner = $3,
                 lease_expires_at = CASE WHEN $3::text IS NULL THEN NULL
                                         ELSE now() + make_interval(secs => $4) END,
                 record = $5
             WHERE id = $1",
            &[
                &job.id,
                &job.status.name(),
                &job.lease_owner,
                &lease_secs.unwrap_or_default(),
                &json(job),
            ],
        )
        .await?;
    Ok(())
}

impl PostgresStore {
    /// Applies `change` to job `id` once `owner` is checked to hold it, in one transaction.
    /// The lease is left as it is.
    async fn modify_owned(
        &self,
        id: &str,
        owner: &str,
        change: impl FnOnce(&mut Job) + Send,
    ) -> Result<Job, StoreError> {
        let mut client = self.client().await?;
        let txn = client.transaction().await?;
        let row = txn
            .query_opt("SELECT record FROM jobs WHERE id = $1 FOR UPDATE", &[&id])
            .await?;
        let Some(row) = row else {
            return Err(StoreError::NotFound(format!("no job {id:?}")));
        };
        let mut job: Job = record("jobs", row.get(0))?;
        job.check_owner(owner)?;
        change(&mut job);
        txn.execute(
            "UPDATE jobs SET status = $2, record = $3,
                 lease_owner = CASE WHEN $2 = 'running' THEN lease_owner END,
                 lease_expires_at = CASE WHEN $2 = 'running' THEN lease_expires_at END
             WHERE id = $1",
            &[&job.id, &job.status.name(), &json(&job)],
        )
        .await?;
        txn.commit().await?;
        Ok(job)
    }
}

#[async_trait]
impl JobStore for PostgresStore {
    async fn insert_job(&self, job: &Job) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "INSERT INTO jobs (id, organization, status, queued_at, record)
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &job.id,
                    &job.organization,
                    &job.status.name(),
                    &job.created_at,
                    &json(job),
                ],
            )
            .await?;
        Ok(())
    }

    async fn job_of(&self, organization: &str, id: &str) -> Result<Option<Job>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT record FROM jobs WHERE id = $1 AND organization = $2",
                &[&id, &organization],
            )
            .await?;
        row.map(|row| record("jobs", row.get(0))).transpose()
    }

    async fn claim_next_job(
        &self,
        owner: &str,
        lease: Duration,
        max_attempts: u32,
    ) -> Result<Option<Job>, StoreError> {
        let mut client = self.client().await?;
        loop {
            let txn = client.transaction().await?;
            let row = txn
                .query_opt(
                    "SELECT record, status FROM jobs
                     WHERE status = 'queued' OR (status = 'running' AND lease_expires_at < now())
                     ORDER BY queued_at LIMIT 1 FOR UPDATE SKIP LOCKED",
                    &[],
                )
                .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let mut job: Job = record("jobs", row.get(0))?;
            let taken_over = row.get::<_, &str>(1) == "running";
            if taken_over && job.attempts >= max_attempts {
                tracing::warn!(job = %job.id, attempts = job.attempts, "a job's lease expired too often; failing it");
                job.give_up();
                write(&txn, &job, None).await?;
                txn.commit().await?;
                continue;
            }
            if taken_over {
                tracing::warn!(job = %job.id, previous = ?job.lease_owner, "taking over a job whose lease expired");
            }
            job.start(owner);
            write(&txn, &job, Some(lease)).await?;
            txn.commit().await?;
            return Ok(Some(job));
        }
    }

    async fn renew_lease(&self, id: &str, owner: &str, lease: Duration) -> Result<(), StoreError> {
        let renewed = self
            .client()
            .await?
            .execute(
                "UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3)
                 WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
                &[&id, &owner, &lease.as_secs_f64()],
            )
            .await?;
        if renewed == 0 {
            return Err(StoreError::LeaseLost(id.to_string()));
        }
        Ok(())
    }

    async fn update_job_progress(
        &self,
        id: &str,
        owner: &str,
        update: JobUpdate,
    ) -> Result<(), StoreError> {
        self.modify_owned(id, owner, |job| job.record_progress(update))
            .await
            .map(|_| ())
    }

    async fn complete_job(
        &self,
        id: &str,
        owner: &str,
        bundle: BundleRecord,
    ) -> Result<Job, StoreError> {
        self.modify_owned(id, owner, |job| job.complete(bundle))
            .await
    }

    async fn fail_job(&self, id: &str, owner: &str, error: &str) -> Result<(), StoreError> {
        self.modify_owned(id, owner, |job| job.fail(error))
            .await
            .map(|_| ())
    }

    async fn requeue_job(&self, id: &str, owner: &str) -> Result<(), StoreError> {
        self.modify_owned(id, owner, Job::requeue).await.map(|_| ())
    }

    async fn recover_interrupted_jobs(
        &self,
        _max_attempts: u32,
    ) -> Result<(usize, usize), StoreError> {
        // Another replica may be running them: `claim_next_job` takes over the ones whose
        // lease has expired.
        Ok((0, 0))
    }

    async fn job_counts(&self) -> Result<[(JobStatus, usize); 4], StoreError> {
        let rows = self
            .client()
            .await?
            .query("SELECT status, count(*) FROM jobs GROUP BY status", &[])
            .await?;
        let mut counts = STATUSES.map(|status| (status, 0));
        for row in rows {
            let name: &str = row.get(0);
            let count: i64 = row.get(1);
            if let Some(slot) = counts.iter_mut().find(|(s, _)| s.name() == name) {
                slot.1 = count.max(0) as usize;
            }
        }
        Ok(counts)
    }
}
