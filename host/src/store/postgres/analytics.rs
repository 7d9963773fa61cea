//! Web analytics counts: one row per site, hour and page, incremented in place.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::PostgresStore;
use crate::store::record_rules::{hour_of, hours_overlapping};
use crate::store::{AnalyticsStore, PageCounts, PageEvent, StoreError};

#[async_trait]
impl AnalyticsStore for PostgresStore {
    async fn record_page_event(
        &self,
        domain: &str,
        path: &str,
        at: OffsetDateTime,
        event: PageEvent,
    ) -> Result<(), StoreError> {
        let (views, helpful, not_helpful) = event.increments();
        let (views, helpful, not_helpful) = (views as i64, helpful as i64, not_helpful as i64);
        self.client()
            .await?
            .execute(
                "INSERT INTO page_analytics (domain, hour, path, views, helpful, not_helpful)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (domain, hour, path) DO UPDATE SET
                     views = page_analytics.views + EXCLUDED.views,
                     helpful = page_analytics.helpful + EXCLUDED.helpful,
                     not_helpful = page_analytics.not_helpful + EXCLUDED.not_helpful",
                &[
                    &domain,
                    &(hour_of(at) as i64),
                    &path,
                    &views,
                    &helpful,
                    &not_helpful,
                ],
            )
            .await?;
        Ok(())
    }

    async fn page_counts(
        &self,
        domain: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<Vec<PageCounts>, StoreError> {
        let hours = hours_overlapping(from, to);
        let (start, end) = (hours.start as i64, hours.end as i64);
        let rows = self
            .client()
            .await?
            .query(
                "SELECT path, sum(views)::bigint, sum(helpful)::bigint, sum(not_helpful)::bigint
                 FROM page_analytics WHERE domain = $1 AND hour >= $2 AND hour < $3
                 GROUP BY path ORDER BY 2 DESC, path",
                &[&domain, &start, &end],
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|row| PageCounts {
                path: row.get(0),
                views: row.get::<_, i64>(1).max(0) as u64,
                helpful: row.get::<_, i64>(2).max(0) as u64,
                not_helpful: row.get::<_, i64>(3).max(0) as u64,
            })
            .collect())
    }
}
