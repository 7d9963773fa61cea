//! Prometheus metrics for both servers, served at `/metrics` in the text exposition format:
//! requests by route and status with latency histograms, export jobs and pages, bundle fetches,
//! rate-limit refusals and plugin traps. One process-wide registry, so the code that sees an
//! event counts it where it happens (a trap deep in the plugin runtime, a refusal in the limits).

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub route: String,
    pub method: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StatusLabels {
    pub status: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OutcomeLabels {
    pub outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ScopeLabels {
    pub scope: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PluginLabels {
    pub plugin: String,
    pub kind: String,
}

/// Every metric the servers expose.
pub struct Metrics {
    registry: Registry,
    pub requests: Family<RequestLabels, Counter>,
    pub latency: Family<RouteLabels, Histogram>,
    /// Jobs in each status, read from the store when scraped.
    pub jobs: Family<StatusLabels, Gauge>,
    /// Pages rendered by exports: `rate()` gives pages per second.
    pub export_pages: Counter,
    /// Pages an export could not render and carried as a plain fallback page instead.
    pub export_page_failures: Counter,
    /// Pages the render pipeline (publishing and exports) rendered, and those it took from
    /// the render cache instead.
    pub pages_rendered: Counter,
    pub pages_reused: Counter,
    /// Pages whose search index sections publishing took from the render cache, kept beside
    /// the page, without reading the page itself.
    pub index_pages_kept: Counter,
    /// Search index segments built by publishing, and those taken from earlier versions'.
    pub segments_built: Counter,
    pub segments_reused: Counter,
    /// Archive entries copied from a site's earlier archive instead of packed again.
    pub archive_entries_reused: Counter,
    /// Pages an export took from their summary kept in the render cache and the earlier
    /// archive's entries, without reading the page.
    pub export_pages_kept: Counter,
    /// Pages an export wrote without reading their source (their Markdown copied from the
    /// earlier archive, their render key from what this process kept of the source).
    pub export_sources_unread: Counter,
    /// Groups of pages whose offline search index postings an export collected, and those it
    /// took from the ones this process kept.
    pub offline_index_groups_built: Counter,
    pub offline_index_groups_reused: Counter,
    /// Exports that ended, by outcome (completed, failed, requeued).
    pub exports_finished: Family<OutcomeLabels, Counter>,
    /// Bundle fetches by the docs server, by outcome (installed, pinned, expired, refused,
    /// failed).
    pub bundle_fetches: Family<OutcomeLabels, Counter>,
    pub rate_limit_refusals: Family<ScopeLabels, Counter>,
    /// MCP requests over HTTP by what answered them: `direct` (a `tools/call search` answered
    /// beside the SDK) or `sdk`.
    pub mcp_requests: Family<OutcomeLabels, Counter>,
    /// Plugin calls that ended in a trap, a timeout or running out of memory.
    pub plugin_traps: Family<PluginLabels, Counter>,
    /// Component files reloaded while running, by role and outcome (`replaced`, `refused`).
    pub plugin_reloads: Family<ReloadLabels, Counter>,
}

/// Labels of the plugin reload counter.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReloadLabels {
    pub role: String,
    pub outcome: String,
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::with_prefix("quire");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = Family::<RouteLabels, Histogram>::new_with_constructor(|| {
            // 1 ms to about 16 s.
            Histogram::new(exponential_buckets(0.001, 2.0, 15))
        });
        let jobs = Family::<StatusLabels, Gauge>::default();
        let export_pages = Counter::default();
        let export_page_failures = Counter::default();
        let pages_rendered = Counter::default();
        let pages_reused = Counter::default();
        let index_pages_kept = Counter::default();
        let segments_built = Counter::default();
        let segments_reused = Counter::default();
        let archive_entries_reused = Counter::default();
        let export_pages_kept = Counter::default();
        let export_sources_unread = Counter::default();
        let offline_index_groups_built = Counter::default();
        let offline_index_groups_reused = Counter::default();
        let exports_finished = Family::<OutcomeLabels, Counter>::default();
        let bundle_fetches = Family::<OutcomeLabels, Counter>::default();
        let rate_limit_refusals = Family::<ScopeLabels, Counter>::default();
        let mcp_requests = Family::<OutcomeLabels, Counter>::default();
        let plugin_traps = Family::<PluginLabels, Counter>::default();
        let plugin_reloads = Family::<ReloadLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests by route, method and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "HTTP request latency by route",
            latency.clone(),
        );
        registry.register("jobs", "Export jobs by status", jobs.clone());
        registry.register(
            "export_pages",
            "Pages rendered by exports",
            export_pages.clone(),
        );
        registry.register(
            "export_page_failures",
            "Pages exports could not render and carried as plain fallback pages",
            export_page_failures.clone(),
        );
        registry.register(
            "render_pages_rendered",
            "Pages the renderer rendered (publishing and exports)",
            pages_rendered.clone(),
        );
        registry.register(
            "render_pages_reused",
            "Pages taken from the render cache instead of rendered",
            pages_reused.clone(),
        );
        registry.register(
            "search_index_pages_kept",
            "Pages indexed from their sections kept in the render cache, without reading the page",
            index_pages_kept.clone(),
        );
        registry.register(
            "export_pages_kept",
            "Pages exported from their kept summary and the earlier archive's entries, unread",
            export_pages_kept.clone(),
        );
        registry.register(
            "export_sources_unread",
            "Pages exported without reading their source: their Markdown copied from the earlier archive",
            export_sources_unread.clone(),
        );
        registry.register(
            "export_offline_index_groups_built",
            "Groups of pages (about 64 each) whose offline search index postings exports collected",
            offline_index_groups_built.clone(),
        );
        registry.register(
            "export_offline_index_groups_reused",
            "Groups of pages whose offline search index postings exports took from earlier ones",
            offline_index_groups_reused.clone(),
        );
        registry.register(
            "search_segments_built",
            "Search index segments built (a group of about 16 pages each)",
            segments_built.clone(),
        );
        registry.register(
            "search_segments_reused",
            "Search index segments taken from earlier versions instead of built",
            segments_reused.clone(),
        );
        registry.register(
            "export_archive_entries_reused",
            "Archive entries copied from a site's earlier archive instead of packed again",
            archive_entries_reused.clone(),
        );
        registry.register(
            "exports_finished",
            "Exports that ended, by outcome",
            exports_finished.clone(),
        );
        registry.register(
            "bundle_fetches",
            "Bundle fetches by the docs server, by outcome",
            bundle_fetches.clone(),
        );
        registry.register(
            "rate_limit_refusals",
            "Requests refused by a rate limit, by scope",
            rate_limit_refusals.clone(),
        );
        registry.register(
            "mcp_requests",
            "MCP requests over HTTP, by what answered them (direct, sdk)",
            mcp_requests.clone(),
        );
        registry.register(
            "plugin_traps",
            "Plugin calls that trapped, timed out or ran out of memory",
            plugin_traps.clone(),
        );
        registry.register(
            "plugin_reloads",
            "Component files reloaded while running, by role and outcome",
            plugin_reloads.clone(),
        );
        Self {
            registry,
            requests,
            latency,
            jobs,
            export_pages,
            export_page_failures,
            pages_rendered,
            pages_reused,
            index_pages_kept,
            segments_built,
            segments_reused,
            archive_entries_reused,
            export_pages_kept,
            export_sources_unread,
            offline_index_groups_built,
            offline_index_groups_reused,
            exports_finished,
            bundle_fetches,
            rate_limit_refusals,
            mcp_requests,
            plugin_traps,
            plugin_reloads,
        }
    }

    /// Counts a failed plugin call (for the runtime's trap observer).
    pub fn plugin_trap(&self, plugin: &str, kind: &str) {
        self.plugin_traps
            .get_or_create(&PluginLabels {
                plugin: plugin.to_string(),
                kind: kind.to_string(),
            })
            .inc();
    }

    /// Counts a component file reload.
    pub fn plugin_reload(&self, role: &str, outcome: &str) {
        self.plugin_reloads
            .get_or_create(&ReloadLabels {
                role: role.to_string(),
                outcome: outcome.to_string(),
            })
            .inc();
    }

    /// The exposition text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// The process's metrics.
pub fn get() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

/// Counts a labelled event: `count(&get().bundle_fetches, "expired")`.
pub fn count_outcome(family: &Family<OutcomeLabels, Counter>, outcome: &str) {
    family
        .get_or_create(&OutcomeLabels {
            outcome: outcome.to_string(),
        })
        .inc();
}

/// Middleware: counts each request by its route template (not its raw path, which would make
/// a label per page) and observes its latency.
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "static".to_string());
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    let metrics = get();
    metrics
        .requests
        .get_or_create(&RequestLabels {
            route: route.clone(),
            method,
            status: response.status().as_u16(),
        })
        .inc();
    metrics
        .latency
        .get_or_create(&RouteLabels { route })
        .observe(started.elapsed().as_secs_f64());
    response
}

/// The `/metrics` response.
pub fn response() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        get().render(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_render_in_the_exposition_format() {
        count_outcome(&get().bundle_fetches, "expired");
        get().export_pages.inc_by(3);
        let text = get().render();
        assert!(
            text.contains("quire_bundle_fetches_total{outcome=\"expired\"} 1"),
            "{text}"
        );
        assert!(text.contains("quire_export_pages_total"));
        assert!(text.trim_end().ends_with("# EOF"));
    }
}
