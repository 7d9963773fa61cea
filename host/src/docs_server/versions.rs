//! The unpacked versions under the data directory and which one is active: `versions/LABEL/`
//! holds each verified bundle, and the file `active` names the one served. Switching writes a
//! new `active` beside the old and renames it over (atomic on POSIX), and the server swaps its
//! in-memory pointer, so a reader never sees half of two versions.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::bundle_rules::BundleError;
use super::listing::{self, VerifiedBundle};

/// The version being served.
#[derive(Debug)]
pub struct ActiveVersion {
    pub label: String,
    pub dir: PathBuf,
    pub domain: Option<String>,
    /// Each file's SHA-256 by path (the ETag).
    pub hashes: HashMap<String, String>,
    /// The bundle's redirect table (`redirects.json`), answered before files.
    pub redirects: quire_core::redirects::Redirects,
}

/// The versions folder and the active version.
pub struct Versions {
    root: PathBuf,
    active: RwLock<Option<Arc<ActiveVersion>>>,
}

impl Versions {
    /// Opens `data_dir`'s versions, restoring the active one if a previous run left one.
    pub fn open(data_dir: &Path) -> Result<Self, BundleError> {
        let root = data_dir.join("versions");
        std::fs::create_dir_all(&root)?;
        let versions = Self {
            root,
            active: RwLock::new(None),
        };
        if let Ok(label) = std::fs::read_to_string(versions.active_file()) {
            let label = label.trim();
            if versions.has(label) {
                versions.load(label)?;
            }
        }
        Ok(versions)
    }

    fn active_file(&self) -> PathBuf {
        self.root.join("active")
    }

    /// Whether `label` is unpacked.
    pub fn has(&self, label: &str) -> bool {
        listing::is_safe_label(label) && self.root.join(label).join(listing::MANIFEST).is_file()
    }

    /// A fresh folder to unpack a download into, inside the versions folder (so the final
    /// rename stays on one file system).
    pub fn staging(&self) -> Result<tempfile::TempDir, BundleError> {
        Ok(tempfile::Builder::new()
            .prefix(".staging-")
            .tempdir_in(&self.root)?)
    }

    /// Moves a verified bundle unpacked at `unpacked` (inside a staging folder) into place as
    /// its version. An already unpacked version of the same label is kept: a content version's
    /// files never change, and the one on disk may be being served.
    pub fn install(&self, unpacked: &Path, bundle: &VerifiedBundle) -> Result<(), BundleError> {
        if self.has(&bundle.content_version) {
            return Ok(());
        }
        let target = self.root.join(&bundle.content_version);
        if target.exists() {
            // A leftover of an interrupted install (no manifest): never served, safe to replace.
            std::fs::remove_dir_all(&target)?;
        }
        std::fs::rename(unpacked, &target)?;
        Ok(())
    }

    /// Makes `label` the served version, on disk and in memory.
    pub fn activate(&self, label: &str) -> Result<Arc<ActiveVersion>, BundleError> {
        let active = self.load(label)?;
        let temporary = self.root.join("active.next");
        std::fs::write(&temporary, label)?;
        std::fs::rename(&temporary, self.active_file())?;
        Ok(active)
    }

    fn load(&self, label: &str) -> Result<Arc<ActiveVersion>, BundleError> {
        let dir = self.root.join(label);
        let bundle = listing::read_hashes(&dir)?;
        // A bundle without a table (or an unreadable one) has no redirects; the log says why.
        let table = dir.join(crate::bundle::redirects::TABLE_FILE);
        let redirects = match std::fs::read(&table) {
            Ok(bytes) => crate::bundle::redirects::from_table(&bytes).unwrap_or_else(|e| {
                tracing::warn!(
                    version = label,
                    "ignoring an unreadable redirect table: {e}"
                );
                Default::default()
            }),
            Err(_) => Default::default(),
        };
        let active = Arc::new(ActiveVersion {
            label: label.to_string(),
            dir,
            domain: bundle.domain,
            hashes: bundle.hashes,
            redirects,
        });
        *self.active.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(&active));
        Ok(active)
    }

    /// The version being served, if any.
    pub fn active(&self) -> Option<Arc<ActiveVersion>> {
        self.active
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}
