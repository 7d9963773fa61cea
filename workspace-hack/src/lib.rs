//! Nothing to call: this crate only pins the features of shared dependencies (see its
//! Cargo.toml), so a plugin crate's native test build reuses the host's compiled wasmtime.
