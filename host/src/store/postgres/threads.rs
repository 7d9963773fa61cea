//! Assistant threads: one row per thread, its messages in the record. A turn locks the row it
//! appends to, so replicas answering the same thread do not lose each other's messages.

use async_trait::async_trait;

use super::{PostgresStore, json, record};
use crate::store::{StoreError, Thread, ThreadMessage, ThreadStore};

#[async_trait]
impl ThreadStore for PostgresStore {
    async fn thread_of(&self, organization: &str, id: &str) -> Result<Option<Thread>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                "SELECT record FROM threads WHERE id = $1 AND organization = $2",
                &[&id, &organization],
            )
            .await?;
        row.map(|row| record("threads", row.get(0))).transpose()
    }

    async fn record_turns(
        &self,
        turns: Vec<(Thread, Vec<ThreadMessage>)>,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let txn = client.transaction().await?;
        for (thread, messages) in turns {
            let stored = txn
                .query_opt(
                    "SELECT record FROM threads WHERE id = $1 FOR UPDATE",
                    &[&thread.id],
                )
                .await?
                .map(|row| record::<Thread>("threads", row.get(0)))
                .transpose()?;
            let mut thread = stored.unwrap_or(thread);
            thread.append(messages);
            txn.execute(
                "INSERT INTO threads (id, organization, record) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record",
                &[&thread.id, &thread.organization, &json(&thread)],
            )
            .await?;
        }
        txn.commit().await?;
        Ok(())
    }
}
