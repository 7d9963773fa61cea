//! A packager plugin writing one archive: files go in, compressed bytes come out as they are
//! ready.

use wasmtime::component::ResourceAny;

use super::bindings::packager::exports::quire::plugins::packing::FormatInfo;
use super::bindings::packager::{Packager, PackagerPre};
use super::error::fault_message;
use super::session::Session;
use super::{LoadedPlugin, PluginError, PluginRuntime};

/// An open `archive` in its own store.
pub struct ArchiveSession {
    session: Session,
    bindings: Packager,
    archive: ResourceAny,
    /// The archive's file name extension (`tar.gz`).
    pub extension: String,
    /// The archive's media type.
    pub media_type: String,
    /// Whether the packager's entries may be kept and written again (`format-info`'s
    /// `reusable-entries`).
    pub reusable_entries: bool,
}

impl ArchiveSession {
    /// Instantiates `plugin` in a fresh store and starts an archive.
    pub fn start(
        runtime: &PluginRuntime,
        plugin: &LoadedPlugin,
        work: &str,
    ) -> Result<Self, PluginError> {
        let mut session = Session::new(runtime, plugin, work);
        let pre = PackagerPre::new(plugin.pre.clone()).map_err(|e| PluginError::Instantiate {
            plugin: plugin.name.clone(),
            message: format!("{e:#}"),
        })?;
        let bindings = session.call("starting", |store| pre.instantiate(store))?;
        let archive = session.call("starting an archive", |store| {
            bindings
                .quire_plugins_packing()
                .archive()
                .call_constructor(store)
        })?;
        let FormatInfo {
            extension,
            media_type,
            reusable_entries,
        } = session.call("reading its format", |store| {
            bindings
                .quire_plugins_packing()
                .archive()
                .call_format(store, archive)
        })?;
        Ok(Self {
            session,
            bindings,
            archive,
            extension,
            media_type,
            reusable_entries,
        })
    }

    /// Adds a file; returns the archive bytes ready to be written out.
    pub fn add_file(&mut self, path: &str, contents: &[u8]) -> Result<Vec<u8>, PluginError> {
        let task = format!("packing {path}");
        let (bindings, archive) = (&self.bindings, self.archive);
        let bytes = self
            .session
            .call(&task, |store| {
                bindings
                    .quire_plugins_packing()
                    .archive()
                    .call_add_file(store, archive, path, contents)
            })?
            .map_err(|fault| self.session.reported(&task, fault_message(fault)))?;
        self.session.check_output(&task, bytes.len())?;
        Ok(bytes)
    }

    /// Ends the archive; returns its last bytes.
    pub fn finish(mut self) -> Result<Vec<u8>, PluginError> {
        let task = "finishing the archive";
        let (bindings, archive) = (&self.bindings, self.archive);
        let bytes = self
            .session
            .call(task, |store| {
                bindings
                    .quire_plugins_packing()
                    .archive()
                    .call_finish(store, archive)
            })?
            .map_err(|fault| self.session.reported(task, fault_message(fault)))?;
        self.session.check_output(task, bytes.len())?;
        Ok(bytes)
    }
}
