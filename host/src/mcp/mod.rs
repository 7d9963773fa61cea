//! Docs for agents: a Model Context Protocol server for each site, with the tools `search`,
//! `get_page` and `list_pages` and the site's pages as resources. One server (`server`) reads
//! the docs through a [`DocsLibrary`]: a published site in the API host (`published`) or an
//! exported bundle (the docs server and `quire mcp`). It is served over Streamable HTTP
//! (`http`) or stdio.

mod bundle;
mod direct;
mod http;
mod library;
mod published;
mod search_answer;
mod server;

pub use bundle::BundleSite;
pub use http::{HttpTransport, host_of};
pub use library::{
    DocsLibrary, LibraryError, LibraryQuery, PageListing, PageMarkdown, SearchHit, SiteIdentity,
};
pub use published::PublishedSite;
pub use server::DocsMcp;

use std::sync::Arc;

/// Why serving over stdio stopped.
#[derive(Debug, thiserror::Error)]
pub enum StdioError {
    #[error("the MCP session could not start: {0}")]
    Start(String),
    #[error("the MCP session failed: {0}")]
    Session(String),
}

/// Serves `library`'s site over stdin and stdout until the client closes them.
pub async fn serve_stdio(library: Arc<dyn DocsLibrary>) -> Result<(), StdioError> {
    use rmcp::ServiceExt;
    let running = DocsMcp::new(library)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| StdioError::Start(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| StdioError::Session(e.to_string()))?;
    Ok(())
}
