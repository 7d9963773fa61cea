//! Liveness and readiness.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::SharedState;

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "Alive")))]
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// The server can serve: database open, plugins loaded.
#[utoipa::path(get, path = "/readyz", tag = "operations", responses((status = 200, description = "Ready")))]
pub async fn readyz(State(state): State<SharedState>) -> Json<Value> {
    let plugins = &state.exports.plugins;
    let describe = |slot: &crate::plugins::PluginSlot| {
        let plugin = slot.current();
        json!({"name": plugin.name, "sha256": plugin.sha256})
    };
    let formats: serde_json::Map<String, Value> = plugins
        .packagers
        .formats()
        .into_iter()
        .filter_map(|format| {
            let slot = plugins.packagers.choose(Some(&format)).ok()?;
            Some((format, describe(&slot)))
        })
        .collect();
    Json(json!({
        "status": "ready",
        "plugins": {
            "renderer": describe(&plugins.renderer),
            "packager": describe(&plugins.packagers.default_slot()),
            "retriever": describe(&plugins.retriever),
            "formats": formats,
            "defaultFormat": plugins.packagers.default_format(),
        }
    }))
}
