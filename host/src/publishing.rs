//! Publishing, the use case: a site folder (read by `sites`) becomes an immutable content
//! version in object storage, made searchable (by `search`) and recorded in the store. Files
//! are copied first and the version is recorded last, so a crash part-way leaves no half
//! version.

use std::path::{Path, PathBuf};

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use futures::{StreamExt, TryStreamExt};
use opendal::Operator;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use time::macros::format_description;

use crate::plugins::Plugins;
use crate::rendering::RenderCache;
use crate::search::{BuiltIndex, build_index, segments};
use crate::sites::{
    KnownFile, KnownFiles, SiteError, SiteLimits, load_site_hashed, validate_domain, validate_label,
};
use crate::storage::{self, paths};
use crate::store::prelude::*;
use crate::store::{ContentVersion, SiteRecord, StoreError};

/// Files copied to storage at the same time.
const UPLOAD_CONCURRENCY: usize = 16;
/// Files copied per blocking task in local filesystem storage, and tasks at once.
const LOCAL_COPY_BATCH: usize = 512;
const LOCAL_COPY_THREADS: usize = 2;

/// What to publish.
pub struct PublishRequest<'a> {
    pub organization: &'a str,
    pub domain: &'a str,
    /// Version label; default: the time of publishing.
    pub label: Option<&'a str>,
    pub root: &'a Path,
    /// The SHA-256 (hex) of files under `root` by path, where the caller knows them already
    /// (an upload hashes what it unpacks): a file hashed here and unchanged since the site's
    /// latest version is linked without being read again.
    pub file_hashes: Option<&'a HashMap<String, String>>,
    pub limits: SiteLimits,
    /// The renderer extracts each page's sections and the retriever indexes them.
    pub plugins: &'a Plugins,
    /// Refuse a site with warnings (a navigation entry naming a missing page, ...) instead of
    /// publishing it without what they name.
    pub strict: bool,
}

/// Why publishing failed.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(transparent)]
    Site(#[from] SiteError),
    #[error("{0}")]
    InvalidInput(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("storage error while publishing: {0}")]
    Storage(#[from] opendal::Error),
}

/// Publishes the folder `request.root` as a new content version of `request.domain`.
pub async fn publish(
    store: &dyn Store,
    operator: &Operator,
    request: PublishRequest<'_>,
) -> Result<ContentVersion, PublishError> {
    validate_domain(request.domain).map_err(PublishError::InvalidInput)?;
    let label = match request.label {
        Some(label) => {
            validate_label(label).map_err(PublishError::InvalidInput)?;
            label.to_string()
        }
        None => default_label(),
    };
    if store.organization(request.organization).await?.is_none() {
        return Err(
            StoreError::NotFound(format!("no organization {:?}", request.organization)).into(),
        );
    }
    store
        .check_domain_owner(request.organization, request.domain)
        .await?;
    if store.version(request.domain, &label).await?.is_some() {
        return Err(StoreError::Conflict(format!(
            "version {label:?} of {:?} is already published; versions are immutable, publish under a new label",
            request.domain
        ))
        .into());
    }

    let root: PathBuf = request.root.to_path_buf();
    let limits = request.limits;
    // With the upload's hashes, pages read by an earlier publish are not read again.
    let hashes = request.file_hashes.cloned();
    let manifest =
        tokio::task::spawn_blocking(move || load_site_hashed(&root, limits, hashes.as_ref()))
            .await
            .map_err(|e| PublishError::InvalidInput(format!("reading the site failed: {e}")))??;
    if request.strict {
        manifest
            .refuse_warnings()
            .map_err(PublishError::InvalidInput)?;
    }

    // What the upload hashed, the manifest records now: the pages' render keys take their
    // sources' hashes from it rather than hashing every source again.
    let mut manifest = manifest;
    if let Some(hashes) = request.file_hashes {
        for file in &mut manifest.files {
            file.sha256 = hashes.get(&file.path).cloned();
        }
    }
    let domain = request.domain;
    for warning in &manifest.warnings {
        tracing::warn!(domain, version = %label, "{warning}");
    }
    // Copying waits on storage and indexing on the CPU: done at once, a publish takes about as
    // long as the longer of the two.
    let started = std::time::Instant::now();
    let previous = PreviousFiles::of(store, operator, domain).await;
    let (copied, indexed) = tokio::join!(
        async {
            let copied = copy_files(
                operator,
                (request.root, request.file_hashes),
                &manifest,
                (domain, &label),
                previous.as_ref(),
            )
            .await;
            tracing::debug!(
                domain,
                seconds = started.elapsed().as_secs_f32(),
                "files copied"
            );
            copied
        },
        async {
            let indexed = index_version(&request, operator, &manifest, &label).await;
            tracing::debug!(
                domain,
                seconds = started.elapsed().as_secs_f32(),
                "pages indexed"
            );
            indexed
        }
    );
    for (file, hash) in manifest.files.iter_mut().zip(copied?) {
        file.sha256 = Some(hash);
    }
    let (indexed_sections, index_problems) = match indexed {
        Ok(built) => {
            operator
                .write(
                    &paths::search_index(domain, &label),
                    segments::list(&built.keys),
                )
                .await?;
            operator
                .write(
                    &paths::search_vocabulary(domain, &label),
                    built.vocabulary.to_bytes(),
                )
                .await?;
            let problems = built
                .skipped
                .into_iter()
                .map(|(file, reason)| format!("{file}: {reason}"))
                .collect();
            (built.sections, problems)
        }
        Err(problem) => (0, vec![problem]),
    };
    tracing::debug!(
        domain,
        seconds = started.elapsed().as_secs_f32(),
        "index stored"
    );
    for problem in &index_problems {
        tracing::warn!(domain, version = %label, "search index: {problem}");
    }

    let manifest = std::sync::Arc::new(manifest)
        .write(operator, domain, &label)
        .await
        .map_err(|e| match e {
            crate::sites::ManifestError::Storage(e) => PublishError::from(e),
            other => {
                PublishError::InvalidInput(format!("cannot encode the site manifest: {other}"))
            }
        })?;

    let version = ContentVersion {
        domain: domain.to_string(),
        label,
        created_at: OffsetDateTime::now_utc(),
        page_count: manifest.pages.len(),
        file_count: manifest.files.len(),
        size_bytes: manifest.files.iter().map(|f| f.size).sum(),
        indexed_sections,
        index_problems,
        warnings: manifest.warnings.iter().map(|w| w.to_string()).collect(),
    };
    store.add_version(request.organization, &version).await?;
    Ok(version)
}

/// Copies the site's files, and the pages its navigation generates (API operations), into the
/// version's folder in storage, and returns each file's SHA-256 (in `manifest.files` order). A
/// file that `previous` (the site's latest version: its label and each file's hash) holds with
/// the same contents is linked or copied within storage rather than written again: a release
/// that changes one page sends storage one file.
async fn copy_files(
    operator: &Operator,
    (root, hashes): (&Path, Option<&HashMap<String, String>>),
    manifest: &crate::sites::SiteManifest,
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
    manifest: &crate::sites::SiteManifest,
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
enum ToCopy {
    File(Option<String>),
    Made(Vec<u8>),
}

/// Copies the file at `path` (in `root`, or made) into `target`: a link to the previous
/// version's copy when its contents are the same, else a new file. Returns its SHA-256. A
/// file whose hash is known and unchanged is linked without being read. `folders` are those
/// made already.
fn copy_local_file(
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
    let Some(label) = site.latest_version else {
        return KnownFiles::new();
    };
    let Ok(manifest) =
        crate::sites::SiteManifest::read_shared(operator, &site.domain, &label).await
    else {
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
struct PreviousFiles {
    label: String,
    domain: String,
    hashes: Arc<HashMap<String, String>>,
}

impl PreviousFiles {
    /// The files of `domain`'s latest version, when it has one whose manifest kept their
    /// hashes.
    async fn of(store: &dyn Store, operator: &Operator, domain: &str) -> Option<Self> {
        Self::of_site(operator, store.site(domain).await.ok()??).await
    }

    /// The files of `site`'s latest version, as [`PreviousFiles::of`].
    async fn of_site(operator: &Operator, site: SiteRecord) -> Option<Self> {
        let (domain, label) = (site.domain, site.latest_version?);
        let manifest = crate::sites::SiteManifest::read_shared(operator, &domain, &label)
            .await
            .ok()?;
        let hashes: HashMap<String, String> = manifest
            .files
            .iter()
            .filter_map(|file| Some((file.path.clone(), file.sha256.clone()?)))
            .collect();
        (!hashes.is_empty()).then(|| Self {
            label,
            domain,
            hashes: Arc::new(hashes),
        })
    }

    /// Where the earlier version keeps `path`, if its contents hash to `hash` there too.
    fn same(&self, path: &str, hash: &str) -> Option<String> {
        (self.hashes.get(path)? == hash)
            .then(|| paths::version_file(&self.domain, &self.label, path))
    }
}

/// Builds the version's search index on a blocking thread, keeping the rendered pages in the
/// render cache for the export that follows. A failure leaves the version published but
/// unsearchable, and says why.
async fn index_version(
    request: &PublishRequest<'_>,
    operator: &Operator,
    manifest: &crate::sites::SiteManifest,
    label: &str,
) -> Result<BuiltIndex, String> {
    let (plugins, manifest, label, root) = (
        request.plugins.clone(),
        manifest.clone(),
        label.to_string(),
        request.root.to_path_buf(),
    );
    let runtime = tokio::runtime::Handle::current();
    let cache = plugins
        .render_cache
        .then(|| RenderCache::in_storage(operator.clone(), runtime.clone(), paths::RENDER_CACHE));
    let kept = RenderCache::in_storage(operator.clone(), runtime, paths::SEARCH_SEGMENTS);
    tokio::task::spawn_blocking(move || {
        let built = build_index(
            &plugins,
            &manifest,
            &label,
            &root,
            cache.as_ref(),
            Some(&kept),
            false,
        );
        // The version names its segments: they are all in storage before it is recorded.
        kept.flush();
        built
    })
    .await
    .map_err(|e| format!("indexing crashed: {e}"))?
    .map_err(|e| format!("the version is not searchable: {e}"))
}

fn default_label() -> String {
    let format =
        format_description!("[year][month][day]-[hour][minute][second]-[subsecond digits:3]");
    OffsetDateTime::now_utc()
        .format(&format)
        .unwrap_or_else(|_| "latest".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_label_is_a_valid_label() {
        assert!(validate_label(&default_label()).is_ok());
    }

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
