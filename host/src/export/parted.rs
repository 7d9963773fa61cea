//! Large files packed in parts. A site-wide file such as `llms-full.txt` (every page's
//! Markdown, up to 16 MiB) changes on every release, but only where the changed page is: packed
//! whole, it was most of a one-page release's packing (BENCHMARKS.md). When the packager can
//! write an entry in parts (the contract's `reusable-parts`), a file over [`PARTED_ABOVE`] is
//! cut at content-defined boundaries (FastCDC), so an edit moves no boundary but its own
//! part's, and only the parts the earlier archive lacks are packed; the other parts' pieces are
//! copied from it. The cut depends on the contents alone, so an archive assembled this way is
//! the same bytes as one packed from nothing.

use std::ops::Range;

use sha2::{Digest, Sha256};

use super::ExportError;
use super::assembly::{Assembler, Entry, IndexPart};
use crate::plugins::ArchiveSession;

/// Files larger than this are written in parts, when the packager can.
pub const PARTED_ABOVE: usize = 1 << 20;

/// FastCDC's bounds for the parts: about 256 KiB, never under 64 KiB (but the last) nor over
/// 1 MiB. A one-page change repacks the part or two holding that page, about a sixtieth of
/// a full `llms-full.txt`; each part is a gzip member of its own, whose fresh dictionary costs
/// a few hundred bytes.
const MIN_PART: usize = 64 << 10;
const AVERAGE_PART: usize = 256 << 10;
const MAX_PART: usize = 1 << 20;

/// Where `contents` is cut into parts.
pub fn cut(contents: &[u8]) -> Vec<Range<usize>> {
    fastcdc::v2020::FastCDC::new(contents, MIN_PART, AVERAGE_PART, MAX_PART)
        .map(|chunk| chunk.offset..chunk.offset + chunk.length)
        .collect()
}

/// Whether a file of `len` bytes is packed in parts by `archive`.
pub fn in_parts(archive: &ArchiveSession, len: usize) -> bool {
    archive.reusable_parts && len > PARTED_ABOVE
}

/// The entry of the file at `path` with `contents`, written in parts: each part the earlier
/// archive holds (by its bytes' SHA-256, whichever file it was in) is copied, the others are
/// packed.
pub fn pack(
    archive: &mut ArchiveSession,
    assembler: &mut Assembler<'_>,
    path: &str,
    contents: &[u8],
) -> Result<Entry, ExportError> {
    let ranges = cut(contents);
    let hashes: Vec<String> = ranges
        .iter()
        .map(|range| hex::encode(Sha256::digest(&contents[range.clone()])))
        .collect();
    let kept: Vec<Option<Vec<u8>>> = hashes
        .iter()
        .map(|sha256| assembler.kept_piece(sha256))
        .collect();
    let parts: Vec<Option<&[u8]>> = ranges
        .iter()
        .zip(&kept)
        .map(|(range, kept)| kept.is_none().then(|| &contents[range.clone()]))
        .collect();
    let pieces = archive.add_file_in_parts(path, contents.len() as u64, &parts)?;
    let total = pieces.head.len()
        + pieces.tail.len()
        + pieces
            .parts
            .iter()
            .zip(&kept)
            .map(|(packed, kept)| kept.as_ref().unwrap_or(packed).len())
            .sum::<usize>();
    let mut bytes = Vec::with_capacity(total);
    bytes.extend_from_slice(&pieces.head);
    let mut places = Vec::with_capacity(ranges.len());
    for (((packed, kept), sha256), range) in
        pieces.parts.into_iter().zip(kept).zip(hashes).zip(&ranges)
    {
        let piece = kept.unwrap_or(packed);
        places.push(IndexPart {
            sha256,
            size: range.len() as u64,
            offset: bytes.len() as u64,
            length: piece.len() as u64,
            piece_crc64: Entry::piece_crc64(&piece),
        });
        bytes.extend_from_slice(&piece);
    }
    bytes.extend_from_slice(&pieces.tail);
    let mut entry = Entry::new(bytes);
    entry.parts = places;
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that look like text and do not repeat, as `llms-full.txt`'s do not.
    fn text(len: usize, seed: u64) -> Vec<u8> {
        let mut state = seed | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b"abcdefghijklmnopqrstuvwxyz  \n"[(state % 29) as usize]
            })
            .collect()
    }

    #[test]
    fn parts_cover_the_file_and_an_edit_changes_the_parts_around_it_only() {
        let before = text(4 << 20, 7);
        let ranges = cut(&before);
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(before.len()));
        assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
        assert!(ranges.len() >= 8, "{} parts", ranges.len());
        let mut after = before.clone();
        let middle = before.len() / 2;
        after.splice(middle..middle, b"One sentence more.".iter().copied());
        let parts = |bytes: &[u8]| -> Vec<Vec<u8>> {
            cut(bytes).into_iter().map(|r| bytes[r].to_vec()).collect()
        };
        let (old, new) = (parts(&before), parts(&after));
        let changed = new.iter().filter(|part| !old.contains(part)).count();
        assert!(changed <= 2, "{changed} of {} parts changed", new.len());
    }
}
