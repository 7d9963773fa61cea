//! Where a large file is cut into parts (`parted`), what each part and the whole file hash to,
//! found again from the layout of the file's earlier contents. `llms-full.txt` changes on every
//! release, only around the changed page; cutting and hashing its 16 MiB from nothing took most
//! of a one-page release's packing of it (BENCHMARKS.md). The layouts of the last large files
//! packed are kept in the process with their contents, by their SHA-256: the next export of the
//! file finds the bytes the two share at their start and end, takes the parts that lie in them
//! (those after the change shifted by its length), and cuts and hashes only what lies between.
//! Parts are cut by content (FastCDC), each from where the part before it ends, so a part that
//! begins at the same bytes as an earlier one, with the same bytes after it, is that part again:
//! the layout is the one cutting from nothing gives (a property test holds the two equal).

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use sha2::{Digest, Sha256};

use crate::bundle::file_patch;
use crate::memo::TwoGenerations;

/// FastCDC's bounds for the parts: about 256 KiB, never under 64 KiB (but the last) nor over
/// 1 MiB. A one-page change repacks the part or two holding that page, about a sixtieth of
/// a full `llms-full.txt`; each part is a gzip member of its own, whose fresh dictionary costs
/// a few hundred bytes.
const MIN_PART: usize = 64 << 10;
const AVERAGE_PART: usize = 256 << 10;
const MAX_PART: usize = 1 << 20;

/// Layouts kept per generation of the memo: at most twice this many files' contents are held
/// (each at most a few MiB, `llms-full.txt` at most 16 MiB).
const LAYOUTS_PER_GENERATION: usize = 2;

static KEPT: LazyLock<LayoutMemo> = LazyLock::new(|| TwoGenerations::new(LAYOUTS_PER_GENERATION));

/// The layouts kept in this process, by their contents' SHA-256.
pub type LayoutMemo = TwoGenerations<[u8; 32], Arc<Remembered>>;

/// This process's memo of layouts.
pub fn process_memo() -> &'static LayoutMemo {
    &KEPT
}

/// A large file's parts.
#[derive(Clone)]
pub struct Layout {
    /// Each part's bytes in the file, in order, covering it.
    pub ranges: Vec<Range<usize>>,
    /// Each part's SHA-256 (hex).
    pub hashes: Vec<String>,
    /// The whole file's SHA-256.
    pub sha256: [u8; 32],
    /// The whole file's SHA-256 state where each part begins, and at the end: where a later
    /// file shares a start with this one, its hash goes on from there.
    states: Vec<Sha256>,
    /// Where these contents and the earlier ones they were laid out from differ: how many bytes
    /// the two share at their start and at their end. `None` when laid out from nothing.
    pub shared_ends: Option<(usize, usize)>,
}

impl PartialEq for Layout {
    /// The states are left out: they follow from the ranges and the contents.
    fn eq(&self, other: &Self) -> bool {
        (&self.ranges, &self.hashes, self.sha256, self.shared_ends)
            == (
                &other.ranges,
                &other.hashes,
                other.sha256,
                other.shared_ends,
            )
    }
}

impl std::fmt::Debug for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layout")
            .field("ranges", &self.ranges)
            .field("hashes", &self.hashes)
            .field("sha256", &hex::encode(self.sha256))
            .field("shared_ends", &self.shared_ends)
            .finish()
    }
}

/// A layout with the contents it is of.
pub struct Remembered {
    pub contents: Vec<u8>,
    pub layout: Layout,
}

impl Layout {
    /// The layout of `contents`, from `earlier`'s where the two share bytes, else from nothing.
    pub fn of(contents: &[u8], earlier: Option<&Remembered>) -> Layout {
        let Some(earlier) = earlier else {
            let mut layout = Layout::empty();
            layout.cut_from(contents, 0, None);
            return layout;
        };
        let old = &earlier.layout;
        let (start, end) = file_patch::shared_ends(&earlier.contents, contents);
        // A part that lies within the shared start is the same part when the cut saw the same
        // bytes and the same length left: FastCDC reads the byte after a part's end to end it
        // there, tests two bytes at a time (so a file's last byte only when its rest is of an
        // even length), and cuts a rest under an average part by other rules. Cutting goes on
        // from where the first other part begins.
        let shorter = earlier.contents.len().min(contents.len());
        let kept = old
            .ranges
            .iter()
            .take_while(|r| r.end + 1 < start && r.start + AVERAGE_PART <= shorter)
            .count();
        let mut layout = Layout {
            ranges: old.ranges[..kept].to_vec(),
            hashes: old.hashes[..kept].to_vec(),
            sha256: [0; 32],
            states: old.states[..=kept].to_vec(),
            shared_ends: Some((start, end)),
        };
        let from = old.ranges.get(kept).map_or(0, |r| r.start);
        layout.cut_from(contents, from, Some((earlier, end)));
        layout
    }

    fn empty() -> Layout {
        Layout {
            ranges: Vec::new(),
            hashes: Vec::new(),
            sha256: [0; 32],
            states: vec![Sha256::new()],
            shared_ends: None,
        }
    }

    /// Cuts `contents` from `from`, where a part begins and `self` holds the parts before it
    /// (and the hash's state there). With `earlier` and the bytes it shares with `contents` at
    /// their end, a part that begins within those bytes where one of `earlier`'s began is
    /// that part, and so is every one after it.
    fn cut_from(&mut self, contents: &[u8], from: usize, earlier: Option<(&Remembered, usize)>) {
        let mut state = self.states.pop().unwrap_or_default();
        let mut rest = None;
        for chunk in
            fastcdc::v2020::FastCDC::new(&contents[from..], MIN_PART, AVERAGE_PART, MAX_PART)
        {
            let at = from + chunk.offset;
            if let Some((earlier, end)) = earlier
                && let Some(index) = earlier.part_in_shared_end(at, contents.len(), end)
            {
                rest = Some((earlier, index, at));
                break;
            }
            self.push(&mut state, contents, at..at + chunk.length, None);
        }
        if let Some((earlier, index, at)) = rest {
            let old = &earlier.layout;
            let old_start = old.ranges[index].start;
            for (range, hash) in old.ranges[index..].iter().zip(&old.hashes[index..]) {
                let range = range.start - old_start + at..range.end - old_start + at;
                self.push(&mut state, contents, range, Some(hash.clone()));
            }
        }
        self.states.push(state.clone());
        self.sha256 = state.finalize().into();
    }

    /// Adds the part of `contents` at `range`, whose hash is `hash` where known, and hashes
    /// it into the whole file's `state`.
    fn push(
        &mut self,
        state: &mut Sha256,
        contents: &[u8],
        range: Range<usize>,
        hash: Option<String>,
    ) {
        let bytes = &contents[range.clone()];
        self.states.push(state.clone());
        state.update(bytes);
        self.hashes
            .push(hash.unwrap_or_else(|| hex::encode(Sha256::digest(bytes))));
        self.ranges.push(range);
    }
}

impl Remembered {
    /// The index of this file's part that is the part of a file of `len` bytes beginning at
    /// `at`, when the two files share their last `shared_end` bytes and `at` lies within them:
    /// the part of these contents that begins as far from their end.
    fn part_in_shared_end(&self, at: usize, len: usize, shared_end: usize) -> Option<usize> {
        let from_end = len - at;
        if from_end > shared_end {
            return None;
        }
        let offset = self.contents.len() - from_end;
        self.layout
            .ranges
            .binary_search_by_key(&offset, |r| r.start)
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

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

    fn remembered(contents: Vec<u8>) -> Remembered {
        let layout = Layout::of(&contents, None);
        Remembered { contents, layout }
    }

    #[test]
    fn parts_cover_the_file_and_an_edit_changes_the_parts_around_it_only() {
        let before = text(4 << 20, 7);
        let ranges = Layout::of(&before, None).ranges;
        assert_eq!(ranges.first().map(|r| r.start), Some(0));
        assert_eq!(ranges.last().map(|r| r.end), Some(before.len()));
        assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
        assert!(ranges.len() >= 8, "{} parts", ranges.len());
        let mut after = before.clone();
        let middle = before.len() / 2;
        after.splice(middle..middle, b"One sentence more.".iter().copied());
        let (old, new) = (Layout::of(&before, None), Layout::of(&after, None));
        let changed = new
            .hashes
            .iter()
            .filter(|h| !old.hashes.contains(h))
            .count();
        assert!(
            changed <= 2,
            "{changed} of {} parts changed",
            new.hashes.len()
        );
        assert_eq!(new.sha256, <[u8; 32]>::from(Sha256::digest(&after)));
    }

    #[test]
    fn a_layout_from_the_earlier_one_is_the_layout_from_nothing() {
        let before = text(3 << 20, 11);
        let earlier = remembered(before.clone());
        let mut after = before.clone();
        after.splice(1 << 20..(1 << 20) + 40, b"Changed.".iter().copied());
        let found = Layout::of(&after, Some(&earlier));
        let mut fresh = Layout::of(&after, None);
        assert_eq!(
            found.shared_ends,
            Some((1 << 20, before.len() - (1 << 20) - 40))
        );
        fresh.shared_ends = found.shared_ends;
        assert_eq!(found, fresh);
        // Unchanged contents are laid out again the same way.
        let same = Layout::of(&before, Some(&earlier));
        assert_eq!(same.ranges, earlier.layout.ranges);
        assert_eq!(same.sha256, earlier.layout.sha256);
    }

    /// An edit of the earlier contents: `cut` bytes at `at` (a share of the length) replaced
    /// by `insert` bytes, in files of `len` bytes.
    fn edited(len: usize, seed: u64, at: f64, cut: usize, insert: usize) -> (Vec<u8>, Vec<u8>) {
        let before = text(len, seed);
        let start = ((len as f64 * at) as usize).min(len);
        let end = (start + cut).min(len);
        let mut after = before.clone();
        after.splice(start..end, text(insert, seed ^ 0xa5));
        (before, after)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Edits at and around the earlier contents' part boundaries, where a cut reads the
        /// byte after it, and near the end, where the length left decides the cut.
        #[test]
        fn edits_at_part_boundaries_lay_out_as_from_nothing(
            len in ((1usize << 20)..(3 << 20)),
            seed in any::<u64>(),
            boundary in any::<prop::sample::Index>(),
            nudge in -2isize..=2,
            cut in prop_oneof![Just(0usize), 1usize..4, Just(usize::MAX)],
            insert in prop_oneof![Just(0usize), 1usize..4],
        ) {
            let before = text(len, seed);
            let earlier = remembered(before.clone());
            let ends: Vec<usize> = earlier.layout.ranges.iter().map(|r| r.end).collect();
            let at = ends[boundary.index(ends.len())].saturating_add_signed(nudge).min(len);
            let mut after = before;
            after.splice(at..at.saturating_add(cut).min(len), text(insert, seed ^ 0x5a));
            let found = Layout::of(&after, Some(&earlier));
            let mut fresh = Layout::of(&after, None);
            fresh.shared_ends = found.shared_ends;
            prop_assert_eq!(found, fresh);
        }

        /// Whatever the edit (at the start, the end, across parts, the file shrinking under
        /// an average part or growing past it), the layout found from the earlier one is the
        /// one cutting from nothing gives.
        #[test]
        fn any_edit_lays_out_as_from_nothing(
            len in (0usize..(3 << 20)),
            seed in any::<u64>(),
            at in 0.0f64..=1.0,
            cut in prop_oneof![Just(0usize), 0usize..64, 0usize..(2 << 20)],
            insert in prop_oneof![Just(0usize), 0usize..64, 0usize..(1 << 20)],
        ) {
            let (before, after) = edited(len, seed, at, cut, insert);
            let earlier = remembered(before);
            let found = Layout::of(&after, Some(&earlier));
            let mut fresh = Layout::of(&after, None);
            fresh.shared_ends = found.shared_ends;
            prop_assert_eq!(&found.ranges, &fresh.ranges);
            prop_assert_eq!(&found.hashes, &fresh.hashes);
            prop_assert_eq!(found.sha256, fresh.sha256);
            prop_assert_eq!(found.states.len(), fresh.states.len());
        }
    }
}
