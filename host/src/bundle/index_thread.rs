//! The offline search index built on a thread of its own while an export goes on: adding every
//! section's postings is the largest part of what an export's one ordered pass over the site
//! does (BENCHMARKS.md), and nothing of it is needed before the end. Sections go to the thread
//! in the pages' order, so the index is the same as one built in line; its files, document
//! chunks included, come back once, at the end.

use std::sync::mpsc::{SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::search_index::{SearchIndexBuilder, StoredSection};
use super::{PageSections, Sections};

/// Pages' sections in flight to the thread.
const QUEUED_PAGES: usize = 256;

/// The index's files, as (path, contents).
type IndexFiles = Vec<(String, Vec<u8>)>;

/// A [`SearchIndexBuilder`] on a thread of its own, or in line where no thread can be had.
pub enum IndexThread {
    Thread {
        /// `None` once the thread is gone (it panicked).
        sections: Option<SyncSender<PageSections>>,
        builder: JoinHandle<IndexFiles>,
    },
    InLine(Box<SearchIndexBuilder>, IndexFiles),
}

impl Default for IndexThread {
    fn default() -> Self {
        let (sections, queued) = sync_channel::<PageSections>(QUEUED_PAGES);
        let spawned = std::thread::Builder::new()
            .name("offline-index".into())
            .spawn(move || {
                let mut builder = SearchIndexBuilder::default();
                let mut files = Vec::new();
                for page in queued {
                    add(&mut builder, page);
                    // Chunks fill as documents come; held as files, a few bytes a section.
                    files.extend(builder.take_ready());
                }
                files.extend(builder.finish());
                files
            });
        match spawned {
            Ok(builder) => IndexThread::Thread {
                sections: Some(sections),
                builder,
            },
            Err(e) => {
                tracing::warn!("the offline search index is built in line: no thread ({e})");
                IndexThread::InLine(Box::default(), Vec::new())
            }
        }
    }
}

impl IndexThread {
    /// Adds one page's sections, in the site's order.
    pub fn add(&mut self, page: PageSections) {
        if page.is_empty() {
            return;
        }
        match self {
            IndexThread::Thread { sections, .. } => {
                // A thread that is gone held the index; `finish` reports it.
                if let Some(sender) = sections
                    && sender.send(page).is_err()
                {
                    *sections = None;
                }
            }
            IndexThread::InLine(builder, files) => {
                add(builder, page);
                files.extend(builder.take_ready());
            }
        }
    }

    /// The index's files, as (path, contents): its document chunks, term shards and header.
    /// An index whose thread failed is left out, with an error in the log: the bundle still
    /// ships, without offline search.
    pub fn finish(self) -> IndexFiles {
        match self {
            IndexThread::Thread { sections, builder } => {
                drop(sections);
                builder.join().unwrap_or_else(|_| {
                    tracing::error!(
                        "building the offline search index failed; the bundle has none"
                    );
                    Vec::new()
                })
            }
            IndexThread::InLine(builder, mut files) => {
                files.extend(builder.finish());
                files
            }
        }
    }
}

/// Adds one page's sections to `builder`: stored ones are read in place. Stored sections that
/// do not read back (the summary they came from passed its cache's check, so never in
/// practice) leave the page out of search, with an error in the log.
fn add(builder: &mut SearchIndexBuilder, page: PageSections) {
    match page.0 {
        Sections::Counted(sections) => {
            for section in sections {
                builder.add_counted(section);
            }
        }
        Sections::Stored(bytes) => match postcard::from_bytes::<Vec<StoredSection<'_>>>(&bytes) {
            Ok(sections) => {
                for section in sections {
                    builder.add_stored(section);
                }
            }
            Err(e) => tracing::error!("a page's stored search sections do not read back: {e}"),
        },
    }
}
