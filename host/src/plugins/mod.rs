//! Which component serves each role in this server. The runtime itself (contract checks,
//! sandboxes, sessions) is the `quire-runtime` crate; this module chooses the files (per
//! deployment type, in `selection`), holds them in hot-swappable slots (`slot`) and keeps the
//! packagers by the archive format they write (`packagers`); `contract` converts the host's
//! types to the contract's.

pub mod contract;
mod packagers;
mod selection;
mod slot;
mod watch;

pub use packagers::{PackagerChoiceError, Packagers};
pub use quire_runtime::*;
pub use selection::{RoleFiles, resolve_files};
pub use slot::{PluginSlot, Refresh};
pub use watch::watch_plugin_files;

/// The components serving each role, loaded and checked. Cheap to clone; the slots are shared,
/// so a component replaced while the server runs is seen by every clone.
#[derive(Clone)]
pub struct Plugins {
    pub runtime: PluginRuntime,
    pub renderer: std::sync::Arc<PluginSlot>,
    pub retriever: std::sync::Arc<PluginSlot>,
    pub packagers: std::sync::Arc<Packagers>,
    /// Renderer sessions an export or an index build runs at once, each on a thread of its own.
    pub render_threads: usize,
    /// Whether publishing and exports keep rendered pages in object storage and reuse them.
    pub render_cache: bool,
    /// The most the render cache may hold, in bytes.
    pub render_cache_max_bytes: u64,
    /// The assistant module exported sites carry (`quire-bundle-assistant`), if there is one.
    pub bundle_assistant: Option<std::sync::Arc<Vec<u8>>>,
}

impl Plugins {
    /// Every slot, for the file watcher and listings.
    pub fn slots(&self) -> Vec<std::sync::Arc<PluginSlot>> {
        let mut slots = vec![self.renderer.clone(), self.retriever.clone()];
        slots.extend(self.packagers.slots());
        slots
    }
}
