//! One export job: its content version's manifest from storage, the export itself
//! (`crate::export`) on that version's files, into an archive in object storage, with the job's
//! progress and warnings written to the store as it goes. Runs on a blocking thread.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio_util::sync::CancellationToken;

use super::ExportContext;
use std::io::{Read, Seek, Write};

use super::kept_archives;
use crate::export::assembly::{Assembled, Reuse};
use crate::export::{ArchiveFile, ArchiveOutput, Export, ExportError, ExportProgress, Packed};
use crate::plugins::Warning;
use crate::rendering::{RenderCache, SiteRender, Sources};
use crate::sites::{ManifestError, SiteManifest};
use crate::storage::paths;
use crate::store::{BundleRecord, DeltaRecord, Job, JobUpdate, JobWarning};

/// How often progress is written to the store.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// Runs the export of `job` into an archive in object storage and returns its bundle.
pub fn run_export(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
    cancel: &CancellationToken,
) -> Result<BundleRecord, ExportError> {
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
    let work = format!("job {}", job.id);
    let cache = context.plugins.render_cache.then(|| {
        RenderCache::in_storage(
            context.operator.clone(),
            runtime.clone(),
            paths::RENDER_CACHE,
        )
    });
    // In local storage the version's files are a folder, read as one.
    let folder = crate::storage::local_path(
        &context.operator,
        &paths::version_files(&job.domain, &job.version),
    );
    let sources = match &folder {
        Some(folder) => Sources::Folder(folder),
        None => Sources::Version {
            operator: &context.operator,
            runtime,
            domain: &job.domain,
            version: &job.version,
        },
    };
    let export = Export {
        render: SiteRender {
            manifest: &manifest,
            version: &job.version,
            pages,
            sources,
            cancel: Some(cancel),
            work: &work,
            cache: cache.as_ref(),
            given_back: crate::rendering::every_page,
        },
        domain: &job.domain,
        features: job.features.as_deref(),
        assistant: Mutex::new(Some(Box::new(|| {
            bundle_assistant(context, job, runtime, &manifest)
        }))),
    };
    // Only a whole site's archive is kept and sent as a delta: a docs server serves whole sites.
    let whole_site = job.paths.is_none();
    let earlier = context
        .plugins
        .packagers
        .choose(job.format.as_deref())
        .ok()
        .and_then(|packager| {
            kept_archives::earlier(context, runtime, &job.domain, &packager.current().sha256)
        });
    let mut delta_file = match &earlier {
        Some(_) if whole_site => Some(tempfile::tempfile().map_err(ExportError::Delta)?),
        _ => None,
    };
    let reuse = Reuse {
        earlier: earlier.as_ref().map(|e| &e.archive),
        delta: delta_file
            .as_mut()
            .map(|file| file as &mut (dyn Write + Send)),
    };
    let mut progress = Progress::new(context, runtime, job);
    let mut packed = crate::export::run(
        &export,
        &context.plugins,
        &mut progress,
        earlier.as_ref().map(|e| &e.archive),
        |files, aborted| {
            crate::export::pack(
                &context.plugins,
                job.format.as_deref(),
                (&job.domain, &job.version),
                files,
                aborted,
                &work,
                |extension| {
                    StorageArchive::open(context, runtime, paths::bundle(&job.id, extension))
                },
                reuse,
            )
        },
    )?;
    if let Some(cache) = &cache {
        trim_now_and_then(cache, context.plugins.render_cache_max_bytes);
    }
    let delta = match (&packed.assembled, &earlier, delta_file) {
        (Some(assembled), Some(earlier), Some(file)) => {
            keep_delta(context, runtime, job, &packed, assembled, earlier, file)?
        }
        _ => None,
    };
    if let Some(assembled) = packed.assembled.take().filter(|_| whole_site) {
        crate::metrics::get()
            .archive_entries_reused
            .inc_by(assembled.reused);
        tracing::info!(
            job = %job.id,
            reused = assembled.reused,
            reused_pieces = assembled.reused_pieces,
            entries = assembled.index.entries.len(),
            "archive assembled"
        );
        let site = (job.domain.as_str(), job.id.as_str());
        if let Err(e) =
            kept_archives::keep(context, runtime, site, &packed.output.path, assembled.index)
        {
            tracing::warn!(job = %job.id, "the archive is not kept for the next export: {e}");
        }
    }
    Ok(BundleRecord {
        path: packed.output.path,
        size_bytes: packed.size_bytes,
        media_type: packed.media_type,
        delta,
    })
}

/// Stores the delta written in `file` beside the job's archive, when it is worth it: a delta
/// of more than half the archive saves a docs server little and costs storage.
fn keep_delta(
    context: &ExportContext,
    runtime: &Handle,
    job: &Job,
    packed: &Packed<StorageArchive<'_>>,
    assembled: &Assembled,
    earlier: &kept_archives::Earlier,
    mut file: std::fs::File,
) -> Result<Option<DeltaRecord>, ExportError> {
    let Some(written) = assembled.delta else {
        return Ok(None);
    };
    if written.size_bytes.saturating_mul(2) > packed.size_bytes {
        tracing::info!(job = %job.id, bytes = written.size_bytes, "the delta is over half the archive; not kept");
        return Ok(None);
    }
    let path = paths::bundle_delta(&job.id, &packed.extension);
    file.rewind().map_err(ExportError::Delta)?;
    let mut output = StorageArchive::open(context, runtime, path.clone())?;
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer).map_err(ExportError::Delta)?;
        if n == 0 {
            break;
        }
        output.write(buffer[..n].to_vec())?;
    }
    output.close()?;
    Ok(Some(DeltaRecord {
        path,
        size_bytes: written.size_bytes,
        files: written.files,
        base_job: earlier.job.clone(),
        base_version: earlier.archive.content_version().to_string(),
    }))
}

/// How often an export trims the render cache in storage: listing it costs a request per
/// thousand entries, too many to pay after every export.
const TRIM_INTERVAL: Duration = Duration::from_secs(3600);

/// Trims the render cache to `max_bytes` if this process has not in the last interval.
fn trim_now_and_then(cache: &RenderCache, max_bytes: u64) {
    static LAST_TRIM: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);
    {
        let mut last = LAST_TRIM.lock().unwrap_or_else(|p| p.into_inner());
        if last.is_some_and(|at| at.elapsed() < TRIM_INTERVAL) {
            return;
        }
        *last = Some(Instant::now());
    }
    cache.trim_and_log(max_bytes);
}

/// How much of an archive is gathered before it goes to storage. A packager gives an entry at
/// a time, and most are a few kilobytes: handed to storage one by one, each costs a round
/// through the async runtime and the storage layer (a tenth of a large site's one-page
/// export, BENCHMARKS.md).
const ARCHIVE_WRITE_BYTES: usize = 8 << 20;

/// A job's archive in object storage: on local filesystem storage, a file written in place
/// (`ArchiveFile`, synced before it counts as written); elsewhere, streamed through the
/// storage layer.
struct StorageArchive<'a> {
    runtime: &'a Handle,
    path: String,
    sink: Sink,
}

/// Where a job archive's bytes go.
enum Sink {
    File(ArchiveFile),
    Storage {
        writer: opendal::Writer,
        /// What is not yet written, up to [`ARCHIVE_WRITE_BYTES`].
        gathered: Vec<u8>,
    },
}

impl<'a> StorageArchive<'a> {
    fn open(
        context: &ExportContext,
        runtime: &'a Handle,
        path: String,
    ) -> Result<Self, ExportError> {
        let sink = match crate::storage::local_path(&context.operator, &path) {
            Some(local) => Sink::File(ArchiveFile::create(&local)?.synced()),
            None => Sink::Storage {
                writer: runtime.block_on(context.operator.writer(&path))?,
                gathered: Vec::new(),
            },
        };
        Ok(Self {
            runtime,
            path,
            sink,
        })
    }
}

impl ArchiveOutput for StorageArchive<'_> {
    fn write(&mut self, chunk: Vec<u8>) -> Result<(), ExportError> {
        let (writer, gathered) = match &mut self.sink {
            Sink::File(file) => return file.write(chunk),
            Sink::Storage { writer, gathered } => (writer, gathered),
        };
        if chunk.len() >= ARCHIVE_WRITE_BYTES {
            write_gathered(self.runtime, writer, gathered)?;
            self.runtime.block_on(writer.write(chunk))?;
        } else {
            if gathered.len() + chunk.len() > ARCHIVE_WRITE_BYTES {
                write_gathered(self.runtime, writer, gathered)?;
            }
            if gathered.capacity() == 0 {
                gathered.reserve(ARCHIVE_WRITE_BYTES);
            }
            gathered.extend_from_slice(&chunk);
        }
        Ok(())
    }

    fn copy_from(
        &mut self,
        source: &std::sync::Arc<std::fs::File>,
        span: crate::export::Span,
    ) -> Result<(), ExportError> {
        match &mut self.sink {
            Sink::File(file) => file.copy_from(source, span),
            Sink::Storage { .. } => self.write(crate::export::read_span(source, span)?),
        }
    }

    fn close(&mut self) -> Result<(), ExportError> {
        match &mut self.sink {
            Sink::File(file) => file.close(),
            Sink::Storage { writer, gathered } => {
                write_gathered(self.runtime, writer, gathered)?;
                self.runtime.block_on(writer.close())?;
                Ok(())
            }
        }
    }

    fn abort(&mut self) {
        match &mut self.sink {
            Sink::File(file) => file.abort(),
            Sink::Storage { writer, .. } => {
                let _ = self.runtime.block_on(writer.abort());
            }
        }
    }
}

/// Hands what `gathered` holds to `writer`.
fn write_gathered(
    runtime: &Handle,
    writer: &mut opendal::Writer,
    gathered: &mut Vec<u8>,
) -> Result<(), ExportError> {
    if !gathered.is_empty() {
        let chunk = std::mem::take(gathered);
        runtime.block_on(writer.write(chunk))?;
    }
    Ok(())
}

/// The job's progress in the store: at most one transaction per interval, and every warning
/// kept for the complete list when the record's are not all of them.
struct Progress<'a> {
    context: &'a ExportContext,
    runtime: &'a Handle,
    job: &'a Job,
    last: Instant,
    warnings: Vec<JobWarning>,
    /// Every warning recorded so far, for the complete list written when the job ends.
    all: Vec<JobWarning>,
}

impl<'a> Progress<'a> {
    fn new(context: &'a ExportContext, runtime: &'a Handle, job: &'a Job) -> Self {
        Self {
            context,
            runtime,
            job,
            last: Instant::now(),
            warnings: Vec::new(),
            all: Vec::new(),
        }
    }

    /// Writes every warning the job recorded to storage (`paths::job_warnings`), for
    /// `?warnings=all`, when the job record's 500 are not all of them (`jobs::all_warnings`
    /// reads it only then).
    fn write_all(&self) -> Result<(), ExportError> {
        if self.all.len() <= crate::store::MAX_STORED_WARNINGS {
            return Ok(());
        }
        let json = serde_json::to_vec(&self.all).unwrap_or_default();
        let path = paths::job_warnings(&self.job.id);
        self.runtime
            .block_on(self.context.operator.write(&path, json))
            .map(|_| ())
            .map_err(ExportError::Storage)
    }
}

impl ExportProgress for Progress<'_> {
    fn update(
        &mut self,
        done: u64,
        total: u64,
        warnings: Vec<Warning>,
        finished: bool,
    ) -> Result<(), ExportError> {
        self.warnings
            .extend(warnings.into_iter().map(JobWarning::from));
        if !finished && self.last.elapsed() < PROGRESS_INTERVAL {
            return Ok(());
        }
        self.last = Instant::now();
        self.all.extend(self.warnings.iter().cloned());
        let update = JobUpdate {
            page_count: done,
            total_pages: total,
            new_warnings: std::mem::take(&mut self.warnings),
        };
        let owner = self.job.lease_owner.as_deref().unwrap_or_default();
        self.runtime
            .block_on(
                self.context
                    .store
                    .update_job_progress(&self.job.id, owner, update),
            )?;
        if finished {
            self.write_all()?;
        }
        Ok(())
    }
}

/// The files of the assistant the bundle carries: for a whole site, when the host has the
/// module and the version's index is one it reads. Without them the bundle still exports,
/// with no assistant of its own (and says why in the log).
fn bundle_assistant(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
    manifest: &SiteManifest,
) -> Option<Vec<crate::plugins::OutputFile>> {
    use crate::bundle::assistant::{AssistantData, site_facts};
    let module = context.plugins.bundle_assistant.as_ref()?;
    if job.paths.is_some() {
        return None;
    }
    let read = |path: String| {
        runtime
            .block_on(context.operator.read(&path))
            .map(|b| b.to_vec())
    };
    let stored = match read(paths::search_index(&job.domain, &job.version)) {
        Ok(stored) => stored,
        Err(e) => {
            tracing::warn!(job = %job.id, "the bundle carries no assistant: no search index ({e})");
            return None;
        }
    };
    let kept = RenderCache::in_storage(
        context.operator.clone(),
        runtime.clone(),
        paths::SEARCH_SEGMENTS,
    );
    let max = crate::bundle::assistant::MAX_DATA_BYTES;
    let index = match crate::search::segments::read_stored(stored, &kept, max) {
        Ok(segments) => quire_bundle_assistant::segments::join(&segments),
        Err(e) => {
            tracing::warn!(job = %job.id, "the bundle carries no assistant: {e}");
            return None;
        }
    };
    let data = AssistantData {
        index,
        vocabulary: read(paths::search_vocabulary(&job.domain, &job.version)).ok(),
        site: site_facts(manifest),
    };
    if let Err(e) = data.check() {
        tracing::warn!(job = %job.id, "the bundle carries no assistant: {e}");
        return None;
    }
    Some(data.files(module))
}

fn read_manifest(
    context: &ExportContext,
    job: &Job,
    runtime: &Handle,
) -> Result<Arc<SiteManifest>, ExportError> {
    runtime
        .block_on(SiteManifest::read_shared(
            &context.operator,
            &job.domain,
            &job.version,
        ))
        .map_err(|e| match e {
            ManifestError::Storage(e) => ExportError::Storage(e),
            ManifestError::Corrupt { version, message } => ExportError::Manifest(version, message),
        })
}
