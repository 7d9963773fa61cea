//! Rendering a site's pages on several threads at once. Each thread opens a renderer session of
//! its own (a fresh store, as every session has), the caller's thread reads the pages and takes
//! the results back in the order it gave them, so an export's bundle and a version's index are
//! the same whatever the number of threads. A page whose call traps or runs out of time or
//! memory comes back as that error, and its thread opens a fresh session for the next page.
//! With a render cache, a thread first looks the page up by its key and renders only what it
//! does not find (opening its session only then), keeping what it rendered.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};

use super::RenderError;
use super::cache::{Lookup, RenderCache};
use super::keys::PageKey;
use crate::plugins::{
    LoadedPlugin, PageInput, PluginError, PluginRuntime, RenderedPage, RendererSession, SiteInfo,
};

/// Pages handed out ahead of the first one not yet taken back, per thread: enough to keep every
/// thread busy while one renders a slow page, few enough that the results waiting for it stay
/// small.
const AHEAD_PER_THREAD: usize = 32;

/// Pages handed to a thread at once, and given back at once. A page the cache holds takes a
/// few tens of microseconds, about what handing it over and back one by one cost in threads
/// parked and woken (a one-page release of a large site spent 8% of its CPU there,
/// BENCHMARKS.md); a handful at once keeps the threads as evenly busy.
const PAGES_PER_HANDOFF: usize = 8;

/// One page handed to a rendering thread, with the caller's tag and how it is looked up.
type Task<T> = (usize, T, PageInput, Option<Keying>);
/// A page back from a rendering thread, or the error that stopped the thread.
type Done<T, P> = Result<(usize, T, PageInput, Outcome<P>), RenderError>;

/// How a page is looked up in the render cache.
pub(super) enum Keying {
    /// Its lookup, started by the reading thread: remote storage reads ahead of the renderer.
    Started(Lookup),
    /// Keyed and looked up by the thread that takes it: a local cache is read as it is needed,
    /// and the key (a hash of the page's whole source) is then worked out on every core
    /// rather than on the one thread that reads the pages in order.
    OnThread { given_back: bool },
    /// Keyed by the reading thread without its source, which was not read: the thread that
    /// takes it reads the source only when the page must be rendered or given back whole.
    Unread { key: PageKey, given_back: bool },
}

/// What became of one page.
pub(super) struct Outcome<P> {
    /// `None` for a page not given back (`Lookup::given_back`): found in the cache, or
    /// rendered and kept there; and for a page whose `prepared` was kept (the caller's
    /// `kept`), which is not read.
    pub output: Option<Result<RenderedPage, PluginError>>,
    /// Taken from the render cache rather than rendered.
    pub reused: bool,
    /// What the caller's `prepare` made of the page on the rendering thread, when it was
    /// rendered or found.
    pub prepared: Option<P>,
    /// The page's source was never read (`Keying::Unread`): its input's is empty.
    pub source_unread: bool,
}

/// Reads the source of a page that came unread, by its file.
pub(super) trait ReadSource: Fn(&str) -> Result<String, RenderError> + Sync {}
impl<F: Fn(&str) -> Result<String, RenderError> + Sync> ReadSource for F {}

/// How a thread keys a page read with its source, and reads the source of one that came
/// unread.
type SourceCalls<'a, K, R> = (&'a K, &'a R);

/// How many renderer sessions render at once: `configured`, or one per CPU core when it is 0.
pub fn render_threads(configured: usize) -> usize {
    if configured > 0 {
        configured
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// Renders `pages` with `plugin` on `threads` threads and gives each result to `on_page`, on
/// the calling thread and in the order of `pages`, with the tag and input it came with. A page
/// with a key is looked up in `cache` first, and kept there once rendered. `prepare` runs on
/// the rendering thread on each page rendered or found, so that work the caller does on every
/// page is shared out too; where `kept` has what `prepare` would make of a page the cache
/// holds, that stands in for the page. `key_of` keys a page read with its source;
/// `read_source` reads the source of one that came unread, when it is needed.
///
/// `pages` is pulled on the calling thread as the threads need work; its first error stops
/// the run and is returned, as is `on_page`'s first error. A session that cannot be opened
/// (the component does not instantiate, or its `open` fails) stops the run with that error.
#[allow(clippy::too_many_arguments)] // one run's parts, each needed by every thread
pub(super) fn render_in_order<T, P, E>(
    runtime: &PluginRuntime,
    plugin: &LoadedPlugin,
    site: &SiteInfo,
    cache: Option<&RenderCache>,
    work: &str,
    threads: usize,
    pages: impl IntoIterator<Item = Result<(T, PageInput, Option<Keying>), E>>,
    sources: SourceCalls<'_, impl Fn(&PageInput) -> Option<PageKey> + Sync, impl ReadSource>,
    (prepare, kept): (
        &(impl Fn(&T, Option<&PageKey>, &mut RenderedPage) -> P + Sync),
        &(impl Fn(&T, &PageKey) -> Option<P> + Sync),
    ),
    mut on_page: impl FnMut(T, PageInput, Outcome<P>) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    P: Send,
    E: From<RenderError>,
{
    let threads = threads.max(1);
    let ahead = threads * AHEAD_PER_THREAD;
    let (task_sender, task_receiver) = sync_channel::<Vec<Task<T>>>(ahead / PAGES_PER_HANDOFF + 1);
    let task_receiver = Mutex::new(task_receiver);
    let (done_sender, done_receiver) = channel::<Vec<Done<T, P>>>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done_sender = done_sender.clone();
            let task_receiver = &task_receiver;
            scope.spawn(move || {
                render_thread(
                    runtime,
                    plugin,
                    site,
                    cache,
                    work,
                    task_receiver,
                    sources,
                    (prepare, kept),
                    done_sender,
                )
            });
        }
        drop(done_sender);
        let result = collect(pages, ahead, &task_sender, &done_receiver, &mut on_page);
        // Closing the queue stops every thread once it finishes its page; the scope waits.
        drop(task_sender);
        result
    })
}

/// The calling thread's side: hands out pages, a few at a time, up to `ahead` past the next one
/// due, and takes results back in order.
fn collect<T, P, E>(
    pages: impl IntoIterator<Item = Result<(T, PageInput, Option<Keying>), E>>,
    ahead: usize,
    tasks: &std::sync::mpsc::SyncSender<Vec<Task<T>>>,
    done: &Receiver<Vec<Done<T, P>>>,
    on_page: &mut impl FnMut(T, PageInput, Outcome<P>) -> Result<(), E>,
) -> Result<(), E>
where
    E: From<RenderError>,
{
    let mut pages = pages.into_iter();
    let (mut handed_out, mut next_due) = (0usize, 0usize);
    let mut exhausted = false;
    let mut waiting = BTreeMap::new();
    loop {
        while !exhausted && handed_out < next_due + ahead {
            let mut batch = Vec::with_capacity(PAGES_PER_HANDOFF);
            while batch.len() < PAGES_PER_HANDOFF && handed_out < next_due + ahead {
                match pages.next() {
                    Some(page) => {
                        let (tag, input, lookup) = page?;
                        batch.push((handed_out, tag, input, lookup));
                        handed_out += 1;
                    }
                    None => {
                        exhausted = true;
                        break;
                    }
                }
            }
            if !batch.is_empty() && tasks.send(batch).is_err() {
                break; // every thread stopped; the error is on its way back
            }
        }
        if exhausted && next_due == handed_out {
            return Ok(());
        }
        let Ok(finished) = done.recv() else {
            return Err(RenderError::Plugin(PluginError::Engine(
                "every rendering thread stopped".into(),
            ))
            .into());
        };
        for page in finished {
            let (index, tag, input, outcome) = page?;
            waiting.insert(index, (tag, input, outcome));
        }
        while let Some((tag, input, outcome)) = waiting.remove(&next_due) {
            next_due += 1;
            on_page(tag, input, outcome)?;
        }
    }
}

/// One rendering thread: a session of its own, opened for the first page the cache does not
/// have, and pages from the shared queue until it closes.
#[allow(clippy::too_many_arguments)] // the run's parts, as `render_in_order` has them
fn render_thread<T, P>(
    runtime: &PluginRuntime,
    plugin: &LoadedPlugin,
    site: &SiteInfo,
    cache: Option<&RenderCache>,
    work: &str,
    tasks: &Mutex<Receiver<Vec<Task<T>>>>,
    (key_of, read_source): SourceCalls<'_, impl Fn(&PageInput) -> Option<PageKey>, impl ReadSource>,
    (prepare, kept): (
        &impl Fn(&T, Option<&PageKey>, &mut RenderedPage) -> P,
        &impl Fn(&T, &PageKey) -> Option<P>,
    ),
    done: Sender<Vec<Done<T, P>>>,
) {
    let open = || RendererSession::open(runtime, plugin, site, work);
    let mut session: Option<RendererSession> = None;
    loop {
        // The lock is held only to take a batch; a poisoned lock means another thread
        // panicked, and the scope reports that.
        let batch = match tasks.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        let Ok(batch) = batch else {
            return; // the queue is closed: the run is over
        };
        let mut finished = Vec::with_capacity(batch.len());
        for task in batch {
            let page = render_one(
                (cache, &open, &mut session),
                task,
                (key_of, read_source),
                (prepare, kept),
            );
            let stopped = page.is_err();
            finished.push(page);
            if stopped {
                let _ = done.send(finished);
                return;
            }
        }
        if done.send(finished).is_err() {
            return;
        }
    }
}

/// One page of a batch on a rendering thread: looked up, taken from what `kept` has, or
/// rendered in the thread's session (opened with `open` when first needed). An error stops
/// the thread.
fn render_one<T, P>(
    (cache, open, session): (
        Option<&RenderCache>,
        &impl Fn() -> Result<RendererSession, PluginError>,
        &mut Option<RendererSession>,
    ),
    (index, tag, mut input, keying): Task<T>,
    (key_of, read_source): SourceCalls<'_, impl Fn(&PageInput) -> Option<PageKey>, impl ReadSource>,
    (prepare, kept): (
        &impl Fn(&T, Option<&PageKey>, &mut RenderedPage) -> P,
        &impl Fn(&T, &PageKey) -> Option<P>,
    ),
) -> Done<T, P> {
    let mut source_unread = matches!(keying, Some(Keying::Unread { .. }));
    let lookup = match keying {
        Some(Keying::Started(lookup)) => Some(lookup),
        Some(Keying::OnThread { given_back }) => cache
            .zip(key_of(&input))
            .map(|(cache, key)| cache.start(key, given_back)),
        Some(Keying::Unread { key, given_back }) => cache.map(|cache| cache.start(key, given_back)),
        None => None,
    };
    let key = lookup.as_ref().map(|l| l.key);
    let given_back = lookup.as_ref().is_none_or(|l| l.given_back);
    // What an earlier run made of the page, kept beside it, stands in for the page, which
    // is then not read at all; only its entry is made sure of, for the runs that need it.
    if given_back
        && let (Some(cache), Some(key)) = (cache, &key)
        && cache.marks_held(key)
        && let Some(made) = kept(&tag, key)
    {
        let outcome = Outcome {
            output: None,
            reused: true,
            prepared: Some(made),
            source_unread,
        };
        return Ok((index, tag, input, outcome));
    }
    // A page given back whole comes with its source; one rendered needs it.
    if given_back {
        read_unread(&mut source_unread, &mut input, read_source)?;
    }
    let cached = match cache.zip(lookup) {
        Some((cache, lookup)) if given_back => cache.finish(lookup).map(Some),
        // Kept for later: on a local disk, that the entry is there is enough, as whatever
        // reads it checks it and renders the page again if it fails. A publish read back
        // every such entry whole (1,379 of langchain's 1,658 pages, those not searched).
        Some((cache, lookup)) if cache.reads_are_local() => {
            cache.marks_held(&lookup.key).then_some(None)
        }
        Some((cache, lookup)) => cache.holds(lookup).then_some(None),
        None => None,
    };
    let mut outcome = match cached {
        Some(output) => Outcome {
            output: output.map(Ok),
            reused: true,
            prepared: None,
            source_unread,
        },
        None => {
            read_unread(&mut source_unread, &mut input, read_source)?;
            let live = match session.as_mut() {
                Some(live) => live,
                None => session.insert(open().map_err(RenderError::Plugin)?),
            };
            let rendered = live.render_page(&input);
            match &rendered {
                Ok(output) => {
                    if let (Some(cache), Some(key)) = (cache, &key) {
                        cache.put(key, output);
                    }
                }
                // A trap, a timeout or running out of memory may leave the instance
                // broken, so the next page opens a fresh one; a fault the plugin reported
                // leaves it as it was.
                Err(e) if !matches!(e, PluginError::Reported { .. }) => *session = None,
                Err(_) => {}
            }
            Outcome {
                output: given_back.then_some(rendered),
                reused: false,
                prepared: None,
                source_unread: false,
            }
        }
    };
    if let Some(Ok(page)) = &mut outcome.output {
        outcome.prepared = Some(prepare(&tag, key.as_ref(), page));
    }
    Ok((index, tag, input, outcome))
}

/// Reads the source of `input` with `read_source` if it came unread (`unread`), once.
fn read_unread(
    unread: &mut bool,
    input: &mut PageInput,
    read_source: &impl ReadSource,
) -> Result<(), RenderError> {
    if std::mem::take(unread) {
        input.source = read_source(&input.file)?;
    }
    Ok(())
}
