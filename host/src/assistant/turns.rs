//! Saving assistant turns with group commit: one writer thread commits every turn waiting at
//! that moment in a single durable transaction. Each turn is on disk before its stream ends,
//! and under load many turns share one disk flush (or one database round trip) instead of
//! queueing for one each.

use std::sync::mpsc;

use tokio::sync::oneshot;

use crate::store::{SharedStore, Thread, ThreadMessage};

/// Turns committed together at most.
const MAX_BATCH: usize = 512;

struct Pending {
    thread: Thread,
    messages: Vec<ThreadMessage>,
    done: oneshot::Sender<Result<(), String>>,
}

/// The handle requests use; the writer thread ends when it is dropped.
pub struct TurnWriter {
    sender: mpsc::Sender<Pending>,
}

impl TurnWriter {
    /// Starts the writer thread; it reaches the store through the calling runtime.
    pub fn start(store: SharedStore) -> Self {
        let (sender, receiver) = mpsc::channel::<Pending>();
        let runtime = tokio::runtime::Handle::current();
        let spawned = std::thread::Builder::new()
            .name("quire-thread-writer".into())
            .spawn(move || {
                while let Ok(first) = receiver.recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_BATCH {
                        match receiver.try_recv() {
                            Ok(more) => batch.push(more),
                            Err(_) => break,
                        }
                    }
                    let (turns, waiting): (Vec<_>, Vec<_>) = batch
                        .into_iter()
                        .map(|p| ((p.thread, p.messages), p.done))
                        .unzip();
                    let result = runtime
                        .block_on(store.record_turns(turns))
                        .map_err(|e| e.to_string());
                    for done in waiting {
                        let _ = done.send(result.clone());
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::error!("cannot start the thread writer: {e}");
        }
        Self { sender }
    }

    /// Saves a turn; resolves once it is durable.
    pub async fn record(&self, thread: Thread, messages: Vec<ThreadMessage>) -> Result<(), String> {
        let (done, result) = oneshot::channel();
        self.sender
            .send(Pending {
                thread,
                messages,
                done,
            })
            .map_err(|_| "the thread writer has stopped".to_string())?;
        result
            .await
            .map_err(|_| "the thread writer has stopped".to_string())?
    }
}
