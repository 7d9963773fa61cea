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
    /// The page's source, as read.
    pub source: String,
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

    /// The run behind [`Prepared::pages_prepared`] and [`Prepared::pages_kept`].
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
        let stored: Vec<String> = render
            .pages
            .iter()
            .filter(|page| page.generated.is_none())
            .map(|page| page.file.clone())
            .collect();
        let mut reads = render.sources.read_in_order(stored);
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
        // Files that were not UTF-8, so that their sources are not their bytes (rare).
        let replaced: Mutex<HashSet<String>> = Mutex::default();
        let shows_dates = self.render.manifest.settings().metadata.timestamp;
        let inputs = render.pages.iter().map(|page| {
            if render.cancel.is_some_and(CancellationToken::is_cancelled) {
                return Err(RenderError::Cancelled.into());
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
            let modified = page
                .modified
                .filter(|_| shows_date(&source, shows_dates.unwrap_or(false)));
            let input = PageInput {
                path: page.path.clone(),
                file: page.file.clone(),
                source,
                modified,
            };
            let given_back = (render.given_back)(page);
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
        let rendered = pool::render_in_order(
            &self.plugins.runtime,
            &self.renderer,
            &self.site,
            render.cache,
            render.work,
            self.plugins.render_threads,
            inputs,
            &|input: &PageInput| {
                let known = digests.get(input.file.as_str());
                self.site_key.as_ref()?.page(input, known)
            },
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
                        .filter(|_| source_is_file),
                    source: input.source,
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

/// Whether the page `source` shows its "last modified" date: its frontmatter's `timestamp`,
/// else the site's `metadata.timestamp` (`site_default`). Runs for every page on the reading
/// thread, so the YAML is parsed only when it names the field.
fn shows_date(source: &str, site_default: bool) -> bool {
    match quire_core::frontmatter::block(source) {
        Some(block) if block.yaml.contains("timestamp") => {
            quire_core::frontmatter::read(block.yaml)
                .0
                .timestamp
                .unwrap_or(site_default)
        }
        _ => site_default,
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

#[cfg(test)]
mod tests {
    use super::shows_date;

    #[test]
    fn a_page_shows_its_date_as_its_frontmatter_or_else_the_site_says() {
        assert!(!shows_date("# A\n", false));
        assert!(shows_date("# A\n", true));
        assert!(shows_date("---\ntitle: A\n---\n# A\n", true));
        assert!(shows_date("---\ntimestamp: true\n---\n# A\n", false));
        assert!(!shows_date(
            "---\ntitle: A\ntimestamp: false\n---\n# A\n",
            true
        ));
    }
}
