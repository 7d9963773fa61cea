//! Assistant threads: a conversation's messages, its organization, site and `fp`.

use async_trait::async_trait;

use super::{RedbStore, THREADS, blocking, encode};
use crate::store::{StoreError, Thread, ThreadMessage, ThreadStore};
use redb::ReadableTable;

#[async_trait]
impl ThreadStore for RedbStore {
    async fn thread_of(&self, organization: &str, id: &str) -> Result<Option<Thread>, StoreError> {
        blocking(|| {
            Ok(self
                .get::<Thread>(THREADS, id)?
                .filter(|thread| thread.organization == organization))
        })
    }

    /// Records turns: for each, appends the messages to the stored thread, or stores the thread
    /// with them if it is new. One transaction, one durable commit, however many turns.
    async fn record_turns(
        &self,
        turns: Vec<(Thread, Vec<ThreadMessage>)>,
    ) -> Result<(), StoreError> {
        blocking(|| {
            let txn = self.db().begin_write()?;
            {
                let mut table = txn.open_table(THREADS)?;
                for (thread, messages) in turns {
                    let id = thread.id.clone();
                    let stored: Option<Thread> = table
                        .get(id.as_str())?
                        .map(|v| super::decode(THREADS, v.value()))
                        .transpose()?;
                    let mut thread = stored.unwrap_or(thread);
                    thread.append(messages);
                    table.insert(id.as_str(), encode(&thread).as_slice())?;
                }
            }
            txn.commit()?;
            Ok(())
        })
    }
}
