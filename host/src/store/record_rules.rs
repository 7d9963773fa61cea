//! Rules about records that are the same in every backend: a backend reads and locks the
//! record its own way, then applies one of these (job transitions are in `job_states`).

use std::ops::Range;

use time::OffsetDateTime;

use super::{
    ContentVersion, MAX_THREAD_MESSAGES, Organization, PageEvent, Plan, SiteRecord, StoreError,
    Thread, ThreadMessage,
};

impl Organization {
    pub(crate) fn new(name: &str, plan: Plan) -> Self {
        Self {
            name: name.to_string(),
            plan,
            created_at: OffsetDateTime::now_utc(),
        }
    }
}

impl SiteRecord {
    /// The site once `version` is published by `organization`: the existing site (which must be
    /// theirs) or a new one, with `version` as its latest.
    pub(crate) fn publishing(
        existing: Option<SiteRecord>,
        organization: &str,
        version: &ContentVersion,
    ) -> Result<SiteRecord, StoreError> {
        let mut site = match existing {
            Some(site) if site.organization != organization => {
                return Err(domain_taken(&version.domain));
            }
            Some(site) => site,
            None => SiteRecord {
                domain: version.domain.clone(),
                organization: organization.to_string(),
                created_at: OffsetDateTime::now_utc(),
                latest_version: None,
            },
        };
        site.latest_version = Some(version.label.clone());
        Ok(site)
    }
}

/// Another organization owns `domain`.
pub(crate) fn domain_taken(domain: &str) -> StoreError {
    StoreError::Conflict(format!("domain {domain:?} belongs to another organization"))
}

/// `version` was published already.
pub(crate) fn version_taken(version: &ContentVersion) -> StoreError {
    StoreError::Conflict(format!(
        "version {:?} of {:?} is already published; versions are immutable, publish under a new label",
        version.label, version.domain
    ))
}

impl Thread {
    /// Appends a turn's messages, keeping the newest `MAX_THREAD_MESSAGES`.
    pub(crate) fn append(&mut self, messages: Vec<ThreadMessage>) {
        self.messages.extend(messages);
        let excess = self.messages.len().saturating_sub(MAX_THREAD_MESSAGES);
        self.messages.drain(..excess);
        self.updated_at = OffsetDateTime::now_utc();
    }
}

impl PageEvent {
    /// What the event adds to its page's (views, helpful, not helpful) counts.
    pub(crate) fn increments(self) -> (u64, u64, u64) {
        match self {
            PageEvent::View => (1, 0, 0),
            PageEvent::Feedback { helpful: true } => (0, 1, 0),
            PageEvent::Feedback { helpful: false } => (0, 0, 1),
        }
    }
}

/// Hours since the Unix epoch: the unit analytics are counted in.
pub(crate) fn hour_of(at: OffsetDateTime) -> u64 {
    (at.unix_timestamp().max(0) as u64) / 3600
}

/// The hours that overlap `from..to`: the hour holding `from` through the hour holding the last
/// moment before `to`.
pub(crate) fn hours_overlapping(from: OffsetDateTime, to: OffsetDateTime) -> Range<u64> {
    let start = hour_of(from);
    let end = (to.unix_timestamp().max(0) as u64).div_ceil(3600);
    start..end.max(start)
}
