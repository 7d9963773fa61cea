//! A renderer plugin set up for one export job: the site is opened once, then pages go through
//! one at a time.

use wasmtime::component::ResourceAny;

use super::bindings::renderer::{Renderer, RendererPre};
use super::error::fault_message;
use super::session::Session;
use super::{
    LoadedPlugin, OutputFile, PageInput, PluginError, PluginRuntime, RenderedPage, SiteInfo,
    SiteOutput,
};

/// An open `site-renderer` in its own store.
pub struct RendererSession {
    session: Session,
    bindings: Renderer,
    site: ResourceAny,
}

impl RendererSession {
    /// Instantiates `plugin` in a fresh store and opens `site` in it.
    pub fn open(
        runtime: &PluginRuntime,
        plugin: &LoadedPlugin,
        site: &SiteInfo,
        work: &str,
    ) -> Result<Self, PluginError> {
        let mut session = Session::new(runtime, plugin, work);
        let pre = RendererPre::new(plugin.pre.clone()).map_err(|e| PluginError::Instantiate {
            plugin: plugin.name.clone(),
            message: format!("{e:#}"),
        })?;
        let bindings = session.call("starting", |store| pre.instantiate(store))?;
        let task = "opening the site";
        let opened = session.call(task, |store| {
            bindings
                .quire_plugins_render()
                .site_renderer()
                .call_open(store, site)
        })?;
        let site = opened.map_err(|fault| session.reported(task, fault_message(fault)))?;
        Ok(Self {
            session,
            bindings,
            site,
        })
    }

    /// The files every page shares.
    pub fn assets(&mut self) -> Result<Vec<OutputFile>, PluginError> {
        let task = "writing the shared assets";
        let (bindings, site) = (&self.bindings, self.site);
        let files = self
            .session
            .call(task, |store| {
                bindings
                    .quire_plugins_render()
                    .site_renderer()
                    .call_assets(store, site)
            })?
            .map_err(|fault| self.session.reported(task, fault_message(fault)))?;
        let size = files.iter().map(|f| f.contents.len()).sum();
        self.session.check_output(task, size)?;
        Ok(files)
    }

    /// What belongs to the whole site: the files the pages' `needs` name, and the problems in
    /// the site's settings.
    pub fn site_output(&mut self, needs: &[String]) -> Result<SiteOutput, PluginError> {
        let task = "writing the site-wide files";
        let (bindings, site) = (&self.bindings, self.site);
        let output = self
            .session
            .call(task, |store| {
                bindings
                    .quire_plugins_render()
                    .site_renderer()
                    .call_site_output(store, site, needs)
            })?
            .map_err(|fault| self.session.reported(task, fault_message(fault)))?;
        let size = output.files.iter().map(|f| f.contents.len()).sum();
        self.session.check_output(task, size)?;
        Ok(output)
    }

    /// Renders one page.
    pub fn render_page(&mut self, page: &PageInput) -> Result<RenderedPage, PluginError> {
        let task = format!("rendering {}", page.file);
        let (bindings, site) = (&self.bindings, self.site);
        let rendered = self
            .session
            .call(&task, |store| {
                bindings
                    .quire_plugins_render()
                    .site_renderer()
                    .call_render_page(store, site, page)
            })?
            .map_err(|fault| self.session.reported(&task, fault_message(fault)))?;
        let size = rendered
            .files
            .iter()
            .map(|f| f.contents.len())
            .sum::<usize>()
            + rendered
                .sections
                .iter()
                .map(|s| s.text.len())
                .sum::<usize>();
        self.session.check_output(&task, size)?;
        Ok(rendered)
    }
}
