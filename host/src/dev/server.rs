//! The preview's HTTP side: the built folder as a docs server serves a bundle (extensionless
//! URLs, folders' `index.html`, the bundle's `404.html`), plus `/__quire/events`, a stream of
//! server-sent events that says "reload" after each rebuild. The feature file gains a line
//! that listens to it, so every page of the preview reloads itself; the built files stay as
//! an export makes them.

use std::convert::Infallible;
use std::path::{Component, Path, PathBuf};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::Stream;
use tokio::sync::broadcast;

use super::Served;

/// Where open pages listen for rebuilds.
const EVENTS_PATH: &str = "/__quire/events";

/// What the feature file gains in the preview.
const RELOAD_SCRIPT: &str = "\n// quire dev: reload when the site is rebuilt.\n(function () {\n  if (!window.EventSource) return;\n  new EventSource(\"/__quire/events\").onmessage = function () { location.reload(); };\n})();\n";

#[derive(Clone)]
struct Preview {
    served: Served,
    reload: broadcast::Sender<String>,
}

/// Serves the preview on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    served: Served,
    reload: broadcast::Sender<String>,
) {
    let router = Router::new()
        .route(EVENTS_PATH, get(events))
        .fallback(get(file))
        .with_state(Preview { served, reload });
    if let Err(e) = axum::serve(listener, router).await {
        tracing::error!("the preview server stopped: {e}");
    }
}

async fn events(
    State(preview): State<Preview>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let receiver = preview.reload.subscribe();
    let stream = futures::stream::unfold(receiver, |mut receiver| async move {
        match receiver.recv().await {
            Ok(message) => Some((Ok(Event::default().data(message)), receiver)),
            // Missed some: one reload covers them all.
            Err(broadcast::error::RecvError::Lagged(_)) => {
                Some((Ok(Event::default().data("reload")), receiver))
            }
            Err(broadcast::error::RecvError::Closed) => None,
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// A file of the served folder: the path as given, else with `.html`, else the folder's
/// `index.html`; else the bundle's `404.html` with status 404.
async fn file(State(preview): State<Preview>, uri: Uri) -> Response {
    let root = preview
        .served
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let relative = percent_encoding::percent_decode_str(uri.path().trim_start_matches('/'))
        .decode_utf8_lossy()
        .into_owned();
    let Some(relative) = safe(&relative) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let candidates = [
        relative.clone(),
        relative.with_extension("html"),
        relative.join("index.html"),
    ];
    for candidate in candidates {
        let path = root.join(&candidate);
        if path.is_file()
            && let Ok(bytes) = tokio::fs::read(&path).await
        {
            return reply(StatusCode::OK, &path, bytes, &candidate);
        }
    }
    match tokio::fs::read(root.join("404.html")).await {
        Ok(bytes) => reply(
            StatusCode::NOT_FOUND,
            &root.join("404.html"),
            bytes,
            Path::new(""),
        ),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

fn reply(status: StatusCode, path: &Path, mut bytes: Vec<u8>, relative: &Path) -> Response {
    if relative == Path::new(crate::bundle::FEATURES_FILE) {
        bytes.extend_from_slice(RELOAD_SCRIPT.as_bytes());
    }
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    (
        status,
        [
            (header::CONTENT_TYPE, mime.essence_str().to_string()),
            // Always the latest build.
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response()
}

/// `path` as a relative path with no `..`, root or prefix; `None` for one that would leave
/// the folder.
fn safe(path: &str) -> Option<PathBuf> {
    let path = Path::new(path);
    path.components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        .then(|| path.to_path_buf())
}
