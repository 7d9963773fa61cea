//! A version's files in storage: the site's files copied into the new version's folder, each
//! one the version before holds with the same contents linked or copied within storage rather
//! than written again; and the files an upload may link from this disk (`linkable_files`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::{StreamExt, TryStreamExt};
use opendal::Operator;
use sha2::{Digest, Sha256};

use super::PublishError;
use crate::sites::{KnownFile, KnownFiles, SiteError, SiteManifest};
use crate::storage::{self, paths};
use crate::store::SiteRecord;
use crate::store::prelude::*;

/// Files copied to storage at the same time.
const UPLOAD_CONCURRENCY: usize = 16;
/// Files copied per blocking task in local filesystem storage, and tasks at once.
const LOCAL_COPY_BATCH: usize = 512;
const LOCAL_COPY_THREADS: usize = 2;

/// Copies the site's files, and the pages its navigation generates (API operations), into the
/// version's folder in storage, and returns each file's SHA-256 (in `manifest.files` order). A
/// file that `previous` (the site's latest version: its label and each file's hash) holds with
/// the same contents is linked or copied within storage rather than written again: a release
/// that changes one page sends storage one file.
pub(super) async fn copy_files(
    operator: &Operator,
    (root, hashes): (&Path, Option<&HashMap<String, String>>),
    manifest: &SiteManifest,
    (domain, label): (&str, &str),
    previous: Option<&PreviousFiles>,
) -> Result<Vec<String>, PublishError> {
    let known = |path: &str| hashes.and_then(|hashes| hashes.get(path)).cloned();
    if let Some(target) = storage::local_path(operator, &paths::version_files(domain, label)) {
        let previous = previous.and_then(|previous| {
            let folder = paths::version_files(&previous.domain, &previous.label);
            Some((
                storage::local_path(operator, &folder)?,
                previous.hashes.clone(),
            ))
        });
        return copy_local_files(root, manifest, &known, target, previous).await;
    }
    // Collected first: a stream mapping borrowed entries to futures is not `Send` to the
    // compiler's satisfaction, a list of futures is.
    let copies: Vec<_> = manifest
        .files
        .iter()
        .map(|file| {
            let target = paths::version_file(domain, label, &file.path);
            let source = (file.path.clone(), known(&file.path));
            copy_file(operator, root, source, target, previous)
        })
        .collect();
    let hashes: Vec<String> = futures::stream::iter(copies)
        .buffered(UPLOAD_CONCURRENCY)
        .try_collect()
        .await?;
    for page in &manifest.pages {
        if let Some(source) = &page.generated {
            operator
                .write(
                    &paths::version_file(domain, label, &page.file),
                    source.clone().into_bytes(),
                )
                .await?;
        }
    }
    Ok(hashes)
}

/// [`copy_files`] in local filesystem storage, from one folder to another: plain file calls in
/// batches on blocking threads, rather than three blocking tasks per file (which cost more than
/// the copying, for a large site whose files are nearly all linked from the version before).
async fn copy_local_files(
    root: &Path,
    manifest: &SiteManifest,
    known: &(dyn Fn(&str) -> Option<String> + Sync),
    target: PathBuf,
    previous: Option<(PathBuf, Arc<HashMap<String, String>>)>,
) -> Result<Vec<String>, PublishError> {
    let (root, target, previous) = (
        Arc::new(root.to_path_buf()),
        Arc::new(target),
        Arc::new(previous),
    );
    let mut files: Vec<(String, ToCopy)> = manifest
        .files
        .iter()
        .map(|file| (file.path.clone(), ToCopy::File(known(&file.path))))
        .collect();
    // Pages the navigation generates (API operations) are written from their source.
    let generated = manifest.pages.iter().filter_map(|page| {
        let source = page.generated.as_ref()?;
        Some((page.file.clone(), ToCopy::Made(source.clone().into_bytes())))
    });
    files.extend(generated);
    let listed = manifest.files.len();
    let mut files = files.into_iter().peekable();
    let mut batches: Vec<Vec<(String, ToCopy)>> = Vec::new();
    while files.peek().is_some() {
        batches.push(files.by_ref().take(LOCAL_COPY_BATCH).collect());
    }
    let copied: Vec<Vec<String>> = futures::stream::iter(batches.into_iter().map(|batch| {
        let (root, target, previous) = (root.clone(), target.clone(), previous.clone());
        async move {
            tokio::task::spawn_blocking(move || {
                let mut folders = HashSet::new();
                batch
                    .into_iter()
                    .map(|(path, what)| {
                        let previous = previous.as_ref().as_ref().map(|(f, h)| (f.as_path(), &**h));
                        copy_local_file(&root, &path, what, &target, previous, &mut folders)
                    })
                    .collect::<Result<Vec<String>, PublishError>>()
            })
            .await
            .map_err(|e| PublishError::InvalidInput(format!("copying the files failed: {e}")))?
        }
    }))
    .buffered(LOCAL_COPY_THREADS)
    .try_collect()
    .await?;
    Ok(copied.into_iter().flatten().take(listed).collect())
}

/// What one file to copy is: a file of the site folder, with its SHA-256 where it is known
/// already, or contents made for the version.
pub(super) enum ToCopy {
    File(Option<String>),
    Made(Vec<u8>),
}

/// Copies the file at `path` (in `root`, or made) into `target`: a link to the previous
/// version's copy when its contents are the same, else a new file. Returns its SHA-256. A
/// file whose hash is known and unchanged is linked without being read. `folders` are those
/// made already.
pub(super) fn copy_local_file(
    root: &Path,
    path: &str,
    what: ToCopy,
    target: &Path,
    previous: Option<(&Path, &HashMap<String, String>)>,
    folders: &mut HashSet<PathBuf>,
) -> Result<String, PublishError> {
    let copy = target.join(path);
    let stored = |e: std::io::Error| {
        PublishError::Storage(opendal::Error::new(
            opendal::ErrorKind::Unexpected,
            format!("cannot store {path}: {e}"),
        ))
    };
    if let Some(folder) = copy.parent()
        && !folders.contains(folder)
    {
        std::fs::create_dir_all(folder).map_err(stored)?;
        folders.insert(folder.to_path_buf());
    }
    // What is there is a link an attempt before made: it is replaced, never written through
    // (that would change the version it came from). A new version's folder holds nothing, so
    // a link is made first and what is in its way removed only when there is something.
    let link = |hash: &str| {
        previous.is_some_and(|(folder, hashes)| {
            if hashes.get(path).is_none_or(|h| h != hash) {
                return false;
            }
            let from = folder.join(path);
            match std::fs::hard_link(&from, &copy) {
                Ok(()) => true,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    std::fs::remove_file(&copy).is_ok() && std::fs::hard_link(&from, &copy).is_ok()
                }
                Err(_) => false,
            }
        })
    };
    let (bytes, known) = match what {
        ToCopy::File(Some(hash)) if link(&hash) => return Ok(hash),
        ToCopy::File(known) => {
            let bytes = std::fs::read(root.join(path)).map_err(|e| SiteError::Io {
                file: path.to_string(),
                message: e.to_string(),
            })?;
            (bytes, known)
        }
        ToCopy::Made(bytes) => (bytes, None),
    };
    let hash = match known {
        Some(hash) => hash,
        None => {
            let hash = hex::encode(Sha256::digest(&bytes));
            if link(&hash) {
                return Ok(hash);
            }
            hash
        }
    };
    let _ = std::fs::remove_file(&copy);
    std::fs::write(&copy, &bytes).map_err(stored)?;
    Ok(hash)
}

/// Copies one file (`path` in the site folder `root`) to `target`, or reuses the copy of the
/// version before when its contents are the same; returns its SHA-256.
async fn copy_file(
    operator: &Operator,
    root: &Path,
    (path, known): (String, Option<String>),
    target: String,
    previous: Option<&PreviousFiles>,
) -> Result<String, PublishError> {
    // A file whose hash is known and unchanged is not read at all.
    if let Some(hash) = known.as_deref()
        && let Some(kept) = previous.and_then(|previous| previous.same(&path, hash))
        && storage::reuse_object(operator, &kept, &target).await
    {
        return Ok(hash.to_string());
    }
    let bytes = tokio::fs::read(root.join(&path))
        .await
        .map_err(|e| SiteError::Io {
            file: path.clone(),
            message: e.to_string(),
        })?;
    let hash = match known {
        Some(hash) => hash,
        None => hex::encode(Sha256::digest(&bytes)),
    };
    if let Some(kept) = previous.and_then(|previous| previous.same(&path, &hash))
        && storage::reuse_object(operator, &kept, &target).await
    {
        return Ok(hash);
    }
    operator.write(&target, bytes).await?;
    Ok(hash)
}

/// The files of `domain`'s latest version that an upload may link instead of writing them
/// (`sites::KnownFiles`, by contents): in local filesystem storage, where they are files on
/// this disk; none elsewhere.
pub async fn linkable_files(
    store: &dyn Store,
    operator: &Operator,
    organization: &str,
    domain: &str,
) -> KnownFiles {
    // Another organization's files are never offered: which contents a site holds is its own.
    let Ok(Some(site)) = store.site_of(organization, domain).await else {
        return KnownFiles::new();
    };
    let Some((label, manifest)) = latest_manifest(operator, &site).await else {
        return KnownFiles::new();
    };
    // Each file's size comes from the manifest, so that an upload counts a linked file
    // against the limits without asking the disk.
    manifest
        .files
        .iter()
        .filter_map(|file| {
            let sha256 = file.sha256.clone()?;
            let stored = paths::version_file(&site.domain, &label, &file.path);
            let known = KnownFile {
                path: storage::local_path(operator, &stored)?,
                size: file.size,
            };
            Some((sha256, known))
        })
        .collect()
}

/// The files of the version a publish follows, by path: what it may reuse.
pub(super) struct PreviousFiles {
    label: String,
    domain: String,
    hashes: Arc<HashMap<String, String>>,
}

impl PreviousFiles {
    /// The files of `domain`'s latest version, when it has one whose manifest kept their
    /// hashes.
    pub(super) async fn of(store: &dyn Store, operator: &Operator, domain: &str) -> Option<Self> {
        let site = store.site(domain).await.ok()??;
        let (label, manifest) = latest_manifest(operator, &site).await?;
        let hashes: HashMap<String, String> = manifest
            .files
            .iter()
            .filter_map(|file| Some((file.path.clone(), file.sha256.clone()?)))
            .collect();
        (!hashes.is_empty()).then(|| Self {
            label,
            domain: site.domain,
            hashes: Arc::new(hashes),
        })
    }

    /// Where the earlier version keeps `path`, if its contents hash to `hash` there too.
    fn same(&self, path: &str, hash: &str) -> Option<String> {
        (self.hashes.get(path)? == hash)
            .then(|| paths::version_file(&self.domain, &self.label, path))
    }
}

/// The label and manifest of `site`'s latest version, if it has one that can be read.
async fn latest_manifest(
    operator: &Operator,
    site: &SiteRecord,
) -> Option<(String, Arc<SiteManifest>)> {
    let label = site.latest_version.clone()?;
    let manifest = SiteManifest::read_shared(operator, &site.domain, &label)
        .await
        .ok()?;
    Some((label, manifest))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy into a version folder where an attempt before left links to the version before:
    /// an unchanged file is linked again, a changed one written beside, never through, them.
    #[test]
    fn a_copy_replaces_what_an_attempt_before_left_and_never_writes_through_it() {
        let (site, earlier, target) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let sha = |bytes: &[u8]| hex::encode(Sha256::digest(bytes));
        for (path, old, new) in [
            ("same.md", "# Same", "# Same"),
            ("changed.md", "# Old", "# New"),
        ] {
            std::fs::write(site.path().join(path), new).unwrap();
            std::fs::write(earlier.path().join(path), old).unwrap();
            std::fs::hard_link(earlier.path().join(path), target.path().join(path)).unwrap();
        }
        let hashes = HashMap::from([
            ("same.md".to_string(), sha(b"# Same")),
            ("changed.md".to_string(), sha(b"# Old")),
        ]);
        let mut folders = HashSet::new();
        for (path, known) in [("same.md", sha(b"# Same")), ("changed.md", sha(b"# New"))] {
            let hash = copy_local_file(
                site.path(),
                path,
                ToCopy::File(Some(known.clone())),
                target.path(),
                Some((earlier.path(), &hashes)),
                &mut folders,
            )
            .unwrap();
            assert_eq!(hash, known, "{path}");
        }
        let read = |folder: &Path, path: &str| std::fs::read_to_string(folder.join(path)).unwrap();
        assert_eq!(read(target.path(), "same.md"), "# Same");
        assert_eq!(read(target.path(), "changed.md"), "# New");
        assert_eq!(
            read(earlier.path(), "changed.md"),
            "# Old",
            "the version before is intact"
        );
        // And into an empty folder, as a new version's is, the unchanged file is a link.
        let fresh = tempfile::tempdir().unwrap();
        copy_local_file(
            site.path(),
            "same.md",
            ToCopy::File(Some(sha(b"# Same"))),
            fresh.path(),
            Some((earlier.path(), &hashes)),
            &mut folders,
        )
        .unwrap();
        use std::os::unix::fs::MetadataExt;
        let inode = |path: PathBuf| std::fs::metadata(path).unwrap().ino();
        assert_eq!(
            inode(fresh.path().join("same.md")),
            inode(earlier.path().join("same.md"))
        );
    }
}
