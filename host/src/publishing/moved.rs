//! An upload's folder made the new version's files by one rename, where storage is a local
//! folder: uploads are unpacked on storage's disk (`upload_folder`), their unchanged files
//! linked to the version before as they arrive (`sites::extract_site_archive`). Linking each of
//! them again into the version's folder, and removing the upload's links after the reply, was
//! two file calls per file of the site for a release that changes one page (BENCHMARKS.md).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use opendal::Operator;
use sha2::{Digest, Sha256};

use super::PublishError;
use super::files::{ToCopy, copy_local_file};
use crate::sites::{SiteError, SiteManifest};
use crate::storage::{self, paths};

/// An upload folder this old was left by a process that stopped while unpacking or publishing
/// it; the next upload removes it.
const LEFT_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// A new folder to unpack an upload into, removed when dropped: under storage's uploads folder
/// when storage is a local folder, so that the upload's files can be linked from and moved
/// into the versions' folders; the system's temporary folder otherwise. Call from a blocking
/// thread: it may remove folders left behind.
pub fn upload_folder(operator: &Operator) -> std::io::Result<tempfile::TempDir> {
    let Some(uploads) = storage::local_path(operator, paths::UPLOADS) else {
        return tempfile::tempdir();
    };
    std::fs::create_dir_all(&uploads)?;
    remove_left_behind(&uploads);
    tempfile::Builder::new()
        .prefix("upload-")
        .tempdir_in(&uploads)
}

/// Removes the upload folders in `uploads` last changed more than [`LEFT_AFTER`] ago.
fn remove_left_behind(uploads: &Path) {
    let Ok(entries) = std::fs::read_dir(uploads) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age > LEFT_AFTER);
        if old && let Err(e) = std::fs::remove_dir_all(entry.path()) {
            tracing::warn!(folder = %entry.path().display(), "cannot remove an upload folder left behind: {e}");
        }
    }
}

/// Where the version `label` of `domain` keeps its files on this disk, when storage is a
/// local folder.
pub(super) fn version_folder(operator: &Operator, domain: &str, label: &str) -> Option<PathBuf> {
    let folder = storage::local_path(operator, &paths::version_files(domain, label))?;
    // Without the trailing separator the storage path has, which a rename's target must not.
    Some(folder.components().collect())
}

/// Moves the site folder `root` to `target`, a version's files folder, and removes from it
/// what the site does not publish (hidden files, `node_modules`, what `.mintignore` names:
/// whatever `manifest` does not list). False, with `root` left as it was, when it cannot be
/// moved: another disk, or a folder an attempt before left at `target`. The caller copies the
/// files then.
pub(super) fn move_into(root: &Path, target: &Path, manifest: &SiteManifest) -> bool {
    let Some(parent) = target.parent() else {
        return false;
    };
    if std::fs::create_dir_all(parent).is_err() || std::fs::rename(root, target).is_err() {
        return false;
    }
    remove_unpublished(target, manifest);
    true
}

/// Removes from `folder` every file and folder that holds none of `manifest`'s files. What
/// cannot be removed stays, unread: a version's files are read by the paths its manifest lists.
fn remove_unpublished(folder: &Path, manifest: &SiteManifest) {
    let files: HashSet<&str> = manifest.files.iter().map(|f| f.path.as_str()).collect();
    let folders: HashSet<&str> = files
        .iter()
        .flat_map(|path| {
            path.match_indices('/')
                .map(move |(slash, _)| &path[..slash])
        })
        .collect();
    let mut walk = walkdir::WalkDir::new(folder).min_depth(1).into_iter();
    while let Some(Ok(entry)) = walk.next() {
        let relative = entry
            .path()
            .strip_prefix(folder)
            .ok()
            .and_then(Path::to_str)
            .map(|r| r.replace('\\', "/"));
        let is_folder = entry.file_type().is_dir();
        let published = relative.as_deref().is_some_and(|relative| {
            if is_folder {
                folders.contains(relative)
            } else {
                files.contains(relative)
            }
        });
        if published {
            continue;
        }
        let removed = if is_folder {
            walk.skip_current_dir();
            std::fs::remove_dir_all(entry.path())
        } else {
            std::fs::remove_file(entry.path())
        };
        if let Err(e) = removed {
            tracing::warn!(file = %entry.path().display(), "cannot remove a file the site does not publish: {e}");
        }
    }
}

/// The SHA-256 (hex) of each of `manifest`'s files, in its order, now in the version's folder
/// `folder`: known from the upload, or read and hashed on a blocking thread (a file too large
/// for the upload to hash on the way). Writes the pages the navigation generates (API
/// operations) there too.
pub(super) async fn files_in_place(
    folder: &Path,
    manifest: &Arc<SiteManifest>,
    known: Option<&HashMap<String, String>>,
) -> Result<Vec<String>, PublishError> {
    // Taken here, so that the upload's hashes are not copied for the blocking thread.
    let hashes: Vec<Option<String>> = manifest
        .files
        .iter()
        .map(|file| known.and_then(|known| known.get(&file.path)).cloned())
        .collect();
    let (folder, manifest) = (folder.to_path_buf(), Arc::clone(manifest));
    tokio::task::spawn_blocking(move || {
        let hashes = manifest
            .files
            .iter()
            .zip(hashes)
            .map(|(file, hash)| match hash {
                Some(hash) => Ok(hash),
                None => hash_file(&folder.join(&file.path)).map_err(|e| {
                    PublishError::Site(SiteError::Io {
                        file: file.path.clone(),
                        message: e.to_string(),
                    })
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut folders = HashSet::new();
        for page in &manifest.pages {
            if let Some(source) = &page.generated {
                let made = ToCopy::Made(source.clone().into_bytes());
                copy_local_file(&folder, &page.file, made, &folder, None, &mut folders)?;
            }
        }
        Ok(hashes)
    })
    .await
    .map_err(|e| PublishError::InvalidInput(format!("hashing the files failed: {e}")))?
}

/// The SHA-256 (hex) of the file at `path`, read in pieces.
fn hash_file(path: &Path) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hex::encode(hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::SiteLimits;

    #[tokio::test]
    async fn a_moved_folder_keeps_only_what_the_site_publishes_and_hashes_what_was_not_hashed() {
        let (uploads, storage) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let root = uploads.path().join("site");
        for (path, contents) in [
            (
                "docs.json",
                r#"{"name": "Moved", "navigation": {"pages": ["index", "guides/one"]}}"#,
            ),
            ("index.mdx", "# Home"),
            ("guides/one.mdx", "# One"),
            ("node_modules/dep/index.js", "x"),
            (".git/HEAD", "ref"),
            ("drafts/secret.mdx", "# Draft"),
            (".mintignore", "drafts/\n"),
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        }
        let manifest = crate::sites::load_site(
            &root,
            SiteLimits {
                max_files: 100,
                max_bytes: 1 << 20,
            },
        )
        .unwrap();
        let target = storage.path().join("sites/d/versions/v1/files");
        assert!(move_into(&root, &target, &manifest));
        assert!(!root.exists(), "moved, not copied");
        let mut left: Vec<String> = walkdir::WalkDir::new(&target)
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                e.path()
                    .strip_prefix(&target)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        left.sort();
        let mut listed: Vec<String> = manifest.files.iter().map(|f| f.path.clone()).collect();
        listed.sort();
        assert_eq!(left, listed);
        assert!(!target.join("drafts").exists() && !target.join("node_modules").exists());

        // The upload knew one hash (here a wrong one, to show it is taken as given); the rest
        // are read.
        let known = HashMap::from([("index.mdx".to_string(), "given".to_string())]);
        let manifest = Arc::new(manifest);
        let hashes = files_in_place(&target, &manifest, Some(&known))
            .await
            .unwrap();
        for (file, hash) in manifest.files.iter().zip(&hashes) {
            let expected = match file.path.as_str() {
                "index.mdx" => "given".to_string(),
                path => hex::encode(Sha256::digest(std::fs::read(target.join(path)).unwrap())),
            };
            assert_eq!(hash, &expected, "{}", file.path);
        }

        // A second move onto a folder that holds files is refused, and the source stays.
        let again = uploads.path().join("again");
        std::fs::create_dir_all(&again).unwrap();
        std::fs::write(again.join("docs.json"), "{}").unwrap();
        assert!(!move_into(&again, &target, &manifest));
        assert!(again.join("docs.json").exists());
    }

    #[test]
    fn upload_folders_left_behind_are_removed_and_new_ones_kept() {
        let uploads = tempfile::tempdir().unwrap();
        let (old, new) = (
            uploads.path().join("upload-old"),
            uploads.path().join("upload-new"),
        );
        for folder in [&old, &new] {
            std::fs::create_dir_all(folder.join("guides")).unwrap();
            std::fs::write(folder.join("guides/page.mdx"), "# Page").unwrap();
        }
        let long_ago = SystemTime::now() - 2 * LEFT_AFTER;
        std::fs::File::open(&old)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        remove_left_behind(uploads.path());
        assert!(!old.exists());
        assert!(new.join("guides/page.mdx").exists());
    }
}
