//! Quire: a documentation platform service. This library holds every capability; the `quire`
//! binary is a thin command line over it.

pub mod plugins;
pub mod config;
pub mod store;
pub mod auth;
pub mod storage;
pub mod sites;
pub mod jobs;
pub mod api;
pub mod server;
