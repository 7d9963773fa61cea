//! The Quire plugin SDK: everything a plugin author needs to write a renderer, a retriever or a
//! packager as a WebAssembly component, and to test it locally.
//!
//! Enable the feature of the role your plugin plays (`renderer`, `retriever` or `packager`),
//! implement its trait ([`renderer::Renderer`], [`retriever::Retriever`],
//! [`packager::Packager`]) and export it with the matching macro
//! ([`export_renderer!`], [`export_retriever!`], [`export_packager!`]). The helpers
//! ([`navigation`], [`links`], [`escape`], [`sections`], [`paths`], [`warnings`],
//! [`frontmatter`], [`variables`]) do the common work, `highlighting` (renderers) gives code
//! blocks' tokens from the host's highlighter, and [`log`] writes to the host's log under your plugin's name.
//!
//! For tests, enable `harness` in `[dev-dependencies]`: [`harness`] builds your crate for
//! `wasm32-wasip2` and runs the component in the runtime the Quire host itself uses.
//!
//! The guide is `sdk/README.md`.

pub mod bindings;
mod error;
#[cfg(all(feature = "harness", not(target_arch = "wasm32")))]
pub mod harness;
#[cfg(feature = "renderer")]
pub mod highlighting;
pub mod log;
pub mod packager;
pub mod renderer;
pub mod retriever;
pub mod warnings;

pub use error::{Error, Result};
/// The model of a docs site that the host reads the same way (docs.json settings, frontmatter,
/// navigation entries, paths and links, redirects, variables, sections, escaping), from
/// `quire-core`.
pub use quire_core::{
    config, escape, features, frontmatter, imports, links, navigation, paths, redirects, sections,
    tokens, variables,
};

/// The version of the `quire:plugins` contract this SDK builds plugins against. The host
/// refuses a plugin built against a version it does not support, naming both.
pub const CONTRACT_VERSION: &str = "0.9.0";

/// One file a plugin produced, addressed by its path inside the exported site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Relative path with `/` separators (`guides/a.html`).
    pub path: String,
    pub contents: Vec<u8>,
}

impl OutputFile {
    /// A file at `path` with `contents`.
    pub fn new(path: impl Into<String>, contents: impl Into<Vec<u8>>) -> Self {
        Self {
            path: path.into(),
            contents: contents.into(),
        }
    }
}
