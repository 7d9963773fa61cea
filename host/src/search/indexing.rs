//! Building a content version's search index at publish time: every page goes through the
//! render pipeline (the renderer extracts its sections) and the sections into the retriever's
//! index builder;
//! long sections are cut into windows and tiny ones folded first (`sectioning`), and the host
//! counts their words as it goes (`vocabulary`).

use std::path::Path;

use super::sectioning;
use crate::plugins::{IndexBuilderSession, IndexSection, PluginError, Plugins};
use crate::rendering::{RenderCache, RenderError, SiteRender, Sources};
use crate::sites::SiteManifest;
use quire_answer::vocabulary::Vocabulary;

/// Sections handed to the retriever per call.
const BATCH: usize = 256;

/// A built index and what went into it.
pub struct BuiltIndex {
    pub bytes: Vec<u8>,
    pub sections: usize,
    /// The sections' words, counted.
    pub vocabulary: Vocabulary,
    /// Pages the renderer failed on, with the reason; they are not searchable.
    pub skipped: Vec<(String, String)>,
}

/// Why a version's index could not be built.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The retriever needs more memory for this site's sections than its limit allows.
    #[error(
        "{0}; a site this large needs a larger limit for the retriever ([plugins.limits.retriever] memory_limit_mib)"
    )]
    OutOfMemory(PluginError),
    #[error(transparent)]
    Plugin(PluginError),
    #[error(transparent)]
    Render(#[from] RenderError),
}

impl From<PluginError> for IndexError {
    fn from(error: PluginError) -> Self {
        match error {
            PluginError::Memory { .. } => Self::OutOfMemory(error),
            other => Self::Plugin(other),
        }
    }
}

/// Renders every searchable page of the site folder `root` through the render pipeline and
/// indexes its sections, in the manifest's order. A page the renderer fails on is skipped (and
/// reported): one bad page never makes a whole version unsearchable. Pages found in `cache` are
/// reused, and those rendered are kept there.
pub fn build_index(
    plugins: &Plugins,
    manifest: &SiteManifest,
    version: &str,
    root: &Path,
    cache: Option<&RenderCache>,
) -> Result<BuiltIndex, IndexError> {
    let work = format!("indexing version {version}");
    // The index builder, or the retriever's first failure: that ends the index but, with a
    // cache, not the rendering, so the export that follows still finds every page rendered.
    let mut builder =
        match IndexBuilderSession::start(&plugins.runtime, &plugins.retriever.current(), &work) {
            Err(e) if cache.is_none() => return Err(e.into()),
            started => started,
        };
    let mut batch = Vec::with_capacity(BATCH);
    let mut sections = 0;
    let mut vocabulary = Vocabulary::new();
    let mut skipped = Vec::new();
    // Pages readers cannot reach are left out of the index unless the site says otherwise
    // (`searchable`). With a cache they are rendered all the same, so the export that follows
    // renders nothing again.
    let render = SiteRender {
        manifest,
        version,
        pages: manifest
            .pages
            .iter()
            .filter(|page| cache.is_some() || page.searchable)
            .collect(),
        sources: Sources::Folder(root),
        cancel: None,
        work: &work,
        cache,
    };
    let prepared = render.prepare(plugins);
    prepared.pages(|rendered| {
        let page = rendered.page;
        if !page.searchable || builder.is_err() {
            return Ok::<_, IndexError>(());
        }
        if let Some(failure) = rendered.failure {
            skipped.push((page.file.clone(), failure.to_string()));
            return Ok::<_, IndexError>(());
        }
        let output = rendered.output;
        let units = sectioning::index_units(
            &output.title,
            output.description.as_deref(),
            output.sections,
        );
        for section in units {
            vocabulary.add_section(&format!(
                "{} {}",
                section.heading_trail.join(" "),
                section.text
            ));
            batch.push(IndexSection {
                path: page.path.clone(),
                anchor: section.anchor,
                title: output.title.clone(),
                heading_trail: section.heading_trail,
                text: section.text,
                version: page.version.clone(),
                language: page.language.clone(),
            });
        }
        if batch.len() >= BATCH {
            sections += batch.len();
            if let Ok(Err(e)) = builder.as_mut().map(|b| b.add(&batch)) {
                if cache.is_none() {
                    return Err(e.into());
                }
                builder = Err(e);
            }
            batch.clear();
        }
        Ok(())
    })?;
    let counts = prepared.counts();
    tracing::info!(
        version,
        rendered = counts.rendered,
        reused = counts.reused,
        "pages rendered for the search index"
    );
    let mut builder = builder?;
    sections += batch.len();
    builder.add(&batch)?;
    let bytes = builder.finish()?;
    Ok(BuiltIndex {
        bytes,
        sections,
        vocabulary,
        skipped,
    })
}
