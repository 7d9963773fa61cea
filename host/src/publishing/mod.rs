//! Publishing, the use case: a site folder (read by `sites`) becomes an immutable content
//! version in object storage, made searchable (by `search`) and recorded in the store. Files
//! are copied first and the version is recorded last, so a crash part-way leaves no half
//! version.

mod files;
mod moved;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use opendal::Operator;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::plugins::Plugins;
use crate::rendering::RenderCache;
use crate::search::{BuiltIndex, build_index, segments};
use crate::sites::{SiteError, SiteLimits, load_site_hashed, validate_domain, validate_label};
use crate::storage::paths;
use crate::store::prelude::*;
use crate::store::{ContentVersion, StoreError};

pub use files::linkable_files;
use files::{PreviousFiles, copy_files};
pub use moved::upload_folder;

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
    /// `root` is the publish's to take (an upload's folder, from [`upload_folder`]): where it
    /// is on storage's disk it is moved to become the version's files rather than copied. Never
    /// for a folder of the user's.
    pub movable: bool,
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
    // Shared with the blocking tasks below, not copied for each.
    let mut manifest = Arc::new(manifest);
    let domain = request.domain;
    for warning in &manifest.warnings {
        tracing::warn!(domain, version = %label, "{warning}");
    }
    // Copying waits on storage and indexing on the CPU: done at once, a publish takes about as
    // long as the longer of the two.
    let started = std::time::Instant::now();
    // An upload's folder on storage's disk becomes the version's: its files are the version's
    // then, where pages are indexed from, and only hashed.
    let moved = match request
        .movable
        .then(|| moved::version_folder(operator, domain, &label))
        .flatten()
    {
        Some(target) => {
            let (root, manifest_moved) = (request.root.to_path_buf(), Arc::clone(&manifest));
            tokio::task::spawn_blocking(move || {
                moved::move_into(&root, &target, &manifest_moved).then_some(target)
            })
            .await
            .map_err(|e| PublishError::InvalidInput(format!("storing the site failed: {e}")))?
        }
        None => None,
    };
    if moved.is_some() {
        tracing::info!(domain, version = %label, "the upload's folder became the version's files");
    }
    let root = moved.as_deref().unwrap_or(request.root);
    let previous = match moved {
        Some(_) => None,
        None => PreviousFiles::of(store, operator, domain).await,
    };
    let (copied, indexed) = tokio::join!(
        async {
            let copied = match &moved {
                Some(folder) => moved::files_in_place(folder, &manifest, request.file_hashes).await,
                None => {
                    copy_files(
                        operator,
                        (root, request.file_hashes),
                        &manifest,
                        (domain, &label),
                        previous.as_ref(),
                    )
                    .await
                }
            };
            tracing::debug!(
                domain,
                seconds = started.elapsed().as_secs_f32(),
                "files copied"
            );
            copied
        },
        async {
            let indexed = index_version(&request, root, operator, &manifest, &label).await;
            tracing::debug!(
                domain,
                seconds = started.elapsed().as_secs_f32(),
                "pages indexed"
            );
            indexed
        }
    );
    // The tasks that shared the manifest are done: it is not copied here.
    for (file, hash) in Arc::make_mut(&mut manifest).files.iter_mut().zip(copied?) {
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

    let manifest = manifest
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

/// Builds the version's search index on a blocking thread, keeping the rendered pages in the
/// render cache for the export that follows. A failure leaves the version published but
/// unsearchable, and says why.
async fn index_version(
    request: &PublishRequest<'_>,
    root: &Path,
    operator: &Operator,
    manifest: &Arc<crate::sites::SiteManifest>,
    label: &str,
) -> Result<BuiltIndex, String> {
    let (plugins, manifest, label, root) = (
        request.plugins.clone(),
        Arc::clone(manifest),
        label.to_string(),
        root.to_path_buf(),
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
}
