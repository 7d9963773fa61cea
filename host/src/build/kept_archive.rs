//! The archive `quire build` keeps in its cache folder for the next build: the last archive a
//! packager with reusable entries wrote (`archives/{packager}.archive`) and its index beside
//! it, so the next build copies every unchanged file's entry instead of packing it again, and
//! can write the delta against it for a docs server serving it. A missing or unreadable kept
//! archive only means packing every file.

use std::path::{Path, PathBuf};

use crate::export::assembly::{ArchiveIndex, EarlierArchive};

/// Where a cache folder keeps the archives of each packager.
pub struct KeptArchives {
    folder: PathBuf,
}

impl KeptArchives {
    /// The kept archives of the cache folder `cache_dir`.
    pub fn in_cache(cache_dir: &Path) -> Self {
        Self {
            folder: cache_dir.join("archives"),
        }
    }

    fn archive(&self, packager: &str) -> PathBuf {
        self.folder.join(format!("{packager}.archive"))
    }

    fn index(&self, packager: &str) -> PathBuf {
        self.folder.join(format!("{packager}.index.json"))
    }

    /// The last archive the packager hashing to `packager` wrote here, if it can be read.
    pub fn earlier(&self, packager: &str) -> Option<EarlierArchive> {
        let index = std::fs::read(self.index(packager)).ok()?;
        let index = match ArchiveIndex::from_json(&index) {
            Ok(index) => index,
            Err(e) => {
                tracing::warn!("{e}; packing every file");
                return None;
            }
        };
        let file = std::fs::File::open(self.archive(packager)).ok()?;
        Some(EarlierArchive::new(index, file))
    }

    /// Keeps the archive at `archive`, with `index`, as the last one of its packager: linked
    /// where the file system allows (the build replaces its output by renaming, never in
    /// place), copied otherwise; the index is written last, so a torn keep is never read.
    pub fn keep(&self, archive: &Path, index: &ArchiveIndex) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.folder)?;
        let (kept, kept_index) = (self.archive(&index.packager), self.index(&index.packager));
        let _ = std::fs::remove_file(&kept_index);
        let staged = kept.with_extension("staged");
        let _ = std::fs::remove_file(&staged);
        if std::fs::hard_link(archive, &staged).is_err() {
            std::fs::copy(archive, &staged)?;
        }
        std::fs::rename(&staged, &kept)?;
        let staged_index = kept_index.with_extension("staged");
        std::fs::write(&staged_index, index.to_json())?;
        std::fs::rename(&staged_index, &kept_index)
    }
}
