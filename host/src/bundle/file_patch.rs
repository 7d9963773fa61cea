//! A changed file sent as a patch against its earlier contents. A one-sentence change to one
//! page rewrites whole-site files (`llms-full.txt`, the search shards holding the page's
//! words) that are mostly the same bytes: a delta carrying them whole is most of its size. A
//! patch is the new contents compressed with zstd using the earlier contents as a reference
//! prefix (zstd's "patch from" mode), so whatever the two share costs a few bytes; the docs
//! server, which serves the earlier contents, decompresses it against them. The result is
//! checked against the manifest's size and hash as any other file is, so a patch applied to
//! other contents than it was made from is refused, never served.
//!
//! zstd (the `zstd` crate, bindings to the reference library) rather than a bsdiff port: its
//! reference-prefix mode is made for this, makes a patch of a 16 MB file in tens of
//! milliseconds, and reads as a stream, so applying one holds no more than the two files.

use std::io::Read;

/// Files smaller than this go whole: a patch saves too little to be worth a second entry.
pub const MIN_PATCHED_BYTES: usize = 4 * 1024;
/// The earlier and the new contents together may be at most this large (2^27, 128 MiB): the
/// back-reference window spans both, and a docs server holds that window while applying.
const MAX_WINDOW_LOG: u32 = 27;
/// zstd's level for patches: its default, fast, with long-distance matching on.
const LEVEL: i32 = 3;
/// A patch is sent only when it is at most this share of the whole file's packed entry.
const WORTH_IT: f64 = 0.5;

/// The patch that turns `earlier` into `contents`, or `None` when the two are too large to
/// patch or too small to be worth it.
pub fn make(earlier: &[u8], contents: &[u8]) -> Option<Vec<u8>> {
    if contents.len() < MIN_PATCHED_BYTES {
        return None;
    }
    let window_log = window_log(earlier.len() + contents.len())?;
    let mut encoder =
        zstd::stream::write::Encoder::with_ref_prefix(Vec::new(), LEVEL, earlier).ok()?;
    encoder.window_log(window_log).ok()?;
    encoder.long_distance_matching(true).ok()?;
    encoder.include_checksum(true).ok()?;
    std::io::Write::write_all(&mut encoder, contents).ok()?;
    encoder.finish().ok()
}

/// Whether `patch` is worth sending in place of the file's packed entry of `whole_bytes`.
pub fn worth_it(patch: &[u8], whole_bytes: usize) -> bool {
    patch.len() as f64 <= whole_bytes as f64 * WORTH_IT
}

/// The new contents as a reader: `patch` decompressed against `earlier`. Whoever reads it
/// checks the size and hash it must have; a damaged patch or another base fails as a read
/// error, or as contents that do not match.
pub fn apply<'a>(earlier: &'a [u8], patch: &'a [u8]) -> std::io::Result<impl Read + 'a> {
    let mut decoder = zstd::stream::read::Decoder::with_ref_prefix(patch, earlier)?;
    decoder.window_log_max(MAX_WINDOW_LOG)?;
    Ok(decoder)
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
    fn small_files_go_whole() {
        assert!(make(b"abc", b"abd").is_none());
    }

    proptest! {
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
