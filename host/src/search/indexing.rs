//! Building a content version's search index at publish time: every page goes through the
//! render pipeline (the renderer extracts its sections) and the sections, in groups of pages,
//! into the retriever's index builder (`segments`); long sections are cut into windows and
//! tiny ones folded first (`sectioning`), and the host counts their words (`vocabulary`).

use std::path::Path;

use super::sectioning;
use super::segments::{Group, Segment, SegmentKey};
use crate::plugins::{IndexSection, PluginError, Plugins};
use crate::rendering::{RenderCache, RenderError, SiteRender, Sources};
use crate::sites::SiteManifest;
use quire_answer::vocabulary::Vocabulary;

/// A built index and what went into it.
pub struct BuiltIndex {
    /// The index's segments' keys, in order, each where `build_index` was told to keep them.
    pub keys: Vec<SegmentKey>,
    /// The segments' bytes, in order, when asked for (a bundle's assistant answers from them).
    pub parts: Vec<Vec<u8>>,
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
/// reused, and those rendered are kept there; segments are taken from and kept in `kept`, and
/// their bytes returned with `keep_bytes`.
pub fn build_index(
    plugins: &Plugins,
    manifest: &SiteManifest,
    version: &str,
    root: &Path,
    cache: Option<&RenderCache>,
    kept: Option<&RenderCache>,
    keep_bytes: bool,
) -> Result<BuiltIndex, IndexError> {
    let work = format!("indexing version {version}");
    let retriever = plugins.retriever.current();
    let mut index = Segments::new(keep_bytes);
    let mut group = Group::new(&retriever);
    // The retriever's first failure ends the index but, with a cache, not the rendering, so
    // the export that follows still finds every page rendered.
    let mut failed: Option<PluginError> = None;
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
        if !page.searchable || failed.is_some() {
            return Ok::<_, IndexError>(());
        }
        if let Some(failure) = rendered.failure {
            skipped.push((page.file.clone(), failure.to_string()));
            return Ok::<_, IndexError>(());
        }
        let output = rendered.output;
        let sections = sectioning::index_units(
            &output.title,
            output.description.as_deref(),
            output.sections,
        )
        .into_iter()
        .map(|section| IndexSection {
            path: page.path.clone(),
            anchor: section.anchor,
            title: output.title.clone(),
            heading_trail: section.heading_trail,
            text: section.text,
            version: page.version.clone(),
            language: page.language.clone(),
        })
        .collect();
        if group.add_page(&page.path, sections) {
            let full = std::mem::replace(&mut group, Group::new(&retriever));
            match full.segment(plugins, &retriever, kept, &work) {
                Ok(segment) => index.push(segment),
                Err(e) if cache.is_some() => failed = Some(e),
                Err(e) => return Err(e.into()),
            }
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
    if let Some(e) = failed {
        return Err(e.into());
    }
    if !group.is_empty() {
        index.push(group.segment(plugins, &retriever, kept, &work)?);
    }
    tracing::info!(
        version,
        segments = index.keys.len(),
        reused = index.reused,
        "search index segments built"
    );
    Ok(BuiltIndex {
        keys: index.keys,
        parts: index.parts,
        sections: index.sections,
        vocabulary: index.vocabulary,
        skipped,
    })
}

/// The segments of an index, as they are built, and what they add up to.
struct Segments {
    keys: Vec<SegmentKey>,
    /// Kept only when asked for: a publish holds no more than one segment at a time.
    parts: Vec<Vec<u8>>,
    keep_bytes: bool,
    vocabulary: Vocabulary,
    sections: usize,
    reused: usize,
}

impl Segments {
    fn new(keep_bytes: bool) -> Self {
        Self {
            keys: Vec::new(),
            parts: Vec::new(),
            keep_bytes,
            vocabulary: Vocabulary::new(),
            sections: 0,
            reused: 0,
        }
    }

    fn push(&mut self, segment: Segment) {
        self.sections += segment.sections;
        self.reused += usize::from(segment.reused);
        let metrics = crate::metrics::get();
        match segment.reused {
            true => metrics.segments_reused.inc(),
            false => metrics.segments_built.inc(),
        };
        self.vocabulary.absorb(segment.vocabulary);
        self.keys.push(segment.key);
        if self.keep_bytes {
            self.parts.push(segment.index);
        }
    }
}
