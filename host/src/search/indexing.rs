//! Building a content version's search index at publish time: every page goes through the
//! renderer (which extracts its sections) and the sections into the retriever's index builder;
//! long sections are cut into windows and tiny ones folded first (`sectioning`), and the host
//! counts their words as it goes (`vocabulary`).

use std::path::Path;

use super::sectioning;
use super::vocabulary::Vocabulary;
use crate::plugins::{IndexBuilderSession, IndexSection, PageInput, PluginError, Plugins};
use crate::sites::SiteManifest;

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

/// Renders every searchable page of the site folder `root` (on the configured number of threads) and
/// indexes its sections, in the manifest's order. A page the renderer fails on is skipped (and
/// reported), with a fresh renderer for the next page: one bad page never makes a whole version
/// unsearchable.
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
    let mut builder = IndexBuilderSession::start(&plugins.runtime, &retriever_plugin, &work)?;
    let mut batch = Vec::with_capacity(BATCH);
    let mut sections = 0;
    let mut vocabulary = Vocabulary::new();
    let (mut unreadable, mut skipped) = (Vec::new(), Vec::new());
    // Pages readers cannot reach are left out unless the site says otherwise (`searchable`).
    let inputs = manifest
        .pages
        .iter()
        .filter(|page| page.searchable)
        .filter_map(|page| {
            let read = match &page.generated {
                Some(source) => Ok(source.clone().into_bytes()),
                None => std::fs::read(root.join(&page.file)),
            };
            match read {
                Ok(bytes) => Some(Ok((
                    page,
                    PageInput {
                        path: page.path.clone(),
                        file: page.file.clone(),
                        source: String::from_utf8_lossy(&bytes).into_owned(),
                        modified: page.modified,
                    },
                ))),
                Err(e) => {
                    unreadable.push((page.file.clone(), e.to_string()));
                    None
                }
            }
        });
    crate::plugins::render_in_order(
        &plugins.runtime,
        &renderer_plugin,
        &site,
        &work,
        plugins.render_threads,
        inputs,
        |page, _input, rendered| {
            let rendered = match rendered {
                Ok(rendered) => rendered,
                Err(e) => {
                    skipped.push((page.file.clone(), e.to_string()));
                    return Ok(());
                }
            };
            let units = sectioning::index_units(
                &rendered.title,
                rendered.description.as_deref(),
                rendered.sections,
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
            Ok(())
        },
    )?;
    sections += batch.len();
    builder.add(&batch)?;
    let bytes = builder.finish()?;
    skipped.extend(unreadable);
    Ok(BuiltIndex {
        bytes,
        sections,
        vocabulary,
        skipped,
    })
}
