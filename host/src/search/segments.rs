//! A version's search index in segments. The searchable pages are cut into groups at
//! content-defined boundaries (a page whose path hashes to a multiple of `PAGES_PER_SEGMENT`
//! closes its group), so an edited, added or removed page changes the group it falls in and no
//! other. Each group's sections go to an index builder of their own, which also bounds the
//! retriever's memory to one group's, and the segment is kept with the group's word counts
//! under the hash of everything it was built from: the retriever component's digest and the
//! sections themselves. A publish that changes one page indexes one group again and takes
//! every other segment from where they are kept (`search-segments/` in storage; for
//! `quire build`, its cache folder).
//!
//! A published version's index is the list of its segments' keys (`list`, `read_list`), so a
//! release stores one new segment, not the whole index again.

use std::sync::{Arc, LazyLock};

use sha2::{Digest, Sha256};

use crate::memo::TwoGenerations;
use crate::page_groups::closes_group;
use crate::plugins::{IndexBuilderSession, IndexSection, LoadedPlugin, PluginError, Plugins};
use crate::rendering::RenderCache;
use quire_answer::vocabulary::Vocabulary;

/// Pages per segment, on average: a one-page change indexes about this many pages again, a
/// snippet that pages all over the site import as many per page, and a site has about its page
/// count over this many segments to load (BENCHMARKS.md measures 16 against 64).
const PAGES_PER_SEGMENT: u64 = 16;
/// A group closes at this many pages even where no page closes it, so no segment is unbounded.
const MAX_SEGMENT_PAGES: usize = 256;
/// Sections handed to the retriever per call.
const BATCH: usize = 256;
/// Segments read at once when an index is loaded (a size limit is checked between batches).
const READ_BATCH: usize = 64;
/// Changes whenever what a segment's key covers, or how its entry is laid out, changes.
const KEY_FORMAT: &[u8] = b"quire-search-segment/2";

/// The pages of one group, as they are added, and the hash of what the segment built from them
/// depends on.
pub struct Group {
    pages: Vec<IndexedPage>,
    sections: usize,
    key: Sha256,
}

/// A segment's key: the SHA-256 of what it was built from.
pub type SegmentKey = [u8; 32];

/// Opens a version's stored index when it is a list of segment keys.
const LIST_TAG: &[u8] = b"QUIRE-SEGMENT-KEYS/1\n";

/// One group's segment: its key, the retriever's bytes and the group's word counts.
pub struct Segment {
    pub key: SegmentKey,
    pub index: Vec<u8>,
    pub vocabulary: Vocabulary,
    pub sections: usize,
    /// Taken from the render cache rather than built.
    pub reused: bool,
}

/// One page's sections for the index, with their digest: made on whichever thread has the page
/// (a publish of unchanged pages does little else), so that a group only adds them up. Kept
/// beside the page in the render cache (`indexing`), so the next publish reads this instead of
/// the page; what is read back stays in its stored form, and is decoded only if the page's
/// group has no segment kept (after a small change, almost never).
pub struct IndexedPage {
    digest: [u8; 32],
    count: u32,
    sections: Sections,
}

/// A page's sections, or their stored form still to decode, or where that is.
enum Sections {
    Made(Vec<IndexSection>),
    Stored(Vec<u8>),
    /// In the render cache under this key, not read: read only if the group's segment is
    /// built again.
    InCache([u8; 32]),
}

/// Why a group's segment could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SegmentError {
    #[error(transparent)]
    Plugin(#[from] PluginError),
    /// A page's sections named by their place in the render cache are no longer there (or are
    /// not what they were): the index is built again with every page's sections read.
    #[error("kept index sections are gone from the render cache")]
    KeptGone,
}

/// Where the stored form's sections start: after the digest and the count.
const STORED_HEADER: usize = 32 + 4;

impl IndexedPage {
    /// `sections`, hashed.
    pub fn new(sections: Vec<IndexSection>) -> Self {
        let mut digest = Sha256::new();
        digest.update((sections.len() as u64).to_le_bytes());
        for section in &sections {
            hash_section(&mut digest, section);
        }
        Self {
            digest: digest.finalize().into(),
            count: sections.len() as u32,
            sections: Sections::Made(sections),
        }
    }

    /// A page whose sections are kept in the render cache under `key`, known by their digest
    /// and count without reading them.
    pub fn in_cache(digest: [u8; 32], count: u32, key: [u8; 32]) -> Self {
        Self {
            digest,
            count,
            sections: Sections::InCache(key),
        }
    }

    /// The sections' digest and count, which [`IndexedPage::in_cache`] takes back.
    pub fn digest_and_count(&self) -> ([u8; 32], u32) {
        (self.digest, self.count)
    }

    /// The stored form: the digest, the number of sections, then the sections (postcard);
    /// `None` for sections not read.
    pub fn to_stored(&self) -> Option<Vec<u8>> {
        let mut stored = Vec::with_capacity(STORED_HEADER + 256);
        stored.extend_from_slice(&self.digest);
        stored.extend_from_slice(&self.count.to_le_bytes());
        match &self.sections {
            Sections::Made(sections) => postcard::to_extend(sections, stored).ok(),
            Sections::Stored(bytes) => {
                stored.extend_from_slice(bytes);
                Some(stored)
            }
            Sections::InCache(_) => None,
        }
    }

    /// A page as [`IndexedPage::to_stored`] stored it, its sections left undecoded; `None` for
    /// bytes too short to be one.
    pub fn from_stored(mut stored: Vec<u8>) -> Option<Self> {
        let (digest, rest) = stored.split_first_chunk::<32>()?;
        let (count, _) = rest.split_first_chunk::<4>()?;
        let (digest, count) = (*digest, u32::from_le_bytes(*count));
        stored.drain(..STORED_HEADER);
        Some(Self {
            digest,
            count,
            sections: Sections::Stored(stored),
        })
    }

    /// The sections, decoded if they are still stored, and read from `pages` first if they
    /// were not read. Stored bytes that do not decode were checked by the cache and written by
    /// this host, so they are a fault of the host's rather than of the page.
    fn sections(self, pages: Option<&RenderCache>) -> Result<Vec<IndexSection>, SegmentError> {
        let bytes = match self.sections {
            Sections::Made(sections) => return Ok(sections),
            Sections::Stored(bytes) => bytes,
            Sections::InCache(key) => {
                let read = pages
                    .and_then(|pages| pages.get_bytes(&key))
                    .and_then(Self::from_stored)
                    .filter(|read| read.digest == self.digest && read.count == self.count)
                    .ok_or(SegmentError::KeptGone)?;
                match read.sections {
                    Sections::Stored(bytes) => bytes,
                    _ => return Err(SegmentError::KeptGone),
                }
            }
        };
        postcard::from_bytes(&bytes).map_err(|e| {
            SegmentError::Plugin(PluginError::Engine(format!(
                "kept index sections cannot be read back: {e}"
            )))
        })
    }
}

impl Group {
    /// An empty group, for segments built by `retriever`.
    pub fn new(retriever: &LoadedPlugin) -> Self {
        let mut key = Sha256::new();
        key.update(KEY_FORMAT);
        // The word counts are the host's: a host that counts differently keys apart.
        field(&mut key, env!("CARGO_PKG_VERSION"));
        field(&mut key, &retriever.sha256);
        Self {
            pages: Vec::new(),
            sections: 0,
            key,
        }
    }

    /// Adds one page's sections; true when the page closes the group.
    pub fn add_page(&mut self, path: &str, page: IndexedPage) -> bool {
        self.key.update(page.digest);
        self.sections += page.count as usize;
        self.pages.push(page);
        self.pages.len() >= MAX_SEGMENT_PAGES || closes_group(path, PAGES_PER_SEGMENT)
    }

    /// Whether no page was added.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// The group's segment: from `cache` when it holds one built from the same sections by
    /// the same retriever, else built now (and kept there), with the sections of pages not
    /// read taken from `pages`. Its index bytes come back only `with_index`: a publish stores
    /// the segment's key and needs only its word counts.
    pub fn segment(
        self,
        plugins: &Plugins,
        retriever: &LoadedPlugin,
        (cache, with_index): (Option<&RenderCache>, bool),
        pages: Option<&RenderCache>,
        work: &str,
    ) -> Result<Segment, SegmentError> {
        let key: SegmentKey = self.key.finalize().into();
        let sections = self.sections;
        // A publish needs only a kept segment's word counts: when this process knows them and
        // the entry is still on the local disk, the entry is not read (whatever reads its
        // index checks it then).
        if !with_index
            && let Some(cache) = cache
            && let Some(words) = KNOWN_VOCABULARIES.get(&key)
            && cache.marks_held_bytes(&key)
            && let Ok(vocabulary) = Vocabulary::from_bytes(&words)
        {
            return Ok(Segment {
                key,
                index: Vec::new(),
                vocabulary,
                sections,
                reused: true,
            });
        }
        if let Some(segment) = cache
            .and_then(|cache| cache.get_bytes(&key))
            .and_then(|payload| read_entry(key, &payload, sections, with_index))
        {
            return Ok(segment);
        }
        let mut all = Vec::with_capacity(sections);
        for page in self.pages {
            all.extend(page.sections(pages)?);
        }
        let mut builder = IndexBuilderSession::start(&plugins.runtime, retriever, work)?;
        let mut vocabulary = Vocabulary::new();
        for section in &all {
            vocabulary.add_section(&format!(
                "{} {}",
                section.heading_trail.join(" "),
                section.text
            ));
        }
        for batch in all.chunks(BATCH) {
            builder.add(batch)?;
        }
        let index = builder.finish()?;
        if let Some(cache) = cache {
            let words = vocabulary.to_bytes();
            cache.put_bytes(&key, &entry(&index, &words));
            KNOWN_VOCABULARIES.put([(key, Arc::from(words))]);
        }
        Ok(Segment {
            key,
            index,
            vocabulary,
            sections,
            reused: false,
        })
    }
}

/// Feeds `section` to `key`, every field told apart from the next by its length.
fn hash_section(key: &mut Sha256, section: &IndexSection) {
    field(key, &section.path);
    field(key, &section.anchor);
    field(key, &section.title);
    key.update((section.heading_trail.len() as u64).to_le_bytes());
    for heading in &section.heading_trail {
        field(key, heading);
    }
    field(key, &section.text);
    for scope in [&section.version, &section.language] {
        match scope {
            Some(value) => {
                key.update([1]);
                field(key, value);
            }
            None => key.update([0]),
        }
    }
}

fn field(key: &mut Sha256, value: &str) {
    key.update((value.len() as u64).to_le_bytes());
    key.update(value.as_bytes());
}

/// A cache entry's payload: the vocabulary's length and stored form (`words`), then the
/// segment.
fn entry(index: &[u8], words: &[u8]) -> Vec<u8> {
    let mut payload = Vec::with_capacity(8 + words.len() + index.len());
    payload.extend_from_slice(&(words.len() as u64).to_le_bytes());
    payload.extend_from_slice(words);
    payload.extend_from_slice(index);
    payload
}

/// The segment of a cache entry's payload (already checked whole by the cache), its word counts
/// kept in [`KNOWN_VOCABULARIES`]; `None` for one that cannot be read, which is then built
/// again.
fn read_entry(
    key: SegmentKey,
    payload: &[u8],
    sections: usize,
    with_index: bool,
) -> Option<Segment> {
    let (length, rest) = payload.split_first_chunk::<8>()?;
    let length = usize::try_from(u64::from_le_bytes(*length)).ok()?;
    let words = rest.get(..length)?;
    let vocabulary = Vocabulary::from_bytes(words).ok()?;
    KNOWN_VOCABULARIES.put([(key, Arc::from(words))]);
    Some(Segment {
        key,
        index: match with_index {
            true => rest[length..].to_vec(),
            false => Vec::new(),
        },
        vocabulary,
        sections,
        reused: true,
    })
}

/// A version's stored index: the keys of its segments, in order.
pub fn list(keys: &[SegmentKey]) -> Vec<u8> {
    let mut bytes = LIST_TAG.to_vec();
    for key in keys {
        bytes.extend_from_slice(hex::encode(key).as_bytes());
        bytes.push(b'\n');
    }
    bytes
}

/// The word counts (stored form) of each segment this process has built or read, by key: a
/// few hundred bytes beside an index of hundreds of kilobytes, which a publish that keeps the
/// segment does not need (reading every kept segment whole took 4% of a one-page release's CPU
/// on a large site, BENCHMARKS.md). A key names what the segment was built from, so they never
/// change. [`read_entry`] keeps those of every entry it reads.
static KNOWN_VOCABULARIES: LazyLock<TwoGenerations<SegmentKey, Arc<[u8]>>> =
    LazyLock::new(|| TwoGenerations::new(16 * 1024));

/// The length of each segment's index that [`read_stored`] has read, by key: a key names what
/// the segment was built from, so its length never changes.
static SEGMENT_LENGTHS: LazyLock<TwoGenerations<SegmentKey, usize>> =
    LazyLock::new(|| TwoGenerations::new(16 * 1024));

fn over_limit(max_bytes: usize) -> String {
    format!(
        "the index is over {} MiB, more than a reader's browser should load",
        max_bytes >> 20
    )
}

/// The segments of a version's stored index (`stored`): those its list names, read from
/// `kept`; or, for a version stored before indexes were built in segments, its one index.
/// An index over `max_bytes` is an error: found before anything is read when the lengths of
/// its segments this process has read already pass it, or else once the segments read do.
/// Call from a thread outside the async runtime.
pub fn read_stored(
    stored: Vec<u8>,
    kept: &RenderCache,
    max_bytes: usize,
) -> Result<Vec<Vec<u8>>, String> {
    if let Some(list) = stored.strip_prefix(LIST_TAG) {
        let list = std::str::from_utf8(list).map_err(|_| "the index's list is damaged")?;
        let keys = list
            .lines()
            .map(|line| {
                let mut key: SegmentKey = [0; 32];
                hex::decode_to_slice(line, &mut key)
                    .map_err(|_| format!("the index's list is damaged ({line:?})"))?;
                Ok(key)
            })
            .collect::<Result<Vec<_>, String>>()?;
        // An index over the limit is refused without reading it when this process has read
        // its segments before: a release after a one-page change shares all segments but one
        // with the version before, and an export refuses a large site's index at every release.
        let known: usize = keys.iter().filter_map(|key| SEGMENT_LENGTHS.get(key)).sum();
        if known > max_bytes {
            return Err(over_limit(max_bytes));
        }
        let mut segments = Vec::with_capacity(keys.len());
        let mut total = 0;
        for batch in keys.chunks(READ_BATCH) {
            for (key, payload) in batch.iter().zip(kept.get_many_bytes(batch)) {
                let name = hex::encode(key);
                let payload = payload
                    .ok_or_else(|| format!("segment {name} of the index is missing or damaged"))?;
                let index = read_entry(*key, &payload, 0, true)
                    .map(|segment| segment.index)
                    .ok_or_else(|| format!("segment {name} of the index cannot be read"))?;
                total += index.len();
                SEGMENT_LENGTHS.put([(*key, index.len())]);
                segments.push(index);
            }
            if total > max_bytes {
                return Err(over_limit(max_bytes));
            }
        }
        return Ok(segments);
    }
    Ok(vec![stored])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_one_page_in_the_average_closes_a_group_and_always_the_same() {
        let paths: Vec<String> = (0..20_000).map(|n| format!("guides/page-{n}")).collect();
        let closing = paths
            .iter()
            .filter(|p| closes_group(p, PAGES_PER_SEGMENT))
            .count();
        let expected = 20_000 / PAGES_PER_SEGMENT as usize;
        assert!(
            closing > expected / 2 && closing < expected * 2,
            "{closing} of 20000"
        );
        assert!(
            paths
                .iter()
                .all(|p| closes_group(p, PAGES_PER_SEGMENT) == closes_group(p, PAGES_PER_SEGMENT))
        );
    }

    #[test]
    fn a_kept_page_keys_its_group_as_made_and_decodes_to_its_sections() {
        let section = IndexSection {
            path: "guides/webhooks".into(),
            anchor: "retries".into(),
            title: "Webhooks".into(),
            heading_trail: vec!["Webhooks".into(), "Retries".into()],
            text: "Webhooks are retried three times.".into(),
            version: Some("v2".into()),
            language: None,
        };
        let made = IndexedPage::new(vec![section.clone(), section]);
        let stored = made.to_stored().expect("stores");
        let kept = IndexedPage::from_stored(stored.clone()).expect("reads back");
        assert_eq!((kept.digest, kept.count), (made.digest, 2));
        assert_eq!(
            kept.to_stored().as_deref(),
            Some(&stored[..]),
            "stored again as read"
        );
        let (digest, count) = made.digest_and_count();
        let decoded = postcard::to_allocvec(&kept.sections(None).expect("decodes")).unwrap();
        let expected = postcard::to_allocvec(&made.sections(None).expect("made")).unwrap();
        assert_eq!(decoded, expected);
        assert!(IndexedPage::from_stored(stored[..20].to_vec()).is_none());
        let cut = IndexedPage::from_stored(stored[..STORED_HEADER + 3].to_vec()).expect("header");
        assert!(
            matches!(cut.sections(None), Err(SegmentError::Plugin(_))),
            "a cut body is an error, not sections"
        );

        // Not read: taken from the cache when needed, and only if it is what was known.
        let folder = tempfile::tempdir().unwrap();
        let pages = RenderCache::Folder(folder.path().to_path_buf());
        let at = [7u8; 32];
        pages.put_bytes(&at, &stored);
        let unread = IndexedPage::in_cache(digest, count, at);
        assert_eq!(unread.digest_and_count(), (digest, count));
        assert!(
            unread.to_stored().is_none(),
            "nothing to store: it was not read"
        );
        let read = postcard::to_allocvec(&unread.sections(Some(&pages)).expect("read")).unwrap();
        assert_eq!(read, expected);
        for (unread, what) in [
            (IndexedPage::in_cache([0; 32], count, at), "other contents"),
            (IndexedPage::in_cache(digest, count, [8; 32]), "no entry"),
        ] {
            assert!(
                matches!(unread.sections(Some(&pages)), Err(SegmentError::KeptGone)),
                "{what}"
            );
        }
    }

    #[test]
    fn an_entry_reads_back_and_a_cut_one_is_built_again() {
        let mut vocabulary = Vocabulary::new();
        vocabulary.add_section("Webhooks are retried.");
        let payload = entry(b"segment bytes", &vocabulary.to_bytes());
        let segment = read_entry([3; 32], &payload, 1, true).expect("reads back");
        assert!(
            read_entry([3; 32], &payload, 1, false)
                .expect("reads")
                .index
                .is_empty()
        );
        assert_eq!(segment.index, b"segment bytes");
        assert_eq!(segment.vocabulary.to_bytes(), vocabulary.to_bytes());
        assert!(segment.reused);
        assert!(read_entry([3; 32], &payload[..12], 1, true).is_none());
        assert!(read_entry([3; 32], b"", 1, true).is_none());
    }

    #[test]
    fn a_stored_list_reads_back_its_segments_and_says_which_one_is_missing() {
        let folder = tempfile::tempdir().expect("tempdir");
        let kept = RenderCache::Folder(folder.path().to_path_buf());
        let vocabulary = Vocabulary::new();
        kept.put_bytes(&[1; 32], &entry(b"first", &vocabulary.to_bytes()));
        kept.put_bytes(&[2; 32], &entry(b"second", &vocabulary.to_bytes()));
        let stored = list(&[[1; 32], [2; 32]]);
        assert_eq!(
            read_stored(stored, &kept, usize::MAX).expect("reads"),
            [b"first".to_vec(), b"second".to_vec()]
        );
        let over = read_stored(list(&[[1; 32], [2; 32]]), &kept, 3).unwrap_err();
        assert!(over.contains("over"), "{over}");
        let missing = read_stored(list(&[[1; 32], [9; 32]]), &kept, usize::MAX).unwrap_err();
        assert!(missing.contains(&hex::encode([9; 32])), "{missing}");
        // What versions stored before: one index.
        assert_eq!(
            read_stored(b"\x02old".to_vec(), &kept, usize::MAX).unwrap(),
            [b"\x02old".to_vec()]
        );
    }

    /// Keys of their own: the lengths read are kept for the whole process.
    #[test]
    fn an_index_found_over_the_limit_is_refused_again_without_being_read() {
        let folder = tempfile::tempdir().expect("tempdir");
        let kept = RenderCache::Folder(folder.path().to_path_buf());
        let vocabulary = Vocabulary::new();
        let (first, second, third) = ([0x51; 32], [0x52; 32], [0x53; 32]);
        kept.put_bytes(&first, &entry(b"0123456789", &vocabulary.to_bytes()));
        kept.put_bytes(&second, &entry(b"0123456789", &vocabulary.to_bytes()));
        let over = read_stored(list(&[first, second]), &kept, 15).unwrap_err();
        assert!(over.contains("over"), "{over}");
        // With the segments gone from storage, an index naming them (and one never read) is
        // still refused for its size, not for a missing segment: nothing was read.
        std::fs::remove_dir_all(folder.path()).expect("remove");
        let again = read_stored(list(&[first, second, third]), &kept, 15).unwrap_err();
        assert!(again.contains("over"), "{again}");
        // Under the limit, the segments are read as ever, and a missing one says so.
        let missing = read_stored(list(&[first, third]), &kept, 25).unwrap_err();
        assert!(missing.contains("missing"), "{missing}");
    }
}
