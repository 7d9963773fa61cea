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
    Json(json!({
        "status": "ready",
        "plugins": {
            "renderer": state.exports.plugins.renderer.name,
            "packager": state.exports.plugins.packager.name,
            "retriever": state.exports.plugins.retriever.name,
        }
    }))
}
