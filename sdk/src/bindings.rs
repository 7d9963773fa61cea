//! The bindings generated from the contract (`wit/`), one module per world, each behind its
//! feature so a plugin carries only the world it implements. Most authors never touch these:
//! the traits and `export_*!` macros wrap them.

/// The `renderer` world.
#[cfg(feature = "renderer")]
pub mod renderer {
    wit_bindgen::generate!({
        world: "renderer",
        path: "../wit",
        pub_export_macro: true,
        export_macro_name: "export_renderer_world",
        default_bindings_module: "quire_sdk::bindings::renderer",
    });
}

/// The `retriever` world.
#[cfg(feature = "retriever")]
pub mod retriever {
    wit_bindgen::generate!({
        world: "retriever",
        path: "../wit",
        pub_export_macro: true,
        export_macro_name: "export_retriever_world",
        default_bindings_module: "quire_sdk::bindings::retriever",
    });
}

/// The `packager` world.
#[cfg(feature = "packager")]
pub mod packager {
    wit_bindgen::generate!({
        world: "packager",
        path: "../wit",
        pub_export_macro: true,
        export_macro_name: "export_packager_world",
        default_bindings_module: "quire_sdk::bindings::packager",
    });
}
