//! A packager plugin writing one archive: files go in, compressed bytes come out as they are
//! ready.

use wasmtime::component::ResourceAny;

use super::bindings::packager::exports::quire::plugins::packing::{FormatInfo, PartedEntry};
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
    /// Whether a file's entry may be written in parts and its unchanged parts' pieces kept
    /// (`format-info`'s `reusable-parts`; never without `reusable_entries`).
    pub reusable_parts: bool,
}

/// A file's entry written in parts, as the packager gave it.
pub struct EntryPieces {
    /// The entry's start (it depends on the path and size only).
    pub head: Vec<u8>,
    /// One piece per part, empty for a part given as `None`.
    pub parts: Vec<Vec<u8>>,
    /// The entry's end (it depends on the size only).
    pub tail: Vec<u8>,
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
            reusable_parts,
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
            reusable_parts: reusable_parts && reusable_entries,
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

    /// Adds a file of `size` bytes in `parts` (`None`: a part whose piece the caller kept);
    /// only for a packager with `reusable_parts`. A packager that gives back another number
    /// of pieces than parts, or a piece for a part it was not given, is at fault.
    pub fn add_file_in_parts(
        &mut self,
        path: &str,
        size: u64,
        parts: &[Option<&[u8]>],
    ) -> Result<EntryPieces, PluginError> {
        let task = format!("packing {path} in parts");
        let (bindings, archive) = (&self.bindings, self.archive);
        // The bindings take owned lists; only the parts to pack are copied, not the kept ones.
        let owned: Vec<Option<Vec<u8>>> =
            parts.iter().map(|part| part.map(<[u8]>::to_vec)).collect();
        let PartedEntry {
            head,
            parts: pieces,
            tail,
        } = self
            .session
            .call(&task, |store| {
                bindings
                    .quire_plugins_packing()
                    .archive()
                    .call_add_file_in_parts(store, archive, path, size, &owned)
            })?
            .map_err(|fault| self.session.reported(&task, fault_message(fault)))?;
        let given = |(part, piece): (&Option<&[u8]>, &Vec<u8>)| part.is_some() || piece.is_empty();
        if pieces.len() != parts.len() || !parts.iter().zip(&pieces).all(given) {
            return Err(self.session.reported(
                &task,
                format!(
                    "gave {} pieces for {} parts, or a piece for a part it was not given",
                    pieces.len(),
                    parts.len()
                ),
            ));
        }
        let total = head.len() + tail.len() + pieces.iter().map(Vec::len).sum::<usize>();
        self.session.check_output(&task, total)?;
        Ok(EntryPieces {
            head,
            parts: pieces,
            tail,
        })
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
