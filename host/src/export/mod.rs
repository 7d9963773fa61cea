//! The static export, as a use case: a site version's pages from the render pipeline, the
//! renderer's shared assets, the feature file, the site's own files and the site-wide files
//! (`bundle`), streamed to a destination (`destination`: the packager into an archive, or a
//! folder) on a thread of its own, so rendering and compression overlap. The export job
//! (`jobs`) runs it on a content version in storage and keeps its progress in the store;
//! `quire build` and `quire dev` run it on a site folder. Nothing here knows of jobs or stores.

mod archive_file;
pub mod assembly;
mod destination;
mod earlier_archive;
mod error;
mod files;
mod pack_ahead;
mod page_summary;
mod part_layout;
mod parted;

use std::collections::{BTreeSet, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use crate::bundle::{FEATURES_FILE, PageFacts, PageFiles, PageSections, SiteFiles, UnreadPage};
use crate::plugins::{OutputFile, Plugins, RenderedPage, Warning};
use crate::rendering::{PageKey, RenderCounts, RenderError, SiteRender};
use crate::sites::{PageEntry, SiteManifest, is_static_asset};
use crate::store::JobWarning;
use quire_core::redirects::Redirects;
use quire_core::variables::Variables;

pub use archive_file::ArchiveFile;
use assembly::EarlierArchive;
pub use destination::{ArchiveOutput, Packed, pack, read_span, write_folder};
pub use earlier_archive::Span;
pub use error::ExportError;
pub use files::BundleFile;
use page_summary::{PagePrepared, Summaries};

/// Batches of files in flight between the renderer and the destination.
const PIPELINE_DEPTH: usize = 64;

/// The pages' files are sent on in batches of at least this many: a kept page's files are
/// passed on in microseconds, and a batch per page cost about as much again in threads
/// parked and woken (BENCHMARKS.md).
const FILES_PER_BATCH: usize = 64;

/// One export: which pages of which site, and what the bundle says of where it is served.
pub struct Export<'a> {
    pub render: SiteRender<'a>,
    /// The domain the sitemap's and `robots.txt`'s URLs name.
    pub domain: &'a str,
    /// The feature file the bundle carries instead of the renderer's default, if any.
    pub features: Option<&'a str>,
    /// What makes the bundle's own assistant's files (`bundle::assistant`), if it ships one;
    /// with no feature file given, the default one then switches it on. It is called on the
    /// shared assets' thread, while the pages are made: reading and checking the version's
    /// index for it was a serial part of a one-page release's start (BENCHMARKS.md).
    pub assistant: Mutex<Option<AssistantFiles<'a>>>,
}

/// Makes the files of a bundle's own assistant, or says there are none (`None`).
pub type AssistantFiles<'a> = Box<dyn FnOnce() -> Option<Vec<OutputFile>> + Send + 'a>;

/// Hears of an export as it goes. Each warning comes once, however many pages give it (a
/// problem in a snippet comes back from every page that uses it).
pub trait ExportProgress {
    /// `done` of `total` pages are in the bundle; `warnings` are the ones given since the last
    /// call. `finished` is true once, after the last page and the site-wide files.
    fn update(
        &mut self,
        done: u64,
        total: u64,
        warnings: Vec<Warning>,
        finished: bool,
    ) -> Result<(), ExportError>;

    /// How many pages were rendered and how many taken from the render cache, once the pages
    /// are done.
    fn rendered(&mut self, _counts: RenderCounts) {}
}

/// Runs `export` and hands every file to `write`, which runs on a thread of its own and says
/// where the files went. A page the renderer fails on is a plain page and a warning; what stops
/// the export is the site as a whole (the renderer cannot be set up), the sources, the
/// destination, `progress`, or cancellation. With `earlier`, the archive `write` copies
/// unchanged entries from (written by the same packager), an unchanged page whose summary the
/// render cache keeps is not read: its files go to `write` as that archive's entries.
pub fn run<R: Send>(
    export: &Export<'_>,
    plugins: &Plugins,
    progress: &mut dyn ExportProgress,
    earlier: Option<&EarlierArchive>,
    write: impl FnOnce(Receiver<Vec<BundleFile>>, &AtomicBool) -> Result<R, ExportError> + Send,
) -> Result<R, ExportError> {
    let render = &export.render;
    let manifest = render.manifest;
    let total = render.pages.len() as u64;
    let prepared = render.prepare(plugins);
    // The shared assets come from a session of their own, made while the pages are (a site's
    // worth of kept pages leaves a core free for it), as are the assistant's files; the pages
    // come from one session per thread.
    let assets = || -> Result<(Vec<OutputFile>, [Duration; 2]), RenderError> {
        let started = Instant::now();
        let mut assets = prepared.assets()?;
        let assets_time = started.elapsed();
        let assistant = export
            .assistant
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
            .and_then(|make| make());
        let times = [assets_time, started.elapsed() - assets_time];
        let features = match (export.features, &assistant) {
            (Some(features), _) => Some(features.to_string()),
            (None, Some(_)) => Some(crate::bundle::features_script(
                &quire_core::features::default_with_offline_assistant(),
            )),
            (None, None) => None,
        };
        if let Some(features) = features {
            assets.retain(|file| file.path != FEATURES_FILE);
            assets.push(OutputFile {
                path: FEATURES_FILE.to_string(),
                contents: features.into_bytes(),
            });
        }
        assets.extend(assistant.into_iter().flatten());
        Ok((assets, times))
    };

    let aborted = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, receiver) = sync_channel::<Vec<BundleFile>>(PIPELINE_DEPTH);
        let (hashed_sender, hashed) = sync_channel::<Vec<BundleFile>>(PIPELINE_DEPTH);
        let hasher = scope.spawn(move || files::hash_on_the_way(receiver, hashed_sender, earlier));
        let writer = scope.spawn(|| write(hashed, &aborted));

        let assets = scope.spawn(assets);
        let rendered = (|| -> Result<(), ExportError> {
            let (mut site_files, redirect_warnings) = site_wide_files(manifest, export.domain);
            let mut warnings = Warnings::default();
            warnings.extend(redirect_warnings);
            // What publishing found wrong (a missing navigation page, ...) is the export's too.
            warnings.extend(manifest.warnings.iter().map(|w| Warning {
                file: w.file.clone(),
                line: None,
                message: w.message.clone(),
            }));
            let mut timings = StageTimings::default();
            let render_started = Instant::now();
            let mut done = 0u64;
            // What the pages need once for the whole site (a diagram script), by name.
            let mut needs = BTreeSet::new();
            // Each page's sections are counted for the search index (or found counted) and its
            // files hashed on the thread that has the page, or the page is not read at all;
            // what is left here is one pass over the site in order.
            let summaries = Summaries::new(render.cache, earlier);
            let read = |page: &PageEntry, key: Option<&PageKey>, output: &mut RenderedPage| {
                summaries.read(page, key, output)
            };
            let kept = |page: &PageEntry, key: &PageKey| summaries.kept(page, key);
            // The pages' files not yet sent on.
            let mut pending = Vec::with_capacity(FILES_PER_BATCH * 2);
            prepared.pages_kept(read, kept, |rendered| {
                let page = rendered.page;
                let scope = (page.version.as_deref(), page.language.as_deref());
                let files: Vec<BundleFile> = match (rendered.output, rendered.prepared) {
                    (None, Some(PagePrepared::Kept { summary, entries })) => {
                        crate::metrics::get().export_pages_kept.inc();
                        needs.extend(summary.needs);
                        warnings.extend(summary.warnings);
                        let facts = PageFacts {
                            title: &summary.title,
                            description: summary.description.as_deref(),
                            indexable: summary.indexable,
                            searchable: page.searchable,
                        };
                        let unread = match (&rendered.source, &rendered.source_sha256) {
                            (None, Some(sha256)) => {
                                unread_markdown(&site_files, earlier, &page.path, sha256, facts)
                            }
                            _ => None,
                        };
                        let beside: Vec<BundleFile> = match unread {
                            Some((markdown, unread)) => {
                                crate::metrics::get().export_sources_unread.inc();
                                let chunks = site_files.add_unread_page(
                                    &page.path,
                                    facts,
                                    summary.sections,
                                    scope,
                                    &unread,
                                );
                                std::iter::once(markdown)
                                    .chain(chunks.into_iter().map(BundleFile::from))
                                    .collect()
                            }
                            None => {
                                let source = (rendered.source, rendered.source_sha256.as_ref());
                                let beside = add_with_source(
                                    &mut site_files,
                                    render,
                                    page,
                                    source,
                                    facts,
                                    summary.sections,
                                )?;
                                beside_page(beside).collect()
                            }
                        };
                        let kept = summary.files.into_iter().zip(entries).map(|(file, entry)| {
                            BundleFile::Kept {
                                path: file.path,
                                size: file.size,
                                sha256: file.sha256,
                                entry,
                            }
                        });
                        kept.chain(beside).collect()
                    }
                    (Some(mut output), prepared) => {
                        needs.extend(std::mem::take(&mut output.needs));
                        if let Some(failure) = &rendered.failure {
                            tracing::warn!(work = render.work, page = %page.file, "{failure}");
                            crate::metrics::get().export_page_failures.inc();
                        }
                        // A page the renderer failed on is counted here.
                        let (sections, hashes) = match prepared {
                            Some(PagePrepared::Read { sections, hashes }) => (sections, hashes),
                            _ => (page_summary::count(page, &mut output), Vec::new()),
                        };
                        // A page given back whole comes with its source.
                        let beside = add_with_source(
                            &mut site_files,
                            render,
                            page,
                            (rendered.source, rendered.source_sha256.as_ref()),
                            PageFacts::of(&output, page.searchable),
                            sections,
                        )?;
                        warnings.extend(std::mem::take(&mut output.warnings));
                        let mut hashes = hashes.into_iter();
                        output
                            .files
                            .into_iter()
                            .map(|file| match hashes.next() {
                                Some(sha256) => BundleFile::Hashed { file, sha256 },
                                None => BundleFile::Made(file),
                            })
                            .chain(beside_page(beside))
                            .collect()
                    }
                    // Only a summary stands in for a page.
                    (None, _) => {
                        return Err(ExportError::Plugin(crate::plugins::PluginError::Engine(
                            format!("{} came back without its output", page.file),
                        )));
                    }
                };
                pending.extend(files);
                if pending.len() >= FILES_PER_BATCH {
                    let started = Instant::now();
                    send_files(&sender, std::mem::take(&mut pending))?;
                    timings.waiting_for_writer += started.elapsed();
                }
                let started = Instant::now();
                crate::metrics::get().export_pages.inc();
                done += 1;
                progress.update(done, total, warnings.take_new(), false)?;
                timings.progress += started.elapsed();
                Ok::<_, ExportError>(())
            })?;
            if !pending.is_empty() {
                send_files(&sender, pending)?;
            }
            timings.render = render_started.elapsed();
            site_files.pages_done();
            let (assets, [assets_time, assistant_time]) = assets.join().map_err(|_| {
                ExportError::Plugin(crate::plugins::PluginError::Engine(
                    "making the shared assets stopped".into(),
                ))
            })??;
            send(&sender, assets)?;
            let counts = prepared.counts();
            progress.rendered(counts);
            tracing::info!(
                work = render.work,
                rendered = counts.rendered,
                reused = counts.reused,
                assets_ms = assets_time.as_millis() as u64,
                assistant_ms = assistant_time.as_millis() as u64,
                render_ms = timings.render.as_millis() as u64,
                writer_wait_ms = timings.waiting_for_writer.as_millis() as u64,
                progress_ms = timings.progress.as_millis() as u64,
                "pages rendered"
            );
            let site_output = prepared.site_output(&needs)?;
            warnings.extend(site_output.warnings);
            send(&sender, site_output.files)?;
            for file in manifest.files.iter().filter(|f| is_static_asset(&f.path)) {
                if render.cancel.is_some_and(|c| c.is_cancelled()) {
                    return Err(ExportError::Cancelled);
                }
                let contents = render.sources.read(&file.path)?;
                send(
                    &sender,
                    vec![OutputFile {
                        path: file.path.clone(),
                        contents,
                    }],
                )?;
            }
            let started = Instant::now();
            send(&sender, site_files.finish())?;
            tracing::info!(
                work = render.work,
                site_files_ms = started.elapsed().as_millis() as u64,
                "site files made"
            );
            progress.update(total, total, warnings.take_new(), true)
        })();
        if rendered.is_err() {
            aborted.store(true, Ordering::SeqCst);
        }
        drop(sender);
        let hashed = hasher.join();
        let written = writer.join().unwrap_or(Err(ExportError::PipelineClosed));
        let written = hashed.map_or(Err(ExportError::PipelineClosed), |()| written);
        match (rendered, written) {
            (Ok(()), written) => written,
            // The writer failed first and the render side's send failed because of it.
            (Err(ExportError::PipelineClosed), Err(writer_error)) => Err(writer_error),
            // Otherwise the render side's error is the cause; the writer only stopped after it.
            (Err(e), _) => Err(e),
        }
    })
}

/// The Markdown beside a page whose source was not read (its SHA-256 `source_sha256`), as the
/// earlier archive's checked entry, and how the page is added unread: when this process kept
/// what the Markdown is, the earlier archive holds it, and `llms-full.txt` either does not take
/// the page or takes its part from the last one made for the site.
fn unread_markdown(
    site_files: &SiteFiles,
    earlier: Option<&EarlierArchive>,
    path: &str,
    source_sha256: &[u8; 32],
    facts: PageFacts<'_>,
) -> Option<(BundleFile, UnreadPage)> {
    let unread = site_files.unread_page(source_sha256, path, facts)?;
    let markdown = unread.markdown;
    let path = format!("{path}.md");
    let sha256 = hex::encode(markdown.sha256);
    let entry = earlier?.entry(&path, &sha256)?;
    let file = BundleFile::Kept {
        path,
        size: markdown.size,
        sha256,
        entry,
    };
    Some((file, unread))
}

/// Adds `page` to `site_files` with its source (and the source's SHA-256, where known): as
/// the render side read it, or read now where it did not.
fn add_with_source(
    site_files: &mut SiteFiles,
    render: &SiteRender<'_>,
    page: &PageEntry,
    (source, source_sha256): (Option<String>, Option<&[u8; 32]>),
    facts: PageFacts<'_>,
    sections: PageSections,
) -> Result<PageFiles, ExportError> {
    let source = match source {
        Some(source) => source,
        None => {
            let bytes = render.sources.read(&page.file)?;
            String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
    };
    let scope = (page.version.as_deref(), page.language.as_deref());
    Ok(site_files.add_page(&page.path, (source, source_sha256), facts, sections, scope))
}

/// The files beside a page, as bundle files: hashed already where the hash is known.
fn beside_page(beside: PageFiles) -> impl Iterator<Item = BundleFile> {
    beside.into_files().map(|(file, sha256)| match sha256 {
        Some(sha256) => BundleFile::Hashed { file, sha256 },
        None => BundleFile::Made(file),
    })
}

fn send(sender: &SyncSender<Vec<BundleFile>>, files: Vec<OutputFile>) -> Result<(), ExportError> {
    send_files(sender, files.into_iter().map(BundleFile::from).collect())
}

fn send_files(
    sender: &SyncSender<Vec<BundleFile>>,
    files: Vec<BundleFile>,
) -> Result<(), ExportError> {
    sender.send(files).map_err(|_| ExportError::PipelineClosed)
}

/// The site-wide files' collector for `manifest` served at `domain` (redirects settled
/// against the pages, variables, the description), and the warnings about its redirects.
fn site_wide_files(manifest: &SiteManifest, domain: &str) -> (SiteFiles, Vec<Warning>) {
    let config = manifest.settings();
    let page_paths: HashSet<&str> = manifest.pages.iter().map(|p| p.path.as_str()).collect();
    let (redirects, mut redirect_warnings) = Redirects::of(&config, &|p| page_paths.contains(p));
    let in_order: Vec<&str> = manifest.pages.iter().map(|p| p.path.as_str()).collect();
    let (redirects, unsettled) = crate::bundle::redirects::settle(&redirects, &in_order);
    redirect_warnings.extend(unsettled);
    let site_files = SiteFiles::new(domain, &manifest.name)
        .with_redirects(redirects)
        .with_variables(Variables::of(&config))
        .with_description(config.description.as_deref());
    let warnings = redirect_warnings
        .into_iter()
        .map(|message| Warning {
            file: manifest.config_file.clone(),
            line: None,
            message,
        })
        .collect();
    (site_files, warnings)
}

/// A warning as a job and a build report it.
impl From<Warning> for JobWarning {
    fn from(warning: Warning) -> Self {
        JobWarning {
            file: warning.file,
            line: warning.line,
            message: warning.message,
        }
    }
}

/// The export's warnings, each (file, line, message) once.
#[derive(Default)]
struct Warnings {
    new: Vec<Warning>,
    given: HashSet<(String, Option<u32>, String)>,
}

impl Warnings {
    fn extend(&mut self, warnings: impl IntoIterator<Item = Warning>) {
        for warning in warnings {
            let key = (warning.file.clone(), warning.line, warning.message.clone());
            if self.given.insert(key) {
                self.new.push(warning);
            }
        }
    }

    fn take_new(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.new)
    }
}

/// Where the render side of an export spent its time, for the log.
#[derive(Default)]
struct StageTimings {
    /// From the first page handed to the rendering threads to the last one back, reads and
    /// waits included.
    render: Duration,
    waiting_for_writer: Duration,
    progress: Duration,
}
