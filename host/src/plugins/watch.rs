//! Watching the component files: every interval, each slot whose file changed is reloaded, and
//! the outcome logged. Polling (a `stat` per file) rather than filesystem events, because it
//! behaves the same on every filesystem a volume can be, including network ones.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::{Plugins, Refresh};

/// Reloads changed component files every `interval` until `cancel`.
pub async fn watch_plugin_files(plugins: Plugins, interval: Duration, cancel: CancellationToken) {
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = ticker.tick() => {}
        }
        let plugins = plugins.clone();
        let checked = tokio::task::spawn_blocking(move || {
            for slot in plugins.slots() {
                report(&slot, slot.refresh(&plugins.runtime));
            }
        })
        .await;
        if let Err(e) = checked {
            tracing::error!("the plugin file check failed: {e}");
        }
    }
}

fn report(slot: &super::PluginSlot, refresh: Refresh) {
    let role = slot.role().name();
    let path = slot.path().display();
    match refresh {
        Refresh::Unchanged => {}
        Refresh::Replaced { previous_sha256 } => {
            let current = slot.current();
            crate::metrics::get().plugin_reload(role, "replaced");
            tracing::info!(
                role,
                plugin = %current.name,
                %path,
                sha256 = %current.sha256,
                previous_sha256 = %previous_sha256,
                "plugin replaced; new work uses the new component"
            );
        }
        Refresh::Refused(problem) => {
            crate::metrics::get().plugin_reload(role, "refused");
            tracing::error!(
                role,
                %path,
                "plugin replacement refused, the previous component stays: {problem}"
            );
        }
    }
}
