//! Assistant threads: a conversation's messages, its organization, site and `fp`.

use time::OffsetDateTime;

use super::{Store, StoreError, THREADS, Thread, ThreadMessage, encode};
use redb::ReadableTable;

/// Most messages a thread keeps; older ones are dropped first.
const MAX_THREAD_MESSAGES: usize = 200;

impl Store {
    pub fn create_thread(&self, thread: &Thread) -> Result<(), StoreError> {
        let txn = self.db().begin_write()?;
        txn.open_table(THREADS)?
            .insert(thread.id.as_str(), encode(thread).as_slice())?;
        txn.commit()?;
        Ok(())
    }

    pub fn thread(&self, id: &str) -> Result<Option<Thread>, StoreError> {
        self.get(THREADS, id)
    }

    /// Appends messages to a thread, in one transaction.
    pub fn append_to_thread(
        &self,
        id: &str,
        messages: Vec<ThreadMessage>,
    ) -> Result<(), StoreError> {
        let txn = self.db().begin_write()?;
        {
            let mut table = txn.open_table(THREADS)?;
            let current: Option<Thread> = table
                .get(id)?
                .map(|v| super::decode(THREADS, v.value()))
                .transpose()?;
            let Some(mut thread) = current else {
                return Err(StoreError::NotFound(format!("no thread {id:?}")));
            };
            thread.messages.extend(messages);
            let excess = thread.messages.len().saturating_sub(MAX_THREAD_MESSAGES);
            thread.messages.drain(..excess);
            thread.updated_at = OffsetDateTime::now_utc();
            table.insert(id, encode(&thread).as_slice())?;
        }
        txn.commit()?;
        Ok(())
    }
}
