//! `quire dev SITE_DIR`: a local preview while writing. The site is built as `quire build`
//! builds it and served on 127.0.0.1; the folder is watched, and on save the changed pages
//! alone are rendered again (the whole site when anything else changed: docs.json, a snippet,
//! an image), then every open page is told to reload (see `server.rs`).

mod server;

use std::collections::{BTreeSet, HashMap};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use notify::Watcher;
use tokio::sync::broadcast;

use crate::build::{BuildError, BuildReport, Builder, Destination};
use crate::config::Config;
use crate::deployment_type::{DeploymentType, FeatureRequests, Features};
use crate::plugins::Plugins;

/// Saves arriving this close together are one rebuild (editors write a file in several steps).
const SETTLE: Duration = Duration::from_millis(150);

/// What to preview and where.
pub struct DevRequest<'a> {
    pub site: &'a Path,
    pub listen: SocketAddr,
    /// The render cache's folder, shared with `quire build`, if any.
    pub cache_dir: Option<&'a Path>,
}

/// Why the preview could not start.
#[derive(Debug, thiserror::Error)]
pub enum DevError {
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error("cannot watch {path}: {source}")]
    Watch {
        path: PathBuf,
        source: notify::Error,
    },
    #[error("cannot listen on {0}: {1}")]
    Listen(SocketAddr, std::io::Error),
    #[error("{0}")]
    Files(String),
}

/// The folder being served, swapped whole after a full rebuild.
pub(crate) type Served = Arc<RwLock<PathBuf>>;

/// Builds, serves and rebuilds until the process is stopped. `report` hears of each build in
/// words (pages, warnings with file:line), for the terminal.
pub fn run(
    request: &DevRequest<'_>,
    config: &Config,
    plugins: Plugins,
    runtime: &tokio::runtime::Handle,
    report: &dyn Fn(&str),
) -> Result<(), DevError> {
    if !request.site.is_dir() {
        return Err(DevError::Files(format!(
            "{} is not a folder",
            request.site.display()
        )));
    }
    let cache = request
        .cache_dir
        .map(|folder| crate::rendering::RenderCache::Folder(folder.to_path_buf()));
    let mut builder = Builder::new(config, plugins, "localhost")?.with_cache(cache);
    let features = Features::resolve(DeploymentType::Cloud, FeatureRequests::default());
    let mut preview = Preview {
        site: request.site.to_path_buf(),
        output: builder.scratch_dir().join("preview"),
        generation: 0,
        served: Arc::new(RwLock::new(PathBuf::new())),
        pages: HashMap::new(),
        known: Default::default(),
        features,
    };
    preview.full(&mut builder, report)?;

    let (reload, _) = broadcast::channel::<String>(16);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(request.listen))
        .map_err(|e| DevError::Listen(request.listen, e))?;
    let address = listener
        .local_addr()
        .map_err(|e| DevError::Listen(request.listen, e))?;
    runtime.spawn(server::serve(
        listener,
        preview.served.clone(),
        reload.clone(),
    ));
    report(&format!(
        "previewing {} on http://{address}/ (Ctrl-C to stop)",
        request.site.display()
    ));

    let (events, changes) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(events).map_err(|source| DevError::Watch {
        path: request.site.to_path_buf(),
        source,
    })?;
    watcher
        .watch(request.site, notify::RecursiveMode::Recursive)
        .map_err(|source| DevError::Watch {
            path: request.site.to_path_buf(),
            source,
        })?;
    let site = request.site.canonicalize().unwrap_or(request.site.into());
    while let Ok(first) = changes.recv() {
        let mut changed = BTreeSet::new();
        collect(&site, first, &mut changed);
        // Wait for the writes of one save to settle.
        let deadline = Instant::now() + SETTLE;
        while let Ok(more) =
            changes.recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            collect(&site, more, &mut changed);
        }
        // Editors save through files that are gone a moment later (`.swp`, `sed` temporaries):
        // what neither exists nor was part of the site changes nothing.
        changed.retain(|file| preview.known.contains(file) || site.join(file).exists());
        if changed.is_empty() {
            continue;
        }
        let outcome = match preview.changed_pages(&changed) {
            Some(pages) => preview.pages_only(&mut builder, &pages, report),
            None => preview.full(&mut builder, report),
        };
        match outcome {
            // Nobody listening is fine: no page is open.
            Ok(()) => drop(reload.send("reload".into())),
            Err(e) => report(&format!(
                "the site cannot be built: {e}; keeping the last build"
            )),
        }
    }
    Ok(())
}

/// The files of the site a watcher event names, relative to its root, outside hidden folders.
fn collect(site: &Path, event: notify::Result<notify::Event>, into: &mut BTreeSet<String>) {
    let Ok(event) = event else { return };
    if matches!(event.kind, notify::EventKind::Access(_)) {
        return;
    }
    for path in event.paths {
        let path = path.canonicalize().unwrap_or(path);
        let Ok(relative) = path.strip_prefix(site) else {
            continue;
        };
        let relative = relative.to_string_lossy().replace('\\', "/");
        let hidden = relative
            .split('/')
            .any(|part| part.starts_with('.') || part == "node_modules");
        if !relative.is_empty() && !hidden {
            into.insert(relative);
        }
    }
}

/// The preview's state between builds.
struct Preview {
    site: PathBuf,
    /// Where builds are unpacked, one folder per full build.
    output: PathBuf,
    generation: u32,
    served: Served,
    /// The site's page files and their page paths, as of the last full build.
    pages: HashMap<String, String>,
    /// Every file of the site as of the last full build.
    known: std::collections::HashSet<String>,
    features: Features,
}

impl Preview {
    /// The page paths to render again when only existing pages changed; `None` when anything
    /// else did (a rebuild of everything).
    fn changed_pages(&self, changed: &BTreeSet<String>) -> Option<Vec<String>> {
        changed
            .iter()
            .map(|file| {
                let page = self.pages.get(file)?;
                self.site.join(file).is_file().then(|| page.clone())
            })
            .collect()
    }

    /// Builds the whole site into a new folder and serves it.
    fn full(&mut self, builder: &mut Builder, report: &dyn Fn(&str)) -> Result<(), DevError> {
        let started = Instant::now();
        let loaded = builder.load(&self.site, false)?;
        self.generation += 1;
        let folder = self.output.join(self.generation.to_string());
        std::fs::create_dir_all(&folder).map_err(|e| DevError::Files(e.to_string()))?;
        let built = builder.export(
            &self.site,
            &loaded,
            None,
            Destination::Folder(&folder),
            &self.features,
            &|_, _| {},
        )?;
        self.known = loaded
            .manifest
            .files
            .iter()
            .map(|f| f.path.clone())
            .collect();
        self.pages = loaded
            .manifest
            .pages
            .into_iter()
            .filter(|p| p.generated.is_none())
            .map(|p| (p.file, p.path))
            .collect();
        let previous = std::mem::replace(
            &mut *self.served.write().unwrap_or_else(|e| e.into_inner()),
            folder,
        );
        if !previous.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(previous);
        }
        report_build(report, "built", &built, started);
        // The cache is kept within its limit after each full build, as `quire build` keeps it.
        builder.trim_cache();
        Ok(())
    }

    /// Renders `pages` again and puts their files in the served folder.
    fn pages_only(
        &mut self,
        builder: &mut Builder,
        pages: &[String],
        report: &dyn Fn(&str),
    ) -> Result<(), DevError> {
        let started = Instant::now();
        let loaded = builder.load(&self.site, false)?;
        let staging = self.output.join("staging");
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir_all(&staging).map_err(|e| DevError::Files(e.to_string()))?;
        let built = builder.export(
            &self.site,
            &loaded,
            Some(pages),
            Destination::Folder(&staging),
            &self.features,
            &|_, _| {},
        )?;
        let served = self
            .served
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        // The pages' own files, and anything the build made that the folder lacks (a script a
        // page newly needs); site-wide files (search, sitemap) stay as the last full build.
        for entry in walkdir::WalkDir::new(&staging).into_iter().flatten() {
            let Ok(relative) = entry.path().strip_prefix(&staging) else {
                continue;
            };
            let name = relative.to_string_lossy().replace('\\', "/");
            let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
            let target = served.join(relative);
            let is_page_file = pages.iter().any(|p| p == stem);
            if entry.file_type().is_file() && (is_page_file || !target.exists()) {
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| DevError::Files(e.to_string()))?;
                }
                std::fs::copy(entry.path(), &target).map_err(|e| DevError::Files(e.to_string()))?;
            }
        }
        let _ = std::fs::remove_dir_all(&staging);
        report_build(
            report,
            &format!("rebuilt {}", pages.join(", ")),
            &built,
            started,
        );
        Ok(())
    }
}

fn report_build(report: &dyn Fn(&str), what: &str, built: &BuildReport, started: Instant) {
    for warning in &built.warnings {
        let line = warning.line.map(|l| format!(":{l}")).unwrap_or_default();
        report(&format!(
            "warning: {}{line}: {}",
            warning.file, warning.message
        ));
    }
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    report(&format!(
        "{what}: {}, {}, {} ms",
        plural(built.pages, "page"),
        plural(built.warning_count, "warning"),
        started.elapsed().as_millis()
    ));
}
