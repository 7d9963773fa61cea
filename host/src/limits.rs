//! Rate limits on the discovery endpoints (SPEC 8): requests per organization per hour and per
//! client IP per day, in fixed windows. Counts live in this process's memory: a restart starts
//! new windows, and several servers each count their own share.
//!
//! The client IP is the socket's peer address. Behind a reverse proxy, list the proxy in
//! `limits.trusted_proxies`: then, and only then, the address the proxy appended to
//! `X-Forwarded-For` is used (the rightmost entry that is not itself a trusted proxy). A client
//! cannot forge its way around the limit, because entries it wrote itself stand to the left.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::config::LimitsConfig;

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

/// Fixed-window counters for one limit.
struct Window {
    limit: u64,
    seconds: u64,
    counts: Mutex<HashMap<String, (u64, u64)>>,
}

impl Window {
    fn new(limit: u64, seconds: u64) -> Self {
        Self {
            limit,
            seconds,
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// The status after counting one more request for `key` at time `now`, or `None` if it is
    /// over the limit (and then it is not counted).
    fn take(&self, key: &str, now: u64) -> Result<RateStatus, RateStatus> {
        let window = now / self.seconds;
        let reset_after = (window + 1) * self.seconds - now;
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if counts.len() > 100_000 {
            counts.retain(|_, (w, _)| *w == window);
        }
        let entry = counts.entry(key.to_string()).or_insert((window, 0));
        if entry.0 != window {
            *entry = (window, 0);
        }
        let status = |used: u64| RateStatus {
            limit: self.limit,
            remaining: self.limit.saturating_sub(used),
            reset_after,
        };
        if entry.1 >= self.limit {
            return Err(status(entry.1));
        }
        entry.1 += 1;
        Ok(status(entry.1))
    }

    fn give_back(&self, key: &str) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = counts.get_mut(key) {
            entry.1 = entry.1.saturating_sub(1);
        }
    }
}

/// The two limits of SPEC 8.
pub struct RateLimiter {
    per_organization: Window,
    per_ip: Window,
    trusted_proxies: Vec<IpAddr>,
}

impl RateLimiter {
    pub fn new(config: &LimitsConfig) -> Self {
        Self {
            per_organization: Window::new(config.organization_per_hour, HOUR),
            per_ip: Window::new(config.ip_per_day, DAY),
            trusted_proxies: config.trusted_proxies.clone(),
        }
    }

    /// Counts a request of `organization` from `ip`, or refuses it without counting.
    pub fn admit(&self, organization: &str, ip: IpAddr) -> Result<RateStatus, RateLimited> {
        self.admit_at(organization, ip, now())
    }

    fn admit_at(
        &self,
        organization: &str,
        ip: IpAddr,
        now: u64,
    ) -> Result<RateStatus, RateLimited> {
        let org = self
            .per_organization
            .take(organization, now)
            .map_err(|status| RateLimited {
                status,
                scope: "organization (per hour)",
            })?;
        let ip_key = ip.to_string();
        let by_ip = match self.per_ip.take(&ip_key, now) {
            Ok(status) => status,
            Err(status) => {
                self.per_organization.give_back(organization);
                return Err(RateLimited {
                    status,
                    scope: "IP address (per day)",
                });
            }
        };
        Ok(if by_ip.remaining < org.remaining {
            by_ip
        } else {
            org
        })
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

    fn limiter(org: u64, ip: u64, proxies: &[&str]) -> RateLimiter {
        RateLimiter::new(&LimitsConfig {
            organization_per_hour: org,
            ip_per_day: ip,
            trusted_proxies: proxies.iter().map(|p| p.parse().unwrap()).collect(),
        })
    }

    const A: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1));
    const B: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2));

    #[test]
    fn the_organization_limit_counts_per_hour() {
        let l = limiter(2, 100, &[]);
        assert_eq!(l.admit_at("acme", A, 7200).unwrap().remaining, 1);
        assert_eq!(l.admit_at("acme", B, 7201).unwrap().remaining, 0);
        let refused = l.admit_at("acme", A, 7202).unwrap_err();
        assert_eq!(refused.status.reset_after, 3598);
        assert!(l.admit_at("other", A, 7202).is_ok());
        assert!(l.admit_at("acme", A, 10_800).is_ok(), "a new hour");
    }

    #[test]
    fn the_ip_limit_counts_per_day_and_refusals_are_not_counted() {
        let l = limiter(100, 1, &[]);
        assert!(l.admit_at("acme", A, 0).is_ok());
        let refused = l.admit_at("acme", A, 10).unwrap_err();
        assert_eq!(refused.scope, "IP address (per day)");
        assert!(l.admit_at("acme", B, 10).is_ok());
        // The refused request gave back its organization count: 2 used of 100, not 3.
        assert_eq!(
            l.admit_at("acme", IpAddr::from([10, 0, 0, 3]), 10)
                .unwrap()
                .limit,
            1
        );
        assert!(l.admit_at("acme", A, DAY).is_ok(), "a new day");
    }

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let l = limiter(1, 1, &["127.0.0.1"]);
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
