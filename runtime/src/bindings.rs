//! Host-side bindings generated from `wit/`, one module per world. The shared `types` and `host`
//! interfaces are generated once (with the renderer) and reused by the other worlds.

/// The `renderer` world.
pub mod renderer {
    wasmtime::component::bindgen!({
        world: "renderer",
        path: "../wit",
        // The host's render cache stores rendered pages and hashes what a page was given.
        additional_derives: [serde::Serialize, serde::Deserialize],
    });
}

/// The `packager` world.
pub mod packager {
    wasmtime::component::bindgen!({
        world: "packager",
        path: "../wit",
        with: {
            "quire:plugins/types": super::renderer::quire::plugins::types,
            "quire:plugins/host": super::renderer::quire::plugins::host,
        },
    });
}

/// The `retriever` world.
pub mod retriever {
    wasmtime::component::bindgen!({
        world: "retriever",
        path: "../wit",
        // The host keeps each page's index sections beside it in the render cache.
        additional_derives: [serde::Serialize, serde::Deserialize],
        with: {
            "quire:plugins/types": super::renderer::quire::plugins::types,
            "quire:plugins/host": super::renderer::quire::plugins::host,
        },
    });
}

pub use renderer::quire::plugins::host::LogLevel;
pub use renderer::quire::plugins::types::{Error as PluginFault, OutputFile, Warning};
