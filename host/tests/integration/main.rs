//! The host's integration tests, in one binary so the host is linked once: each module drives
//! the real `quire` binary (CLI commands, `quire serve`, the docs server) over real sockets,
//! with real plugins built for `wasm32-wasip2` and, where a module says so, a real S3-compatible
//! server, headless Chromium or the chat SDK. `common` holds the shared harness.
//!
//! Run one module with a filter: `cargo test --release -p quire --test integration conformance`.

mod common;

mod analytics;
mod api_errors;
mod assistant;
mod assistant_evaluation;
mod browser;
mod chat_sdk;
mod cli;
mod conformance;
mod crash_recovery;
mod docs_server;
mod export_flow;
mod export_formats;
mod helm_chart;
mod hostile_plugins;
mod incremental;
mod large_files;
mod local_model;
mod mcp;
mod openai_generator;
mod operations;
mod partial_uploads;
mod plugin_new;
mod plugin_operations;
mod replicas;
mod request_rejections;
mod retrieval_quality;
mod s3_storage;
mod search;
mod site_shapes;
mod store_conformance;
mod upload_streaming;
