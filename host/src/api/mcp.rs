//! A site's MCP server over Streamable HTTP (`/mcp/{domain}`): the caller is admitted as the
//! other discovery endpoints admit theirs, then the request goes to the site's MCP server
//! (`crate::mcp`), which answers in JSON-RPC.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::response::Response;

use super::{ApiError, McpCaller, SharedState, with_rate_headers};
use crate::mcp::{LibraryError, PublishedSite};

/// Answers one MCP request for the site `domain`.
pub async fn serve(
    State(state): State<SharedState>,
    McpCaller {
        domain,
        organization,
        rate,
    }: McpCaller,
    request: Request,
) -> Result<Response, ApiError> {
    let site = PublishedSite::open(
        state.search.clone(),
        state.operator.clone(),
        &organization,
        &domain,
    )
    .await
    .map_err(|e| match e {
        LibraryError::Unavailable(message) => ApiError::not_found(message),
        other => ApiError::internal(other),
    })?;
    let response = state.mcp.serve(Arc::new(site), request).await;
    Ok(with_rate_headers(response, rate))
}
