//! The assistant endpoints: `POST /discovery/v1/assistant/{domain}/message` streams
//! the chat SDK's generation-4 data stream protocol, and `/discovery/v2/...` the generation-5
//! UI message stream. Everything that can be refused is refused with a status before the stream
//! starts; what fails later is an error part and a clean end.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;

use super::extract::{BodyBytes, Path};
use super::{ApiError, DiscoveryCaller, ErrorBody, SharedState, with_rate_headers};
use crate::assistant::{AssistantError, Event, request, request_v2, stream_v1, stream_v2};
use crate::limits::RateStatus;

/// Events buffered between the assistant and a slow client.
const EVENT_BUFFER: usize = 64;

/// Ask the docs assistant; the reply streams as data stream parts (chat SDK generation 4).
#[utoipa::path(
    post, path = "/discovery/v1/assistant/{domain}/message", tag = "discovery",
    params(("domain" = String, Path, description = "The site's domain")),
    request_body(content = Object, description = "The assistant request: fp, messages, threadId, retrievalPageSize, filter, context, currentPath. Limits: the body at most 256 KiB; at most 100 messages; a user message at most 4,000 characters, any other at most 32,000; at most 20 context items of at most 8,000 characters; currentPath at most 200 characters. The search query the stream echoes is cut at 500 characters."),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Data stream parts, one `CODE:JSON` per line, ending with `d:` (which carries threadId)", content_type = "text/plain"),
        (status = 400, description = "Invalid body (the message names the field)", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or admin key", body = ErrorBody),
        (status = 404, description = "Unknown site, or unknown thread for this user", body = ErrorBody),
        (status = 413, description = "Body over 256 KiB (the discovery endpoints' limit)", body = ErrorBody),
        (status = 429, description = "Rate limit exceeded (Retry-After says when to try again)", body = ErrorBody),
    )
)]
pub async fn message_v1(
    State(state): State<SharedState>,
    caller: DiscoveryCaller,
    Path(domain): Path<String>,
    BodyBytes(body): BodyBytes,
) -> Result<Response, ApiError> {
    let turn = start(&state, caller, &domain, &body, request::parse).await?;
    let lines = futures::stream::unfold(turn.events, |mut events| async move {
        let event = events.recv().await?;
        Some((Ok::<_, Infallible>(encode(event)), events))
    });
    Ok(respond(
        Body::from_stream(lines),
        &stream_v1::HEADERS,
        &turn.thread_id,
        turn.rate,
    ))
}

/// Ask the docs assistant; the reply streams as a UI message stream (chat SDK generation 5).
#[utoipa::path(
    post, path = "/discovery/v2/assistant/{domain}/message", tag = "discovery",
    params(("domain" = String, Path, description = "The site's domain")),
    request_body(content = Object, description = "As v1 (and with v1's limits), with generation-5 UI messages {id, role, parts, metadata?}; filter also takes groups"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Server-sent events, `data: {chunk}` each, ending with `data: [DONE]`; the finish chunk's messageMetadata carries threadId", content_type = "text/event-stream"),
        (status = 400, description = "Invalid body (the message names the field)", body = ErrorBody),
        (status = 401, description = "Missing, invalid, revoked or admin key", body = ErrorBody),
        (status = 404, description = "Unknown site, or unknown thread for this user", body = ErrorBody),
        (status = 413, description = "Body over 256 KiB (the discovery endpoints' limit)", body = ErrorBody),
        (status = 429, description = "Rate limit exceeded (Retry-After says when to try again)", body = ErrorBody),
    )
)]
pub async fn message_v2(
    State(state): State<SharedState>,
    caller: DiscoveryCaller,
    Path(domain): Path<String>,
    BodyBytes(body): BodyBytes,
) -> Result<Response, ApiError> {
    let turn = start(&state, caller, &domain, &body, request_v2::parse).await?;
    let mut encoder = stream_v2::Encoder::default();
    let chunks = ready_events(turn.events).map(move |events| {
        Ok::<_, Infallible>(
            events
                .into_iter()
                .map(|e| encoder.encode(e))
                .collect::<String>(),
        )
    });
    Ok(respond(
        Body::from_stream(chunks),
        &stream_v2::HEADERS,
        &turn.thread_id,
        turn.rate,
    ))
}

/// The events as they come, each batch holding every event already waiting: a fast answer goes
/// out in a few writes, a slow one still streams piece by piece.
fn ready_events(events: mpsc::Receiver<Event>) -> impl futures::Stream<Item = Vec<Event>> {
    let events = futures::stream::unfold(events, |mut events| async move {
        let event = events.recv().await?;
        Some((event, events))
    });
    events.ready_chunks(EVENT_BUFFER)
}

/// A turn under way: its events, its thread, the caller's rate-limit status.
struct Turn {
    events: mpsc::Receiver<Event>,
    thread_id: String,
    rate: RateStatus,
}

/// Checks the request, then starts answering.
async fn start(
    state: &SharedState,
    DiscoveryCaller { principal, rate }: DiscoveryCaller,
    domain: &str,
    body: &[u8],
    parse: fn(&Value) -> Result<request::AssistantRequest, String>,
) -> Result<Turn, ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("the request body is not valid JSON: {e}")))?;
    let parsed = parse(&value).map_err(ApiError::bad_request)?;
    let conversation = state
        .assistant
        .prepare(&principal.organization.name, domain, parsed)
        .await?;
    let thread_id = conversation.thread_id().to_string();
    let (sender, events) = mpsc::channel(EVENT_BUFFER);
    let service = Arc::clone(&state.assistant);
    tokio::spawn(async move { service.answer(conversation, sender).await });
    Ok(Turn {
        events,
        thread_id,
        rate,
    })
}

/// A streaming response with the protocol's headers, `X-Thread-Id` and the rate-limit headers.
fn respond(
    body: Body,
    protocol_headers: &[(&'static str, &'static str)],
    thread_id: &str,
    rate: RateStatus,
) -> Response {
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    for (name, value) in protocol_headers {
        headers.insert(*name, HeaderValue::from_static(value));
    }
    if let Ok(value) = HeaderValue::from_str(thread_id) {
        headers.insert("x-thread-id", value);
    }
    with_rate_headers(response, rate)
}

/// One event as data stream parts. The thread id goes out three ways: in `d:` (as the spec
/// says), as an `8:` annotation (the client keeps those; its parser drops unknown `d:` keys),
/// and in the `X-Thread-Id` header.
fn encode(event: Event) -> String {
    match event {
        Event::StepStart { message_id } => stream_v1::start_step(&message_id),
        Event::SearchCall { call_id, query } => {
            stream_v1::tool_call(&call_id, "search", &serde_json::json!({"query": query}))
        }
        Event::SearchResult { call_id, sections } => {
            let hits: Vec<Value> = sections
                .iter()
                .map(crate::assistant::tool_result_json)
                .collect();
            stream_v1::tool_result(&call_id, &Value::Array(hits))
        }
        Event::StepFinish { reason, usage } => stream_v1::finish_step(reason, usage, false),
        Event::Source { id, url, title } => stream_v1::source(&id, &url, &title),
        Event::Text(text) => stream_v1::text(&text),
        Event::Error(message) => stream_v1::error(&message),
        Event::Finish {
            reason,
            usage,
            thread_id,
        } => {
            let annotation = serde_json::json!({"threadId": thread_id});
            stream_v1::annotations(&[annotation])
                + &stream_v1::finish_message(reason, usage, &thread_id)
        }
    }
}

impl From<AssistantError> for ApiError {
    fn from(e: AssistantError) -> Self {
        match e {
            AssistantError::UnknownSite(_) | AssistantError::UnknownThread(_) => {
                ApiError::not_found(e.to_string())
            }
            AssistantError::NoQuestion => ApiError::bad_request(e.to_string()),
            AssistantError::Store(e) => e.into(),
        }
    }
}
