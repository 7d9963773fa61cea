//! Expiring download links. Services that presign (S3 and the like) sign their own; for the
//! local filesystem the host signs `expires` and the object path with HMAC-SHA256 and checks
//! both before it streams the file.

use std::time::Duration;

use hmac::{Hmac, Mac};
use opendal::Operator;
use sha2::Sha256;
use time::OffsetDateTime;

type HmacSha256 = Hmac<Sha256>;

/// The route under which the host serves self-signed downloads of `bundles/{file}`.
pub const DOWNLOAD_ROUTE: &str = "/v1/downloads";

/// A link and when it stops working.
#[derive(Debug, Clone)]
pub struct SignedLink {
    pub url: String,
    pub expires_at: OffsetDateTime,
}

/// Why a self-signed link was refused.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LinkError {
    #[error("this download link expired at {0}; ask the API for a new one")]
    Expired(String),
    #[error("this download link is invalid (its signature does not match)")]
    BadSignature,
    #[error("this download link is malformed: {0}")]
    Malformed(&'static str),
    #[error("cannot sign a download link: {0}")]
    Presign(String),
}

/// Signs and checks links to objects in storage.
#[derive(Clone)]
pub struct LinkSigner {
    secret: Vec<u8>,
    public_url: String,
}

impl LinkSigner {
    pub fn new(secret: Vec<u8>, public_url: String) -> Self {
        Self { secret, public_url }
    }

    /// A link to `path` valid for `lifetime`: presigned by the storage service when it can,
    /// otherwise signed by this host.
    pub async fn link(
        &self,
        operator: &Operator,
        path: &str,
        lifetime: Duration,
    ) -> Result<SignedLink, LinkError> {
        let now = OffsetDateTime::now_utc();
        let expires_at = now + lifetime;
        if operator.info().capability().presign_read {
            let request = operator
                .presign_read(path, lifetime)
                .await
                .map_err(|e| LinkError::Presign(e.to_string()))?;
            return Ok(SignedLink {
                url: request.uri().to_string(),
                expires_at,
            });
        }
        let expires = expires_at.unix_timestamp();
        let signature = self.signature(path, expires);
        let file = super::paths::bundle_file_name(path);
        Ok(SignedLink {
            url: format!(
                "{}{DOWNLOAD_ROUTE}/{file}?expires={expires}&signature={signature}",
                self.public_url
            ),
            expires_at,
        })
    }

    /// Checks a self-signed link's `expires` and `signature` for `path`.
    pub fn verify(
        &self,
        path: &str,
        expires: Option<&str>,
        signature: Option<&str>,
    ) -> Result<(), LinkError> {
        let expires: i64 = expires
            .ok_or(LinkError::Malformed("the expires parameter is missing"))?
            .parse()
            .map_err(|_| LinkError::Malformed("the expires parameter is not a number"))?;
        let signature = hex::decode(
            signature.ok_or(LinkError::Malformed("the signature parameter is missing"))?,
        )
        .map_err(|_| LinkError::BadSignature)?;
        // verify_slice compares in constant time.
        self.mac(path, expires)
            .verify_slice(&signature)
            .map_err(|_| LinkError::BadSignature)?;
        if OffsetDateTime::now_utc().unix_timestamp() >= expires {
            let when = OffsetDateTime::from_unix_timestamp(expires)
                .ok()
                .and_then(|t| {
                    t.format(&time::format_description::well_known::Rfc3339)
                        .ok()
                })
                .unwrap_or_else(|| expires.to_string());
            return Err(LinkError::Expired(when));
        }
        Ok(())
    }

    fn signature(&self, path: &str, expires: i64) -> String {
        hex::encode(self.mac(path, expires).finalize().into_bytes())
    }

    fn mac(&self, path: &str, expires: i64) -> HmacSha256 {
        // HMAC accepts keys of any length.
        let mut mac = HmacSha256::new_from_slice(&self.secret)
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        mac.update(b"GET\n");
        mac.update(path.as_bytes());
        mac.update(b"\n");
        mac.update(expires.to_string().as_bytes());
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer() -> LinkSigner {
        LinkSigner::new(b"secret".to_vec(), "http://127.0.0.1:1".into())
    }

    fn query(url: &str, name: &str) -> Option<String> {
        url.split_once('?')?
            .1
            .split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")).map(String::from))
    }

    #[tokio::test]
    async fn a_fresh_link_verifies_and_a_tampered_one_does_not() {
        let op = Operator::new(opendal::services::Memory::default()).unwrap();
        let link = signer()
            .link(&op, "bundles/a.tar.gz", Duration::from_secs(60))
            .await
            .unwrap();
        let (e, s) = (query(&link.url, "expires"), query(&link.url, "signature"));
        assert_eq!(
            signer().verify("bundles/a.tar.gz", e.as_deref(), s.as_deref()),
            Ok(())
        );
        assert_eq!(
            signer().verify("bundles/b.tar.gz", e.as_deref(), s.as_deref()),
            Err(LinkError::BadSignature)
        );
        let later = (e.unwrap().parse::<i64>().unwrap() + 1).to_string();
        assert_eq!(
            signer().verify("bundles/a.tar.gz", Some(&later), s.as_deref()),
            Err(LinkError::BadSignature)
        );
        let other = LinkSigner::new(b"other".to_vec(), String::new());
        assert!(
            other
                .verify(
                    "bundles/a.tar.gz",
                    query(&link.url, "expires").as_deref(),
                    s.as_deref()
                )
                .is_err()
        );
    }

    #[test]
    fn an_expired_link_is_refused_as_expired() {
        let past = OffsetDateTime::now_utc().unix_timestamp() - 5;
        let sig = signer().signature("p", past);
        assert!(matches!(
            signer().verify("p", Some(&past.to_string()), Some(&sig)),
            Err(LinkError::Expired(_))
        ));
        assert!(matches!(
            signer().verify("p", None, Some(&sig)),
            Err(LinkError::Malformed(_))
        ));
    }
}
