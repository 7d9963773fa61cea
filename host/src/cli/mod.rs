//! The commands of the `quire` binary, one file each: its arguments and what it does, over the
//! library. `main.rs` parses the command line and dispatches here.

pub mod build;
pub mod dev;
pub mod docs_server;
pub mod key;
pub mod mcp;
pub mod migrate;
pub mod org;
pub mod plugins;
pub mod serve;
pub mod site;
