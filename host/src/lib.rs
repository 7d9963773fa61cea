//! Quire: a documentation platform service. This library holds every capability; the `quire`
//! binary is a thin command line over it.

mod api;
mod assistant;
pub mod auth;
pub mod build;
pub mod bundle;
pub mod config;
pub mod deployment_type;
pub mod dev;
pub mod docs_server;
pub mod export;
pub mod http_client;
mod jobs;
mod limits;
pub mod mcp;
mod memo;
mod metrics;
mod page_groups;
pub mod plugins;
pub mod publishing;
pub mod rendering;
mod request_log;
pub mod scaffold;
mod search;
pub mod server;
pub mod sites;
pub mod storage;
pub mod store;
#[cfg(test)]
mod testing;
