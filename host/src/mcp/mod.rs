//! Docs for agents: a Model Context Protocol server for each site, with the tools `search`,
//! `get_page` and `list_pages` and the site's pages as resources. One server (`server`) reads
//! the docs through a [`DocsLibrary`]: a published site in the API host (`published`) or an
//! exported bundle (the docs server and `quire mcp`). It is served over Streamable HTTP
//! (`http`) or stdio.

mod http;
mod library;
mod published;
mod server;

pub use http::{HttpTransport, host_of};
pub use library::{
    DocsLibrary, LibraryError, LibraryQuery, PageListing, PageMarkdown, SearchHit, SiteIdentity,
};
pub use published::PublishedSite;
pub use server::DocsMcp;
