//! A changed file sent as a patch against its earlier contents. A one-sentence change to one
//! page rewrites whole-site files (`llms-full.txt`, the search shards holding the page's
//! words) that are mostly the same bytes: a delta carrying them whole is most of its size.
//!
//! A patch says how many bytes the new contents share with the earlier ones at their start and
//! at their end, and carries what lies between compressed with zstd, using the earlier
//! contents' own middle as a reference prefix (zstd's "patch from" mode), so whatever the two
//! share there costs a few bytes too. The docs server, which serves the earlier contents,
//! copies the shared ends and decompresses the middle against them. Only the middle is
//! compressed: a one-page change to a 16 MB `llms-full.txt` is a patch of a few hundred
//! kilobytes against as many, where zstd over the whole file spent tens of milliseconds of an
//! export's serial tail on what it then found unchanged (BENCHMARKS.md). The result is checked
//! against the manifest's size and hash as any other file is, so a patch applied to other
//! contents than it was made from is refused, never served.
//!
//! A patch of a host before the shared ends were counted is a bare zstd frame against the
//! whole earlier contents; it is still applied.
//!
//! zstd (the `zstd` crate, bindings to the reference library) rather than a bsdiff port: its
//! reference-prefix mode is made for this, and reads as a stream, so applying one holds no more
//! than the two files.

use std::io::Read;

/// Files smaller than this go whole: a patch saves too little to be worth a second entry.
pub const MIN_PATCHED_BYTES: usize = 4 * 1024;
/// The earlier and the new contents together may be at most this large (2^27, 128 MiB): the
/// back-reference window spans both, and a docs server holds that window while applying.
const MAX_WINDOW_LOG: u32 = 27;
/// zstd's level for patches: its default, fast, with long-distance matching on.
const LEVEL: i32 = 3;
/// What a patch with shared ends starts with, before the two lengths (each a little-endian
/// `u64`) and the middle's zstd frame. A bare zstd frame starts with zstd's own magic number.
const SPLICE_MAGIC: &[u8; 4] = b"QPS1";
/// The magic number, the shared start's length and the shared end's.
const SPLICE_HEADER_BYTES: usize = 4 + 8 + 8;
/// A patch is sent only when it is at most this share of the whole file's packed entry.
const WORTH_IT: f64 = 0.5;

/// The patch that turns `earlier` into `contents`, or `None` when the two are too large to
/// patch or too small to be worth it.
pub fn make(earlier: &[u8], contents: &[u8]) -> Option<Vec<u8>> {
    if contents.len() < MIN_PATCHED_BYTES {
        return None;
    }
    make_with_ends(earlier, contents, shared_ends(earlier, contents))
}

/// [`make`] where the bytes `earlier` and `contents` share at their start and end are known
/// already (`shared_ends` of the two, as the export's layout of a large file finds them).
/// `None` as for `make`, or when the ends given do not fit the two.
pub fn make_with_ends(
    earlier: &[u8],
    contents: &[u8],
    (start, end): (usize, usize),
) -> Option<Vec<u8>> {
    let shortest = earlier.len().min(contents.len());
    if contents.len() < MIN_PATCHED_BYTES || start.checked_add(end)? > shortest {
        return None;
    }
    let (earlier_middle, middle) = (
        &earlier[start..earlier.len() - end],
        &contents[start..contents.len() - end],
    );
    let mut patch = Vec::with_capacity(SPLICE_HEADER_BYTES + 64);
    patch.extend_from_slice(SPLICE_MAGIC);
    patch.extend_from_slice(&(start as u64).to_le_bytes());
    patch.extend_from_slice(&(end as u64).to_le_bytes());
    let window_log = window_log(earlier_middle.len() + middle.len())?;
    let mut encoder =
        zstd::stream::write::Encoder::with_ref_prefix(patch, LEVEL, earlier_middle).ok()?;
    encoder.window_log(window_log).ok()?;
    encoder.long_distance_matching(true).ok()?;
    encoder.include_checksum(true).ok()?;
    std::io::Write::write_all(&mut encoder, middle).ok()?;
    encoder.finish().ok()
}

/// How many bytes `earlier` and `contents` share at their start, and then at their end (the
/// two never overlap in either).
pub fn shared_ends(earlier: &[u8], contents: &[u8]) -> (usize, usize) {
    let start = shared_start(earlier, contents);
    let (earlier_rest, rest) = (&earlier[start..], &contents[start..]);
    (start, shared_end(earlier_rest, rest))
}

/// Bytes compared at once before the first difference is looked for byte by byte: compared
/// one at a time, 16 MB took several milliseconds.
const BLOCK: usize = 4096;

/// How many bytes `a` and `b` share at their start.
fn shared_start(a: &[u8], b: &[u8]) -> usize {
    let length = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= length && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..length]
        .iter()
        .zip(&b[at..length])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes `a` and `b` share at their end.
fn shared_end(a: &[u8], b: &[u8]) -> usize {
    let length = a.len().min(b.len());
    let (a, b) = (&a[a.len() - length..], &b[b.len() - length..]);
    let mut shared = 0;
    while shared + BLOCK <= length
        && a[length - shared - BLOCK..length - shared]
            == b[length - shared - BLOCK..length - shared]
    {
        shared += BLOCK;
    }
    shared
        + a[..length - shared]
            .iter()
            .rev()
            .zip(b[..length - shared].iter().rev())
            .take_while(|(x, y)| x == y)
            .count()
}

/// Whether `patch` is worth sending in place of the file's packed entry of `whole_bytes`.
pub fn worth_it(patch: &[u8], whole_bytes: usize) -> bool {
    patch.len() as f64 <= whole_bytes as f64 * WORTH_IT
}

/// The new contents as a reader: `patch` applied to `earlier`. Whoever reads it checks the
/// size and hash it must have; a damaged patch or another base fails as a read error, or as
/// contents that do not match.
pub fn apply<'a>(earlier: &'a [u8], patch: &'a [u8]) -> std::io::Result<Box<dyn Read + 'a>> {
    let Some(header) = patch.strip_prefix(SPLICE_MAGIC) else {
        // A bare zstd frame against the whole earlier contents.
        return Ok(Box::new(decoder(patch, earlier)?));
    };
    let length = |at: usize| -> std::io::Result<usize> {
        let bytes: [u8; 8] = header
            .get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| invalid("the patch ends inside its header"))?;
        usize::try_from(u64::from_le_bytes(bytes)).map_err(|_| invalid("a shared end too long"))
    };
    let (start, end) = (length(0)?, length(8)?);
    let middle_end = earlier
        .len()
        .checked_sub(end)
        .filter(|&at| at >= start)
        .ok_or_else(|| invalid("the patch shares more than the earlier contents hold"))?;
    let frame = &patch[SPLICE_HEADER_BYTES..];
    let middle = decoder(frame, &earlier[start..middle_end])?;
    Ok(Box::new(
        (&earlier[..start])
            .chain(middle)
            .chain(&earlier[middle_end..]),
    ))
}

/// A zstd frame decompressed against the reference prefix `earlier`.
fn decoder<'a>(frame: &'a [u8], earlier: &'a [u8]) -> std::io::Result<impl Read + 'a> {
    let mut decoder = zstd::stream::read::Decoder::with_ref_prefix(frame, earlier)?;
    decoder.window_log_max(MAX_WINDOW_LOG)?;
    Ok(decoder)
}

fn invalid(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message.to_string())
}

/// The window that spans `bytes`, when it is within `MAX_WINDOW_LOG`.
fn window_log(bytes: usize) -> Option<u32> {
    let log = usize::BITS - bytes.max(1 << 10).saturating_sub(1).leading_zeros();
    (log <= MAX_WINDOW_LOG).then_some(log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn applied(earlier: &[u8], patch: &[u8]) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        apply(earlier, patch)?
            .take(64 << 20)
            .read_to_end(&mut out)?;
        Ok(out)
    }

    /// Text like `llms-full.txt`: many pages, each different.
    fn pages(count: usize) -> Vec<u8> {
        (0..count)
            .map(|i| {
                format!(
                    "# Page {i}\n\nPage {i} explains setting {} in depth.\n\n",
                    i * 7919
                )
            })
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn a_sentence_added_inside_a_large_file_is_a_small_patch() {
        let earlier = pages(40_000);
        let mut contents = earlier.clone();
        let middle = contents.len() / 2;
        contents.splice(
            middle..middle,
            b"One more sentence, appended.\n".iter().copied(),
        );
        let patch = make(&earlier, &contents).expect("a patch");
        assert!(
            patch.len() < 1_000,
            "{} bytes for a {} byte file",
            patch.len(),
            contents.len()
        );
        assert_eq!(applied(&earlier, &patch).unwrap(), contents);
    }

    #[test]
    fn another_base_gives_other_contents_or_an_error_never_the_new_ones() {
        let earlier = pages(2_000);
        let mut contents = earlier.clone();
        contents.extend_from_slice(b"the end\n");
        let patch = make(&earlier, &contents).unwrap();
        let other = pages(1_999);
        assert_ne!(applied(&other, &patch).ok(), Some(contents));
    }

    #[test]
    fn only_what_lies_between_the_shared_ends_is_compressed() {
        let earlier = pages(40_000);
        let mut contents = earlier.clone();
        let middle = contents.len() / 2;
        contents.splice(middle..middle, b"An edit.\n".iter().copied());
        let patch = make(&earlier, &contents).expect("a patch");
        assert_eq!(&patch[..4], SPLICE_MAGIC);
        let (start, end) = shared_ends(&earlier, &contents);
        assert_eq!(start, middle);
        assert_eq!(start + end, earlier.len());
        assert_eq!(applied(&earlier, &patch).unwrap(), contents);
    }

    #[test]
    fn a_bare_zstd_patch_of_an_earlier_host_still_applies() {
        let earlier = pages(2_000);
        let mut contents = earlier.clone();
        contents.splice(100..100, b"inserted ".iter().copied());
        let mut encoder =
            zstd::stream::write::Encoder::with_ref_prefix(Vec::new(), LEVEL, &earlier[..]).unwrap();
        encoder
            .window_log(window_log(earlier.len() * 2).unwrap())
            .unwrap();
        encoder.long_distance_matching(true).unwrap();
        std::io::Write::write_all(&mut encoder, &contents).unwrap();
        let bare = encoder.finish().unwrap();
        assert_eq!(applied(&earlier, &bare).unwrap(), contents);
    }

    #[test]
    fn shared_ends_beyond_the_earlier_contents_are_refused() {
        let earlier = pages(100);
        let contents: Vec<u8> = earlier.iter().chain(&earlier).copied().collect();
        let mut patch = make(&earlier, &contents).expect("a patch");
        // Claim a shared end as long as the whole earlier contents, past the shared start.
        patch[12..20].copy_from_slice(&(earlier.len() as u64).to_le_bytes());
        assert!(applied(&earlier, &patch).is_err());
        assert!(applied(&earlier, &patch[..10]).is_err(), "a cut header");
    }

    #[test]
    fn small_files_go_whole() {
        assert!(make(b"abc", b"abd").is_none());
    }

    proptest! {
        /// Whatever an edit does (bytes inserted, removed or replaced anywhere, the ends
        /// included, or contents repeating across the edit), the patch gives the new contents.
        #[test]
        fn a_patch_applied_gives_the_new_contents(
            earlier in proptest::collection::vec(0u8..4, 0..20_000),
            at in 0usize..20_000,
            removed in 0usize..3_000,
            inserted in proptest::collection::vec(0u8..4, 0..3_000),
            padding in 0usize..(2 * MIN_PATCHED_BYTES),
        ) {
            let mut earlier = earlier;
            earlier.extend(std::iter::repeat_n(1u8, padding));
            let at = at.min(earlier.len());
            let mut contents = earlier.clone();
            let end = (at + removed).min(contents.len());
            contents.splice(at..end, inserted);
            let (start, shared_end) = shared_ends(&earlier, &contents);
            prop_assert!(start + shared_end <= earlier.len().min(contents.len()));
            if let Some(patch) = make(&earlier, &contents) {
                prop_assert_eq!(applied(&earlier, &patch).unwrap(), contents);
            } else {
                prop_assert!(contents.len() < MIN_PATCHED_BYTES);
            }
        }

        /// A docs server applies what a delta carries: any bytes as a patch, against any base,
        /// end in an error or in bounded contents, never in a panic.
        #[test]
        fn any_bytes_as_a_patch_are_refused_or_read(
            earlier in proptest::collection::vec(any::<u8>(), 0..4096),
            patch in proptest::collection::vec(any::<u8>(), 0..4096),
        ) {
            let _ = applied(&earlier, &patch);
            // And a real patch with a byte flipped: whatever it reads as is checked against
            // the manifest afterwards; here it must only end.
            let contents: Vec<u8> = earlier.iter().chain(earlier.iter()).copied()
                .chain(std::iter::repeat_n(7u8, MIN_PATCHED_BYTES)).collect();
            if let Some(mut real) = make(&earlier, &contents) {
                let at = patch.len() % real.len();
                real[at] ^= 0x5a;
                let _ = applied(&earlier, &real);
            }
        }
    }
}
