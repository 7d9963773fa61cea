//! An earlier archive of reusable entries, as the next one reads it: its index (each file's
//! path, SHA-256 and where its entry lies, and the pieces of an entry written in parts), and
//! its entries and pieces read back out of the archive file, checked by their CRC-64 before
//! they are copied. `export::assembly` writes the index and copies from it. An entry copied
//! whole is checked here and left in the file, for the destination to copy from there
//! (`Entry::in_earlier`): a one-page release copies nearly the whole archive, and holding each
//! entry's bytes on the way was most of what the archive writer did (BENCHMARKS.md).

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The largest entry copied from an earlier archive; a larger length in an index is damage.
const MAX_ENTRY_BYTES: u64 = 1 << 32;

/// An entry left in the file is checked this many bytes at a time, through one buffer per
/// thread.
const CHECK_BYTES: usize = 256 << 10;

thread_local! {
    /// The buffer entries left in the file are checked through.
    static CHECKED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The index of an archive of reusable entries, stored beside the archive.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveIndex {
    /// The SHA-256 of the packager component that wrote the entries: another packager's
    /// entries are never copied.
    pub packager: String,
    /// The content version the archive holds.
    pub content_version: String,
    pub entries: Vec<IndexEntry>,
}

/// One file's entry in an archive.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexEntry {
    pub path: String,
    /// The SHA-256 of the file's contents, as the bundle's manifest lists it.
    pub sha256: String,
    /// Where the entry starts in the archive.
    pub offset: u64,
    /// The entry's length in bytes.
    pub length: u64,
    /// The CRC-64/NVME of the entry's bytes, checked before they are copied into another
    /// archive. Only damage is to be caught (the file's contents are named by `sha256`), and
    /// every unchanged entry of a release is checked: as the render cache's entries, a CRC
    /// checks at many times a SHA-256's speed. An index of the earlier form (with
    /// `entrySha256`) does not read: that archive's entries are packed again, once.
    pub entry_crc64: u64,
    /// Where an entry written in parts has each part's piece, in order; empty for an entry
    /// written whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<IndexPart>,
}

/// One part's piece of an entry written in parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexPart {
    /// The SHA-256 of the part's bytes: the piece depends on them alone.
    pub sha256: String,
    /// The part's length in bytes, before packing.
    pub size: u64,
    /// Where the piece starts, in the archive (in an [`Entry`], from the entry's start).
    pub offset: u64,
    /// The piece's length in bytes.
    pub length: u64,
    /// The CRC-64/NVME of the piece's bytes, checked before they are copied, as an entry's.
    pub piece_crc64: u64,
}

/// An index that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("the archive index is unreadable: {0}")]
pub struct IndexError(#[from] serde_json::Error);

impl ArchiveIndex {
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    pub fn from_json(bytes: &[u8]) -> Result<Self, IndexError> {
        Ok(serde_json::from_slice(bytes)?)
    }
}

/// An earlier archive whose entries can be copied: its index, and the archive in a local file.
pub struct EarlierArchive {
    pub(super) packager: String,
    content_version: String,
    /// Entries by path (an archive holds each path once).
    entries: HashMap<String, IndexEntry>,
    /// The pieces of the entries written in parts, by their part's SHA-256.
    pieces: HashMap<String, IndexPart>,
    /// Shared with the destination, which copies entries out of it.
    file: Arc<std::fs::File>,
}

impl EarlierArchive {
    /// The archive in `file`, as `index` describes it.
    pub fn new(index: ArchiveIndex, file: std::fs::File) -> Self {
        let pieces = index
            .entries
            .iter()
            .flat_map(|e| &e.parts)
            .map(|part| (part.sha256.clone(), part.clone()))
            .collect();
        let entries = index
            .entries
            .into_iter()
            .map(|e| (e.path.clone(), e))
            .collect();
        Self {
            packager: index.packager,
            content_version: index.content_version,
            entries,
            pieces,
            file: Arc::new(file),
        }
    }

    /// The archive's file, which entries left in it (`Entry::in_earlier`) are copied from.
    pub(super) fn file(&self) -> &Arc<std::fs::File> {
        &self.file
    }

    /// The piece of a part whose bytes hash to `sha256`, if an entry of the earlier archive
    /// was written with that part and the piece's bytes check out.
    pub fn piece(&self, sha256: &str) -> Option<Vec<u8>> {
        let part = self.pieces.get(sha256)?;
        let bytes = self.read_checked(sha256, part.offset, part.length, part.piece_crc64)?;
        Some(bytes.bytes)
    }

    /// The `length` bytes at `offset`, if they can be read and their CRC-64 is `crc64`;
    /// `what` names them in the log otherwise.
    fn read_checked(&self, what: &str, offset: u64, length: u64, crc64: u64) -> Option<Entry> {
        if length > MAX_ENTRY_BYTES {
            return None;
        }
        let mut bytes = vec![0u8; length as usize];
        if let Err(e) = self.file.read_exact_at(&mut bytes, offset) {
            tracing::warn!(
                what,
                "cannot read a kept archive entry; packing it again: {e}"
            );
            return None;
        }
        let checked = Entry::new(bytes);
        if checked.crc64 != crc64 {
            tracing::warn!(
                what,
                "a kept archive entry fails its hash; packing it again"
            );
            return None;
        }
        Some(checked)
    }

    /// Whether the `length` bytes at `offset` can be read and their CRC-64 is `crc64`, read
    /// through this thread's buffer rather than held; `what` names them in the log otherwise.
    fn check_in_place(&self, what: &str, offset: u64, length: u64, crc64: u64) -> bool {
        if length > MAX_ENTRY_BYTES {
            return false;
        }
        let read = CHECKED.with_borrow_mut(|buffer| {
            buffer.resize(CHECK_BYTES, 0);
            let mut digest = crc_fast::Digest::new(crc_fast::CrcAlgorithm::Crc64Nvme);
            let mut at = 0u64;
            while at < length {
                let take = (length - at).min(CHECK_BYTES as u64) as usize;
                self.file.read_exact_at(&mut buffer[..take], offset + at)?;
                digest.update(&buffer[..take]);
                at += take as u64;
            }
            Ok::<_, std::io::Error>(digest.finalize())
        });
        match read {
            Ok(read) if read == crc64 => true,
            Ok(_) => {
                tracing::warn!(
                    what,
                    "a kept archive entry fails its hash; packing it again"
                );
                false
            }
            Err(e) => {
                tracing::warn!(
                    what,
                    "cannot read a kept archive entry; packing it again: {e}"
                );
                false
            }
        }
    }

    /// The content version the earlier archive holds.
    pub fn content_version(&self) -> &str {
        &self.content_version
    }

    /// Every path the earlier archive holds.
    pub(super) fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Whether the earlier archive holds the file at `path` with contents hashing to `sha256`
    /// (so a docs server serving it has that file).
    /// The SHA-256 (hex) of the contents the earlier archive holds at `path`, if it holds any.
    pub(super) fn sha256_at(&self, path: &str) -> Option<&str> {
        self.entries.get(path).map(|e| e.sha256.as_str())
    }

    pub(super) fn has(&self, path: &str, sha256: &str) -> bool {
        self.listed(path, sha256).is_some()
    }

    fn listed(&self, path: &str, sha256: &str) -> Option<&IndexEntry> {
        self.entries.get(path).filter(|e| e.sha256 == sha256)
    }

    /// The contents the earlier archive holds at `path`, with their SHA-256, read back out of
    /// its entry: a `.tar.gz` entry of one file, the only kind a delta is made of. `None` for
    /// another kind of entry, or contents that fail the hash the index lists. `now` is the
    /// file's new contents and entry: when both entries were written in parts, the parts they
    /// share are taken from `now` and only the others are read back.
    pub(super) fn contents(&self, path: &str, now: (&[u8], &Entry)) -> Option<(&str, Vec<u8>)> {
        let listed = self.entries.get(path)?;
        if let Some(contents) = self.contents_from_parts(listed, now) {
            return Some((listed.sha256.as_str(), contents));
        }
        let entry = self.read_checked(path, listed.offset, listed.length, listed.entry_crc64)?;
        let mut tar = tar::Archive::new(flate2::read::MultiGzDecoder::new(&entry.bytes[..]));
        let mut file = tar.entries().ok()?.next()?.ok()?;
        if file.path().ok()?.to_str()? != path || file.size() > MAX_ENTRY_BYTES {
            return None;
        }
        let mut contents = Vec::with_capacity(file.size() as usize);
        std::io::Read::read_to_end(&mut file, &mut contents).ok()?;
        (hex::encode(Sha256::digest(&contents)) == listed.sha256)
            .then_some((listed.sha256.as_str(), contents))
    }

    /// `listed`'s contents rebuilt part by part: a part `now` has too is copied from its
    /// contents, another is its piece read back (a gzip member of the part's bytes, as the
    /// default packager writes it) and checked against the part's hash. `None` unless both
    /// were written in parts and every part checks out.
    fn contents_from_parts(
        &self,
        listed: &IndexEntry,
        (contents, entry): (&[u8], &Entry),
    ) -> Option<Vec<u8>> {
        if listed.parts.is_empty() || entry.parts.is_empty() {
            return None;
        }
        let mut start = 0usize;
        let mut now = HashMap::with_capacity(entry.parts.len());
        for part in &entry.parts {
            let end = start.checked_add(usize::try_from(part.size).ok()?)?;
            now.insert(part.sha256.as_str(), contents.get(start..end)?);
            start = end;
        }
        let size: u64 = listed.parts.iter().map(|part| part.size).sum();
        let mut earlier = Vec::with_capacity(usize::try_from(size.min(MAX_ENTRY_BYTES)).ok()?);
        for part in &listed.parts {
            match now.get(part.sha256.as_str()) {
                Some(bytes) => earlier.extend_from_slice(bytes),
                None => {
                    let piece = self.read_checked(
                        &part.sha256,
                        part.offset,
                        part.length,
                        part.piece_crc64,
                    )?;
                    let before = earlier.len();
                    let mut reader = flate2::read::MultiGzDecoder::new(&piece.bytes[..])
                        .take(part.size.saturating_add(1));
                    reader.read_to_end(&mut earlier).ok()?;
                    if hex::encode(Sha256::digest(&earlier[before..])) != part.sha256 {
                        return None;
                    }
                }
            }
        }
        // Each part is checked (a shared one by the new contents' hash of it, a read one
        // here), so the whole is what the index lists without hashing 16 MiB once more; a
        // docs server checks the patched file against the manifest all the same.
        (earlier.len() as u64 == size).then_some(earlier)
    }

    /// The entry of the file at `path` with contents `sha256`, if the earlier archive has it
    /// and its bytes check out; damaged bytes are packed again, never copied. The bytes are
    /// left in the file, for the destination to copy from there: the file is the earlier
    /// archive, written whole before it was kept and never written again.
    pub fn entry(&self, path: &str, sha256: &str) -> Option<Entry> {
        let entry = self.listed(path, sha256)?;
        if !self.check_in_place(path, entry.offset, entry.length, entry.entry_crc64) {
            return None;
        }
        Some(Entry {
            bytes: Vec::new(),
            crc64: entry.entry_crc64,
            // Its parts' pieces lie where they did in the entry: listed again, the next
            // archive can copy them when the file changes a little.
            parts: entry
                .parts
                .iter()
                .map(|part| IndexPart {
                    offset: part.offset.saturating_sub(entry.offset),
                    ..part.clone()
                })
                .collect(),
            in_earlier: Some(Span {
                offset: entry.offset,
                length: entry.length,
            }),
        })
    }
}

/// Where an entry's bytes lie in an earlier archive's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub offset: u64,
    pub length: u64,
}

/// One file's entry in an archive: its bytes and their CRC-64, computed once, and, for an
/// entry written in parts, where each part's piece lies in it.
pub struct Entry {
    /// The entry's bytes; empty for one left in the earlier archive's file.
    pub bytes: Vec<u8>,
    pub(super) crc64: u64,
    /// The pieces of an entry written in parts, with offsets from the entry's start.
    pub parts: Vec<IndexPart>,
    /// Where the bytes of an entry copied whole from the earlier archive lie in its file.
    pub in_earlier: Option<Span>,
}

impl Entry {
    /// `bytes` as an entry, checksummed.
    pub fn new(bytes: Vec<u8>) -> Self {
        let crc64 = crc_fast::checksum(crc_fast::CrcAlgorithm::Crc64Nvme, &bytes);
        Self {
            bytes,
            crc64,
            parts: Vec::new(),
            in_earlier: None,
        }
    }

    /// The entry's length in the archive.
    pub fn length(&self) -> u64 {
        self.in_earlier
            .map_or(self.bytes.len() as u64, |span| span.length)
    }

    /// The CRC-64 of a piece's `bytes`, as [`IndexPart::piece_crc64`] holds it.
    pub fn piece_crc64(bytes: &[u8]) -> u64 {
        crc_fast::checksum(crc_fast::CrcAlgorithm::Crc64Nvme, bytes)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::super::assembly::{Assembler, Reuse};
    use super::*;

    /// An entry of `parts` written as the default packager writes one in parts: each part a
    /// gzip member of its own (no head or tail, which the delta never reads).
    fn parted_entry(parts: &[&[u8]]) -> Entry {
        let mut bytes = Vec::new();
        let mut places = Vec::new();
        for part in parts {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(part).unwrap();
            let piece = encoder.finish().unwrap();
            places.push(IndexPart {
                sha256: hex::encode(Sha256::digest(part)),
                size: part.len() as u64,
                offset: bytes.len() as u64,
                length: piece.len() as u64,
                piece_crc64: Entry::piece_crc64(&piece),
            });
            bytes.extend(piece);
        }
        let mut entry = Entry::new(bytes);
        entry.parts = places;
        entry
    }

    #[test]
    fn parts_are_kept_by_their_bytes_and_the_earlier_contents_rebuilt_from_them() {
        let (one, two, three, new) = (
            &b"part one "[..],
            &b"part two "[..],
            &b"part three"[..],
            &b"part 2'"[..],
        );
        let before = [one, two, three].concat();
        let entry = parted_entry(&[one, two, three]);
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&entry.bytes).unwrap();
        let mut assembler = Assembler::new(Reuse::default(), "packager", "v1");
        let sha = |bytes: &[u8]| hex::encode(Sha256::digest(bytes));
        assembler
            .record("llms-full.txt", (&before, &sha(&before)), &entry)
            .unwrap();
        let index = assembler.finish().unwrap().index;
        assert_eq!(index.entries[0].parts.len(), 3);
        let earlier = EarlierArchive::new(index, file.try_clone().unwrap());

        let mut assembler = Assembler::new(
            Reuse {
                earlier: Some(&earlier),
                delta: None,
            },
            "packager",
            "v2",
        );
        assert!(
            assembler.kept_piece(&sha(three)).is_some(),
            "a part kept by its bytes"
        );
        assert!(assembler.kept_piece(&sha(new)).is_none());

        // The new file shares parts one and three: the earlier contents come back whole with
        // only part two read out of its piece, and so they do with no part shared.
        let after = [one, new, three].concat();
        let now = parted_entry(&[one, new, three]);
        let (base, contents) = earlier.contents("llms-full.txt", (&after, &now)).unwrap();
        assert_eq!(
            (base, contents.as_slice()),
            (sha(&before).as_str(), before.as_slice())
        );
        let unrelated = parted_entry(&[new]);
        assert_eq!(
            earlier
                .contents("llms-full.txt", (new, &unrelated))
                .unwrap()
                .1,
            before
        );

        // A damaged piece is never copied, nor read back into the earlier contents.
        file.write_all_at(b"XX", entry.parts[1].offset + 12)
            .unwrap();
        let damaged = EarlierArchive::new(
            ArchiveIndex {
                packager: "packager".into(),
                content_version: "v1".into(),
                entries: vec![IndexEntry {
                    offset: 0,
                    ..earlier.entries["llms-full.txt"].clone()
                }],
            },
            file,
        );
        assert!(damaged.piece(&sha(two)).is_none());
        assert!(
            damaged
                .contents_from_parts(&damaged.entries["llms-full.txt"], (&after, &now))
                .is_none()
        );
    }
}
