//! Rate-limit counts shared by every replica: one row per limit and caller, counted up in one
//! statement that also refuses past the limit, so two replicas cannot both take the last one.
//! A request's two limits are taken together by `quire_take_rates` (migration 0002), one round
//! trip.

use async_trait::async_trait;

use super::PostgresStore;
use crate::store::{BothTaken, RateCountStore, RateWindow, StoreError};

#[async_trait]
impl RateCountStore for PostgresStore {
    async fn take(&self, at: RateWindow<'_>, limit: u64) -> Result<Result<u64, u64>, StoreError> {
        if limit == 0 {
            return Ok(Err(0));
        }
        let window = at.window as i64;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let row = self
            .client()
            .await?
            .query_opt(
                "INSERT INTO rate_counts (scope, key, window_number, count) VALUES ($1, $2, $3, 1)
                 ON CONFLICT (scope, key) DO UPDATE SET
                     count = CASE WHEN rate_counts.window_number = EXCLUDED.window_number
                                  THEN rate_counts.count + 1 ELSE 1 END,
                     window_number = EXCLUDED.window_number
                 WHERE rate_counts.window_number <> EXCLUDED.window_number
                    OR rate_counts.count < $4
                 RETURNING count",
                &[&at.scope, &at.key, &window, &limit],
            )
            .await?;
        Ok(match row {
            Some(row) => Ok(row.get::<_, i64>(0).max(0) as u64),
            None => Err(limit as u64),
        })
    }

    async fn give_back(&self, at: RateWindow<'_>) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "UPDATE rate_counts SET count = count - 1
                 WHERE scope = $1 AND key = $2 AND window_number = $3 AND count > 0",
                &[&at.scope, &at.key, &(at.window as i64)],
            )
            .await?;
        Ok(())
    }

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
