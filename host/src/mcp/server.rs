//! The MCP server of one site: the tools `search`, `get_page` and `list_pages`, and each page
//! as a resource, answered from a [`DocsLibrary`]. It keeps no state between requests, so the
//! same handler serves the Streamable HTTP transport statelessly and stdio alike.

use std::sync::Arc;

use rmcp::handler::server::common::schema_for_output;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::library::{
    DocsLibrary, LibraryError, LibraryQuery, PageListing, SearchHit, close_matches, page_key_of,
};
use super::search_answer::ResultsMarkdown;

/// Search results a call may ask for, and how many it gets by default (as the search endpoint).
const MAX_SEARCH_RESULTS: u32 = 50;
const DEFAULT_SEARCH_RESULTS: u32 = 10;
/// Pages per `list_pages` or `resources/list` page.
const MAX_LISTED: u32 = 500;
const DEFAULT_LISTED: u32 = 100;
/// The scheme of the pages' resource URIs: `docs://{domain}/{path}`.
const RESOURCE_SCHEME: &str = "docs://";

/// Arguments of `search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchArguments {
    /// What to search for, in words a reader would use.
    pub query: String,
    /// Only pages of this documentation version (a version the site's navigation names).
    #[serde(default)]
    pub version: Option<String>,
    /// Only pages in this language (a language code the site's navigation names).
    #[serde(default)]
    pub language: Option<String>,
    /// Results to return, 1 to 50 (default 10).
    #[serde(default)]
    pub page_size: Option<u32>,
}

/// What `search` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchResults {
    /// Matching sections, best first.
    pub results: Vec<SearchHit>,
}

/// Arguments of `get_page`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct PageArguments {
    /// The page's path (`guides/webhooks`) or its URL on the docs site, as search results and
    /// `list_pages` give them.
    pub path: String,
}

/// Arguments of `list_pages`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListArguments {
    /// Where to go on from: the `nextCursor` of the previous call.
    #[serde(default)]
    pub cursor: Option<String>,
    /// Pages to return, 1 to 500 (default 100).
    #[serde(default)]
    pub page_size: Option<u32>,
    /// Only pages of this documentation version.
    #[serde(default)]
    pub version: Option<String>,
    /// Only pages in this language.
    #[serde(default)]
    pub language: Option<String>,
}

/// What `list_pages` returns.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageList {
    /// Pages in navigation order.
    pub pages: Vec<PageListing>,
    /// Pass this as `cursor` for the pages after these; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// The MCP server of one site.
#[derive(Clone)]
pub struct DocsMcp {
    library: Arc<dyn DocsLibrary>,
    tool_router: Arc<ToolRouter<Self>>,
}

/// The tools and their schemas, made once: a stateless server makes a `DocsMcp` per request.
static TOOLS: std::sync::OnceLock<Arc<ToolRouter<DocsMcp>>> = std::sync::OnceLock::new();

#[tool_router]
impl DocsMcp {
    pub fn new(library: Arc<dyn DocsLibrary>) -> Self {
        Self {
            library,
            tool_router: TOOLS.get_or_init(|| Arc::new(Self::tool_router())).clone(),
        }
    }

    /// Search the documentation: the sections that best match a query, each with its page's
    /// title, heading trail, URL and text.
    #[tool(
        name = "search",
        annotations(
            title = "Search the docs",
            read_only_hint = true,
            open_world_hint = false
        ),
        output_schema = schema_for_output::<SearchResults>()
    )]
    async fn search(
        &self,
        Parameters(arguments): Parameters<SearchArguments>,
    ) -> Result<CallToolResult, String> {
        let results = search_docs(self.library.as_ref(), arguments).await?;
        let text = ResultsMarkdown(&results.results).to_string();
        structured(&results, text)
    }

    /// Read one page of the documentation as Markdown, by its path or URL.
    #[tool(
        name = "get_page",
        annotations(title = "Read a page", read_only_hint = true, open_world_hint = false),
        output_schema = schema_for_output::<super::library::PageMarkdown>()
    )]
    async fn get_page(
        &self,
        Parameters(arguments): Parameters<PageArguments>,
    ) -> Result<CallToolResult, String> {
        let page = self.page(&arguments.path).await?;
        let markdown = page.markdown.clone();
        structured(&page, markdown)
    }

    /// List the documentation's pages in navigation order, a page of the list at a time.
    #[tool(
        name = "list_pages",
        annotations(
            title = "List the pages",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn list_pages(
        &self,
        Parameters(arguments): Parameters<ListArguments>,
    ) -> Result<Json<PageList>, String> {
        let size = match arguments.page_size {
            None => DEFAULT_LISTED,
            Some(n) if (1..=MAX_LISTED).contains(&n) => n,
            Some(n) => return Err(format!("pageSize must be from 1 to {MAX_LISTED}; got {n}")),
        };
        let pages: Vec<PageListing> = self
            .library
            .pages()
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|p| arguments.version.is_none() || p.version == arguments.version)
            .filter(|p| arguments.language.is_none() || p.language == arguments.language)
            .collect();
        let (pages, next_cursor) = page_of(pages, arguments.cursor.as_deref(), size)?;
        Ok(Json(PageList { pages, next_cursor }))
    }
}

/// What `search` answers to `arguments` (its text content is [`ResultsMarkdown`] of them). The
/// SDK's tool and the direct path of the HTTP transport both answer through here.
pub(super) async fn search_docs(
    library: &dyn DocsLibrary,
    arguments: SearchArguments,
) -> Result<SearchResults, String> {
    let query = arguments.query.trim();
    if query.is_empty() {
        return Err("query must not be empty".into());
    }
    quire_answer::check_question_length("query", query)?;
    let limit = match arguments.page_size {
        None => DEFAULT_SEARCH_RESULTS,
        Some(n) if (1..=MAX_SEARCH_RESULTS).contains(&n) => n,
        Some(n) => {
            return Err(format!(
                "pageSize must be from 1 to {MAX_SEARCH_RESULTS}; got {n}"
            ));
        }
    };
    let results = library
        .search(LibraryQuery {
            text: query.to_string(),
            version: arguments.version,
            language: arguments.language,
            limit,
        })
        .await
        .map_err(|e| e.to_string())?;
    Ok(SearchResults { results })
}

/// A tool's result: `value` as its structured content, and `text` as its text content, which
/// is what an agent reads. The text is Markdown rather than the structured content's JSON again
/// (which the specification suggests for older clients): as readable to a model, and not the
/// same bytes escaped twice.
fn structured(value: &impl Serialize, text: String) -> Result<CallToolResult, String> {
    let value = serde_json::to_value(value).map_err(|e| e.to_string())?;
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    Ok(result)
}

/// The site's name as a name of its docs: "Acme docs", but "Docs by Acme" as it is.
fn named_docs(site: &str, noun: &str) -> String {
    let lower = site.to_lowercase();
    if lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| word == "docs" || word == "documentation")
    {
        site.to_string()
    } else {
        format!("{site} {noun}")
    }
}

impl DocsMcp {
    /// The page `asked` names, or a message naming the pages it may have meant.
    async fn page(&self, asked: &str) -> Result<super::library::PageMarkdown, String> {
        let key = page_key_of(asked);
        match self.library.page(&key).await {
            Ok(page) => Ok(page),
            Err(LibraryError::NoSuchPage { close, .. }) if !close.is_empty() => Err(format!(
                "no page {asked:?} on this site; the closest are: {}",
                close.join(", ")
            )),
            Err(LibraryError::NoSuchPage { .. }) => {
                let listed = self.library.pages().await.map_err(|e| e.to_string())?;
                let close = close_matches(&key, listed.iter().map(|p| p.path.as_str()));
                if close.is_empty() {
                    Err(format!(
                        "no page {asked:?} on this site; list_pages lists them"
                    ))
                } else {
                    Err(format!(
                        "no page {asked:?} on this site; the closest are: {}",
                        close.join(", ")
                    ))
                }
            }
            Err(e) => Err(e.to_string()),
        }
    }

    fn resource_uri(&self, path: &str) -> String {
        format!("{RESOURCE_SCHEME}{}/{path}", self.library.site().domain)
    }
}

/// The items from `cursor` on (an offset the previous page handed out), at most `size`, and the
/// cursor of the rest.
fn page_of<T>(
    items: Vec<T>,
    cursor: Option<&str>,
    size: u32,
) -> Result<(Vec<T>, Option<String>), String> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|&offset| offset <= items.len())
            .ok_or_else(|| format!("cursor {cursor:?} is not one this server handed out"))?,
    };
    let end = (start + size as usize).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((
        items.into_iter().skip(start).take(end - start).collect(),
        next,
    ))
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DocsMcp {
    fn get_info(&self) -> ServerConfig {
        let site = self.library.site();
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(
            Implementation::new(named_docs(&site.name, "docs"), env!("CARGO_PKG_VERSION"))
                .with_title(named_docs(&site.name, "documentation"))
                .with_website_url(site.base_url.clone()),
        )
        .with_instructions(format!(
            "The documentation of {} ({}). Call `search` with what you want to know, then \
             `get_page` with a result's path for the whole page; `list_pages` lists every page \
             in the order the site's navigation shows them.",
            site.name, site.base_url
        ))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let pages = self.library.pages().await.map_err(internal)?;
        let cursor = request.and_then(|r| r.cursor);
        let (pages, next_cursor) = page_of(pages, cursor.as_deref(), MAX_LISTED)
            .map_err(|message| ErrorData::invalid_params(message, None))?;
        let resources = pages
            .into_iter()
            .map(|page| {
                Resource::new(self.resource_uri(&page.path), page.path.clone())
                    .with_title(page.title)
                    .with_description(format!("The page {} as Markdown", page.url))
                    .with_mime_type("text/markdown")
            })
            .collect();
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = next_cursor;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let prefix = format!("{RESOURCE_SCHEME}{}/", self.library.site().domain);
        let Some(path) = request.uri.strip_prefix(&prefix) else {
            return Err(ErrorData::resource_not_found(
                format!(
                    "{:?} is not a page of this site (its pages are {prefix}PATH)",
                    request.uri
                ),
                None,
            ));
        };
        let page = self
            .page(path)
            .await
            .map_err(|message| ErrorData::resource_not_found(message, None))?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(page.markdown, request.uri).with_mime_type("text/markdown"),
        ])
        .into())
    }
}

fn internal(error: LibraryError) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

#[cfg(test)]
mod tests {
    use super::{named_docs, page_of};

    #[test]
    fn a_site_is_named_as_docs_once() {
        assert_eq!(named_docs("Acme", "docs"), "Acme docs");
        assert_eq!(named_docs("Docs by LangChain", "docs"), "Docs by LangChain");
        assert_eq!(
            named_docs("Acme Documentation", "documentation"),
            "Acme Documentation"
        );
        assert_eq!(named_docs("Dockside", "docs"), "Dockside docs");
    }

    #[test]
    fn cursors_walk_the_list_and_end() {
        let items: Vec<u32> = (0..5).collect();
        let (first, next) = page_of(items.clone(), None, 2).unwrap();
        assert_eq!((first, next.as_deref()), (vec![0, 1], Some("2")));
        let (last, next) = page_of(items.clone(), Some("4"), 2).unwrap();
        assert_eq!((last, next), (vec![4], None));
        assert!(page_of(items.clone(), Some("6"), 2).is_err());
        assert!(page_of(items, Some("x"), 2).is_err());
    }
}
