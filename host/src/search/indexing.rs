//! Building a content version's search index at publish time: every page goes through the
//! renderer (which extracts its sections) and the sections into the retriever's index builder.

use std::path::Path;

use crate::plugins::{
    IndexBuilderSession, IndexSection, PageInput, PluginError, Plugins, RendererSession,
};
use crate::sites::SiteManifest;

/// Sections handed to the retriever per call.
const BATCH: usize = 256;

/// A built index and what went into it.
pub struct BuiltIndex {
    pub bytes: Vec<u8>,
    pub sections: usize,
    /// Pages the renderer failed on, with the reason; they are not searchable.
    pub skipped: Vec<(String, String)>,
}

/// Renders every page of the site folder `root` and indexes its sections. A page the renderer
/// fails on is skipped (and reported), with a fresh renderer for the next page: one bad page
/// never makes a whole version unsearchable.
pub fn build_index(
    plugins: &Plugins,
    manifest: &SiteManifest,
    version: &str,
    root: &Path,
) -> Result<BuiltIndex, PluginError> {
    let work = format!("indexing version {version}");
    let site = manifest.site_info(version, |file| {
        std::fs::read_to_string(root.join(file)).ok()
    });
    let (renderer_plugin, retriever_plugin) =
        (plugins.renderer.current(), plugins.retriever.current());
    let open = || RendererSession::open(&plugins.runtime, &renderer_plugin, &site, &work);
    let mut renderer = open()?;
    let mut builder = IndexBuilderSession::start(&plugins.runtime, &retriever_plugin, &work)?;
    let mut batch = Vec::with_capacity(BATCH);
    let (mut sections, mut skipped) = (0, Vec::new());
    for page in &manifest.pages {
        let read = match &page.generated {
            Some(source) => Ok(source.clone().into_bytes()),
            None => std::fs::read(root.join(&page.file)),
        };
        let source = match read {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                skipped.push((page.file.clone(), e.to_string()));
                continue;
            }
        };
        let input = PageInput {
            path: page.path.clone(),
            file: page.file.clone(),
            source,
            modified: page.modified,
        };
        let rendered = match renderer.render_page(&input) {
            Ok(rendered) => rendered,
            Err(e) => {
                skipped.push((page.file.clone(), e.to_string()));
                renderer = open()?;
                continue;
            }
        };
        for section in rendered.sections {
            batch.push(IndexSection {
                path: page.path.clone(),
                anchor: section.anchor,
                title: rendered.title.clone(),
                heading_trail: section.heading_trail,
                text: section.text,
                version: page.version.clone(),
                language: page.language.clone(),
            });
        }
        if batch.len() >= BATCH {
            sections += batch.len();
            builder.add(&batch)?;
            batch.clear();
        }
    }
    sections += batch.len();
    builder.add(&batch)?;
    let bytes = builder.finish()?;
    Ok(BuiltIndex {
        bytes,
        sections,
        skipped,
    })
}
