//! Quire: a documentation platform service. This library holds every capability; the `quire`
//! binary is a thin command line over it.

pub mod api;
pub mod assistant;
pub mod auth;
pub mod build;
pub mod bundle;
pub mod config;
pub mod deployment_type;
pub mod dev;
pub mod docs_server;
pub mod jobs;
pub mod limits;
pub mod metrics;
pub mod plugins;
pub mod publishing;
pub mod request_log;
pub mod scaffold;
pub mod search;
pub mod server;
pub mod sites;
pub mod storage;
pub mod store;
