//! Web analytics counts: one row per site, hour and page, incremented in place.

use async_trait::async_trait;
use time::OffsetDateTime;

use super::PostgresStore;
use crate::store::{AnalyticsStore, PageCounts, PageEvent, StoreError};

fn hour_of(at: OffsetDateTime) -> i64 {
    at.unix_timestamp().max(0) / 3600
}

#[async_trait]
impl AnalyticsStore for PostgresStore {
    async fn record_page_event(
        &self,
        domain: &str,
        path: &str,
        at: OffsetDateTime,
        event: PageEvent,
    ) -> Result<(), StoreError> {
        let (views, helpful, not_helpful): (i64, i64, i64) = match event {
            PageEvent::View => (1, 0, 0),
            PageEvent::Feedback { helpful: true } => (0, 1, 0),
            PageEvent::Feedback { helpful: false } => (0, 0, 1),
        };
        self.client()
            .await?
            .execute(
                "INSERT INTO page_analytics (domain, hour, path, views, helpful, not_helpful)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (domain, hour, path) DO UPDATE SET
                     views = page_analytics.views + EXCLUDED.views,
                     helpful = page_analytics.helpful + EXCLUDED.helpful,
                     not_helpful = page_analytics.not_helpful + EXCLUDED.not_helpful",
                &[&domain, &hour_of(at), &path, &views, &helpful, &not_helpful],
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
        let start = hour_of(from);
        let end = (to.unix_timestamp().max(0) + 3599) / 3600;
        let rows = self
            .client()
            .await?
            .query(
                "SELECT path, sum(views)::bigint, sum(helpful)::bigint, sum(not_helpful)::bigint
                 FROM page_analytics WHERE domain = $1 AND hour >= $2 AND hour < $3
                 GROUP BY path ORDER BY 2 DESC, path",
                &[&domain, &start, &end.max(start)],
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
