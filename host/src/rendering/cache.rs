//! The render cache: each page's rendered output kept under its render key (`keys`: the hash
//! of everything its output depends on), so a page whose inputs did not change is taken from
//! here instead of rendered again: by the export that follows a publish, by the next release
//! of the site, by the next `quire build`.
//!
//! An entry carries a checksum of its own bytes (CRC-64: the render key, a SHA-256, says what
//! the entry is; the checksum only has to catch damage). One that fails it (a torn write, a
//! disk error, two writers racing) is rendered again and never served, which is also why two
//! runs of one site may share the cache without a lock: whatever they write is either whole
//! or refused.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use opendal::Operator;
use tokio::runtime::Handle;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use super::keys::PageKey;
use crate::plugins::RenderedPage;

/// An entry: this magic, the CRC-64/NVME of the payload (little-endian), then the payload
/// (the page, encoded).
const MAGIC: &[u8; 4] = b"QRC2";
const CHECKSUM_LEN: usize = 8;
/// The magic of the earlier format (a SHA-256 in place of the checksum): such an entry is
/// rendered again, as a miss rather than as damage.
const EARLIER_MAGIC: &[u8; 4] = b"QRC1";
/// Entries written to object storage at once: a store's latency, not its bandwidth, is what a
/// run of small entries waits on.
const STORAGE_WRITES: usize = 16;

/// The scheme of opendal's local filesystem service, whose root is an absolute path.
const LOCAL_FILESYSTEM: &str = "fs";

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
    read: Option<JoinHandle<Option<Vec<u8>>>>,
}

impl RenderCache {
    /// The cache under `prefix` in `operator`'s storage. Storage on the local filesystem is
    /// the same entries as a folder, read directly: opendal's reader zero-fills a buffer before
    /// every read, which was a twentieth of a large site's one-page publish (BENCHMARKS.md).
    pub fn in_storage(operator: Operator, runtime: Handle, prefix: &str) -> Self {
        let info = operator.info();
        if info.scheme() == LOCAL_FILESYSTEM {
            return Self::Folder(PathBuf::from(info.root()).join(prefix.trim_matches('/')));
        }
        Self::Storage {
            operator,
            runtime,
            prefix: prefix.trim_end_matches('/').to_string(),
            writes: Arc::default(),
            write_slots: Arc::new(Semaphore::new(STORAGE_WRITES)),
        }
    }

    /// Starts looking `key` up; [`RenderCache::finish`] gives the page.
    pub fn start(&self, key: PageKey) -> Lookup {
        let read = match self {
            RenderCache::Folder(_) => None,
            RenderCache::Storage {
                operator, runtime, ..
            } => {
                let (operator, name) = (operator.clone(), self.entry_name(&key));
                Some(runtime.spawn(async move {
                    operator.read(&name).await.ok().map(|bytes| bytes.to_vec())
                }))
            }
        };
        Lookup { key, read }
    }

    /// The page `lookup` found, if its bytes check out. Call from a thread outside the async
    /// runtime (the render pipeline's).
    pub fn finish(&self, lookup: Lookup) -> Option<RenderedPage> {
        match (self, lookup.read) {
            (RenderCache::Storage { runtime, .. }, Some(read)) => {
                let bytes = runtime.block_on(read).ok().flatten()?;
                self.checked(&lookup.key, &bytes)
            }
            _ => self.get(&lookup.key),
        }
    }

    /// The page stored under `key`, if there is one whose bytes check out. Call from a thread
    /// outside the async runtime (the render pipeline's).
    pub fn get(&self, key: &PageKey) -> Option<RenderedPage> {
        let name = self.entry_name(key);
        let bytes = match self {
            RenderCache::Folder(root) => {
                let path = root.join(&name);
                let bytes = std::fs::read(&path).ok()?;
                // Marks the entry as used, for `trim`; one that cannot be marked is only
                // trimmed sooner.
                let _ = std::fs::File::options()
                    .append(true)
                    .open(&path)
                    .and_then(|file| file.set_modified(SystemTime::now()));
                bytes
            }
            RenderCache::Storage {
                operator, runtime, ..
            } => runtime.block_on(operator.read(&name)).ok()?.to_vec(),
        };
        self.checked(key, &bytes)
    }

    /// The page in an entry's `bytes`, if they check out.
    fn checked(&self, key: &PageKey, bytes: &[u8]) -> Option<RenderedPage> {
        match decode(bytes) {
            Ok(page) => Some(page),
            Err(Refused::EarlierFormat) => None,
            Err(Refused::Damaged(reason)) => {
                let name = self.entry_name(key);
                tracing::warn!(entry = %name, "render cache entry refused ({reason}); rendering the page again");
                None
            }
        }
    }

    /// Keeps `page` under `key`. A failed write costs the next run a render, nothing more, so
    /// it is logged and not returned.
    pub fn put(&self, key: &PageKey, page: &RenderedPage) {
        let name = self.entry_name(key);
        let Some(bytes) = encode(page) else {
            return;
        };
        match self {
            RenderCache::Folder(root) => {
                if let Err(e) = write_file_atomically(&root.join(&name), &bytes) {
                    tracing::warn!(entry = %name, "cannot write a render cache entry: {e}");
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
    fn entry_name(&self, key: &PageKey) -> String {
        let hex = hex::encode(key.0);
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

/// An entry's bytes for `page`.
fn encode(page: &RenderedPage) -> Option<Vec<u8>> {
    let payload = postcard::to_allocvec(page).ok()?;
    let mut bytes = Vec::with_capacity(MAGIC.len() + CHECKSUM_LEN + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&checksum(&payload));
    bytes.extend_from_slice(&payload);
    Some(bytes)
}

/// Why an entry's bytes give no page.
#[derive(Debug, PartialEq)]
enum Refused {
    /// Written by an earlier version of the format: not damaged, only no longer read.
    EarlierFormat,
    Damaged(&'static str),
}

/// The page an entry holds, if its bytes are whole.
fn decode(bytes: &[u8]) -> Result<RenderedPage, Refused> {
    let Some(rest) = bytes.strip_prefix(MAGIC) else {
        return Err(if bytes.starts_with(EARLIER_MAGIC) {
            Refused::EarlierFormat
        } else {
            Refused::Damaged("not a render cache entry")
        });
    };
    if rest.len() < CHECKSUM_LEN {
        return Err(Refused::Damaged("truncated"));
    }
    let (sum, payload) = rest.split_at(CHECKSUM_LEN);
    if checksum(payload) != sum {
        return Err(Refused::Damaged("its contents do not match their checksum"));
    }
    postcard::from_bytes(payload).map_err(|_| Refused::Damaged("its contents cannot be read"))
}

/// The CRC-64/NVME of `payload`, as an entry stores it.
fn checksum(payload: &[u8]) -> [u8; CHECKSUM_LEN] {
    crc_fast::checksum(crc_fast::CrcAlgorithm::Crc64Nvme, payload).to_le_bytes()
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

    /// A render key's length (a SHA-256).
    const KEY_LEN: usize = 32;

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
    fn an_entry_reads_back_as_written_and_a_damaged_one_is_refused() {
        let bytes = encode(&page("A")).expect("encodes");
        assert_eq!(decode(&bytes).expect("decodes").title, "A");
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(decode(&damaged).is_err());
        assert!(decode(&bytes[..10]).is_err());
        assert!(decode(b"").is_err());
        // An entry of the earlier format is a miss, not damage (no warning for each).
        let mut earlier = bytes.clone();
        earlier[..4].copy_from_slice(EARLIER_MAGIC);
        assert!(matches!(decode(&earlier), Err(Refused::EarlierFormat)));
        assert!(matches!(decode(&damaged), Err(Refused::Damaged(_))));
    }

    #[test]
    fn a_folder_cache_keeps_pages_and_refuses_a_corrupted_entry() {
        let folder = tempfile::tempdir().expect("tempdir");
        let cache = RenderCache::Folder(folder.path().to_path_buf());
        let key = PageKey([7; KEY_LEN]);
        assert!(cache.get(&key).is_none());
        cache.put(&key, &page("B"));
        assert_eq!(cache.get(&key).expect("kept").title, "B");
        let path = folder.path().join(cache.entry_name(&key));
        let mut bytes = std::fs::read(&path).expect("entry");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        std::fs::write(&path, bytes).expect("corrupt");
        assert!(cache.get(&key).is_none());
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
        let name = cache.entry_name(&key);
        let stored = operator
            .read(&format!("render-cache/{name}"))
            .await
            .expect("the entry, where storage has it");
        assert_eq!(decode(&stored.to_vec()).expect("decodes").title, "C");
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
        let path = |key: &PageKey| folder.path().join(cache.entry_name(key));
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
