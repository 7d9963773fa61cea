//! Large files packed in parts. A site-wide file such as `llms-full.txt` (every page's
//! Markdown, up to 16 MiB) changes on every release, but only where the changed page is: packed
//! whole, it was most of a one-page release's packing (BENCHMARKS.md). When the packager can
//! write an entry in parts (the contract's `reusable-parts`), a file over [`PARTED_ABOVE`] is
//! cut at content-defined boundaries (FastCDC), so an edit moves no boundary but its own
//! part's, and only the parts the earlier archive lacks are packed; the other parts' pieces are
//! copied from it. The cut depends on the contents alone, so an archive assembled this way is
//! the same bytes as one packed from nothing.

use std::sync::Arc;

use hex::FromHex;

use super::ExportError;
use super::assembly::{Assembler, EarlierArchive, Entry, IndexPart};
use super::part_layout::{self, Layout, Remembered};
use crate::plugins::ArchiveSession;

/// Files larger than this are written in parts, when the packager can.
pub const PARTED_ABOVE: usize = 1 << 20;

/// A large file laid out: its layout, and the earlier archive's contents at its path where
/// the layout was found from them.
#[derive(Clone)]
pub struct Laid {
    pub now: Arc<Remembered>,
    pub earlier: Option<Arc<Remembered>>,
}

impl Laid {
    /// The earlier archive's contents at the file's path and the bytes they share with the
    /// file's at their start and end, where the layout was found from them.
    pub fn base(&self) -> Option<(&[u8], (usize, usize))> {
        Some((
            &self.earlier.as_ref()?.contents,
            self.now.layout.shared_ends?,
        ))
    }
}

/// The layout of the file at `path` with `contents`, found from the earlier archive's file at
/// that path where this process laid that out, else from nothing; kept for the next export.
pub fn lay_out(assembler: &Assembler<'_>, path: &str, contents: &[u8]) -> Laid {
    let earlier = assembler.earlier_sha256(path).and_then(remembered);
    remember(Layout::of(contents, earlier.as_deref()), contents, earlier)
}

/// The layout of the file at `path` with `contents`, when this process laid out the contents
/// `earlier` holds at that path (kept for the next export if the file changed).
pub fn lay_out_from(earlier: &EarlierArchive, path: &str, contents: &[u8]) -> Option<Laid> {
    let before = remembered(earlier.sha256_at(path)?)?;
    let layout = Layout::of(contents, Some(&before));
    if layout.sha256 == before.layout.sha256 {
        // Unchanged: the memo holds it already.
        return Some(Laid {
            now: before,
            earlier: None,
        });
    }
    Some(remember(layout, contents, Some(before)))
}

/// The layout this process keeps for contents hashing to `sha256` (hex), if any.
fn remembered(sha256: &str) -> Option<Arc<Remembered>> {
    let sha256 = <[u8; 32]>::from_hex(sha256).ok()?;
    part_layout::process_memo().get(&sha256)
}

/// `layout` of `contents`, found from `earlier`, kept for the next export.
fn remember(layout: Layout, contents: &[u8], earlier: Option<Arc<Remembered>>) -> Laid {
    let now = Arc::new(Remembered {
        contents: contents.to_vec(),
        layout,
    });
    part_layout::process_memo().put([(now.layout.sha256, now.clone())]);
    Laid { now, earlier }
}

/// Whether a file of `len` bytes is packed in parts by `archive`.
pub fn in_parts(archive: &ArchiveSession, len: usize) -> bool {
    archive.reusable_parts && len > PARTED_ABOVE
}

/// The entry of the file at `path` with `contents`, written in parts as `layout` cuts them:
/// each part the earlier archive holds (by its bytes' SHA-256, whichever file it was in) is
/// copied, the others are packed.
pub fn pack(
    archive: &mut ArchiveSession,
    assembler: &mut Assembler<'_>,
    path: &str,
    contents: &[u8],
    layout: &Layout,
) -> Result<Entry, ExportError> {
    let (ranges, hashes) = (&layout.ranges, &layout.hashes);
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
        pieces.parts.into_iter().zip(kept).zip(hashes).zip(ranges)
    {
        let piece = kept.unwrap_or(packed);
        places.push(IndexPart {
            sha256: sha256.clone(),
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
