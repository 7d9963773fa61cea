//! `quire build`: a site folder to a bundle on disk, with no server, store, organization or
//! key. The folder is read as publishing reads it (`sites::load_site`, with the same limits),
//! then exported as the server exports a version (`crate::export`, with the configured
//! renderer and packager components), its pages read straight from the folder, and written as
//! a folder or an archive with its feature file set for a deployment type, with the assistant
//! when asked (`assistant`). `quire dev` keeps a [`Builder`] for every rebuild.

mod assistant;
mod kept_archive;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::deployment_type::{DeploymentType, FeatureRequests, Features};
use crate::export::assembly::Reuse;
use crate::export::{ArchiveFile, ArchiveOutput, Export, ExportError, ExportProgress};
use crate::plugins::{PluginError, Plugins, Warning};
use crate::rendering::{RenderCache, RenderCounts, SiteRender, Sources};
use crate::sites::{SiteError, SiteLimits, SiteManifest, load_site, validate_domain};
use crate::store::JobWarning;
use kept_archive::KeptArchives;

/// How often the progress callback hears of the export.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

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
    /// The folder keeping rendered pages between builds, if any: a build after a one-page
    /// change renders that page and reuses the rest. It also keeps the last archive, whose
    /// unchanged entries the next build copies.
    pub cache_dir: Option<&'a Path>,
    /// Where to write the delta against the archive the cache folder kept, if wanted.
    pub delta: Option<&'a Path>,
    /// Ship the assistant (`quire-bundle-assistant`) in the bundle, with a search index built
    /// as publishing builds one.
    pub assistant: bool,
}

/// What a build produced.
#[derive(Debug)]
pub struct BuildReport {
    pub pages: u64,
    /// Of `pages`, how many were rendered and how many taken from the render cache.
    pub rendered: RenderCounts,
    /// Every warning, and how many there were.
    pub warnings: Vec<JobWarning>,
    pub warning_count: u64,
    /// The archive's size, or the bytes written into the folder.
    pub bytes: u64,
    /// Archive entries copied from the kept archive instead of packed.
    pub reused_entries: u64,
    /// Pieces of files written in parts (large files that changed) copied from the kept
    /// archive instead of packed.
    pub reused_pieces: u64,
    /// The delta's size, when one was written.
    pub delta_bytes: Option<u64>,
    pub elapsed: Duration,
}

/// Why a build failed: the site as a whole could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Output(String),
    #[error("the site cannot be published: {0}")]
    Site(#[from] SiteError),
    #[error("the site cannot be published: {0}")]
    Refused(String),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error(transparent)]
    Plugin(#[from] PluginError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Where a build's files go.
#[derive(Debug, Clone, Copy)]
pub enum Destination<'a> {
    /// Into this folder (new or empty), as the archive would unpack.
    Folder(&'a Path),
    /// Into an archive file of this format, with the delta against the kept archive written
    /// at `delta` when asked and there is one.
    Archive {
        path: &'a Path,
        format: OutputFormat,
        delta: Option<&'a Path>,
    },
}

/// A site folder read for a build: its manifest and the version label its bundle names.
pub struct LoadedSite {
    pub manifest: SiteManifest,
    pub label: String,
}

/// The plugins and settings for building one site again and again: `quire build` uses one
/// for a single build, `quire dev` keeps one for every rebuild.
pub struct Builder {
    /// A folder of the builder's own (the preview's builds live in it).
    scratch: tempfile::TempDir,
    plugins: Plugins,
    limits: SiteLimits,
    domain: String,
    builds: u32,
    cache: Option<RenderCache>,
    /// The archives kept beside a render cache in a folder.
    kept: Option<KeptArchives>,
    /// Whether bundles carry the assistant.
    assistant: bool,
}

impl Builder {
    /// A builder for sites served at `domain`, with `plugins` loaded by the caller (their
    /// compiled code is cached in its data folder).
    pub fn new(config: &Config, plugins: Plugins, domain: &str) -> Result<Self, BuildError> {
        validate_domain(domain).map_err(BuildError::Refused)?;
        let scratch = tempfile::tempdir().map_err(|e| BuildError::Output(e.to_string()))?;
        Ok(Self {
            scratch,
            plugins,
            limits: SiteLimits::of(&config.publish),
            domain: domain.to_string(),
            builds: 0,
            cache: None,
            kept: None,
            assistant: false,
        })
    }

    /// Ships the assistant in every bundle, with the search index it answers from.
    pub fn with_assistant(mut self, assistant: bool) -> Self {
        self.assistant = assistant;
        self
    }

    /// Keeps rendered pages in `cache` and reuses them from there.
    pub fn with_cache(mut self, cache: Option<RenderCache>) -> Self {
        self.kept = match &cache {
            Some(RenderCache::Folder(root)) => Some(KeptArchives::in_cache(root)),
            _ => None,
        };
        self.cache = cache;
        self
    }

    /// Brings the render cache, if any, down to its configured size (`render_cache_max_mib`).
    pub fn trim_cache(&self) {
        if let Some(cache) = &self.cache {
            cache.trim_and_log(self.plugins.render_cache_max_bytes);
        }
    }

    /// A folder of the builder's own, which lives as long as it does.
    pub fn scratch_dir(&self) -> &Path {
        self.scratch.path()
    }

    /// Reads the site folder `site` as publishing reads it; with `strict`, a site with
    /// warnings is refused. Each load is a new version label (`build-1`, `build-2`, ...).
    pub fn load(&mut self, site: &Path, strict: bool) -> Result<LoadedSite, BuildError> {
        let manifest = load_site(site, self.limits)?;
        if strict {
            manifest.refuse_warnings().map_err(BuildError::Refused)?;
        }
        for warning in &manifest.warnings {
            tracing::debug!("{warning}");
        }
        self.builds += 1;
        Ok(LoadedSite {
            manifest,
            label: format!("build-{}", self.builds),
        })
    }

    /// Exports `loaded`, read from the folder `site` (only `paths`, when given), to
    /// `destination` with `features` as its feature file; `on_progress(done, total)` hears of
    /// it as it goes. Returns the report (its `bytes`: the archive's size, or the bytes
    /// written into the folder).
    pub fn export(
        &self,
        site: &Path,
        loaded: &LoadedSite,
        paths: Option<&[String]>,
        destination: Destination<'_>,
        features: &Features,
        on_progress: &dyn Fn(u64, u64),
    ) -> Result<BuildReport, BuildError> {
        let started = Instant::now();
        let manifest = &loaded.manifest;
        let pages = manifest
            .pages
            .iter()
            .filter(|p| paths.is_none_or(|paths| paths.contains(&p.path)))
            .collect();
        let work = format!("build {}", loaded.label);
        let assistant = self.assistant.then(|| {
            assistant::assistant_files(
                &self.plugins,
                manifest,
                &loaded.label,
                site,
                self.cache.as_ref(),
            )
        });
        let assistant = assistant.flatten();
        let features = crate::docs_server::feature_file(features, None, None, assistant.is_some());
        let export = Export {
            render: SiteRender {
                manifest,
                version: &loaded.label,
                pages,
                sources: Sources::Folder(site),
                cancel: None,
                work: &work,
                cache: self.cache.as_ref(),
                given_back: crate::rendering::every_page,
            },
            domain: &self.domain,
            features: Some(&features),
            assistant: std::sync::Mutex::new(Some(Box::new(move || assistant))),
        };
        let mut progress = Progress {
            on_progress,
            last: None,
            warnings: Vec::new(),
            done: 0,
            rendered: RenderCounts::default(),
        };
        let names = (self.domain.as_str(), loaded.label.as_str());
        let (mut reused_entries, mut reused_pieces, mut delta_bytes) = (0, 0, None);
        let bytes = match destination {
            Destination::Folder(folder) => crate::export::run(
                &export,
                &self.plugins,
                &mut progress,
                None,
                |files, aborted| crate::export::write_folder(names, folder, files, aborted),
            )?,
            Destination::Archive {
                path,
                format,
                delta,
            } => {
                let format = match format {
                    OutputFormat::Zip => Some("zip"),
                    OutputFormat::Dir | OutputFormat::TarGz => None,
                };
                let packager = self
                    .plugins
                    .packagers
                    .choose(format)
                    .ok()
                    .map(|p| p.current());
                let earlier = self
                    .kept
                    .as_ref()
                    .zip(packager.as_ref())
                    .and_then(|(kept, packager)| kept.earlier(&packager.sha256));
                let mut delta_file = match (delta, &earlier) {
                    (Some(delta), Some(_)) => Some(ArchiveFile::create(delta)?),
                    _ => None,
                };
                let reuse = Reuse {
                    earlier: earlier.as_ref(),
                    delta: delta_file.as_mut().map(ArchiveFile::writer),
                };
                let packed = crate::export::run(
                    &export,
                    &self.plugins,
                    &mut progress,
                    earlier.as_ref(),
                    |files, aborted| {
                        crate::export::pack(
                            &self.plugins,
                            format,
                            names,
                            files,
                            aborted,
                            &work,
                            |_| ArchiveFile::create(path),
                            reuse,
                        )
                    },
                );
                let packed = match packed {
                    Ok(packed) => packed,
                    Err(e) => {
                        if let Some(delta) = &mut delta_file {
                            delta.abort();
                        }
                        return Err(e.into());
                    }
                };
                if let Some(delta) = &mut delta_file {
                    delta.close()?;
                }
                if let Some(assembled) = &packed.assembled {
                    reused_entries = assembled.reused;
                    reused_pieces = assembled.reused_pieces;
                    delta_bytes = assembled.delta.map(|d| d.size_bytes);
                    if let Some(kept) = &self.kept
                        && let Err(e) = kept.keep(path, &assembled.index)
                    {
                        tracing::warn!("the archive is not kept for the next build: {e}");
                    }
                }
                packed.size_bytes
            }
        };
        Ok(BuildReport {
            pages: progress.done,
            rendered: progress.rendered,
            warning_count: progress.warnings.len() as u64,
            warnings: progress.warnings,
            bytes,
            reused_entries,
            reused_pieces,
            delta_bytes,
            elapsed: started.elapsed(),
        })
    }
}

/// A build's progress: the callback, at most every interval, and every warning.
struct Progress<'a> {
    on_progress: &'a dyn Fn(u64, u64),
    last: Option<Instant>,
    warnings: Vec<JobWarning>,
    done: u64,
    rendered: RenderCounts,
}

impl ExportProgress for Progress<'_> {
    fn update(
        &mut self,
        done: u64,
        total: u64,
        warnings: Vec<Warning>,
        finished: bool,
    ) -> Result<(), ExportError> {
        self.done = done;
        self.warnings
            .extend(warnings.into_iter().map(JobWarning::from));
        if finished
            || self
                .last
                .is_none_or(|last| last.elapsed() >= PROGRESS_INTERVAL)
        {
            self.last = Some(Instant::now());
            (self.on_progress)(done, total);
        }
        Ok(())
    }

    fn rendered(&mut self, counts: RenderCounts) {
        self.rendered = counts;
    }
}

/// Builds `request.site` into `request.out`. `on_progress(done, total)` hears of the export as
/// it goes; `plugins` are loaded by the caller (their compiled code is cached in its data
/// folder, so a second build does not compile them again).
pub fn build(
    request: &BuildRequest<'_>,
    config: &Config,
    plugins: Plugins,
    on_progress: &dyn Fn(u64, u64),
) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    check_output(request)?;
    let cache = request
        .cache_dir
        .map(|folder| RenderCache::Folder(folder.to_path_buf()));
    let mut builder = Builder::new(config, plugins, request.domain)?
        .with_cache(cache)
        .with_assistant(request.assistant);
    let loaded = builder.load(request.site, request.strict)?;
    let read = started.elapsed();
    // Asked for, the assistant is on whatever the deployment type's default.
    let requests = FeatureRequests {
        bundle_assistant: request.assistant.then_some(true),
        ..FeatureRequests::default()
    };
    let features = Features::resolve(request.deployment, requests);
    let destination = match request.format {
        OutputFormat::Dir => {
            std::fs::create_dir_all(request.out).map_err(|source| BuildError::Write {
                path: request.out.to_path_buf(),
                source,
            })?;
            Destination::Folder(request.out)
        }
        format @ (OutputFormat::TarGz | OutputFormat::Zip) => Destination::Archive {
            path: request.out,
            format,
            delta: request.delta,
        },
    };
    let mut report = builder.export(
        request.site,
        &loaded,
        None,
        destination,
        &features,
        on_progress,
    )?;
    tracing::info!(
        read_ms = read.as_millis() as u64,
        export_ms = (started.elapsed() - read).as_millis() as u64,
        "built"
    );
    builder.trim_cache();
    report.elapsed = started.elapsed();
    Ok(report)
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
