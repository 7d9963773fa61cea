//! One export: read the content version, render every page through the renderer plugin, and
//! stream the files through the packager plugin into object storage. Runs on a blocking thread;
//! the packager runs on a second one so rendering and compression overlap.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use futures::StreamExt;
use tokio::runtime::Handle;
use tokio_util::sync::CancellationToken;

use super::destination;
use super::{ExportContext, ExportError};
use crate::bundle::{SiteFiles, fallback_page};
use crate::plugins::{OutputFile, PageInput, RendererSession, Warning};
use crate::sites::{ManifestError, SiteManifest, is_static_asset};
use crate::storage::paths;
use crate::store::{BundleRecord, Job, JobUpdate, JobWarning};
use quire_sdk::redirects::Redirects;
use quire_sdk::variables::Variables;

/// How often progress is written to the store.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);
/// Batches of files in flight between the renderer and the packager.
const PIPELINE_DEPTH: usize = 64;
/// Page sources read from storage at the same time, and read ahead of the renderer.
const PREFETCH_CONCURRENCY: usize = 16;
const PREFETCH_AHEAD: usize = 64;

/// Runs the export of `job` into an archive in object storage and returns its bundle.
pub fn run_export(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
    cancel: &CancellationToken,
) -> Result<BundleRecord, ExportError> {
    let work = format!("job {}", job.id);
    export_with(context, job, runtime, cancel, |files, aborted| {
        destination::pack(context, job, runtime, files, aborted, &work)
    })
}

/// Runs the export of `job` into `folder` (new or empty), with no archive: the files as the
/// archive would hold them, its manifest included. Returns the bytes written.
pub fn export_to_folder(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
    cancel: &CancellationToken,
    folder: &std::path::Path,
) -> Result<u64, ExportError> {
    export_with(context, job, runtime, cancel, |files, aborted| {
        destination::write_folder(job, folder, files, aborted)
    })
}

/// Renders `job`'s pages and hands every file to `write`, which runs on a thread of its own
/// (so rendering and compression overlap) and says where the files went.
fn export_with<R: Send>(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
    cancel: &CancellationToken,
    write: impl FnOnce(Receiver<Vec<OutputFile>>, &AtomicBool) -> Result<R, ExportError> + Send,
) -> Result<R, ExportError> {
    let manifest = read_manifest(context, job, runtime)?;
    let pages: Vec<_> = match &job.paths {
        Some(paths) => manifest
            .pages
            .iter()
            .filter(|p| paths.contains(&p.path))
            .collect(),
        None => manifest.pages.iter().collect(),
    };
    if pages.len() > context.config.max_pages {
        return Err(ExportError::TooManyPages {
            pages: pages.len(),
            limit: context.config.max_pages,
        });
    }
    let total = pages.len() as u64;
    let work = format!("job {}", job.id);
    let site = manifest.site_info(&job.version, |file| {
        let path = paths::version_file(&job.domain, &job.version, file);
        let bytes = runtime.block_on(context.operator.read(&path)).ok()?;
        String::from_utf8(bytes.to_vec()).ok()
    });
    let plugins = &context.plugins;
    // Taken once: a component replaced while this job runs serves the jobs after it.
    let renderer_plugin = plugins.renderer.current();
    // The shared assets come from a session of their own; the pages from one per thread.
    let assets_started = Instant::now();
    let mut assets =
        RendererSession::open(&plugins.runtime, &renderer_plugin, &site, &work)?.assets()?;
    let assets_time = assets_started.elapsed();

    let aborted = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, receiver) = sync_channel::<Vec<OutputFile>>(PIPELINE_DEPTH);
        let packer = scope.spawn(|| write(receiver, &aborted));

        let rendered = (|| -> Result<(), ExportError> {
            if let Some(features) = &job.features {
                assets.retain(|file| file.path != crate::bundle::FEATURES_FILE);
                assets.push(OutputFile {
                    path: crate::bundle::FEATURES_FILE.to_string(),
                    contents: features.clone().into_bytes(),
                });
            }
            send(&sender, std::mem::take(&mut assets))?;
            let config_value: serde_json::Value =
                serde_json::from_str(&manifest.config_json).unwrap_or_default();
            let page_paths: std::collections::HashSet<&str> =
                manifest.pages.iter().map(|p| p.path.as_str()).collect();
            let (redirects, mut redirect_warnings) =
                Redirects::from_config(&config_value, &|p| page_paths.contains(p));
            let in_order: Vec<&str> = manifest.pages.iter().map(|p| p.path.as_str()).collect();
            let (redirects, unsettled) = crate::bundle::redirects::settle(&redirects, &in_order);
            redirect_warnings.extend(unsettled);
            let mut site_files = SiteFiles::new(&job.domain, &manifest.name)
                .with_redirects(redirects)
                .with_variables(Variables::from_config(&config_value))
                .with_description(config_value.get("description").and_then(|d| d.as_str()));
            let mut progress = Progress::new(context, runtime, job, total);
            progress
                .warnings
                .extend(redirect_warnings.into_iter().map(|message| JobWarning {
                    file: manifest.config_file.clone(),
                    line: None,
                    message,
                }));
            // What publishing found wrong (a missing navigation page, ...) is the export's too.
            progress
                .warnings
                .extend(manifest.warnings.iter().map(|w| JobWarning {
                    file: w.file.clone(),
                    line: None,
                    message: w.message.clone(),
                }));
            let mut timings = StageTimings::default();
            let files = pages
                .iter()
                .map(|p| paths::version_file(&job.domain, &job.version, &p.file))
                .collect();
            let mut sources = prefetch(context, runtime, files);
            let mut read_time = Duration::ZERO;
            // Pages go to the rendering threads as their sources arrive, and come back here
            // in order: the bundle is the same whatever the number of threads.
            let inputs = pages.iter().map(|page| {
                if cancel.is_cancelled() {
                    return Err(ExportError::Cancelled);
                }
                let started = Instant::now();
                let bytes = sources
                    .blocking_recv()
                    .ok_or(ExportError::PipelineClosed)??;
                read_time += started.elapsed();
                let input = PageInput {
                    path: page.path.clone(),
                    file: page.file.clone(),
                    source: String::from_utf8_lossy(&bytes).into_owned(),
                    modified: page.modified,
                };
                Ok((*page, input))
            });
            let render_started = Instant::now();
            let mut done = 0u64;
            // Files a page brings for other pages too (a diagram script) come once from each
            // renderer instance; the first is kept.
            let mut shared_files = HashSet::new();
            crate::plugins::render_in_order(
                &plugins.runtime,
                &renderer_plugin,
                &site,
                &work,
                plugins.render_threads,
                inputs,
                |page, input, rendered| {
                    let mut output = match rendered {
                        Ok(output) => output,
                        Err(failure) => {
                            // One page never fails the export: it becomes a warning and a
                            // plain page (its thread has a fresh renderer for the next one).
                            tracing::warn!(job = %job.id, page = %page.file, "{failure}");
                            crate::metrics::get().export_page_failures.inc();
                            let mut fallback = fallback_page(
                                &page.path,
                                &page.title,
                                &input.source,
                                &failure.to_string(),
                            );
                            fallback.warnings.push(Warning {
                                file: page.file.clone(),
                                line: None,
                                message: format!(
                                    "the page could not be rendered and is exported as plain text: {failure}"
                                ),
                            });
                            fallback
                        }
                    };
                    let own_html = format!("{}.html", page.path);
                    output.files.retain(|file| {
                        file.path == own_html || shared_files.insert(file.path.clone())
                    });
                    let beside = site_files.add_page(
                        &input.path,
                        input.source,
                        &mut output,
                        page.version.as_deref(),
                        page.language.as_deref(),
                    );
                    output.files.extend(beside);
                    for w in output.warnings {
                        progress.warn(JobWarning {
                            file: w.file,
                            line: w.line,
                            message: w.message,
                        });
                    }
                    let started = Instant::now();
                    send(&sender, output.files)?;
                    timings.waiting_for_packer += started.elapsed();
                    let started = Instant::now();
                    crate::metrics::get().export_pages.inc();
                    done += 1;
                    progress.record(done, false)?;
                    timings.progress += started.elapsed();
                    Ok(())
                },
            )?;
            timings.render = render_started.elapsed();
            timings.read = read_time;
            tracing::info!(
                job = %job.id,
                assets_ms = assets_time.as_millis() as u64,
                read_ms = timings.read.as_millis() as u64,
                render_ms = timings.render.as_millis() as u64,
                packer_wait_ms = timings.waiting_for_packer.as_millis() as u64,
                progress_ms = timings.progress.as_millis() as u64,
                "pages rendered"
            );
            for file in manifest.files.iter().filter(|f| is_static_asset(&f.path)) {
                if cancel.is_cancelled() {
                    return Err(ExportError::Cancelled);
                }
                let contents = runtime
                    .block_on(context.operator.read(&paths::version_file(
                        &job.domain,
                        &job.version,
                        &file.path,
                    )))?
                    .to_vec();
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
            tracing::info!(job = %job.id, site_files_ms = started.elapsed().as_millis() as u64, "site files made");
            progress.record(total, true)?;
            progress.write_all()?;
            Ok(())
        })();
        if rendered.is_err() {
            aborted.store(true, Ordering::SeqCst);
        }
        drop(sender);
        let packed = packer.join().unwrap_or(Err(ExportError::PipelineClosed));
        match (rendered, packed) {
            (Ok(()), packed) => packed,
            // The packer failed first and the renderer's send failed because of it.
            (Err(ExportError::PipelineClosed), Err(packer_error)) => Err(packer_error),
            // Otherwise the render side's error is the cause; the packer only stopped after it.
            (Err(e), _) => Err(e),
        }
    })
}

fn send(sender: &SyncSender<Vec<OutputFile>>, files: Vec<OutputFile>) -> Result<(), ExportError> {
    sender.send(files).map_err(|_| ExportError::PipelineClosed)
}

/// Reads `files` from storage on the async runtime, several at a time and in order, ahead of
/// the renderer: storage latency overlaps rendering instead of adding to it.
fn prefetch(
    context: &ExportContext,
    runtime: &Handle,
    files: Vec<String>,
) -> tokio::sync::mpsc::Receiver<Result<Vec<u8>, opendal::Error>> {
    let (sender, receiver) = tokio::sync::mpsc::channel(PREFETCH_AHEAD);
    let operator = context.operator.clone();
    runtime.spawn(async move {
        let mut reads = futures::stream::iter(files)
            .map(|file| {
                let operator = operator.clone();
                async move { operator.read(&file).await.map(|b| b.to_vec()) }
            })
            .buffered(PREFETCH_CONCURRENCY);
        while let Some(read) = reads.next().await {
            if sender.send(read).await.is_err() {
                break; // the export stopped; nobody wants the rest
            }
        }
    });
    receiver
}

/// Where the render side of an export spent its time, for the log.
#[derive(Default)]
struct StageTimings {
    /// Waiting for page sources from storage.
    read: Duration,
    /// From the first page handed to the rendering threads to the last one back, reads and
    /// waits included.
    render: Duration,
    waiting_for_packer: Duration,
    progress: Duration,
}

/// Throttled progress writes: at most one transaction per interval.
struct Progress<'a> {
    context: &'a ExportContext,
    runtime: &'a Handle,
    job: &'a Job,
    total: u64,
    last: Instant,
    warnings: Vec<JobWarning>,
    /// Every warning recorded so far, for the complete list written when the job ends.
    all: Vec<JobWarning>,
    /// Warnings already given, as (file, line, message): a problem in a snippet comes back
    /// from every page that uses it, and is reported once.
    given: HashSet<(String, Option<u32>, String)>,
}

impl<'a> Progress<'a> {
    fn new(context: &'a ExportContext, runtime: &'a Handle, job: &'a Job, total: u64) -> Self {
        Self {
            context,
            runtime,
            job,
            total,
            last: Instant::now(),
            warnings: Vec::new(),
            all: Vec::new(),
            given: HashSet::new(),
        }
    }

    fn warn(&mut self, warning: JobWarning) {
        let key = (warning.file.clone(), warning.line, warning.message.clone());
        if self.given.insert(key) {
            self.warnings.push(warning);
        }
    }

    /// Writes every warning the job recorded to storage (`paths::job_warnings`), for
    /// `?warnings=all` and `quire build`, when the job record's 500 are not all of them
    /// (`jobs::all_warnings` reads it only then).
    fn write_all(&self) -> Result<(), ExportError> {
        if self.all.len() <= crate::store::MAX_STORED_WARNINGS {
            return Ok(());
        }
        let json = serde_json::to_vec(&self.all).unwrap_or_default();
        let path = crate::storage::paths::job_warnings(&self.job.id);
        self.runtime
            .block_on(self.context.operator.write(&path, json))
            .map(|_| ())
            .map_err(ExportError::Storage)
    }

    fn record(&mut self, page_count: u64, force: bool) -> Result<(), ExportError> {
        if !force && self.last.elapsed() < PROGRESS_INTERVAL {
            return Ok(());
        }
        self.last = Instant::now();
        self.all.extend(self.warnings.iter().cloned());
        let update = JobUpdate {
            page_count,
            total_pages: self.total,
            new_warnings: std::mem::take(&mut self.warnings),
        };
        let owner = self.job.lease_owner.as_deref().unwrap_or_default();
        self.runtime
            .block_on(
                self.context
                    .store
                    .update_job_progress(&self.job.id, owner, update),
            )?;
        Ok(())
    }
}

fn read_manifest(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
) -> Result<SiteManifest, ExportError> {
    runtime
        .block_on(SiteManifest::read(
            &context.operator,
            &job.domain,
            &job.version,
        ))
        .map_err(|e| match e {
            ManifestError::Storage(e) => ExportError::Storage(e),
            ManifestError::Corrupt { version, message } => ExportError::Manifest(version, message),
        })
}
