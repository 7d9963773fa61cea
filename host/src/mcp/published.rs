//! A site as the API host holds it: searched by the site's retriever with the search
//! endpoint's filters, its pages listed from the latest version's manifest, and each page's
//! Markdown read from the version's files with the site's variables replaced, as the exported
//! bundle carries it.

use std::sync::Arc;

use opendal::Operator;
use quire_core::variables::Variables;

use super::library::{
    DocsLibrary, LibraryError, LibraryQuery, PageListing, PageMarkdown, SearchHit, SiteIdentity,
    close_matches,
};
use crate::plugins::SearchFilter;
use crate::search::{Published, SearchError, SearchRequest, SearchService};
use crate::sites::PageEntry;
use crate::storage::paths;

/// The latest published version of one site of one organization.
pub struct PublishedSite {
    identity: SiteIdentity,
    organization: String,
    published: Published,
    search: Arc<SearchService>,
    operator: Operator,
}

impl PublishedSite {
    /// The site `domain` of `organization` as it is published now; its pages' URLs are on
    /// `https://{domain}`, where the site is served.
    pub async fn open(
        search: Arc<SearchService>,
        operator: Operator,
        organization: &str,
        domain: &str,
    ) -> Result<Self, LibraryError> {
        let published = search
            .published(organization, domain)
            .await
            .map_err(library_error)?;
        Ok(Self {
            identity: SiteIdentity {
                name: published.manifest.name.clone(),
                domain: domain.to_string(),
                base_url: format!("https://{domain}"),
            },
            organization: organization.to_string(),
            published,
            search,
            operator,
        })
    }

    fn listing(&self, page: &PageEntry) -> PageListing {
        PageListing {
            path: page.path.clone(),
            title: page.title.clone(),
            url: self.identity.page_url(&page.path, ""),
            version: page.version.clone(),
            language: page.language.clone(),
        }
    }
}

#[async_trait::async_trait]
impl DocsLibrary for PublishedSite {
    fn site(&self) -> &SiteIdentity {
        &self.identity
    }

    async fn search(&self, query: LibraryQuery) -> Result<Vec<SearchHit>, LibraryError> {
        let hits = self
            .search
            .search_published(
                &self.published,
                SearchRequest {
                    organization: self.organization.clone(),
                    domain: self.identity.domain.clone(),
                    query: query.text,
                    limit: query.limit,
                    filter: SearchFilter {
                        version: query.version,
                        language: query.language,
                    },
                    boost_paths: Vec::new(),
                    reader: None,
                },
            )
            .await
            .map_err(library_error)?;
        Ok(hits
            .into_iter()
            .map(|hit| {
                let section = hit.section;
                SearchHit {
                    url: self.identity.page_url(&section.path, &section.anchor),
                    title: section.title,
                    heading_trail: section.heading_trail,
                    path: section.path,
                    text: section.text,
                    version: section.version,
                    language: section.language,
                }
            })
            .collect())
    }

    async fn pages(&self) -> Result<Vec<PageListing>, LibraryError> {
        Ok(self
            .published
            .manifest
            .pages
            .iter()
            .filter(|page| page.searchable)
            .map(|page| self.listing(page))
            .collect())
    }

    async fn page(&self, path: &str) -> Result<PageMarkdown, LibraryError> {
        let Some(entry) = self
            .published
            .manifest
            .pages
            .iter()
            .find(|p| p.path == path)
        else {
            return Err(LibraryError::NoSuchPage {
                asked: path.to_string(),
                close: close_matches(
                    path,
                    self.published
                        .manifest
                        .pages
                        .iter()
                        .filter(|p| p.searchable)
                        .map(|p| p.path.as_str()),
                ),
            });
        };
        let source = self
            .operator
            .read(&paths::version_file(
                &self.identity.domain,
                self.published.version(),
                &entry.file,
            ))
            .await
            .map_err(|e| LibraryError::Failed(format!("cannot read {}: {e}", entry.file)))?;
        let source = String::from_utf8_lossy(&source.to_vec()).into_owned();
        let variables = Variables::of(&self.published.manifest.settings());
        Ok(PageMarkdown {
            page: self.listing(entry),
            markdown: variables.substitute(&source).into_owned(),
        })
    }
}

fn library_error(error: SearchError) -> LibraryError {
    match error {
        SearchError::UnknownSite(_)
        | SearchError::NothingPublished(_)
        | SearchError::NoIndex(_)
        | SearchError::IndexDamaged { .. } => LibraryError::Unavailable(error.to_string()),
        other => LibraryError::Failed(other.to_string()),
    }
}
