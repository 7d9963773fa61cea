//! A second packager session packing some of a batch's files while the archive writer goes
//! through the batch. The site-wide files come in one batch at the end of an export (the
//! search shards a change touches, the page list, the sitemap) and were packed one after the
//! other on the writer's one session: most of a one-page release's serial tail (BENCHMARKS.md).
//! A packager whose entries are reusable makes each entry from its path and contents alone
//! (the contract's `reusable-entries`), so an entry packed on another session is the same bytes.
//!
//! The writer still writes every entry, in the batch's order: it takes the ones packed ahead
//! from here as it comes to them, and packs the rest itself.

use std::sync::mpsc::{Receiver, channel};
use std::thread::ScopedJoinHandle;

use super::files::BundleFile;
use crate::plugins::{ArchiveSession, PluginError};

/// A batch has files packed ahead only when it has at least this many to pack: starting the
/// other thread costs more than packing one or two files (a changed page's).
const MIN_FILES: usize = 4;

/// A file's entry packed ahead, with its place in the batch.
type PackedEntry = (usize, Result<Vec<u8>, PluginError>);

/// The second session being started.
type Starting<'scope> = ScopedJoinHandle<'scope, Result<ArchiveSession, PluginError>>;

/// The second session, started on a thread of its own while the export's first files come
/// (instantiating a packager took longer than packing the site-wide files' half).
pub(super) struct PackAhead<'scope> {
    starting: Option<Starting<'scope>>,
    session: Option<ArchiveSession>,
}

/// The entries of a batch's files packed ahead, by their place in the batch.
pub(super) struct Packed {
    /// The places packed ahead, in order, and the first not yet taken.
    places: Vec<usize>,
    next: usize,
    entries: Option<Receiver<PackedEntry>>,
}

impl Packed {
    /// The entry of the file at `place`, if it was packed ahead (waiting for it if it is still
    /// being packed); `None` when the writer is to pack it. Places are asked in order.
    pub fn take(&mut self, place: usize) -> Option<Result<Vec<u8>, PluginError>> {
        while self.places.get(self.next).is_some_and(|&p| p < place) {
            self.next += 1;
        }
        if self.places.get(self.next) != Some(&place) {
            return None;
        }
        self.next += 1;
        let entries = self.entries.as_ref()?;
        // Entries come in the order of their places; one the writer passed by is dropped.
        loop {
            match entries.recv() {
                Ok((packed, entry)) if packed == place => return Some(entry),
                Ok(_) => continue,
                Err(_) => {
                    return Some(Err(PluginError::Engine(
                        "packing files ahead stopped".into(),
                    )));
                }
            }
        }
    }
}

impl<'scope> PackAhead<'scope> {
    /// Files packed ahead on the session `starting` gives, or on none.
    pub fn new(starting: Option<Starting<'scope>>) -> Self {
        Self {
            starting,
            session: None,
        }
    }

    /// Runs `write` over `batch`, while every other one of the files at `picked` (the places,
    /// in order, of files the writer would pack whole) is packed on the second session; `write`
    /// takes those entries from the `Packed` it is given.
    pub fn run<R>(
        &mut self,
        batch: &[BundleFile],
        picked: Vec<usize>,
        write: impl FnOnce(&mut Packed) -> R,
    ) -> R {
        // The writer takes the first, the second session the next, and so on.
        let places: Vec<usize> = picked.into_iter().skip(1).step_by(2).collect();
        let mut nothing_ahead = Packed {
            places: Vec::new(),
            next: 0,
            entries: None,
        };
        if places.len() * 2 < MIN_FILES {
            return write(&mut nothing_ahead);
        }
        if let Some(starting) = self.starting.take() {
            match starting.join() {
                Ok(Ok(session)) => self.session = Some(session),
                Ok(Err(e)) => tracing::warn!("files are packed on one session: {e}"),
                Err(_) => {
                    tracing::warn!("files are packed on one session: starting another failed")
                }
            }
        }
        let Some(session) = self.session.as_mut() else {
            return write(&mut nothing_ahead);
        };
        let (sender, entries) = channel();
        let mut packed = Packed {
            places: places.clone(),
            next: 0,
            entries: Some(entries),
        };
        let started = std::time::Instant::now();
        let count = places.len();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                for place in places {
                    let (BundleFile::Hashed { file, .. } | BundleFile::Made(file)) = &batch[place]
                    else {
                        continue;
                    };
                    let entry = session.add_file(&file.path, &file.contents);
                    let failed = entry.is_err();
                    if sender.send((place, entry)).is_err() || failed {
                        return;
                    }
                }
            });
            let result = write(&mut packed);
            // The thread ends once the writer no longer takes its entries.
            drop(packed);
            tracing::debug!(
                files = count,
                of = batch.len(),
                ms = started.elapsed().as_millis() as u64,
                "files packed ahead"
            );
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries packed ahead at `places`, all sent already.
    fn packed(places: &[usize]) -> Packed {
        let (sender, entries) = channel();
        for &place in places {
            sender
                .send((place, Ok(vec![place as u8])))
                .expect("the receiver is here");
        }
        Packed {
            places: places.to_vec(),
            next: 0,
            entries: Some(entries),
        }
    }

    #[test]
    fn the_writer_takes_what_was_packed_ahead_and_packs_the_rest() {
        let mut ahead = packed(&[1, 3, 5]);
        assert!(ahead.take(0).is_none(), "the writer's to pack");
        assert_eq!(ahead.take(1).map(Result::unwrap), Some(vec![1]));
        assert!(ahead.take(2).is_none());
        // Place 3 was left out by the writer (a second file at its path): 5 still comes.
        assert_eq!(ahead.take(5).map(Result::unwrap), Some(vec![5]));
        assert!(ahead.take(6).is_none());
    }

    #[test]
    fn a_second_session_that_stopped_is_an_error_not_a_missing_entry() {
        let (sender, entries) = channel::<PackedEntry>();
        drop(sender);
        let mut ahead = Packed {
            places: vec![0],
            next: 0,
            entries: Some(entries),
        };
        assert!(matches!(ahead.take(0), Some(Err(_))));
    }
}
