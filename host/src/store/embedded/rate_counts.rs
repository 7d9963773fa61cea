//! Rate-limit counts of the embedded store, in this process's memory: the one server that
//! opens the redb file is the only one counting, and writing a count to disk per request would
//! cost more than the request. A restart starts new windows.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::RedbStore;
use crate::store::{RateCountStore, RateWindow, StoreError};

/// Counts older than their window are swept once the map holds this many keys.
const SWEEP_AT: usize = 100_000;

/// (scope, key) -> (window, count).
#[derive(Default)]
pub(super) struct MemoryCounts {
    counts: Mutex<HashMap<(String, String), (u64, u64)>>,
}

impl MemoryCounts {
    fn take(&self, at: RateWindow<'_>, limit: u64) -> Result<u64, u64> {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if counts.len() > SWEEP_AT {
            // Windows of other scopes have other lengths: only this scope's are compared.
            counts.retain(|(scope, _), (window, _)| scope != at.scope || *window >= at.window);
        }
        let entry = counts
            .entry((at.scope.to_string(), at.key.to_string()))
            .or_insert((at.window, 0));
        if entry.0 != at.window {
            *entry = (at.window, 0);
        }
        if entry.1 >= limit {
            return Err(entry.1);
        }
        entry.1 += 1;
        Ok(entry.1)
    }

    fn give_back(&self, at: RateWindow<'_>) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = counts.get_mut(&(at.scope.to_string(), at.key.to_string()))
            && entry.0 == at.window
        {
            entry.1 = entry.1.saturating_sub(1);
        }
    }
}

#[async_trait]
impl RateCountStore for RedbStore {
    async fn take(
        &self,
        window: RateWindow<'_>,
        limit: u64,
    ) -> Result<Result<u64, u64>, StoreError> {
        Ok(self.rate_counts.take(window, limit))
    }

    async fn give_back(&self, window: RateWindow<'_>) -> Result<(), StoreError> {
        self.rate_counts.give_back(window);
        Ok(())
    }
}
