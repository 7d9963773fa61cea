//! Rate limits on the discovery endpoints: requests per organization per hour and per
//! client IP per day, in fixed windows. The counts live in the store: in the embedded store's
//! memory for one server, in PostgreSQL for replicas, which then share every limit.
//!
//! The client IP is the socket's peer address. Behind a reverse proxy, list the proxy in
//! `limits.trusted_proxies`: then, and only then, the address the proxy appended to
//! `X-Forwarded-For` is used (the rightmost entry that is not itself a trusted proxy). A client
//! cannot forge its way around the limit, because entries it wrote itself stand to the left.

use std::net::IpAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::config::LimitsConfig;
use crate::store::{BothTaken, RateWindow, SharedStore, StoreError};

const HOUR: u64 = 3600;
const DAY: u64 = 86_400;

/// The state of the tighter of the two limits, for the `X-RateLimit-*` headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateStatus {
    pub limit: u64,
    pub remaining: u64,
    /// Seconds until the window resets.
    pub reset_after: u64,
}

/// A refused request: which limit, and when to try again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimited {
    pub status: RateStatus,
    pub scope: &'static str,
}

/// One limit: how many requests in how many seconds, counted under `scope` in the store.
struct Window {
    scope: &'static str,
    limit: u64,
    seconds: u64,
}

impl Window {
    /// The store's window for `key` at time `now`.
    fn at<'a>(&self, key: &'a str, now: u64) -> RateWindow<'a> {
        RateWindow {
            scope: self.scope,
            key,
            window: now / self.seconds,
        }
    }

    /// The status once `used` requests are counted in the window holding `now`.
    fn status(&self, used: u64, now: u64) -> RateStatus {
        let window = now / self.seconds;
        RateStatus {
            limit: self.limit,
            remaining: self.limit.saturating_sub(used),
            reset_after: (window + 1) * self.seconds - now,
        }
    }
}

/// The two limits every discovery request is under: its organization's per hour, and its
/// client IP's per hour.
pub struct RateLimiter {
    store: SharedStore,
    per_organization: Window,
    per_ip: Window,
    trusted_proxies: Vec<IpAddr>,
}

/// Why a request was not admitted.
#[derive(Debug, thiserror::Error)]
pub enum AdmitError {
    #[error("rate limited")]
    Limited(RateLimited),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl RateLimiter {
    pub fn new(config: &LimitsConfig, store: SharedStore) -> Self {
        Self {
            store,
            per_organization: Window {
                scope: "organization-hour",
                limit: config.organization_per_hour,
                seconds: HOUR,
            },
            per_ip: Window {
                scope: "ip-day",
                limit: config.ip_per_day,
                seconds: DAY,
            },
            trusted_proxies: config.trusted_proxies.clone(),
        }
    }

    /// Counts a request of `organization` from `ip`, or refuses it without counting.
    pub async fn admit(&self, organization: &str, ip: IpAddr) -> Result<RateStatus, AdmitError> {
        self.admit_at(organization, ip, now()).await
    }

    async fn admit_at(
        &self,
        organization: &str,
        ip: IpAddr,
        now: u64,
    ) -> Result<RateStatus, AdmitError> {
        let ip_key = ip.to_string();
        let (org, by_ip) = (&self.per_organization, &self.per_ip);
        let taken = self
            .store
            .take_both(
                (org.at(organization, now), org.limit),
                (by_ip.at(&ip_key, now), by_ip.limit),
            )
            .await?;
        let refused = |status, scope| AdmitError::Limited(RateLimited { status, scope });
        match taken {
            BothTaken::Counted(org_used, ip_used) => {
                let (org, by_ip) = (org.status(org_used, now), by_ip.status(ip_used, now));
                Ok(if by_ip.remaining < org.remaining {
                    by_ip
                } else {
                    org
                })
            }
            BothTaken::RefusedByFirst(used) => {
                Err(refused(org.status(used, now), "organization (per hour)"))
            }
            BothTaken::RefusedBySecond(used) => {
                Err(refused(by_ip.status(used, now), "IP address (per day)"))
            }
        }
    }

    /// The client's address: the peer, or what a trusted proxy says in `X-Forwarded-For`.
    pub fn client_ip(&self, peer: IpAddr, forwarded_for: Option<&str>) -> IpAddr {
        if !self.trusted_proxies.contains(&peer) {
            return peer;
        }
        forwarded_for
            .into_iter()
            .flat_map(|h| h.rsplit(','))
            .filter_map(|entry| entry.trim().parse::<IpAddr>().ok())
            .find(|ip| !self.trusted_proxies.contains(ip))
            .unwrap_or(peer)
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A limiter on a fresh embedded store (whose counts live in memory).
    fn limiter(org: u64, ip: u64, proxies: &[&str]) -> (tempfile::TempDir, RateLimiter) {
        let dir = tempfile::tempdir().unwrap();
        let store = std::sync::Arc::new(crate::store::RedbStore::open(dir.path()).unwrap());
        let config = LimitsConfig {
            organization_per_hour: org,
            ip_per_day: ip,
            trusted_proxies: proxies.iter().map(|p| p.parse().unwrap()).collect(),
        };
        (dir, RateLimiter::new(&config, store))
    }

    fn refused(result: Result<RateStatus, AdmitError>) -> RateLimited {
        match result {
            Err(AdmitError::Limited(refused)) => refused,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    const A: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1));
    const B: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2));

    #[tokio::test]
    async fn the_organization_limit_counts_per_hour() {
        let (_dir, l) = limiter(2, 100, &[]);
        assert_eq!(l.admit_at("acme", A, 7200).await.unwrap().remaining, 1);
        assert_eq!(l.admit_at("acme", B, 7201).await.unwrap().remaining, 0);
        let refused = refused(l.admit_at("acme", A, 7202).await);
        assert_eq!(refused.status.reset_after, 3598);
        assert!(l.admit_at("other", A, 7202).await.is_ok());
        assert!(l.admit_at("acme", A, 10_800).await.is_ok(), "a new hour");
    }

    #[tokio::test]
    async fn the_ip_limit_counts_per_day_and_refusals_are_not_counted() {
        let (_dir, l) = limiter(100, 1, &[]);
        assert!(l.admit_at("acme", A, 0).await.is_ok());
        let refused = refused(l.admit_at("acme", A, 10).await);
        assert_eq!(refused.scope, "IP address (per day)");
        assert!(l.admit_at("acme", B, 10).await.is_ok());
        // The refused request gave back its organization count: 2 used of 100, not 3.
        assert_eq!(
            l.admit_at("acme", IpAddr::from([10, 0, 0, 3]), 10)
                .await
                .unwrap()
                .limit,
            1
        );
        assert!(l.admit_at("acme", A, DAY).await.is_ok(), "a new day");
    }

    #[tokio::test]
    async fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let (_dir, l) = limiter(1, 1, &["127.0.0.1"]);
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        assert_eq!(
            l.client_ip(proxy, Some("1.2.3.4, 5.6.7.8")),
            "5.6.7.8".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            l.client_ip(proxy, Some("1.2.3.4, 127.0.0.1")),
            "1.2.3.4".parse::<IpAddr>().unwrap()
        );
        assert_eq!(l.client_ip(proxy, None), proxy);
        assert_eq!(
            l.client_ip(A, Some("9.9.9.9")),
            A,
            "a direct client cannot pick its address"
        );
    }
}
