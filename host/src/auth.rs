//! API keys: generation, hashing at rest, and deciding what a presented key may do.
//!
//! Keys are 160 bits of randomness, so a plain SHA-256 is the right hash (a slow password hash
//! protects guessable secrets; these are not). A key is found by its hash: the lookup compares
//! hashes, never the key, so it leaks nothing an attacker can use.

use rand::Rng;
use rand::distr::Alphanumeric;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::store::prelude::*;
use crate::store::{ApiKeyRecord, KeyKind, Organization, StoreError};

const ADMIN_PREFIX: &str = "svc_";
const ASSISTANT_PREFIX: &str = "svc_dsc_";
const RANDOM_CHARS: usize = 32;

/// Why a request's key was refused.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("missing API key: send the header Authorization: Bearer <{0}>")]
    Missing(&'static str),
    #[error("invalid API key")]
    Invalid,
    #[error("this API key has been revoked")]
    Revoked,
    #[error("this endpoint needs {wanted}; the key sent is {got}")]
    WrongKind {
        wanted: &'static str,
        got: &'static str,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Who a request acts for.
#[derive(Debug, Clone)]
pub struct Principal {
    pub organization: Organization,
    pub key_id: String,
}

/// A freshly made key: the secret (shown once) and its stored record.
pub struct NewKey {
    pub secret: String,
    pub record: ApiKeyRecord,
}

/// Makes a key of `kind` for `organization` and stores its hash.
pub async fn create_key(
    store: &dyn Store,
    organization: &str,
    kind: KeyKind,
) -> Result<NewKey, StoreError> {
    let random: String = rand::rng()
        .sample_iter(&Alphanumeric)
        .take(RANDOM_CHARS)
        .map(char::from)
        .collect();
    let prefix = match kind {
        KeyKind::Admin => ADMIN_PREFIX,
        KeyKind::Assistant => ASSISTANT_PREFIX,
    };
    let secret = format!("{prefix}{random}");
    let hash = hash_key(&secret);
    let record = ApiKeyRecord {
        id: format!("key_{}", &hash[..12]),
        organization: organization.to_string(),
        kind,
        created_at: OffsetDateTime::now_utc(),
        revoked_at: None,
    };
    store.add_key(&hash, &record).await?;
    Ok(NewKey { secret, record })
}

/// The hex SHA-256 under which a key is stored.
pub fn hash_key(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Resolves an `Authorization` header value to the organization, if the key is valid, live and
/// of the `wanted` kind.
pub async fn authenticate(
    store: &dyn Store,
    header: Option<&str>,
    wanted: KeyKind,
) -> Result<Principal, AuthError> {
    let token = header
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or(AuthError::Missing(kind_placeholder(wanted)))?;
    let (record, organization) = store
        .key_with_organization(&hash_key(token))
        .await?
        .ok_or(AuthError::Invalid)?;
    if record.revoked_at.is_some() {
        return Err(AuthError::Revoked);
    }
    if record.kind != wanted {
        return Err(AuthError::WrongKind {
            wanted: kind_name(wanted),
            got: kind_name(record.kind),
        });
    }
    Ok(Principal {
        organization,
        key_id: record.id,
    })
}

fn kind_name(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Admin => "an admin API key",
        KeyKind::Assistant => "an assistant API key",
    }
}

fn kind_placeholder(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Admin => "ADMIN_API_KEY",
        KeyKind::Assistant => "ASSISTANT_API_KEY",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Plan;

    async fn store() -> (tempfile::TempDir, crate::store::RedbStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::RedbStore::open(dir.path()).unwrap();
        store
            .create_organization("acme", Plan::Enterprise)
            .await
            .unwrap();
        (dir, store)
    }

    #[tokio::test]
    async fn keys_have_their_prefixes_and_are_stored_hashed() {
        let (_dir, store) = store().await;
        let admin = create_key(&store, "acme", KeyKind::Admin).await.unwrap();
        let assistant = create_key(&store, "acme", KeyKind::Assistant)
            .await
            .unwrap();
        assert!(admin.secret.starts_with("svc_") && !admin.secret.starts_with("svc_dsc_"));
        assert!(assistant.secret.starts_with("svc_dsc_"));
        assert!(store.key_by_hash(&admin.secret).await.unwrap().is_none());
        assert!(
            store
                .key_by_hash(&hash_key(&admin.secret))
                .await
                .unwrap()
                .is_some()
        );
    }

    #[tokio::test]
    async fn the_stored_kind_decides_not_the_prefix() {
        let (_dir, store) = store().await;
        let assistant = create_key(&store, "acme", KeyKind::Assistant)
            .await
            .unwrap();
        let header = format!("Bearer {}", assistant.secret);
        assert!(matches!(
            authenticate(&store, Some(&header), KeyKind::Admin).await,
            Err(AuthError::WrongKind { .. })
        ));
        assert!(
            authenticate(&store, Some(&header), KeyKind::Assistant)
                .await
                .is_ok()
        );
    }

    #[tokio::test]
    async fn revoked_missing_and_unknown_keys_are_refused() {
        let (_dir, store) = store().await;
        let admin = create_key(&store, "acme", KeyKind::Admin).await.unwrap();
        let header = format!("Bearer {}", admin.secret);
        assert!(
            authenticate(&store, Some(&header), KeyKind::Admin)
                .await
                .is_ok()
        );
        store.revoke_key(None, &admin.record.id).await.unwrap();
        assert!(matches!(
            authenticate(&store, Some(&header), KeyKind::Admin).await,
            Err(AuthError::Revoked)
        ));
        assert!(matches!(
            authenticate(&store, None, KeyKind::Admin).await,
            Err(AuthError::Missing(_))
        ));
        assert!(matches!(
            authenticate(&store, Some("Bearer svc_nope"), KeyKind::Admin).await,
            Err(AuthError::Invalid)
        ));
    }
}
