//! Liveness and readiness.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde_json::{Value, json};

use super::{ApiError, SharedState};

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "Alive")))]
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// The server can serve: the store answers, plugins are loaded.
#[utoipa::path(get, path = "/readyz", tag = "operations", responses(
    (status = 200, description = "Ready"),
    (status = 503, description = "The store does not answer (a shared database down)"),
))]
pub async fn readyz(State(state): State<SharedState>) -> Result<Json<Value>, ApiError> {
    // Any cheap read: with a shared database this is where a lost connection shows.
    if let Err(e) = state.store.organization("").await {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "not_ready",
            format!("the store does not answer: {e}"),
        ));
    }
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
    Ok(Json(json!({
        "status": "ready",
        "plugins": {
            "renderer": describe(&plugins.renderer),
            "packager": describe(&plugins.packagers.default_slot()),
            "retriever": describe(&plugins.retriever),
            "formats": formats,
            "defaultFormat": plugins.packagers.default_format(),
        }
    })))
}
