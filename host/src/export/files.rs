//! A file on its way from an export's render side to its destination: its contents, hashed
//! already where the thread that had the page hashed them; or, for a file of an unchanged page,
//! the entry an earlier archive holds for it, read and checked on that thread, so the page is
//! neither read from the render cache nor its files hashed again (a large site's one-page
//! export is otherwise mostly that, BENCHMARKS.md).

use super::assembly::Entry;
use crate::plugins::OutputFile;

/// One file of the bundle.
pub enum BundleFile {
    /// Contents the destination hashes.
    Made(OutputFile),
    /// Contents whose SHA-256 (hex) is known.
    Hashed { file: OutputFile, sha256: String },
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
            BundleFile::Made(file) | BundleFile::Hashed { file, .. } => &file.path,
            BundleFile::Kept { path, .. } => path,
        }
    }
}

impl From<OutputFile> for BundleFile {
    fn from(file: OutputFile) -> Self {
        BundleFile::Made(file)
    }
}
