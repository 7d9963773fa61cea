//! A page's sections counted for the offline search index (`bundle::PageSections`), kept in
//! the render cache beside the page under a key derived from its render key. Counting them is
//! most of what an export of unchanged pages does (BENCHMARKS.md), and they follow from the
//! page's output, its path and its place in the navigation, which the derived key covers.

use crate::bundle::PageSections;
use crate::plugins::RenderedPage;
use crate::rendering::{PageKey, RenderCache};
use crate::sites::PageEntry;

/// Names what is kept. The host's tokenizer counts the terms, so another host version keys
/// apart.
const KIND: &str = concat!("page-sections/", env!("CARGO_PKG_VERSION"));

/// The sections of `output`, the page `page` rendered or found under `key`: kept ones when
/// `cache` has them, else counted (and kept, for the next export).
pub(super) fn counted(
    cache: Option<&RenderCache>,
    key: Option<&PageKey>,
    page: &PageEntry,
    output: &mut RenderedPage,
) -> PageSections {
    let (path, version, language) = (
        page.path.as_str(),
        page.version.as_deref(),
        page.language.as_deref(),
    );
    // Reading an entry from remote storage costs a round trip, more than counting does.
    let cache = cache.filter(|cache| cache.reads_are_local());
    let Some((cache, key)) = cache.zip(key).filter(|_| output.indexable) else {
        return PageSections::count(path, output, version, language);
    };
    let kept_key = key.derived(KIND, &[Some(path), version, language]);
    if let Some(sections) = cache
        .get_bytes(&kept_key)
        .and_then(|bytes| postcard::from_bytes::<PageSections>(&bytes).ok())
    {
        // As counting takes them: nothing after this reads a page's sections.
        output.sections.clear();
        return sections;
    }
    let sections = PageSections::count(path, output, version, language);
    if let Ok(bytes) = postcard::to_allocvec(&sections) {
        cache.put_bytes(&kept_key, &bytes);
    }
    sections
}
