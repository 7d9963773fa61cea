//! The assistant a built bundle carries (`quire build --assistant`): a folder has no published
//! version, so the search index the assistant answers from is built here as publishing builds
//! it (the configured retriever over every searchable page, through the render cache, so the
//! export that follows renders nothing again).

use std::path::Path;

use crate::bundle::assistant::{AssistantData, site_facts};
use crate::plugins::{OutputFile, Plugins};
use crate::rendering::RenderCache;
use crate::search::build_index;
use crate::sites::SiteManifest;

/// The assistant's files for the site folder `site` read as `manifest`, or `None` (and why, in
/// the log) when the host has no module or the index cannot be built or read.
pub fn assistant_files(
    plugins: &Plugins,
    manifest: &SiteManifest,
    label: &str,
    site: &Path,
    cache: Option<&RenderCache>,
) -> Option<Vec<OutputFile>> {
    let Some(module) = plugins.bundle_assistant.as_ref() else {
        tracing::warn!(
            "the bundle carries no assistant: quire_bundle_assistant.wasm is not beside the \
             plugins (scripts/build-plugins builds it)"
        );
        return None;
    };
    // Segments are kept beside the pages, so the next build indexes only the groups that
    // changed.
    let built = match build_index(plugins, manifest, label, site, cache, cache, true) {
        Ok(built) => built,
        Err(e) => {
            tracing::warn!("the bundle carries no assistant: its search index failed: {e}");
            return None;
        }
    };
    let data = AssistantData {
        index: quire_bundle_assistant::segments::join(&built.parts),
        vocabulary: Some(built.vocabulary.to_bytes()),
        site: site_facts(manifest),
    };
    if let Err(e) = data.check() {
        tracing::warn!("the bundle carries no assistant: {e}");
        return None;
    }
    Some(data.files(module))
}
