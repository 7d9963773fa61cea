//! The offline search index's postings collected on a thread of its own while an export goes
//! on: adding every section's postings is the largest part of what an export's one ordered
//! pass over the site does (BENCHMARKS.md), and nothing of it is needed before the end.
//! Sections go to the thread in the pages' order, each page saying whether it closes its
//! group, and are added a group of pages at a time (`index_groups`), so the index is the same
//! as one built in line; its term shards and header come back once, at the end. The documents
//! are written into chunks by the caller, beside the pages (`SiteFiles`).

use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::PageSections;
use super::index_groups::GroupedIndex;

/// Batches of pages' sections in flight to the thread.
const QUEUED_BATCHES: usize = 8;

/// Pages' sections sent to the thread at once: one page at a time, parking and waking the
/// thread cost about as much as a kept page's sections take to add (BENCHMARKS.md).
const PAGES_PER_BATCH: usize = 32;

/// Pages' sections in the site's order, each with whether it closes its group.
type Batch = Vec<(PageSections, bool)>;

/// The index's files, as (path, contents).
type IndexFiles = Vec<(String, Vec<u8>)>;

/// A [`GroupedIndex`] on a thread of its own, or in line where no thread can be had.
pub enum IndexThread {
    Thread {
        /// `None` once the thread is gone (it panicked).
        sections: Option<SyncSender<Batch>>,
        /// The pages not yet sent.
        pending: Batch,
        builder: JoinHandle<IndexFiles>,
    },
    InLine(Box<GroupedIndex>),
}

impl Default for IndexThread {
    fn default() -> Self {
        let (sections, queued) = sync_channel::<Batch>(QUEUED_BATCHES);
        let spawned = std::thread::Builder::new()
            .name("offline-index".into())
            .spawn(move || {
                let mut builder = GroupedIndex::default();
                for (page, closes) in queued.into_iter().flatten() {
                    builder.add(page, closes);
                }
                finish(builder)
            });
        match spawned {
            Ok(builder) => IndexThread::Thread {
                sections: Some(sections),
                pending: Vec::with_capacity(PAGES_PER_BATCH),
                builder,
            },
            Err(e) => {
                tracing::warn!("the offline search index is built in line: no thread ({e})");
                IndexThread::InLine(Box::default())
            }
        }
    }
}

impl IndexThread {
    /// Adds the sections of the next page with sections in the site's order; `closes` says
    /// it closes its group (`index_groups::GroupCut`).
    pub fn add(&mut self, page: PageSections, closes: bool) {
        match self {
            IndexThread::Thread {
                sections, pending, ..
            } => {
                pending.push((page, closes));
                if pending.len() >= PAGES_PER_BATCH {
                    send(sections, pending);
                }
            }
            IndexThread::InLine(builder) => builder.add(page, closes),
        }
    }

    /// Says the last page has been added: the thread writes the term shards and header from
    /// here on, while the caller makes the site's other files, rather than once `finish` is
    /// called. Sections added after this are left out.
    pub fn close(&mut self) {
        if let IndexThread::Thread {
            sections, pending, ..
        } = self
        {
            send(sections, pending);
            *sections = None;
        }
    }

    /// The index's files, as (path, contents): its term shards and header.
    /// An index whose thread failed is left out, with an error in the log: the bundle still
    /// ships, without offline search.
    pub fn finish(self) -> IndexFiles {
        match self {
            IndexThread::Thread {
                mut sections,
                mut pending,
                builder,
            } => {
                send(&mut sections, &mut pending);
                drop(sections);
                builder.join().unwrap_or_else(|_| {
                    tracing::error!(
                        "building the offline search index failed; the bundle has none"
                    );
                    Vec::new()
                })
            }
            IndexThread::InLine(builder) => finish(*builder),
        }
    }
}

/// Sends the `pending` pages to the thread. A thread that is gone held the index; `finish`
/// reports it.
fn send(sections: &mut Option<SyncSender<Batch>>, pending: &mut Batch) {
    if pending.is_empty() {
        return;
    }
    let batch = std::mem::replace(pending, Vec::with_capacity(PAGES_PER_BATCH));
    if let Some(sender) = sections
        && sender.send(batch).is_err()
    {
        *sections = None;
    }
}

/// The index's files, with how many of its groups of pages and term shards were kept in the
/// log.
fn finish(builder: GroupedIndex) -> IndexFiles {
    let (index, groups, reused) = builder.finish();
    tracing::info!(
        groups,
        reused,
        shards = index.shards,
        shards_kept = index.shards_kept,
        "offline search index made"
    );
    index.files
}
