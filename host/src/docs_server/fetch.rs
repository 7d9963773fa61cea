//! Downloading a bundle: streamed to disk with a size limit, a timeout per attempt, and retries
//! with exponential backoff for what may pass (network errors, 5xx). An expired link is told
//! apart from other failures, before any request when the link itself says when it expires.

use std::path::Path;
use std::time::Duration;

use futures::StreamExt;
use tokio::io::AsyncWriteExt;

/// How a download may go.
#[derive(Debug, Clone)]
pub struct FetchLimits {
    /// Largest bundle accepted, in bytes.
    pub max_bytes: u64,
    /// Time allowed for one attempt, from request to last byte.
    pub timeout: Duration,
    /// Attempts in all (at least one).
    pub attempts: u32,
    /// Wait before the second attempt; doubled for each one after.
    pub backoff: Duration,
}

impl Default for FetchLimits {
    fn default() -> Self {
        Self {
            max_bytes: 2 << 30,
            timeout: Duration::from_secs(300),
            attempts: 4,
            backoff: Duration::from_millis(500),
        }
    }
}

/// Why a bundle could not be downloaded.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(
        "the bundle link has expired{detail}: generate a new one (POST /v1/static-export/jobs/JOB_ID/bundle) and give it to the docs server"
    )]
    Expired { detail: String },
    #[error("the bundle is larger than the limit of {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("the bundle server answered {status}: {body}")]
    Refused { status: u16, body: String },
    #[error("cannot download the bundle after {attempts} attempts: {last}")]
    Unreachable { attempts: u32, last: String },
    #[error("the bundle URL is not valid: {0}")]
    BadUrl(String),
    #[error("cannot write the download: {0}")]
    Io(#[from] std::io::Error),
}

/// Downloads `url` into `dest`, returning its size.
pub async fn download(url: &str, dest: &Path, limits: &FetchLimits) -> Result<u64, FetchError> {
    let parsed = reqwest::Url::parse(url).map_err(|e| FetchError::BadUrl(e.to_string()))?;
    if let Some(expired_at) = link_expiry(&parsed).filter(|&t| t <= now()) {
        return Err(FetchError::Expired {
            detail: format!(" (at {})", format_unix(expired_at)),
        });
    }
    let client = crate::http_client::builder()
        .timeout(limits.timeout)
        .build()
        .map_err(|e| FetchError::BadUrl(e.to_string()))?;
    let attempts = limits.attempts.max(1);
    let mut wait = limits.backoff;
    let mut last = String::new();
    for attempt in 1..=attempts {
        match attempt_once(&client, parsed.clone(), dest, limits.max_bytes).await {
            Ok(size) => return Ok(size),
            Err(Attempt::Final(e)) => return Err(e),
            Err(Attempt::Retry(message)) => {
                tracing::warn!(attempt, attempts, error = %message, "bundle download failed");
                last = message;
            }
        }
        if attempt < attempts {
            tokio::time::sleep(wait).await;
            wait *= 2;
        }
    }
    Err(FetchError::Unreachable { attempts, last })
}

enum Attempt {
    Final(FetchError),
    Retry(String),
}

async fn attempt_once(
    client: &reqwest::Client,
    url: reqwest::Url,
    dest: &Path,
    max_bytes: u64,
) -> Result<u64, Attempt> {
    let response = client
        .get(url)
        .send()
        .await
        .map_err(|e| Attempt::Retry(e.to_string()))?;
    let status = response.status();
    if !status.is_success() {
        let body = response.text().await.unwrap_or_default();
        let body: String = body.chars().take(300).collect();
        let lower = body.to_lowercase();
        if matches!(status.as_u16(), 400 | 403)
            && (lower.contains("expired") || lower.contains("too old"))
        {
            return Err(Attempt::Final(FetchError::Expired {
                detail: String::new(),
            }));
        }
        if status.is_server_error() || status.as_u16() == 429 {
            return Err(Attempt::Retry(format!("{status}: {body}")));
        }
        return Err(Attempt::Final(FetchError::Refused {
            status: status.as_u16(),
            body,
        }));
    }
    if response.content_length().is_some_and(|n| n > max_bytes) {
        return Err(Attempt::Final(FetchError::TooLarge { limit: max_bytes }));
    }
    let mut file = tokio::fs::File::create(dest)
        .await
        .map_err(|e| Attempt::Final(e.into()))?;
    let mut size = 0u64;
    let mut body = response.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| Attempt::Retry(e.to_string()))?;
        size += chunk.len() as u64;
        if size > max_bytes {
            return Err(Attempt::Final(FetchError::TooLarge { limit: max_bytes }));
        }
        file.write_all(&chunk)
            .await
            .map_err(|e| Attempt::Final(e.into()))?;
    }
    file.flush().await.map_err(|e| Attempt::Final(e.into()))?;
    Ok(size)
}

/// When a signed link stops working, if it says: Quire's own links carry `expires` (Unix
/// seconds); S3 presigned links carry `X-Amz-Date` and `X-Amz-Expires`.
fn link_expiry(url: &reqwest::Url) -> Option<i64> {
    let query: std::collections::HashMap<_, _> = url.query_pairs().collect();
    if let Some(expires) = query.get("expires").and_then(|v| v.parse().ok()) {
        return Some(expires);
    }
    let date = query.get("X-Amz-Date")?;
    let seconds: i64 = query.get("X-Amz-Expires")?.parse().ok()?;
    let format = time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
    let signed = time::PrimitiveDateTime::parse(date, &format)
        .ok()?
        .assume_utc();
    Some(signed.unix_timestamp() + seconds)
}

fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

fn format_unix(seconds: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(seconds)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| seconds.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_say_when_they_expire() {
        let own =
            reqwest::Url::parse("http://h/v1/downloads/a.tar.gz?expires=100&signature=x").unwrap();
        assert_eq!(link_expiry(&own), Some(100));
        let s3 = reqwest::Url::parse(
            "http://h/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Expires=60&X-Amz-Signature=s",
        )
        .unwrap();
        assert_eq!(link_expiry(&s3), Some(1_767_225_600 + 60));
        assert_eq!(
            link_expiry(&reqwest::Url::parse("http://h/plain.tar.gz").unwrap()),
            None
        );
    }
}
