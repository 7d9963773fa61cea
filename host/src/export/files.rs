//! A file on its way from an export's render side to its destination: its contents, hashed
//! already where the thread that had the page hashed them; or, for a file of an unchanged page,
//! the entry an earlier archive holds for it, read and checked on that thread, so the page is
//! neither read from the render cache nor its files hashed again (a large site's one-page
//! export is otherwise mostly that, BENCHMARKS.md). What the render side sends unhashed (the
//! site-wide files, a page's Markdown whose hash the version's manifest does not give) is
//! hashed on a thread of its own on the way (`hash_on_the_way`), and every file whose hash is
//! known is looked up in the earlier archive there, so the destination's one thread only
//! writes.

use std::sync::mpsc::{Receiver, SyncSender};

use sha2::{Digest, Sha256};

use super::assembly::{EarlierArchive, Entry};
use super::parted::{self, Laid, PARTED_ABOVE};
use crate::plugins::OutputFile;

/// One file of the bundle.
pub enum BundleFile {
    /// Contents the destination hashes.
    Made(OutputFile),
    /// Contents whose SHA-256 (hex) is known.
    Hashed { file: OutputFile, sha256: String },
    /// A large file's contents laid out in parts from the layout of its earlier contents,
    /// which gave their SHA-256 (hex).
    Laid {
        file: OutputFile,
        sha256: String,
        laid: Laid,
    },
    /// A file the earlier archive holds unchanged: its path, size and SHA-256 (hex), and that
    /// archive's entry for it, whose bytes were checked against the archive's index.
    Kept {
        path: String,
        size: u64,
        sha256: String,
        entry: Entry,
    },
}

impl BundleFile {
    /// Where the file goes in the bundle.
    pub fn path(&self) -> &str {
        match self {
            BundleFile::Made(file)
            | BundleFile::Hashed { file, .. }
            | BundleFile::Laid { file, .. } => &file.path,
            BundleFile::Kept { path, .. } => path,
        }
    }
}

impl From<OutputFile> for BundleFile {
    fn from(file: OutputFile) -> Self {
        BundleFile::Made(file)
    }
}

/// Passes `files` on to `hashed`, each file sent unhashed hashed on the way, and taken as the
/// earlier archive's checked entry where `earlier` holds it unchanged. Ends when `files` ends,
/// or when `hashed` is gone (the destination stopped, and says why).
pub(super) fn hash_on_the_way(
    files: Receiver<Vec<BundleFile>>,
    hashed: SyncSender<Vec<BundleFile>>,
    earlier: Option<&EarlierArchive>,
) {
    let (mut hashed_files, mut hashed_bytes) = (0u64, 0u64);
    for batch in files {
        let batch = batch
            .into_iter()
            .map(|file| match file {
                BundleFile::Made(file) => {
                    // A large file whose earlier contents this process laid out is hashed as it
                    // is laid out from them (`part_layout`): the writer then cuts it no more.
                    let laid = (file.contents.len() > PARTED_ABOVE)
                        .then(|| parted::lay_out_from(earlier?, &file.path, &file.contents))
                        .flatten();
                    match laid {
                        Some(laid) => {
                            let sha256 = hex::encode(laid.now.layout.sha256);
                            match kept_or_hashed(file, sha256, earlier) {
                                BundleFile::Hashed { file, sha256 } => {
                                    BundleFile::Laid { file, sha256, laid }
                                }
                                kept => kept,
                            }
                        }
                        None => {
                            hashed_files += 1;
                            hashed_bytes += file.contents.len() as u64;
                            let sha256 = hex::encode(Sha256::digest(&file.contents));
                            kept_or_hashed(file, sha256, earlier)
                        }
                    }
                }
                BundleFile::Hashed { file, sha256 } => kept_or_hashed(file, sha256, earlier),
                passed @ (BundleFile::Kept { .. } | BundleFile::Laid { .. }) => passed,
            })
            .collect();
        if hashed.send(batch).is_err() {
            return;
        }
    }
    tracing::debug!(
        files = hashed_files,
        bytes = hashed_bytes,
        "files hashed on the way"
    );
}

/// `file`, whose contents hash to `sha256`: the earlier archive's checked entry where it
/// holds the file unchanged, else the file to pack.
fn kept_or_hashed(
    file: OutputFile,
    sha256: String,
    earlier: Option<&EarlierArchive>,
) -> BundleFile {
    match earlier.and_then(|earlier| earlier.entry(&file.path, &sha256)) {
        Some(entry) => BundleFile::Kept {
            size: file.contents.len() as u64,
            path: file.path,
            sha256,
            entry,
        },
        None => BundleFile::Hashed { file, sha256 },
    }
}
