//! The render cache: each page's rendered output kept under its render key (`keys`: the hash
//! of everything its output depends on), so a page whose inputs did not change is taken from
//! here instead of rendered again: by the export that follows a publish, by the next release
//! of the site, by the next `quire build`. What is made from rendered pages is kept beside
//! them the same way (`get_bytes`, `put_bytes`: a search index's segments), under a key its
//! maker computes from everything it depends on.
//!
//! An entry carries a checksum of its own bytes (`entry`). One that fails it is made again and
//! never served, which is also why two runs of one site may share the cache without a lock:
//! whatever they write is either whole or refused.

mod entry;
mod marks;
mod page;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use futures::StreamExt;
use opendal::Operator;
use tokio::runtime::Handle;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use super::keys::PageKey;
use crate::plugins::RenderedPage;
use entry::Refused;

/// The length of the keys entries are kept under (a SHA-256).
pub const KEY_LEN: usize = 32;

/// Entries written to (or, for a list, read from) object storage at once: a store's latency,
/// not its bandwidth, is what a run of small entries waits on.
const STORAGE_WRITES: usize = 16;

use crate::storage::local_path;

/// Where rendered pages are kept.
#[derive(Clone)]
pub enum RenderCache {
    /// A folder on disk (`quire build --cache-dir`).
    Folder(PathBuf),
    /// Under `prefix` in object storage, so the replicas of an API host share it; `runtime`
    /// runs the reads and writes.
    Storage {
        operator: Operator,
        runtime: Handle,
        prefix: String,
        /// Writes under way, waited for by [`RenderCache::flush`].
        writes: Arc<Mutex<Vec<JoinHandle<()>>>>,
        write_slots: Arc<Semaphore>,
    },
}

/// A lookup under way. In object storage the read starts when the page is queued, so that the
/// reads of the pages waiting for a renderer thread overlap; in a folder it is made when the
/// thread asks.
pub struct Lookup {
    pub key: PageKey,
    /// Whether the page is wanted back ([`RenderCache::finish`]) or only made sure of
    /// ([`RenderCache::holds`]).
    pub given_back: bool,
    read: Option<JoinHandle<Option<Vec<u8>>>>,
}

impl RenderCache {
    /// The cache under `prefix` in `operator`'s storage. Storage on the local filesystem is
    /// the same entries as a folder, read directly (`storage::local_path`).
    pub fn in_storage(operator: Operator, runtime: Handle, prefix: &str) -> Self {
        if let Some(folder) = local_path(&operator, prefix.trim_matches('/')) {
            return Self::Folder(folder);
        }
        Self::Storage {
            operator,
            runtime,
            prefix: prefix.trim_end_matches('/').to_string(),
            writes: Arc::default(),
            write_slots: Arc::new(Semaphore::new(STORAGE_WRITES)),
        }
    }

    /// Starts looking `key` up; [`RenderCache::finish`] gives the page, or
    /// [`RenderCache::holds`] says whether it is there, as `given_back` says.
    pub fn start(&self, key: PageKey, given_back: bool) -> Lookup {
        let read = match self {
            RenderCache::Folder(_) => None,
            RenderCache::Storage {
                operator, runtime, ..
            } => {
                let (operator, name) = (operator.clone(), self.entry_name(&key.0));
                Some(runtime.spawn(async move {
                    operator.read(&name).await.ok().map(|bytes| bytes.to_vec())
                }))
            }
        };
        Lookup {
            key,
            given_back,
            read,
        }
    }

    /// The page `lookup` found, if its bytes check out. Call from a thread outside the async
    /// runtime (the render pipeline's).
    pub fn finish(&self, lookup: Lookup) -> Option<RenderedPage> {
        let key = lookup.key.0;
        let bytes = self.looked_up(lookup)?;
        self.checked_page(&key, &bytes)
    }

    /// The bytes `lookup` found: its read started in storage, or read from the folder now.
    fn looked_up(&self, lookup: Lookup) -> Option<Vec<u8>> {
        match (self, lookup.read) {
            (RenderCache::Storage { runtime, .. }, Some(read)) => {
                runtime.block_on(read).ok().flatten()
            }
            _ => self.read(&lookup.key.0),
        }
    }

    /// Whether entries are read from a local disk, where reading one costs little next to
    /// what it saves making (remote object storage costs a round trip per entry).
    pub fn reads_are_local(&self) -> bool {
        matches!(self, RenderCache::Folder(_))
    }

    /// Whether the entry `lookup` found checks out, without reading the page out of it: what
    /// a run that keeps a page for later but has no use for it now needs. Call from a thread
    /// outside the async runtime (the render pipeline's).
    pub fn holds(&self, lookup: Lookup) -> bool {
        let key = lookup.key.0;
        self.looked_up(lookup)
            .is_some_and(|bytes| self.checked(&key, &bytes).is_some())
    }

    /// Whether an entry is kept under `key` on a local disk, marked as used as a read marks
    /// it; its bytes are neither read nor checked (whatever reads it checks them, and renders
    /// the page again if they fail). Always false in object storage, where asking costs a
    /// round trip.
    pub fn marks_held(&self, key: &PageKey) -> bool {
        self.marks_held_bytes(&key.0)
    }

    /// [`RenderCache::marks_held`] for an entry kept by [`RenderCache::put_bytes`].
    pub fn marks_held_bytes(&self, key: &[u8; KEY_LEN]) -> bool {
        match self {
            RenderCache::Folder(root) => {
                marks::mark_used(root, key, || root.join(self.entry_name(key)))
            }
            RenderCache::Storage { .. } => false,
        }
    }

    /// The page stored under `key`, if there is one whose bytes check out. Call from a thread
    /// outside the async runtime (the render pipeline's).
    pub fn get(&self, key: &PageKey) -> Option<RenderedPage> {
        let bytes = self.read(&key.0)?;
        self.checked_page(&key.0, &bytes)
    }

    /// Keeps `page` under `key`. A failed write costs the next run a render, nothing more, so
    /// it is logged and not returned.
    pub fn put(&self, key: &PageKey, page: &RenderedPage) {
        if let Ok(payload) = page::encode(page) {
            self.write(&key.0, entry::frame(&payload));
        }
    }

    /// The bytes kept under `key` by [`RenderCache::put_bytes`], if they check out. Call from
    /// a thread outside the async runtime.
    pub fn get_bytes(&self, key: &[u8; KEY_LEN]) -> Option<Vec<u8>> {
        self.payload_of(key, self.read(key)?)
    }

    /// The payload of an entry's `bytes`, in place, if they check out.
    fn payload_of(&self, key: &[u8; KEY_LEN], mut bytes: Vec<u8>) -> Option<Vec<u8>> {
        // The payload is what follows the entry's header.
        let header = bytes.len() - self.checked(key, &bytes)?.len();
        bytes.drain(..header);
        Some(bytes)
    }

    /// [`RenderCache::get_bytes`] of each of `keys`, in order; in object storage several are
    /// read at once, so that a list of entries does not wait on storage's latency once per
    /// entry. Call from a thread outside the async runtime.
    pub fn get_many_bytes(&self, keys: &[[u8; KEY_LEN]]) -> Vec<Option<Vec<u8>>> {
        let RenderCache::Storage {
            operator, runtime, ..
        } = self
        else {
            return keys.iter().map(|key| self.get_bytes(key)).collect();
        };
        let reads = futures::stream::iter(keys.iter().map(|key| {
            let (operator, name) = (operator.clone(), self.entry_name(key));
            async move { operator.read(&name).await.ok().map(|bytes| bytes.to_vec()) }
        }))
        .buffered(STORAGE_WRITES);
        let read: Vec<Option<Vec<u8>>> = runtime.block_on(reads.collect());
        keys.iter()
            .zip(read)
            .map(|(key, bytes)| self.payload_of(key, bytes?))
            .collect()
    }

    /// Keeps `payload` under `key`, a hash of everything it was made from that no render key
    /// can equal (hash a name of what it is first). Failures are logged, as for pages.
    pub fn put_bytes(&self, key: &[u8; KEY_LEN], payload: &[u8]) {
        self.write(key, entry::frame(payload));
    }

    /// An entry's bytes, unchecked.
    fn read(&self, key: &[u8; KEY_LEN]) -> Option<Vec<u8>> {
        let name = self.entry_name(key);
        match self {
            RenderCache::Folder(root) => {
                let path = root.join(&name);
                let bytes = std::fs::read(&path).ok()?;
                // Marks the entry as used, for `trim`.
                marks::mark_used(root, key, || path.clone());
                Some(bytes)
            }
            RenderCache::Storage {
                operator, runtime, ..
            } => Some(runtime.block_on(operator.read(&name)).ok()?.to_vec()),
        }
    }

    /// The page in an entry's `bytes`, if they check out.
    fn checked_page(&self, key: &[u8; KEY_LEN], bytes: &[u8]) -> Option<RenderedPage> {
        let payload = self.checked(key, bytes)?;
        page::decode(payload)
            .inspect_err(|_| self.refused(key, "its contents cannot be read"))
            .ok()
    }

    /// The payload of an entry's `bytes`, if they check out; damage is logged.
    fn checked<'b>(&self, key: &[u8; KEY_LEN], bytes: &'b [u8]) -> Option<&'b [u8]> {
        match entry::payload(bytes) {
            Ok(payload) => Some(payload),
            Err(Refused::EarlierFormat) => None,
            Err(Refused::Damaged(reason)) => {
                self.refused(key, reason);
                None
            }
        }
    }

    fn refused(&self, key: &[u8; KEY_LEN], reason: &str) {
        let name = self.entry_name(key);
        tracing::warn!(entry = %name, "render cache entry refused ({reason}); making it again");
    }

    /// Writes an entry's `bytes` under `key`.
    fn write(&self, key: &[u8; KEY_LEN], bytes: Vec<u8>) {
        let name = self.entry_name(key);
        match self {
            RenderCache::Folder(root) => {
                match write_file_atomically(&root.join(&name), &bytes) {
                    // Written now, so used now.
                    Ok(()) => marks::written(root, key),
                    Err(e) => {
                        tracing::warn!(entry = %name, "cannot write a render cache entry: {e}")
                    }
                }
            }
            // Written in the background, several at once, so rendering does not wait on
            // storage's latency; `flush` waits for them.
            RenderCache::Storage {
                operator,
                runtime,
                writes,
                write_slots,
                ..
            } => {
                let (operator, slots) = (operator.clone(), write_slots.clone());
                let write = runtime.spawn(async move {
                    let Ok(_slot) = slots.acquire_owned().await else {
                        return;
                    };
                    if let Err(e) = operator.write(&name, bytes).await {
                        tracing::warn!(entry = %name, "cannot write a render cache entry: {e}");
                    }
                });
                writes
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .push(write);
            }
        }
    }

    /// Waits for the writes under way. Call from a thread outside the async runtime.
    pub fn flush(&self) {
        if let RenderCache::Storage {
            runtime, writes, ..
        } = self
        {
            let pending = std::mem::take(
                &mut *writes
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            );
            for write in pending {
                let _ = runtime.block_on(write);
            }
        }
    }

    /// Removes entries, least recently used first (in object storage: least recently written),
    /// while the cache holds more than `max_bytes`, down to nine tenths of it, so that trimming
    /// does not run again after every run. An entry removed under a run that wanted it is
    /// rendered again. Returns how many entries were removed and the bytes left.
    pub fn trim(&self, max_bytes: u64) -> Result<(usize, u64), String> {
        let mut entries = self.entries()?;
        let mut total: u64 = entries.iter().map(|e| e.size).sum();
        if total <= max_bytes {
            return Ok((0, total));
        }
        entries.sort_by_key(|e| e.used);
        if let RenderCache::Folder(root) = self {
            marks::forget(root);
        }
        let goal = max_bytes / 10 * 9;
        let mut removed = 0;
        for entry in entries {
            if total <= goal {
                break;
            }
            let gone = match self {
                RenderCache::Folder(_) => {
                    std::fs::remove_file(&entry.name).map_err(|e| e.to_string())
                }
                RenderCache::Storage {
                    operator, runtime, ..
                } => runtime
                    .block_on(operator.delete(&entry.name))
                    .map_err(|e| e.to_string()),
            };
            match gone {
                Ok(()) => {
                    total -= entry.size;
                    removed += 1;
                }
                Err(e) => {
                    tracing::warn!(entry = %entry.name, "cannot remove a render cache entry: {e}")
                }
            }
        }
        Ok((removed, total))
    }

    /// [`RenderCache::trim`], with what it did or why it could not logged: a cache that cannot
    /// be trimmed costs disk, nothing else.
    pub fn trim_and_log(&self, max_bytes: u64) {
        match self.trim(max_bytes) {
            Ok((0, _)) => {}
            Ok((removed, left)) => {
                tracing::info!(removed, bytes_left = left, "render cache trimmed")
            }
            Err(e) => tracing::warn!("cannot trim the render cache: {e}"),
        }
    }

    /// Every entry, with its size and when it was last used.
    fn entries(&self) -> Result<Vec<Entry>, String> {
        match self {
            RenderCache::Folder(root) => {
                let mut entries = Vec::new();
                folder_entries(root, 0, &mut entries);
                Ok(entries)
            }
            RenderCache::Storage {
                operator,
                runtime,
                prefix,
                ..
            } => runtime.block_on(async {
                let listed = operator
                    .list_with(&format!("{prefix}/"))
                    .recursive(true)
                    .await
                    .map_err(|e| e.to_string())?;
                let mut entries = Vec::new();
                for item in listed.into_iter().filter(|i| !i.path().ends_with('/')) {
                    let mut metadata = item.metadata().clone();
                    // Some services list names alone; their sizes and times take a look each.
                    if metadata.last_modified().is_none() {
                        match operator.stat(item.path()).await {
                            Ok(stat) => metadata = stat,
                            Err(_) => continue, // removed meanwhile
                        }
                    }
                    entries.push(Entry {
                        name: item.path().to_string(),
                        size: metadata.content_length(),
                        used: metadata
                            .last_modified()
                            .map_or(SystemTime::UNIX_EPOCH, SystemTime::from),
                    });
                }
                Ok(entries)
            }),
        }
    }

    /// The entry's path: two levels of fan-out keep folders small on large sites.
    fn entry_name(&self, key: &[u8; KEY_LEN]) -> String {
        let hex = hex::encode(key);
        let name = format!("{}/{}/{}", &hex[..2], &hex[2..4], &hex[4..]);
        match self {
            RenderCache::Folder(_) => name,
            RenderCache::Storage { prefix, .. } => format!("{prefix}/{name}"),
        }
    }
}

/// One entry, for trimming: its path (in the folder, or in storage), size and last use.
struct Entry {
    name: String,
    size: u64,
    used: SystemTime,
}

/// The entries under `folder`, which is `depth` levels below the cache's root: entries are
/// files two levels down, and anything else is left alone.
fn folder_entries(folder: &Path, depth: usize, entries: &mut Vec<Entry>) {
    let Ok(listing) = std::fs::read_dir(folder) else {
        return;
    };
    for item in listing.flatten() {
        let Ok(metadata) = item.metadata() else {
            continue;
        };
        if depth < 2 && metadata.is_dir() {
            folder_entries(&item.path(), depth + 1, entries);
        } else if depth == 2 && metadata.is_file() {
            entries.push(Entry {
                name: item.path().display().to_string(),
                size: metadata.len(),
                used: metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            });
        }
    }
}

/// Writes `bytes` to `path` through a file beside it, so a reader never sees half an entry.
fn write_file_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    let folder = path.parent().ok_or("an entry path has a folder")?;
    std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
    let mut file = tempfile::NamedTempFile::new_in(folder).map_err(|e| e.to_string())?;
    std::io::Write::write_all(&mut file, bytes).map_err(|e| e.to_string())?;
    file.persist(path).map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(title: &str) -> RenderedPage {
        RenderedPage {
            title: title.into(),
            description: None,
            indexable: true,
            files: vec![crate::plugins::OutputFile {
                path: "a.html".into(),
                contents: b"<p>a</p>".to_vec(),
            }],
            headings: Vec::new(),
            sections: Vec::new(),
            warnings: Vec::new(),
            needs: vec!["mermaid".into()],
        }
    }

    #[test]
    fn a_folder_cache_keeps_pages_and_refuses_a_corrupted_entry() {
        let folder = tempfile::tempdir().expect("tempdir");
        let cache = RenderCache::Folder(folder.path().to_path_buf());
        let key = PageKey([7; KEY_LEN]);
        assert!(cache.get(&key).is_none());
        cache.put(&key, &page("B"));
        assert_eq!(cache.get(&key).expect("kept").title, "B");
        let path = folder.path().join(cache.entry_name(&key.0));
        let mut bytes = std::fs::read(&path).expect("entry");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        std::fs::write(&path, bytes).expect("corrupt");
        assert!(cache.get(&key).is_none());
        // Bytes beside the pages, under keys of their own.
        cache.put_bytes(&[8; KEY_LEN], b"a segment");
        assert_eq!(
            cache.get_bytes(&[8; KEY_LEN]).as_deref(),
            Some(&b"a segment"[..])
        );
        assert!(cache.get_bytes(&[6; KEY_LEN]).is_none());
    }

    #[tokio::test]
    async fn a_cache_in_local_storage_is_the_folder_of_its_entries() {
        let root = tempfile::tempdir().expect("tempdir");
        let operator =
            Operator::new(opendal::services::Fs::default().root(&root.path().to_string_lossy()))
                .expect("operator");
        let cache = RenderCache::in_storage(operator.clone(), Handle::current(), "render-cache/");
        let key = PageKey([9; KEY_LEN]);
        cache.put(&key, &page("C"));
        let name = cache.entry_name(&key.0);
        let stored = operator
            .read(&format!("render-cache/{name}"))
            .await
            .expect("the entry, where storage has it");
        let payload = entry::payload(&stored.to_vec())
            .map(|p| p.to_vec())
            .expect("whole");
        let page: RenderedPage = postcard::from_bytes(&payload).expect("decodes");
        assert_eq!(page.title, "C");
        assert_eq!(cache.get(&key).expect("kept").title, "C");
    }

    #[test]
    fn trimming_removes_the_least_recently_used_entries() {
        let folder = tempfile::tempdir().expect("tempdir");
        let cache = RenderCache::Folder(folder.path().to_path_buf());
        let keys: Vec<PageKey> = (0..10u8).map(|n| PageKey([n; KEY_LEN])).collect();
        for key in &keys {
            cache.put(key, &page("P"));
        }
        let path = |key: &PageKey| folder.path().join(cache.entry_name(&key.0));
        let size = std::fs::metadata(path(&keys[0])).expect("entry").len();
        // Written long ago, then the first two used again.
        let long_ago = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        for (n, key) in keys.iter().enumerate() {
            let when = long_ago + std::time::Duration::from_secs(n as u64);
            let file = std::fs::File::options()
                .append(true)
                .open(path(key))
                .unwrap();
            file.set_modified(when).unwrap();
        }
        // As a later process finds them: it has marked none of them yet.
        marks::forget(folder.path());
        assert!(cache.get(&keys[0]).is_some() && cache.get(&keys[1]).is_some());
        assert_eq!(
            cache.trim(size * 10).expect("trim"),
            (0, size * 10),
            "under the limit"
        );
        let (removed, left) = cache.trim(size * 5).expect("trim");
        assert!(left <= size * 5 / 10 * 9, "{left}");
        assert_eq!(removed, 10 - (left / size) as usize);
        assert!(cache.get(&keys[0]).is_some(), "recently used");
        assert!(cache.get(&keys[1]).is_some(), "recently used");
        assert!(cache.get(&keys[2]).is_none(), "the oldest went first");
    }
}
