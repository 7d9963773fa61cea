//! Who is calling, as extractors: a handler names the key it needs as an argument, and runs
//! only for a live key of that kind. [`DiscoveryCaller`] also counts the request against the
//! rate limits (per organization per hour and per client IP per hour), which every replica sharing the store shares.

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::StatusCode;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use super::{ApiError, SharedState, rate_headers};
use crate::auth::{Principal, authenticate};
use crate::limits::{AdmitError, RateStatus};
use crate::store::{KeyKind, Plan};

/// The caller of an admin endpoint: a live admin key.
pub struct AdminKey(pub Principal);

/// The caller of a static export endpoint: an admin key of an enterprise organization.
pub struct EnterpriseKey(pub Principal);

/// The caller of a discovery endpoint: a live assistant key, admitted by the rate limits.
pub struct DiscoveryCaller {
    pub principal: Principal,
    /// For the `X-RateLimit-*` headers of the answer.
    pub rate: RateStatus,
}

async fn principal(
    parts: &Parts,
    state: &SharedState,
    kind: KeyKind,
) -> Result<Principal, ApiError> {
    let header = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    Ok(authenticate(state.store.as_ref(), header, kind).await?)
}

impl FromRequestParts<SharedState> for AdminKey {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        Ok(Self(principal(parts, state, KeyKind::Admin).await?))
    }
}

impl FromRequestParts<SharedState> for EnterpriseKey {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        let principal = principal(parts, state, KeyKind::Admin).await?;
        if principal.organization.plan != Plan::Enterprise {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "plan_required",
                "Static export is not enabled for this organization",
            ));
        }
        Ok(Self(principal))
    }
}

impl FromRequestParts<SharedState> for DiscoveryCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        let principal = principal(parts, state, KeyKind::Assistant).await?;
        let rate = admit(parts, state, &principal.organization.name).await?;
        Ok(Self { principal, rate })
    }
}

/// The caller of a site's MCP endpoint (`/mcp/{domain}`): the site's assistant key, as search
/// takes, or no key for a site the operator made open (`mcp.open_sites`). Admitted by the same
/// rate limits as the other discovery endpoints.
pub struct McpCaller {
    /// The site the request is for (the path's `{domain}`).
    pub domain: String,
    /// The organization of the key, or of the open site.
    pub organization: String,
    pub rate: RateStatus,
}

impl FromRequestParts<SharedState> for McpCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        let axum::extract::Path(domain) =
            axum::extract::Path::<String>::from_request_parts(parts, state)
                .await
                .map_err(|e| ApiError::bad_request(e.body_text()))?;
        // Whether the key's organization has the site is the handler's to find, as search's
        // is: opening the published site checks it.
        let organization = if parts.headers.contains_key(AUTHORIZATION)
            || !state.config.mcp.open_sites.contains(&domain)
        {
            principal(parts, state, KeyKind::Assistant)
                .await?
                .organization
                .name
        } else {
            state
                .store
                .site(&domain)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("no site {domain:?}")))?
                .organization
        };
        let rate = admit(parts, state, &organization).await?;
        Ok(Self {
            domain,
            organization,
            rate,
        })
    }
}

/// Counts a request of `organization` from the caller's address against the rate limits,
/// refusing it (429 with `Retry-After`) over either.
async fn admit(
    parts: &Parts,
    state: &SharedState,
    organization: &str,
) -> Result<RateStatus, ApiError> {
    let peer = parts
        .extensions
        .get::<ConnectInfo<std::net::SocketAddr>>()
        .map(|ConnectInfo(peer)| peer.ip())
        .ok_or_else(|| ApiError::internal("the server runs without peer addresses"))?;
    let forwarded = parts
        .headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    let ip = state.limits.client_ip(peer, forwarded);
    match state.limits.admit(organization, ip).await {
        Ok(rate) => Ok(rate),
        Err(AdmitError::Store(e)) => Err(e.into()),
        Err(AdmitError::Limited(refused)) => {
            crate::metrics::get()
                .rate_limit_refusals
                .get_or_create(&crate::metrics::ScopeLabels {
                    scope: if refused.scope.starts_with("organization") {
                        "organization".into()
                    } else {
                        "ip".into()
                    },
                })
                .inc();
            let mut error = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!(
                    "rate limit exceeded for this {}: {} requests; try again in {} seconds",
                    refused.scope, refused.status.limit, refused.status.reset_after
                ),
            );
            error.headers = rate_headers(refused.status);
            error
                .headers
                .push(("retry-after", refused.status.reset_after.to_string()));
            Err(error)
        }
    }
}
