//! `quire build`: a site folder to a bundle on disk with no server, organization or key. It
//! runs the server's own pipeline (publish, then the export job, with the configured renderer,
//! retriever and packager components) against a store and storage in a throwaway folder, and
//! writes the bundle as a folder or an archive, its feature file set for a deployment type.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::deployment_type::{DeploymentType, FeatureRequests, Features};
use crate::jobs::{ExportContext, ExportError};
use crate::plugins::{PluginError, Plugins};
use crate::publishing::{PublishError, PublishRequest, publish};
use crate::sites::SiteLimits;
use crate::store::{
    BundleRecord, Job, JobStatus, JobWarning, Plan, RedbStore, SharedStore, StoreError,
};

/// The organization and domain the throwaway store holds the site under.
const ORGANIZATION: &str = "local";
/// The one worker of a build: its export job is leased to it from the start.
const BUILD_WORKER: &str = "build";
/// Sites up to this size are copied into memory for a build rather than into a scratch folder.
const IN_MEMORY_SITE_BYTES: u64 = 64 << 20;
/// How often the progress callback hears of the export.
const PROGRESS_POLL: Duration = Duration::from_millis(100);

/// What the bundle is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// A folder of files, ready to serve or open.
    Dir,
    /// A `.tar.gz` archive (the default packager).
    #[value(name = "tar.gz")]
    TarGz,
    /// A `.zip` archive (the packager configured for `zip`).
    Zip,
}

/// One build.
pub struct BuildRequest<'a> {
    /// The site folder (with `docs.json` or `mint.json`).
    pub site: &'a Path,
    /// The folder (for `dir`) or file to write.
    pub out: &'a Path,
    pub format: OutputFormat,
    /// Decides the bundle's feature file, as a docs server of that type would write it.
    pub deployment: DeploymentType,
    /// The domain the sitemap's and `robots.txt`'s URLs name.
    pub domain: &'a str,
    /// Refuse a site with publishing warnings (a navigation entry naming a missing page).
    pub strict: bool,
}

/// What a build produced.
#[derive(Debug)]
pub struct BuildReport {
    pub pages: u64,
    /// Every warning, and how many there were.
    pub warnings: Vec<JobWarning>,
    pub warning_count: u64,
    /// The archive's size, or the bytes written into the folder.
    pub bytes: u64,
    pub elapsed: Duration,
}

/// Why a build failed: the site as a whole could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Output(String),
    #[error("the site cannot be published: {0}")]
    Publish(#[from] PublishError),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Plugin(#[from] PluginError),
    #[error("storage error: {0}")]
    Storage(#[from] opendal::Error),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A store, storage and plugins for building one site again and again: `quire build` uses one
/// for a single build, `quire dev` keeps one for every rebuild.
pub struct Builder<'r> {
    /// Kept alive: holds the store and storage.
    scratch: tempfile::TempDir,
    store: SharedStore,
    context: ExportContext,
    runtime: &'r Handle,
    limits: SiteLimits,
    domain: String,
    builds: u32,
}

/// One export of a published version.
pub struct Export {
    /// The bundle's archive.
    pub archive: Vec<u8>,
    /// The finished job: pages, warnings.
    pub job: Job,
}

impl<'r> Builder<'r> {
    /// A builder for the site folder `site`, served at `domain`, with `plugins` loaded by the
    /// caller (their compiled code is cached in its data folder).
    pub fn new(
        config: &Config,
        plugins: Plugins,
        runtime: &'r Handle,
        site: &Path,
        domain: &str,
    ) -> Result<Self, BuildError> {
        let scratch = tempfile::tempdir().map_err(|e| BuildError::Output(e.to_string()))?;
        let store: SharedStore = std::sync::Arc::new(RedbStore::open(scratch.path())?);
        // Scratch storage, whatever the configuration names for the server. It holds a copy of
        // the site's files: in memory for a site of up to `IN_MEMORY_SITE_BYTES`, where
        // thousands of files created and removed on disk cost more than rendering the pages,
        // and in the scratch folder for a larger one, which memory would not hold cheaply.
        let in_memory = folder_bytes(site) <= IN_MEMORY_SITE_BYTES;
        let operator = if in_memory {
            opendal::Operator::new(opendal::services::Memory::default())
                .map_err(|e| BuildError::Output(format!("cannot open scratch storage: {e}")))?
        } else {
            crate::storage::operator(&Default::default(), scratch.path())
                .map_err(|e| BuildError::Output(format!("cannot open scratch storage: {e}")))?
        };
        runtime.block_on(store.create_organization(ORGANIZATION, Plan::Enterprise))?;
        Ok(Self {
            scratch,
            store: store.clone(),
            context: ExportContext {
                store,
                server_id: BUILD_WORKER.into(),
                operator,
                plugins,
                config: config.jobs.clone(),
                queued: tokio::sync::Notify::new(),
            },
            runtime,
            limits: SiteLimits {
                max_files: config.publish.max_files,
                max_bytes: config.publish.max_site_mib << 20,
            },
            domain: domain.to_string(),
            builds: 0,
        })
    }

    /// The limits on a site folder's files, from the configuration.
    pub fn site_limits(&self) -> SiteLimits {
        self.limits
    }

    /// A folder of the builder's own, which lives as long as it does.
    pub fn scratch_dir(&self) -> &Path {
        self.scratch.path()
    }

    /// Publishes the folder `site` as a new version (no assistant index: the bundle's search
    /// is built at export) and returns its label.
    pub fn publish(&mut self, site: &Path, strict: bool) -> Result<String, BuildError> {
        self.builds += 1;
        let label = format!("build-{}", self.builds);
        let published = self.runtime.block_on(publish(
            self.store.as_ref(),
            &self.context.operator,
            PublishRequest {
                organization: ORGANIZATION,
                domain: &self.domain,
                label: Some(&label),
                root: site,
                limits: self.limits,
                plugins: &self.context.plugins,
                strict,
                index: false,
            },
        ))?;
        Ok(published.label)
    }

    /// Exports `version` (only `paths`, when given) as an archive of `format`, with `features`
    /// as its feature file; `on_progress(done, total)` hears of it as it goes.
    pub fn export(
        &self,
        version: &str,
        paths: Option<Vec<String>>,
        format: OutputFormat,
        features: &Features,
        on_progress: &dyn Fn(u64, u64),
    ) -> Result<Export, BuildError> {
        let (job, bundle) = self.run_job(
            version,
            paths,
            format,
            features,
            on_progress,
            |job, cancel| crate::jobs::export_now(&self.context, job, self.runtime, cancel),
        )?;
        let archive = self
            .runtime
            .block_on(self.context.operator.read(&bundle.path))?
            .to_vec();
        Ok(Export { archive, job })
    }

    /// Exports `version` (only `paths`, when given) into `folder`, new or empty, as the
    /// archive would unpack; returns the finished job and the bytes written.
    pub fn export_to_folder(
        &self,
        version: &str,
        paths: Option<Vec<String>>,
        features: &Features,
        on_progress: &dyn Fn(u64, u64),
        folder: &Path,
    ) -> Result<(Job, u64), BuildError> {
        let (job, bundle) = self.run_job(
            version,
            paths,
            OutputFormat::Dir,
            features,
            on_progress,
            |job, cancel| {
                let bytes = crate::jobs::export_to_folder(
                    &self.context,
                    job,
                    self.runtime,
                    cancel,
                    folder,
                )?;
                // The throwaway store records where the files went, as it would an archive.
                Ok(BundleRecord {
                    path: folder.display().to_string(),
                    size_bytes: bytes,
                    media_type: "inode/directory".into(),
                })
            },
        )?;
        Ok((job, bundle.size_bytes))
    }

    /// Runs one export job through `export`, reporting its progress, and records its end.
    fn run_job(
        &self,
        version: &str,
        paths: Option<Vec<String>>,
        format: OutputFormat,
        features: &Features,
        on_progress: &dyn Fn(u64, u64),
        export: impl FnOnce(&Job, &CancellationToken) -> Result<BundleRecord, ExportError> + Send,
    ) -> Result<(Job, BundleRecord), BuildError> {
        let now = time::OffsetDateTime::now_utc();
        let job = Job {
            id: format!("export-{version}"),
            organization: ORGANIZATION.into(),
            domain: self.domain.clone(),
            version: version.into(),
            paths,
            format: match format {
                OutputFormat::Zip => Some("zip".into()),
                OutputFormat::Dir | OutputFormat::TarGz => None,
            },
            status: JobStatus::Running,
            page_count: 0,
            total_pages: 0,
            created_at: now,
            updated_at: now,
            attempts: 1,
            error: None,
            warnings: Vec::new(),
            warning_count: 0,
            bundle: None,
            features: Some(crate::docs_server::feature_file(features, None)),
            lease_owner: Some(BUILD_WORKER.into()),
        };
        self.runtime.block_on(self.store.insert_job(&job))?;
        let cancel = CancellationToken::new();
        let bundle = std::thread::scope(|scope| {
            let export = scope.spawn(|| export(&job, &cancel));
            while !export.is_finished() {
                if let Ok(Some(now)) = self
                    .runtime
                    .block_on(self.store.job_of(ORGANIZATION, &job.id))
                {
                    on_progress(now.page_count, now.total_pages);
                }
                std::thread::sleep(PROGRESS_POLL);
            }
            export
                .join()
                .unwrap_or_else(|_| Err(ExportError::PipelineClosed))
        })?;
        let mut finished = self.runtime.block_on(self.store.complete_job(
            &job.id,
            BUILD_WORKER,
            bundle.clone(),
        ))?;
        finished.warnings = self
            .runtime
            .block_on(crate::jobs::all_warnings(&self.context.operator, &finished));
        on_progress(finished.total_pages, finished.total_pages);
        Ok((finished, bundle))
    }
}

/// Builds `request.site` into `request.out`. `on_progress(done, total)` hears of the export as
/// it goes; `plugins` are loaded by the caller (their compiled code is cached in its data
/// folder, so a second build does not compile them again).
pub fn build(
    request: &BuildRequest<'_>,
    config: &Config,
    plugins: Plugins,
    runtime: &Handle,
    on_progress: &dyn Fn(u64, u64),
) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    check_output(request)?;
    let mut builder = Builder::new(config, plugins, runtime, request.site, request.domain)?;
    let version = builder.publish(request.site, request.strict)?;
    let published = started.elapsed();
    let features = Features::resolve(request.deployment, FeatureRequests::default());
    let (job, bytes) = match request.format {
        OutputFormat::Dir => {
            std::fs::create_dir_all(request.out).map_err(|source| BuildError::Write {
                path: request.out.to_path_buf(),
                source,
            })?;
            builder.export_to_folder(&version, None, &features, on_progress, request.out)?
        }
        OutputFormat::TarGz | OutputFormat::Zip => {
            let export = builder.export(&version, None, request.format, &features, on_progress)?;
            std::fs::write(request.out, &export.archive).map_err(|source| BuildError::Write {
                path: request.out.to_path_buf(),
                source,
            })?;
            (export.job, export.archive.len() as u64)
        }
    };
    let exported = started.elapsed();
    tracing::info!(
        publish_ms = published.as_millis() as u64,
        export_ms = (exported - published).as_millis() as u64,
        write_ms = (started.elapsed() - exported).as_millis() as u64,
        "built"
    );
    Ok(BuildReport {
        pages: job.page_count,
        warnings: job.warnings,
        warning_count: job.warning_count,
        bytes,
        elapsed: started.elapsed(),
    })
}

/// A folder output must be new or empty; an archive output must not be a folder. Checked
/// before any work, so a mistyped path costs nothing.
fn check_output(request: &BuildRequest<'_>) -> Result<(), BuildError> {
    let out = request.out;
    if !request.site.is_dir() {
        return Err(BuildError::Output(format!(
            "{} is not a folder",
            request.site.display()
        )));
    }
    match request.format {
        OutputFormat::Dir => {
            let empty = std::fs::read_dir(out).map_or(true, |mut d| d.next().is_none());
            if out.exists() && !(out.is_dir() && empty) {
                return Err(BuildError::Output(format!(
                    "{} exists and is not an empty folder; choose a new output folder",
                    out.display()
                )));
            }
        }
        OutputFormat::TarGz | OutputFormat::Zip => {
            if out.is_dir() {
                return Err(BuildError::Output(format!(
                    "{} is a folder; name the archive file to write (or use --format dir)",
                    out.display()
                )));
            }
        }
    }
    Ok(())
}

/// The bytes of the files under `folder` (what a publish copies, and a little more).
fn folder_bytes(folder: &Path) -> u64 {
    walkdir::WalkDir::new(folder)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.metadata().ok())
        .filter(|meta| meta.is_file())
        .map(|meta| meta.len())
        .sum()
}
