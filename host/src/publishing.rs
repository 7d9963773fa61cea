//! Publishing, the use case: a site folder (read by `sites`) becomes an immutable content
//! version in object storage, made searchable (by `search`) and recorded in the store. Files
//! are copied first and the version is recorded last, so a crash part-way leaves no half
//! version.

use std::path::{Path, PathBuf};

use futures::TryStreamExt;
use opendal::Operator;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::plugins::Plugins;
use crate::rendering::RenderCache;
use crate::search::{BuiltIndex, build_index};
use crate::sites::{SiteError, SiteLimits, load_site, validate_domain, validate_label};
use crate::storage::paths;
use crate::store::prelude::*;
use crate::store::{ContentVersion, StoreError};

/// Files copied to storage at the same time.
const UPLOAD_CONCURRENCY: usize = 16;

/// What to publish.
pub struct PublishRequest<'a> {
    pub organization: &'a str,
    pub domain: &'a str,
    /// Version label; default: the time of publishing.
    pub label: Option<&'a str>,
    pub root: &'a Path,
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
    let manifest = tokio::task::spawn_blocking(move || load_site(&root, limits))
        .await
        .map_err(|e| PublishError::InvalidInput(format!("reading the site failed: {e}")))??;
    if request.strict {
        manifest
            .refuse_warnings()
            .map_err(PublishError::InvalidInput)?;
    }

    let domain = request.domain;
    for warning in &manifest.warnings {
        tracing::warn!(domain, version = %label, "{warning}");
    }
    // Copying waits on storage and indexing on the CPU: done at once, a publish takes about as
    // long as the longer of the two.
    let (copied, indexed) = tokio::join!(
        copy_files(operator, request.root, &manifest, domain, &label),
        index_version(&request, operator, &manifest, &label)
    );
    copied?;
    let (indexed_sections, index_problems) = match indexed {
        Ok(built) => {
            operator
                .write(&paths::search_index(domain, &label), built.bytes)
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
    for problem in &index_problems {
        tracing::warn!(domain, version = %label, "search index: {problem}");
    }

    let manifest_json = serde_json::to_vec(&manifest)
        .map_err(|e| PublishError::InvalidInput(format!("cannot encode the site manifest: {e}")))?;
    operator
        .write(&paths::version_manifest(domain, &label), manifest_json)
        .await?;

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
/// version's folder in storage.
async fn copy_files(
    operator: &Operator,
    root: &Path,
    manifest: &crate::sites::SiteManifest,
    domain: &str,
    label: &str,
) -> Result<(), PublishError> {
    futures::stream::iter(manifest.files.iter().map(Ok::<_, PublishError>))
        .try_for_each_concurrent(UPLOAD_CONCURRENCY, |file| {
            let source = root.join(&file.path);
            let target = paths::version_file(domain, label, &file.path);
            async move {
                let bytes = tokio::fs::read(&source).await.map_err(|e| SiteError::Io {
                    file: file.path.clone(),
                    message: e.to_string(),
                })?;
                operator.write(&target, bytes).await?;
                Ok(())
            }
        })
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
    Ok(())
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
    let cache = plugins.render_cache.then(|| {
        RenderCache::in_storage(
            operator.clone(),
            tokio::runtime::Handle::current(),
            paths::RENDER_CACHE,
        )
    });
    tokio::task::spawn_blocking(move || {
        build_index(&plugins, &manifest, &label, &root, cache.as_ref())
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
