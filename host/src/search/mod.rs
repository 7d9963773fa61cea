//! Documentation search: indexes built at publish time, and warm retriever instances holding
//! each site's loaded index, replaced when a new version is published or after a failure.

mod indexing;
mod sectioning;
pub mod segments;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use opendal::Operator;

pub use indexing::{BuiltIndex, build_index};
pub use quire_answer::vocabulary::Vocabulary;

use crate::plugins::{
    IndexSession, LoadedPlugin, PluginError, Plugins, SearchFilter, SearchHit, SearchQuery,
};
use crate::rendering::RenderCache;
use crate::sites::SiteManifest;
use crate::storage::paths;
use crate::store::{SharedStore, StoreError};

/// Why a search could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("no site {0:?} in this organization")]
    UnknownSite(String),
    #[error("{0:?} has no published version")]
    NothingPublished(String),
    #[error("version {0:?} has no search index; publish the site again to build one")]
    NoIndex(String),
    #[error(
        "the search index of version {version:?} cannot be read by the retriever {plugin} ({message}); it was built by another retriever: publish the site again to rebuild it"
    )]
    IndexUnreadable {
        version: String,
        plugin: String,
        message: String,
    },
    #[error(
        "the search index of version {version:?} cannot be read ({message}); publish the site again to rebuild it"
    )]
    IndexDamaged { version: String, message: String },
    #[error(transparent)]
    Plugin(#[from] PluginError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("storage error: {0}")]
    Storage(#[from] opendal::Error),
    #[error(transparent)]
    Manifest(#[from] crate::sites::ManifestError),
}

/// A search as the API asks it.
pub struct SearchRequest {
    pub organization: String,
    pub domain: String,
    pub query: String,
    pub limit: u32,
    pub filter: SearchFilter,
    pub boost_paths: Vec<String>,
    /// Searching for a reader (the assistant): a version or language the filter leaves open is
    /// the one of the page they are on (`Some(path)`), else the site's default, so answers
    /// come from the docs they are reading and not from every version at once.
    pub reader: Option<Option<String>>,
}

/// Warm retriever instances for one content version of one site.
struct SitePool {
    version: String,
    /// The site's name (docs.json `name`), for answers.
    site_name: String,
    /// The version's manifest (its pages in navigation order), if it could be read.
    manifest: Option<Arc<SiteManifest>>,
    /// Each page's docs.json version and language.
    scopes: HashMap<String, SearchFilter>,
    /// Where the site opens: the version and language of its first navigation page (the
    /// `default: true` ones come first).
    default_scope: SearchFilter,
    /// The version's index, in segments.
    segments: Arc<Vec<Vec<u8>>>,
    /// The version's word counts; `None` for a version published before they were kept.
    vocabulary: Option<Arc<Vocabulary>>,
    /// The retriever the instances run; a replaced retriever gets a new pool.
    retriever: Arc<LoadedPlugin>,
    instances: Vec<Mutex<Option<IndexSession>>>,
    next: AtomicUsize,
}

/// A site's latest version as the warm pool holds it: its label, its manifest, and the
/// loaded index that `SearchService::search_published` searches.
pub struct Published {
    pub manifest: Arc<SiteManifest>,
    pool: Arc<SitePool>,
}

impl Published {
    /// The version's label.
    pub fn version(&self) -> &str {
        &self.pool.version
    }
}

/// Searches sites through the retriever plugin.
pub struct SearchService {
    store: SharedStore,
    operator: Operator,
    plugins: Plugins,
    instances_per_site: usize,
    pools: Mutex<HashMap<String, Arc<SitePool>>>,
}

impl SearchService {
    pub fn new(
        store: SharedStore,
        operator: Operator,
        plugins: Plugins,
        instances_per_site: usize,
    ) -> Self {
        Self {
            store,
            operator,
            plugins,
            instances_per_site: instances_per_site.max(1),
            pools: Mutex::new(HashMap::new()),
        }
    }

    /// The best sections of the site's latest version for the request.
    pub async fn search(&self, request: SearchRequest) -> Result<Vec<SearchHit>, SearchError> {
        let pool = self.pool(&request.organization, &request.domain).await?;
        self.search_pool(pool, request).await
    }

    /// The best sections of `published` for the request, with no new look at the store: for
    /// a reader that already holds the version (an MCP server answering one request).
    pub async fn search_published(
        &self,
        published: &Published,
        request: SearchRequest,
    ) -> Result<Vec<SearchHit>, SearchError> {
        self.search_pool(published.pool.clone(), request).await
    }

    async fn search_pool(
        &self,
        pool: Arc<SitePool>,
        request: SearchRequest,
    ) -> Result<Vec<SearchHit>, SearchError> {
        let plugins = self.plugins.clone();
        let mut filter = request.filter;
        if let Some(page) = &request.reader {
            let scope = page
                .as_deref()
                .and_then(|p| pool.scopes.get(quire_core::paths::page_key(p)))
                .unwrap_or(&pool.default_scope);
            filter.version = filter.version.or_else(|| scope.version.clone());
            filter.language = filter.language.or_else(|| scope.language.clone());
        }
        let query = SearchQuery {
            text: request.query,
            limit: request.limit,
            filter,
            boost_paths: request.boost_paths,
        };
        let work = format!("search {}", request.domain);
        tokio::task::spawn_blocking(move || {
            let slot = pool.next.fetch_add(1, Ordering::Relaxed) % pool.instances.len();
            let mut instance = pool.instances[slot]
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if instance.as_ref().is_none_or(IndexSession::is_poisoned) {
                let loaded =
                    IndexSession::load(&plugins.runtime, &pool.retriever, &pool.segments, &work)
                        .map_err(|e| match e {
                            // The retriever refused the bytes: another retriever's format.
                            PluginError::Reported {
                                plugin, message, ..
                            } => SearchError::IndexUnreadable {
                                version: pool.version.clone(),
                                plugin,
                                message,
                            },
                            other => other.into(),
                        })?;
                *instance = Some(loaded);
            }
            match instance.as_mut() {
                Some(session) => session.search(&query).map_err(SearchError::from),
                None => unreachable!("the instance was just loaded"),
            }
        })
        .await
        .map_err(|e| SearchError::Plugin(PluginError::Engine(format!("search task failed: {e}"))))?
    }

    /// The pool for the site's latest version, loaded (or replaced) as needed.
    async fn pool(&self, organization: &str, domain: &str) -> Result<Arc<SitePool>, SearchError> {
        let site = self
            .store
            .site_of(organization, domain)
            .await?
            .ok_or_else(|| SearchError::UnknownSite(domain.to_string()))?;
        let version = site
            .latest_version
            .ok_or_else(|| SearchError::NothingPublished(domain.to_string()))?;
        let retriever = self.plugins.retriever.current();
        if let Some(pool) = self.lock_pools().get(domain)
            && pool.version == version
            && pool.retriever.sha256 == retriever.sha256
        {
            return Ok(pool.clone());
        }
        let bytes = match self
            .operator
            .read(&paths::search_index(domain, &version))
            .await
        {
            Ok(bytes) => bytes.to_vec(),
            Err(e) if e.kind() == opendal::ErrorKind::NotFound => {
                return Err(SearchError::NoIndex(version));
            }
            Err(e) => return Err(e.into()),
        };
        let kept = RenderCache::in_storage(
            self.operator.clone(),
            tokio::runtime::Handle::current(),
            paths::SEARCH_SEGMENTS,
        );
        let segments =
            tokio::task::spawn_blocking(move || segments::read_stored(bytes, &kept, usize::MAX))
                .await
                .map_err(|e| PluginError::Engine(format!("reading the index failed: {e}")))?
                .map_err(|message| SearchError::IndexDamaged {
                    version: version.clone(),
                    message,
                })?;
        let vocabulary = self.vocabulary_of(domain, &version).await.map(Arc::new);
        let manifest = SiteManifest::read(&self.operator, domain, &version)
            .await
            .ok()
            .map(Arc::new);
        let site_name = manifest
            .as_ref()
            .map_or_else(|| domain.to_string(), |m| m.name.clone());
        let scope = |page: &crate::sites::PageEntry| SearchFilter {
            version: page.version.clone(),
            language: page.language.clone(),
        };
        let pages = manifest
            .as_ref()
            .map(|m| m.pages.as_slice())
            .unwrap_or_default();
        let scopes = pages.iter().map(|p| (p.path.clone(), scope(p))).collect();
        let default_scope = pages.first().map(scope).unwrap_or(SearchFilter {
            version: None,
            language: None,
        });
        let pool = Arc::new(SitePool {
            version,
            site_name,
            manifest: manifest.clone(),
            scopes,
            default_scope,
            segments: Arc::new(segments),
            vocabulary,
            retriever,
            instances: (0..self.instances_per_site)
                .map(|_| Mutex::new(None))
                .collect(),
            next: AtomicUsize::new(0),
        });
        self.lock_pools().insert(domain.to_string(), pool.clone());
        Ok(pool)
    }

    /// The stored vocabulary of a version. Answers do without one (they weigh words by the
    /// sections retrieved), so a version published before vocabularies were kept, or one whose
    /// vocabulary cannot be read, still answers; the latter is logged.
    async fn vocabulary_of(&self, domain: &str, version: &str) -> Option<Vocabulary> {
        let bytes = match self
            .operator
            .read(&paths::search_vocabulary(domain, version))
            .await
        {
            Ok(bytes) => bytes.to_vec(),
            Err(e) if e.kind() == opendal::ErrorKind::NotFound => return None,
            Err(e) => {
                tracing::warn!(domain, version, "cannot read the vocabulary: {e}");
                return None;
            }
        };
        Vocabulary::from_bytes(&bytes)
            .inspect_err(|e| tracing::warn!(domain, version, "{e}"))
            .ok()
    }

    /// The latest version of a site (its label and manifest), as the warm pool holds it: a
    /// reader of many requests (an MCP server) reads the manifest once per version.
    pub async fn published(
        &self,
        organization: &str,
        domain: &str,
    ) -> Result<Published, SearchError> {
        let pool = self.pool(organization, domain).await?;
        let manifest = match &pool.manifest {
            Some(manifest) => manifest.clone(),
            None => Arc::new(SiteManifest::read(&self.operator, domain, &pool.version).await?),
        };
        Ok(Published { manifest, pool })
    }

    /// The name of a site whose index is loaded, and its version's vocabulary if it has one.
    pub fn loaded_site(&self, domain: &str) -> Option<(String, Option<Arc<Vocabulary>>)> {
        self.lock_pools()
            .get(domain)
            .map(|p| (p.site_name.clone(), p.vocabulary.clone()))
    }

    fn lock_pools(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<SitePool>>> {
        self.pools
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
