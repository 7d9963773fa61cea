//! Building a content version's search index at publish time: every page goes through the
//! render pipeline (the renderer extracts its sections) and the sections, in groups of pages,
//! into the retriever's index builder (`segments`); long sections are cut into windows and
//! tiny ones folded first (`sectioning`), and the host counts their words (`vocabulary`).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{LazyLock, Mutex, MutexGuard};

use super::sectioning;
use super::segments::{Group, IndexedPage, Segment, SegmentError, SegmentKey};
use crate::memo::TwoGenerations;
use crate::plugins::{IndexSection, PluginError, Plugins, RenderedPage};
use crate::rendering::{PageKey, RenderCache, RenderError, SiteRender, Sources, render_threads};
use crate::sites::{PageEntry, SiteManifest};
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
    /// Kept sections this process knew of are gone: built again with every page read.
    #[error("kept index sections are gone from the render cache")]
    KeptGone,
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
    let run = |unread| {
        build_index_once(
            plugins,
            manifest,
            version,
            root,
            (cache, unread),
            kept,
            keep_bytes,
        )
    };
    match run(true) {
        Err(IndexError::KeptGone) => {
            tracing::warn!(
                version,
                "kept index sections were gone; indexing with every page read"
            );
            run(false)
        }
        built => built,
    }
}

/// [`build_index`], once: with `unread`, a page whose kept sections this process knows
/// (`KNOWN_INDEXED`) is not read unless its group's segment is built again.
fn build_index_once(
    plugins: &Plugins,
    manifest: &SiteManifest,
    version: &str,
    root: &Path,
    (cache, unread): (Option<&RenderCache>, bool),
    kept: Option<&RenderCache>,
    keep_bytes: bool,
) -> Result<BuiltIndex, IndexError> {
    let work = format!("indexing version {version}");
    let retriever = plugins.retriever.current();
    let mut group = Group::new(&retriever);
    let mut groups = 0;
    let mut skipped = Vec::new();
    // The retriever's first failure ends the index but, with a cache, not the rendering, so
    // the export that follows still finds every page rendered.
    let failed: Mutex<Option<PluginError>> = Mutex::new(None);
    let gone = AtomicBool::new(false);
    let has_failed = || lock(&failed).is_some() || gone.load(Ordering::Relaxed);
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
        // The rest are kept for the export that follows, and not read back here.
        given_back: |page| page.searchable,
    };
    let prepared = render.prepare(plugins);
    // Groups are formed here, in the pages' order, and their segments built (or found) on
    // threads of their own: after a small change the renderer's threads have nothing to do,
    // and a group's segment does not wait for the next pages.
    let threads = render_threads(plugins.render_threads);
    let (to_build, queued) = sync_channel::<(usize, Group)>(threads * 2);
    let queued = Mutex::new(queued);
    let (done, finished) = channel::<(usize, Segment)>();
    let kept_cache = cache.filter(|cache| cache.reads_are_local());
    let built = std::thread::scope(|scope| {
        for _ in 0..threads {
            let (queued, done, failed, gone) = (&queued, done.clone(), &failed, &gone);
            let (retriever, work) = (&retriever, &work);
            scope.spawn(move || {
                loop {
                    // Taken apart from the loop's condition, whose lock would be held for the
                    // whole iteration and let one thread build at a time.
                    let next = lock(queued).recv();
                    let Ok((n, group)) = next else { break };
                    if lock(failed).is_some() || gone.load(Ordering::Relaxed) {
                        continue;
                    }
                    match group.segment(plugins, retriever, (kept, keep_bytes), kept_cache, work) {
                        Ok(mut segment) => {
                            if !keep_bytes {
                                segment.index = Vec::new();
                            }
                            let _ = done.send((n, segment));
                        }
                        Err(SegmentError::Plugin(e)) => {
                            lock(failed).get_or_insert(e);
                        }
                        Err(SegmentError::KeptGone) => gone.store(true, Ordering::Relaxed),
                    }
                }
            });
        }
        drop(done);
        let prepare = |page: &PageEntry, key: Option<&PageKey>, output: &mut RenderedPage| {
            let indexed = page_sections(page, output);
            if let (Some(cache), Some(key)) = (kept_cache, key) {
                keep_indexed(cache, page, key, &indexed);
            }
            indexed
        };
        let kept = |page: &PageEntry, key: &PageKey| {
            let indexed = kept_indexed(kept_cache?, page, key, unread)?;
            crate::metrics::get().index_pages_kept.inc();
            Some(indexed)
        };
        let rendered = prepared.pages_kept(prepare, kept, |rendered| {
            let page = rendered.page;
            // Without a cache the rendering is for the index alone, and stops with it.
            if cache.is_none()
                && let Some(e) = lock(&failed).take()
            {
                return Err(IndexError::from(e));
            }
            if has_failed() {
                return Ok(());
            }
            if !page.searchable {
                return Ok(());
            }
            if let Some(failure) = rendered.failure {
                skipped.push((page.file.clone(), failure.to_string()));
                return Ok(());
            }
            // Made for every page rendered or found; a fallback page has failed above.
            let Some(sections) = rendered.prepared else {
                return Ok(());
            };
            if group.add_page(&page.path, sections) {
                let full = std::mem::replace(&mut group, Group::new(&retriever));
                let _ = to_build.send((groups, full));
                groups += 1;
            }
            Ok(())
        });
        if rendered.is_ok() && !group.is_empty() {
            let last = std::mem::replace(&mut group, Group::new(&retriever));
            let _ = to_build.send((groups, last));
            groups += 1;
        }
        drop(to_build);
        rendered
    });
    built?;
    if gone.load(Ordering::Relaxed) {
        return Err(IndexError::KeptGone);
    }
    let counts = prepared.counts();
    tracing::info!(
        version,
        rendered = counts.rendered,
        reused = counts.reused,
        "pages rendered for the search index"
    );
    if let Some(e) = lock(&failed).take() {
        return Err(e.into());
    }
    let mut segments: Vec<(usize, Segment)> = finished.into_iter().collect();
    if segments.len() != groups {
        return Err(IndexError::Plugin(PluginError::Engine(
            "a search index segment was lost".into(),
        )));
    }
    segments.sort_by_key(|(n, _)| *n);
    let mut index = Segments::new();
    for (_, segment) in segments {
        index.push(segment);
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
    /// Empty unless asked for: a publish does not hold the whole index at once.
    parts: Vec<Vec<u8>>,
    vocabulary: Vocabulary,
    sections: usize,
    reused: usize,
}

impl Segments {
    fn new() -> Self {
        Self {
            keys: Vec::new(),
            parts: Vec::new(),
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
        if !segment.index.is_empty() {
            self.parts.push(segment.index);
        }
    }
}

/// `mutex`'s value; a thread that panicked holding it left nothing half-done worth refusing.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Names a page's index sections kept beside it. They are cut by the host (`sectioning`), so
/// another host version keys apart; the number changes with how they are cut or stored.
const INDEXED_KIND: &str = concat!("indexed-page/2/", env!("CARGO_PKG_VERSION"));

/// The key a page's index sections are kept under: they follow from its output, its path and
/// its scope, which the page's render key and these inputs cover.
fn indexed_key(page: &PageEntry, key: &PageKey) -> [u8; 32] {
    key.derived_at(INDEXED_KIND, page)
}

/// The digest and count of the index sections this process kept or read under each key:
/// a release of a large site finds almost every page's sections where it kept them, and
/// reading tens of thousands of entries only to hash their digests into the segments' keys
/// was most of what its index took. Two generations of this many entries (tens of bytes each).
static KNOWN_INDEXED: LazyLock<TwoGenerations<[u8; 32], DigestAndCount>> =
    LazyLock::new(|| TwoGenerations::new(64 * 1024));

/// A page's index sections as [`IndexedPage::digest_and_count`] gives them.
type DigestAndCount = ([u8; 32], u32);

/// Keeps `indexed`, the index sections of `page` rendered or found under `key`, beside it.
fn keep_indexed(cache: &RenderCache, page: &PageEntry, key: &PageKey, indexed: &IndexedPage) {
    if let Some(bytes) = indexed.to_stored() {
        let at = indexed_key(page, key);
        cache.put_bytes(&at, &bytes);
        KNOWN_INDEXED.put([(at, indexed.digest_and_count())]);
    }
}

/// The index sections kept in `cache` beside the page `page` rendered under `key`, if they
/// are there and check out; decoded only if their group's segment is built again. With
/// `unread`, sections this process knows are not even read: only if their group's segment
/// is built.
fn kept_indexed(
    cache: &RenderCache,
    page: &PageEntry,
    key: &PageKey,
    unread: bool,
) -> Option<IndexedPage> {
    let at = indexed_key(page, key);
    if unread && let Some((digest, count)) = KNOWN_INDEXED.get(&at) {
        return Some(IndexedPage::in_cache(digest, count, at));
    }
    let indexed = IndexedPage::from_stored(cache.get_bytes(&at)?)?;
    KNOWN_INDEXED.put([(at, indexed.digest_and_count())]);
    Some(indexed)
}

/// The index's sections of `page`, as `output` has them (taken out of it): long sections cut
/// into windows and tiny ones folded, each told its page, title and scope. Run on the thread
/// that has the page.
fn page_sections(page: &PageEntry, output: &mut RenderedPage) -> IndexedPage {
    let sections = sectioning::index_units(
        &output.title,
        output.description.as_deref(),
        std::mem::take(&mut output.sections),
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
    IndexedPage::new(sections)
}
