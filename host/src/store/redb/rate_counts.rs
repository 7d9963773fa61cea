//! Rate-limit counts of the embedded store, in this process's memory: the one server that
//! opens the redb file is the only one counting, and writing a count to disk per request would
//! cost more than the request. A restart starts new windows.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::RedbStore;
use crate::store::{BothTaken, RateCountStore, RateWindow, StoreError};

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
    async fn take_both(
        &self,
        (first, first_limit): (RateWindow<'_>, u64),
        (second, second_limit): (RateWindow<'_>, u64),
    ) -> Result<BothTaken, StoreError> {
        let counts = &self.rate_counts;
        let used_first = match counts.take(first, first_limit) {
            Ok(used) => used,
            Err(used) => return Ok(BothTaken::RefusedByFirst(used)),
        };
        Ok(match counts.take(second, second_limit) {
            Ok(used_second) => BothTaken::Counted(used_first, used_second),
            Err(used) => {
                counts.give_back(first);
                BothTaken::RefusedBySecond(used)
            }
        })
    }
}
