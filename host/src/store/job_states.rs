//! How a job record changes at each step of its life, the same in every backend: a backend
//! finds and locks the record its own way, then applies one of these.

use time::OffsetDateTime;

use super::{BundleRecord, Job, JobStatus, JobUpdate, StoreError};

/// Most warnings kept on a job record; the count keeps growing past it.
pub const MAX_STORED_WARNINGS: usize = 500;

impl Job {
    /// A worker starts (or takes over) the job. The page count stays where it was, so progress
    /// never goes back; the warnings are given again by the new run.
    pub(crate) fn start(&mut self, owner: &str) {
        self.status = JobStatus::Running;
        self.attempts += 1;
        self.error = None;
        self.warnings.clear();
        self.warning_count = 0;
        self.lease_owner = Some(owner.to_string());
        self.touch();
    }

    /// Fails with [`StoreError::LeaseLost`] unless `owner` is running the job.
    pub(crate) fn check_owner(&self, owner: &str) -> Result<(), StoreError> {
        if self.status == JobStatus::Running && self.lease_owner.as_deref() == Some(owner) {
            Ok(())
        } else {
            Err(StoreError::LeaseLost(self.id.clone()))
        }
    }

    pub(crate) fn record_progress(&mut self, update: JobUpdate) {
        self.page_count = self.page_count.max(update.page_count);
        self.total_pages = update.total_pages;
        self.warning_count += update.new_warnings.len() as u64;
        let room = MAX_STORED_WARNINGS.saturating_sub(self.warnings.len());
        self.warnings
            .extend(update.new_warnings.into_iter().take(room));
        self.touch();
    }

    pub(crate) fn complete(&mut self, bundle: BundleRecord) {
        self.status = JobStatus::Completed;
        self.page_count = self.total_pages;
        self.bundle = Some(bundle);
        self.lease_owner = None;
        self.touch();
    }

    pub(crate) fn fail(&mut self, error: &str) {
        self.status = JobStatus::Failed;
        self.error = Some(error.to_string());
        self.lease_owner = None;
        self.touch();
    }

    /// Back to the queue; the attempt it was on does not count (its server stopped cleanly).
    pub(crate) fn requeue(&mut self) {
        self.status = JobStatus::Queued;
        self.attempts = self.attempts.saturating_sub(1);
        self.lease_owner = None;
        self.touch();
    }

    /// Back to the queue after its worker vanished: the attempt counts.
    pub(crate) fn requeue_interrupted(&mut self) {
        self.status = JobStatus::Queued;
        self.lease_owner = None;
        self.touch();
    }

    /// The job was interrupted `attempts` times, as many as allowed.
    pub(crate) fn give_up(&mut self) {
        let reason = format!(
            "the export was interrupted {} times (the server running it stopped); giving up",
            self.attempts
        );
        self.fail(&reason);
    }

    fn touch(&mut self) {
        self.updated_at = OffsetDateTime::now_utc();
    }
}
