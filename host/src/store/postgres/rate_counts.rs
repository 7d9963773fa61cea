//! Rate-limit counts shared by every replica: one row per limit and caller, counted up in one
//! statement that also refuses past the limit, so two replicas cannot both take the last one.

use async_trait::async_trait;

use super::PostgresStore;
use crate::store::{RateCountStore, RateWindow, StoreError};

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
}
