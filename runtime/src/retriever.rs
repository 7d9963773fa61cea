//! A retriever plugin building an index (at publish time) or answering searches over a loaded
//! one (kept warm by the search service).

use wasmtime::component::ResourceAny;

use super::bindings::retriever::exports::quire::plugins::retrieve::{Hit, Query, Section};
use super::bindings::retriever::{Retriever, RetrieverPre};
use super::error::fault_message;
use super::session::Session;
use super::{LoadedPlugin, PluginError, PluginRuntime};

fn instantiate(
    runtime: &PluginRuntime,
    plugin: &LoadedPlugin,
    work: &str,
) -> Result<(Session, Retriever), PluginError> {
    let mut session = Session::new(runtime, plugin, work);
    let pre = RetrieverPre::new(plugin.pre.clone()).map_err(|e| PluginError::Instantiate {
        plugin: plugin.name.clone(),
        message: format!("{e:#}"),
    })?;
    let bindings = session.call("starting", |store| pre.instantiate(store))?;
    Ok((session, bindings))
}

/// An `index-builder` in its own store: one segment of an index.
pub struct IndexBuilderSession {
    session: Session,
    bindings: Retriever,
    builder: ResourceAny,
}

impl IndexBuilderSession {
    pub fn start(
        runtime: &PluginRuntime,
        plugin: &LoadedPlugin,
        work: &str,
    ) -> Result<Self, PluginError> {
        let (mut session, bindings) = instantiate(runtime, plugin, work)?;
        let builder = session.call("starting an index", |store| {
            bindings
                .quire_plugins_retrieve()
                .index_builder()
                .call_constructor(store)
        })?;
        Ok(Self {
            session,
            bindings,
            builder,
        })
    }

    /// Adds a batch of sections.
    pub fn add(&mut self, sections: &[Section]) -> Result<(), PluginError> {
        let task = "indexing sections";
        let (bindings, builder) = (&self.bindings, self.builder);
        self.session
            .call(task, |store| {
                bindings
                    .quire_plugins_retrieve()
                    .index_builder()
                    .call_add(store, builder, sections)
            })?
            .map_err(|fault| self.session.reported(task, fault_message(fault)))
    }

    /// The serialized segment. Its size is bounded by the plugin's memory, not by the per-call
    /// output limit: an index is as large as the site.
    pub fn finish(mut self) -> Result<Vec<u8>, PluginError> {
        let task = "finishing the index";
        let (bindings, builder) = (&self.bindings, self.builder);
        self.session
            .call(task, |store| {
                bindings
                    .quire_plugins_retrieve()
                    .index_builder()
                    .call_finish(store, builder)
            })?
            .map_err(|fault| self.session.reported(task, fault_message(fault)))
    }
}

/// A loaded `index`, ready to search.
pub struct IndexSession {
    session: Session,
    bindings: Retriever,
    index: ResourceAny,
}

impl IndexSession {
    /// Loads an index from its segments, in the site's order.
    pub fn load(
        runtime: &PluginRuntime,
        plugin: &LoadedPlugin,
        segments: &[Vec<u8>],
        work: &str,
    ) -> Result<Self, PluginError> {
        let (mut session, bindings) = instantiate(runtime, plugin, work)?;
        let task = "loading the index";
        let loaded = session.call(task, |store| {
            bindings
                .quire_plugins_retrieve()
                .index()
                .call_load(store, segments)
        })?;
        let index = loaded.map_err(|fault| session.reported(task, fault_message(fault)))?;
        Ok(Self {
            session,
            bindings,
            index,
        })
    }

    pub fn search(&mut self, query: &Query) -> Result<Vec<Hit>, PluginError> {
        let task = "searching";
        let (bindings, index) = (&self.bindings, self.index);
        let hits = self
            .session
            .call(task, |store| {
                bindings
                    .quire_plugins_retrieve()
                    .index()
                    .call_search(store, index, query)
            })?
            .map_err(|fault| self.session.reported(task, fault_message(fault)))?;
        let size = hits.iter().map(|h| h.section.text.len()).sum();
        self.session.check_output(task, size)?;
        Ok(hits)
    }

    /// Whether an earlier failure made this instance unusable (it is then replaced).
    pub fn is_poisoned(&self) -> bool {
        self.session.is_poisoned()
    }
}
