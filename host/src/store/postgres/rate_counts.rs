//! Rate-limit counts shared by every replica: one row per limit and caller. A request's two
//! limits are taken together by `quire_take_rates` (migration 0002) in one round trip; each
//! count goes up in one statement that also refuses past the limit, so two replicas cannot
//! both take the last request.

use async_trait::async_trait;

use super::PostgresStore;
use crate::store::{BothTaken, RateCountStore, RateWindow, StoreError};

#[async_trait]
impl RateCountStore for PostgresStore {
    async fn take_both(
        &self,
        (first, first_limit): (RateWindow<'_>, u64),
        (second, second_limit): (RateWindow<'_>, u64),
    ) -> Result<BothTaken, StoreError> {
        let limit = |l: u64| i64::try_from(l).unwrap_or(i64::MAX);
        let row = self
            .client()
            .await?
            .query_one(
                "SELECT used1, used2, refused_by FROM quire_take_rates($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &first.scope,
                    &first.key,
                    &(first.window as i64),
                    &limit(first_limit),
                    &second.scope,
                    &second.key,
                    &(second.window as i64),
                    &limit(second_limit),
                ],
            )
            .await?;
        let count = |i: usize| row.get::<_, Option<i64>>(i).unwrap_or(0).max(0) as u64;
        Ok(match row.get::<_, i32>(2) {
            1 => BothTaken::RefusedByFirst(count(0)),
            2 => BothTaken::RefusedBySecond(count(1)),
            _ => BothTaken::Counted(count(0), count(1)),
        })
    }
}
