//! The one render pipeline: the pages of a site version through the renderer component, each
//! once, on the render pool (`pool`), in the manifest's order, with their sources read from a
//! folder or from object storage (`sources`). Publishing's search index, the export's files
//! and `quire build` all take their pages from here, so a page is read, rendered and, when the
//! renderer fails on it, replaced by the same fallback whatever it is rendered for. It knows
//! nothing of jobs, stores or archives: its caller decides what a rendered page becomes.
//! With a render cache (`cache`), a page whose inputs are unchanged is reused, not rendered.

mod cache;
mod keys;
mod pool;
mod source_facts;
mod sources;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use crate::bundle::fallback_page;
use crate::plugins::{
    LoadedPlugin, OutputFile, PageInput, PluginError, Plugins, RenderedPage, RendererSession,
    SiteInfo, SiteOutput, Warning,
};
use crate::sites::{PageEntry, SiteManifest};

pub use cache::RenderCache;
pub use keys::PageKey;
pub use pool::render_threads;
pub use sources::Sources;

/// Why a render run stopped. One page never stops it: a page the renderer fails on comes back
/// as a fallback page.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The renderer could not be set up for the site (it does not instantiate, or refuses the
    /// site's settings).
    #[error(transparent)]
    Plugin(#[from] PluginError),
    #[error("cannot read {file}: {message}")]
    Read { file: String, message: String },
    #[error("storage error: {0}")]
    Storage(#[from] opendal::Error),
    #[error("the page sources ended before the pages did")]
    SourcesEnded,
    #[error("the run was cancelled")]
    Cancelled,
}

/// One run: which pages of which site version, read from where.
pub struct SiteRender<'a> {
    pub manifest: &'a SiteManifest,
    /// The content version's label, as renderers are told it.
    pub version: &'a str,
    /// The pages to render, in the order they come back.
    pub pages: Vec<&'a PageEntry>,
    pub sources: Sources<'a>,
    /// Stops the run before the next page is read, once cancelled.
    pub cancel: Option<&'a CancellationToken>,
    /// Names the run in logs and plugin errors (`job 123`, `indexing version v1`).
    pub work: &'a str,
    /// Where rendered pages are kept and reused from, if anywhere.
    pub cache: Option<&'a RenderCache>,
    /// Which of `pages` come back to the caller. With a cache, the others are only made sure
    /// of: rendered and kept when missing, and when found, not even read out of their entry
    /// (a publish keeps every page for the export that follows but indexes only some).
    /// Without one, every page comes back.
    pub given_back: fn(&PageEntry) -> bool,
}

/// [`SiteRender::given_back`] for a run that wants every page back.
pub fn every_page(_: &PageEntry) -> bool {
    true
}

/// One page, rendered, with what the run's `prepare` made of it (`pages_prepared`).
pub struct PageRendered<'a, P = ()> {
    pub page: &'a PageEntry,
    /// The page's source, as read; `None` for a page `kept` stood in for whose source was
    /// not needed to key it (`source_facts`): the caller reads it if it needs it.
    pub source: Option<String>,
    /// The SHA-256 of `source`'s bytes, where the version's manifest gives it: the page's
    /// file read whole as UTF-8 (a page the navigation generates, or a file read with
    /// replacement characters, has none).
    pub source_sha256: Option<[u8; 32]>,
    /// What the renderer made of the page; where it failed, a plain page showing the source
    /// (`bundle::fallback_page`) with a warning that says so. `None` where what `prepare`
    /// makes of the page was kept (the `kept` of [`Prepared::pages_kept`]): the page is then
    /// not read.
    pub output: Option<RenderedPage>,
    /// Why the renderer failed on the page, when `output` is the fallback.
    pub failure: Option<PluginError>,
    /// Taken from the render cache rather than rendered.
    pub reused: bool,
    /// What `prepare` made of `output` on the rendering thread; `None` for a fallback page,
    /// which is made on the calling thread.
    pub prepared: Option<P>,
}

/// How many pages a run rendered and how many it took from the render cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenderCounts {
    pub rendered: u64,
    pub reused: u64,
}

/// A run ready to render: the site as the renderer sees it, and the renderer component, taken
/// once (one replaced while the run goes on serves the runs after it). The site-wide calls
/// share one session; the pages have one per thread.
pub struct Prepared<'a> {
    render: &'a SiteRender<'a>,
    plugins: &'a Plugins,
    renderer: Arc<LoadedPlugin>,
    site: SiteInfo,
    /// The session of the site-wide calls (assets, site output), apart from the pages'.
    site_session: Mutex<Option<RendererSession>>,
    /// What the pages' cache keys share, when the run has a cache.
    site_key: Option<keys::SiteKey>,
    rendered: AtomicU64,
    reused: AtomicU64,
}

impl<'a> SiteRender<'a> {
    /// Reads what the renderer is given of the whole site (snippets, API documents, the
    /// navigation) and takes the current renderer component.
    pub fn prepare(&'a self, plugins: &'a Plugins) -> Prepared<'a> {
        let site = self
            .manifest
            .site_info(self.version, |file| self.sources.read_text(file));
        let renderer = plugins.renderer.current();
        let site_key = self
            .cache
            .and_then(|_| keys::SiteKey::of(&renderer.sha256, quire_runtime::HIGHLIGHTER, &site));
        Prepared {
            render: self,
            plugins,
            renderer,
            site,
            site_session: Mutex::new(None),
            site_key,
            rendered: AtomicU64::new(0),
            reused: AtomicU64::new(0),
        }
    }
}

impl Prepared<'_> {
    /// The pages rendered and reused so far.
    pub fn counts(&self) -> RenderCounts {
        RenderCounts {
            rendered: self.rendered.load(Ordering::Relaxed),
            reused: self.reused.load(Ordering::Relaxed),
        }
    }

    /// The files every page shares (stylesheets, scripts), from the site-wide session.
    pub fn assets(&self) -> Result<Vec<OutputFile>, RenderError> {
        self.with_site_session(|session| session.assets())
    }

    /// What belongs to the whole site, asked once after the pages on the site-wide session: the
    /// files the pages' `needs` named, and the problems in the site's settings.
    pub fn site_output(&self, needs: &BTreeSet<String>) -> Result<SiteOutput, RenderError> {
        let needs: Vec<String> = needs.iter().cloned().collect();
        self.with_site_session(|session| session.site_output(&needs))
    }

    /// Runs `call` on the site-wide session, opened on first use. A call that fails leaves no
    /// session behind (its instance may be broken), so the next one opens a fresh one.
    fn with_site_session<T>(
        &self,
        call: impl FnOnce(&mut RendererSession) -> Result<T, PluginError>,
    ) -> Result<T, RenderError> {
        let mut held = self
            .site_session
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut session = match held.take() {
            Some(session) => session,
            None => RendererSession::open(
                &self.plugins.runtime,
                &self.renderer,
                &self.site,
                self.render.work,
            )?,
        };
        let result = call(&mut session)?;
        *held = Some(session);
        Ok(result)
    }

    /// Renders every page of the run on `plugins.render_threads` threads and gives each to
    /// `on_page` on the calling thread, in the run's order, so what `on_page` builds is the
    /// same whatever the number of threads. `on_page`'s first error stops the run and is
    /// returned.
    pub fn pages<E>(&self, on_page: impl FnMut(PageRendered<'_>) -> Result<(), E>) -> Result<(), E>
    where
        E: From<RenderError>,
    {
        self.pages_prepared(|_, _, _| (), on_page)
    }

    /// [`Prepared::pages_prepared`] for a caller that keeps what `prepare` makes beside each
    /// page (under a key [`PageKey::derived`] from the page's): where `kept` finds it for a page
    /// the cache holds, it stands in for the page, which is not read, and the page comes to
    /// `on_page` with no output. A publish indexes a large site's unchanged pages this way.
    pub fn pages_kept<P, E>(
        &self,
        prepare: impl Fn(&PageEntry, Option<&PageKey>, &mut RenderedPage) -> P + Sync,
        kept: impl Fn(&PageEntry, &PageKey) -> Option<P> + Sync,
        on_page: impl FnMut(PageRendered<'_, P>) -> Result<(), E>,
    ) -> Result<(), E>
    where
        P: Send,
        E: From<RenderError>,
    {
        self.run(
            &prepare,
            &|page: &&PageEntry, key: &PageKey| kept(page, key),
            on_page,
        )
    }

    /// [`Prepared::pages`], with `prepare` run on each rendered or reused page on the thread
    /// that has it, before the page is handed to `on_page`: the work a caller does on every
    /// page runs on every core rather than on the calling thread alone. `prepare` is given
    /// the page's render key when the run has a cache, to keep what it makes under a key
    /// derived from it ([`PageKey::derived`]).
    pub fn pages_prepared<P, E>(
        &self,
        prepare: impl Fn(&PageEntry, Option<&PageKey>, &mut RenderedPage) -> P + Sync,
        on_page: impl FnMut(PageRendered<'_, P>) -> Result<(), E>,
    ) -> Result<(), E>
    where
        P: Send,
        E: From<RenderError>,
    {
        self.run(&prepare, &|_: &&PageEntry, _: &PageKey| None, on_page)
    }

    /// The run behind [`Prepared::pages_prepared`] and [`Prepared::pages_kept`]. A page whose
    /// source this process has seen under the same SHA-256 (`source_facts`) is keyed without
    /// reading its source; the source is read only when `kept` has nothing for it, on the
    /// thread that takes it, and otherwise the page comes to `on_page` with no source at all.
    fn run<P, E>(
        &self,
        prepare: &(impl Fn(&PageEntry, Option<&PageKey>, &mut RenderedPage) -> P + Sync),
        kept: &(impl Fn(&&PageEntry, &PageKey) -> Option<P> + Sync),
        mut on_page: impl FnMut(PageRendered<'_, P>) -> Result<(), E>,
    ) -> Result<(), E>
    where
        P: Send,
        E: From<RenderError>,
    {
        let render = self.render;
        // The manifest's digests of the pages' sources, for their keys and their Markdown's
        // (a page the navigation generates has none: its source is hashed).
        let digests: HashMap<&str, [u8; 32]> = render
            .manifest
            .files
            .iter()
            .filter_map(|file| {
                let digest = keys::source_digest(file.sha256.as_deref()?)?;
                Some((file.path.as_str(), digest))
            })
            .collect();
        // Pages keyed without their sources: only where what stands in for a page is read
        // from a local cache (`kept`), as the pool's `kept` is.
        let local_cache = render.cache.is_some_and(RenderCache::reads_are_local);
        let facts_context = self.site_key.as_ref().map(keys::SiteKey::facts_context);
        let known_facts: Vec<Option<Arc<source_facts::SourceFacts>>> = render
            .pages
            .iter()
            .map(|page| {
                let context = facts_context.filter(|_| local_cache)?;
                if page.generated.is_some() {
                    return None;
                }
                source_facts::get(&context.key(digests.get(page.file.as_str())?, &page.file))
            })
            .collect();
        let stored: Vec<String> = render
            .pages
            .iter()
            .zip(&known_facts)
            .filter(|(page, known)| page.generated.is_none() && known.is_none())
            .map(|(page, _)| page.file.clone())
            .collect();
        let mut reads = render.sources.read_in_order(stored);
        // Files that were not UTF-8, so that their sources are not their bytes (rare).
        let replaced: Mutex<HashSet<String>> = Mutex::default();
        let shows_dates = self.render.manifest.settings().metadata.timestamp;
        let inputs = render.pages.iter().zip(known_facts).map(|(page, known)| {
            if render.cancel.is_some_and(CancellationToken::is_cancelled) {
                return Err(RenderError::Cancelled.into());
            }
            let given_back = (render.given_back)(page);
            // A page whose facts are known, keyed now, its source read only if it is needed.
            let unread = known.and_then(|facts| {
                let site = self.site_key.as_ref()?;
                let modified = page
                    .modified
                    .filter(|_| facts.shows_date(shows_dates.unwrap_or(false)));
                let key = site.page_of(
                    (&page.path, &page.file, modified),
                    digests.get(page.file.as_str())?,
                    facts.references.as_deref(),
                )?;
                let input = PageInput {
                    path: page.path.clone(),
                    file: page.file.clone(),
                    source: String::new(),
                    modified,
                };
                Some((input, pool::Keying::Unread { key, given_back }))
            });
            if let Some((input, keying)) = unread {
                return Ok::<_, E>((*page, input, Some(keying)));
            }
            // Pages the navigation generates (API operations) carry their source.
            let bytes = match &page.generated {
                Some(source) => source.clone().into_bytes(),
                None => reads.next_file()?,
            };
            // Taken as it is when it is UTF-8, as sources nearly always are: no copy.
            let source = String::from_utf8(bytes).unwrap_or_else(|e| {
                replaced
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .insert(page.file.clone());
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            });
            // The date goes only to a page that shows it, so a page's output (and its cache
            // key) does not change with its file's time alone: a fresh checkout renders
            // nothing again.
            let modified = page.modified.filter(|_| {
                source_facts::frontmatter_timestamp(&source).unwrap_or(shows_dates.unwrap_or(false))
            });
            let input = PageInput {
                path: page.path.clone(),
                file: page.file.clone(),
                source,
                modified,
            };
            let keying = match (render.cache, &self.site_key) {
                (Some(cache), Some(_)) if cache.reads_are_local() => {
                    Some(pool::Keying::OnThread { given_back })
                }
                // Started now, a remote lookup overlaps those of the pages queued before it.
                (Some(cache), Some(site)) => site
                    .page(&input, digests.get(input.file.as_str()))
                    .map(|key| pool::Keying::Started(cache.start(key, given_back))),
                _ => None,
            };
            Ok::<_, E>((*page, input, keying))
        });
        // Keys a read page on the thread that has it, keeping what the key read of its source
        // for the next run (a file read whole as UTF-8 only: its digest is its source's).
        // The digests of sources the manifest does not list (a site folder's), computed once
        // for a page's key and given with the page, so its Markdown is not hashed again.
        let computed: Mutex<HashMap<String, [u8; 32]>> = Mutex::default();
        let key_of = |input: &PageInput| {
            let site = self.site_key.as_ref()?;
            let known = digests.get(input.file.as_str());
            let (Some(context), Some(digest)) = (facts_context, known) else {
                if known.is_some() {
                    return site.page(input, known);
                }
                let digest = keys::digest_of(&input.source);
                let key = site.page(input, Some(&digest));
                computed
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .insert(input.file.clone(), digest);
                return key;
            };
            let facts = site.facts(&input.source, &input.file);
            let key = site.page_of(
                (&input.path, &input.file, input.modified),
                digest,
                facts.references.as_deref(),
            );
            let whole = !replaced
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .contains(&input.file);
            if whole {
                source_facts::put(context.key(digest, &input.file), Arc::new(facts));
            }
            key
        };
        let read_source = |file: &str| -> Result<String, RenderError> {
            let bytes = render.sources.read(file)?;
            // Its digest matched a UTF-8 source's, so it is one; lossy only against damage.
            Ok(String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
        };
        let rendered = pool::render_in_order(
            &self.plugins.runtime,
            &self.renderer,
            &self.site,
            render.cache,
            render.work,
            self.plugins.render_threads,
            inputs,
            (&key_of, &read_source),
            (
                &|page: &&PageEntry, key: Option<&PageKey>, output: &mut RenderedPage| {
                    prepare(page, key, output)
                },
                kept,
            ),
            |page, input, outcome| {
                let metrics = crate::metrics::get();
                let (counter, metric) = if outcome.reused {
                    (&self.reused, &metrics.pages_reused)
                } else {
                    (&self.rendered, &metrics.pages_rendered)
                };
                counter.fetch_add(1, Ordering::Relaxed);
                metric.inc();
                let (output, failure) = match outcome.output {
                    Some(Ok(output)) => (Some(output), None),
                    Some(Err(failure)) => {
                        (Some(fallback(page, &input.source, &failure)), Some(failure))
                    }
                    // What the caller kept of the page stands in for it.
                    None if outcome.prepared.is_some() => (None, None),
                    // Kept, and not the caller's.
                    None => return Ok(()),
                };
                let source_is_file = page.generated.is_none()
                    && !replaced
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .contains(&page.file);
                on_page(PageRendered {
                    page,
                    source_sha256: digests
                        .get(page.file.as_str())
                        .copied()
                        .or_else(|| {
                            computed
                                .lock()
                                .unwrap_or_else(|poisoned| poisoned.into_inner())
                                .remove(page.file.as_str())
                        })
                        .filter(|_| source_is_file),
                    source: (!outcome.source_unread).then_some(input.source),
                    output,
                    failure,
                    reused: outcome.reused,
                    prepared: outcome.prepared,
                })
            },
        );
        // Every page kept in the cache is there once the run is over.
        if let Some(cache) = render.cache {
            cache.flush();
        }
        rendered
    }
}

/// The plain page that stands in for one the renderer failed on, with a warning saying so.
fn fallback(page: &PageEntry, source: &str, failure: &PluginError) -> RenderedPage {
    let mut fallback = fallback_page(&page.path, &page.title, source, &failure.to_string());
    fallback.warnings.push(Warning {
        file: page.file.clone(),
        line: None,
        message: format!("the page could not be rendered and is exported as plain text: {failure}"),
    });
    fallback
}
