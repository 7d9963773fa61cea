//! Web analytics: page views and "was this page helpful?" answers, counted per site, hour and
//! page. Only counts are kept: no addresses, no fingerprints, no user agents.

use async_trait::async_trait;
use redb::{ReadableDatabase, ReadableTable};
use time::OffsetDateTime;

use super::{ANALYTICS, RedbStore, blocking};
use crate::store::record_rules::{hour_of, hours_overlapping};
use crate::store::{AnalyticsStore, PageCounts, PageEvent, StoreError};

#[async_trait]
impl AnalyticsStore for RedbStore {
    async fn record_page_event(
        &self,
        domain: &str,
        path: &str,
        at: OffsetDateTime,
        event: PageEvent,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            {
                let mut table = txn.open_table(ANALYTICS)?;
                let key = (domain, hour_of(at), path);
                let (views, helpful, not_helpful) =
                    table.get(key)?.map(|v| v.value()).unwrap_or((0, 0, 0));
                let (more_views, more_helpful, more_not_helpful) = event.increments();
                table.insert(
                    key,
                    (
                        views + more_views,
                        helpful + more_helpful,
                        not_helpful + more_not_helpful,
                    ),
                )?;
            }
            txn.commit()?;
            Ok(())
        })
    }

    async fn page_counts(
        &self,
        domain: &str,
        from: OffsetDateTime,
        to: OffsetDateTime,
    ) -> Result<Vec<PageCounts>, StoreError> {
        blocking(|| {
            let txn = self.db().begin_read()?;
            let table = txn.open_table(ANALYTICS)?;
            let mut pages: std::collections::HashMap<String, PageCounts> = Default::default();
            let hours = hours_overlapping(from, to);
            for row in table.range((domain, hours.start, "")..(domain, hours.end, ""))? {
                let (key, value) = row?;
                let (_, _, path) = key.value();
                let (views, helpful, not_helpful) = value.value();
                let entry = pages.entry(path.to_string()).or_insert_with(|| PageCounts {
                    path: path.to_string(),
                    ..Default::default()
                });
                entry.views += views;
                entry.helpful += helpful;
                entry.not_helpful += not_helpful;
            }
            let mut pages: Vec<_> = pages.into_values().collect();
            pages.sort_by(|a, b| b.views.cmp(&a.views).then(a.path.cmp(&b.path)));
            Ok(pages)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[tokio::test]
    async fn counts_add_up_per_page_and_hour_range() {
        let dir = tempfile::tempdir().unwrap();
        let store = RedbStore::open(dir.path()).unwrap();
        let at = datetime!(2026-11-21 10:30 UTC);
        for _ in 0..3 {
            store
                .record_page_event("d.test", "a", at, PageEvent::View)
                .await
                .unwrap();
        }
        store
            .record_page_event("d.test", "b", at, PageEvent::View)
            .await
            .unwrap();
        store
            .record_page_event("d.test", "a", at, PageEvent::Feedback { helpful: false })
            .await
            .unwrap();
        store
            .record_page_event(
                "d.test",
                "a",
                datetime!(2026-11-21 12:10 UTC),
                PageEvent::View,
            )
            .await
            .unwrap();
        store
            .record_page_event("other.test", "a", at, PageEvent::View)
            .await
            .unwrap();
        let counts = store
            .page_counts(
                "d.test",
                datetime!(2026-11-21 10:00 UTC),
                datetime!(2026-11-21 12:00 UTC),
            )
            .await
            .unwrap();
        assert_eq!(
            counts,
            vec![
                PageCounts {
                    path: "a".into(),
                    views: 3,
                    helpful: 0,
                    not_helpful: 1
                },
                PageCounts {
                    path: "b".into(),
                    views: 1,
                    helpful: 0,
                    not_helpful: 0
                },
            ]
        );
        let all = store
            .page_counts(
                "d.test",
                datetime!(2026-11-21 00:00 UTC),
                datetime!(2026-11-22 00:00 UTC),
            )
            .await
            .unwrap();
        assert_eq!(all[0].views, 4);
    }
}
