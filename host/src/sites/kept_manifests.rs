//! The version manifests this process read or wrote last, kept parsed. A release reads the
//! same manifest several times (the upload and the publish look at the latest version's files,
//! the export that follows reads the new one), and a large site's manifest is megabytes of
//! JSON. A kept manifest is used only while the stored file is the one it was read from: its
//! size, modification time and entity tag, which one `stat` gives, are compared first.

use std::collections::VecDeque;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use opendal::{Metadata, Operator};

use super::{ManifestError, SiteManifest};
use crate::storage::{location, paths};

/// Manifests kept: a release needs the latest two versions of the site it publishes.
const KEPT: usize = 4;

/// What tells one stored file from another at the same path.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    size: u64,
    modified: Option<String>,
    etag: Option<String>,
}

impl Stamp {
    fn of(metadata: &Metadata) -> Self {
        Self {
            size: metadata.content_length(),
            modified: metadata.last_modified().map(|t| t.to_string()),
            etag: metadata.etag().map(str::to_string),
        }
    }
}

struct Kept {
    /// The storage (its scheme, name and root) and the manifest's path in it.
    at: String,
    stamp: Stamp,
    manifest: Arc<SiteManifest>,
}

fn kept() -> MutexGuard<'static, VecDeque<Kept>> {
    static KEPT_MANIFESTS: LazyLock<Mutex<VecDeque<Kept>>> = LazyLock::new(Mutex::default);
    // Every change is whole before the lock is let go, so a poisoned lock is still right.
    KEPT_MANIFESTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn keep(at: String, stamp: Stamp, manifest: Arc<SiteManifest>) {
    let mut kept = kept();
    kept.retain(|k| k.at != at);
    if kept.len() >= KEPT {
        kept.pop_front();
    }
    kept.push_back(Kept {
        at,
        stamp,
        manifest,
    });
}

impl SiteManifest {
    /// [`SiteManifest::read`], shared: the manifest this process kept, if the stored one is
    /// still the one it was read from, else read now and kept.
    pub async fn read_shared(
        operator: &Operator,
        domain: &str,
        version: &str,
    ) -> Result<Arc<Self>, ManifestError> {
        let path = paths::version_manifest(domain, version);
        let at = location(operator, &path);
        let stamp = Stamp::of(&operator.stat(&path).await?);
        let found = kept()
            .iter()
            .find(|k| k.at == at && k.stamp == stamp)
            .map(|k| k.manifest.clone());
        if let Some(manifest) = found {
            return Ok(manifest);
        }
        let manifest = Arc::new(Self::read(operator, domain, version).await?);
        // Kept under the stamp taken before reading: a file replaced meanwhile stamps
        // differently the next time, and is read again then.
        keep(at, stamp, manifest.clone());
        Ok(manifest)
    }

    /// Writes the manifest of content version `version` of `domain` to storage, and keeps it
    /// for [`SiteManifest::read_shared`].
    pub async fn write(
        self: Arc<Self>,
        operator: &Operator,
        domain: &str,
        version: &str,
    ) -> Result<Arc<Self>, ManifestError> {
        let path = paths::version_manifest(domain, version);
        let json = serde_json::to_vec(&*self).map_err(|e| ManifestError::Corrupt {
            version: version.to_string(),
            message: e.to_string(),
        })?;
        operator.write(&path, json).await?;
        let stamp = Stamp::of(&operator.stat(&path).await?);
        keep(location(operator, &path), stamp, self.clone());
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(title: &str) -> SiteManifest {
        serde_json::from_value(serde_json::json!({
            "name": title,
            "config_file": "docs.json",
            "config_json": "{}",
            "navigation": [],
            "pages": [],
            "files": [],
        }))
        .expect("a manifest")
    }

    #[tokio::test]
    async fn a_kept_manifest_is_used_only_while_the_stored_one_is_unchanged() {
        let folder = tempfile::tempdir().expect("a folder");
        let root = folder.path().to_str().expect("a UTF-8 path");
        let operator = Operator::new(opendal::services::Fs::default().root(root)).expect("storage");
        Arc::new(manifest("First"))
            .write(&operator, "docs.test", "v1")
            .await
            .expect("written");
        let read = SiteManifest::read_shared(&operator, "docs.test", "v1")
            .await
            .expect("read");
        assert_eq!(read.name, "First");
        let again = SiteManifest::read_shared(&operator, "docs.test", "v1")
            .await
            .expect("read");
        assert!(Arc::ptr_eq(&read, &again), "the kept one");

        // Replaced behind this process's back (another replica, say): read anew.
        let path = paths::version_manifest("docs.test", "v1");
        let replaced = serde_json::to_vec(&manifest("Second, longer")).expect("json");
        operator.write(&path, replaced).await.expect("written");
        let read = SiteManifest::read_shared(&operator, "docs.test", "v1")
            .await
            .expect("read");
        assert_eq!(read.name, "Second, longer");
    }
}
