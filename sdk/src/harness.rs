//! Testing a plugin locally: an ordinary `cargo test` builds the crate for `wasm32-wasip2`,
//! loads the component into the runtime the Quire host uses (same contract checks, sandbox and
//! limits), feeds it pages, sections, queries or files, and hands back what it returned. No
//! server is started. The plugin's log lines appear in the test's output.
//!
//! ```no_run
//! use quire_sdk::harness::{TestRenderer, TestSite};
//!
//! let renderer = TestRenderer::build(env!("CARGO_MANIFEST_DIR")).unwrap();
//! let site = TestSite::new("Acme").page("index", "# Welcome\n\nHello.");
//! let page = renderer.open(&site).unwrap().render("index").unwrap();
//! assert_eq!(page.title, "Welcome");
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, Once};

use quire_runtime::{ArchiveSession, IndexBuilderSession, IndexSession, RendererSession};
pub use quire_runtime::{
    Heading, IndexSection, Limits, LoadedPlugin, NavEntry, NavKind, OutputFile, PageInput,
    PluginError, PluginRuntime, RenderedPage, Role, SearchFilter, SearchHit, SearchQuery, Section,
    SiteFile, SiteInfo,
};

/// Why a test could not run the plugin.
#[derive(Debug)]
pub enum HarnessError {
    /// `cargo build --target wasm32-wasip2` failed or could not run.
    Build(String),
    /// The runtime refused or failed the plugin (contract, trap, limit, reported error).
    Plugin(PluginError),
    /// The test asked for something the site does not have.
    Usage(String),
}

impl std::fmt::Display for HarnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Build(m) => write!(f, "building the plugin failed: {m}"),
            Self::Plugin(e) => write!(f, "{e}"),
            Self::Usage(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for HarnessError {}

impl From<PluginError> for HarnessError {
    fn from(error: PluginError) -> Self {
        Self::Plugin(error)
    }
}

/// A built and loaded component, checked against its role.
pub struct TestPlugin {
    runtime: PluginRuntime,
    plugin: LoadedPlugin,
}

impl TestPlugin {
    /// Builds the crate at `manifest_dir` (pass `env!("CARGO_MANIFEST_DIR")`) for
    /// `wasm32-wasip2` in release mode and loads it as `role` under the host's default limits.
    pub fn build(manifest_dir: &str, role: Role) -> Result<Self, HarnessError> {
        let wasm = build_component(Path::new(manifest_dir))?;
        Self::load(&wasm, role, Limits::default())
    }

    /// Loads an already built component.
    pub fn load(wasm: &Path, role: Role, limits: Limits) -> Result<Self, HarnessError> {
        show_plugin_logs();
        let runtime = PluginRuntime::new(limits, None)?;
        let plugin = runtime.load_with_limits(role, wasm, limits)?;
        Ok(Self { runtime, plugin })
    }

    /// The loaded component (name, path, size, SHA-256).
    pub fn plugin(&self) -> &LoadedPlugin {
        &self.plugin
    }
}

/// A renderer under test.
pub struct TestRenderer(TestPlugin);

impl TestRenderer {
    /// Builds and loads the renderer crate at `manifest_dir`.
    pub fn build(manifest_dir: &str) -> Result<Self, HarnessError> {
        TestPlugin::build(manifest_dir, Role::Renderer).map(Self)
    }

    /// Opens `site`, as the host does at the start of an export.
    pub fn open<'a>(&'a self, site: &'a TestSite) -> Result<OpenRenderer<'a>, HarnessError> {
        let session = RendererSession::open(&self.0.runtime, &self.0.plugin, &site.info(), "test")?;
        Ok(OpenRenderer { session, site })
    }
}

/// A renderer opened on a site.
pub struct OpenRenderer<'a> {
    session: RendererSession,
    site: &'a TestSite,
}

impl OpenRenderer<'_> {
    /// The shared assets.
    pub fn assets(&mut self) -> Result<Vec<OutputFile>, HarnessError> {
        Ok(self.session.assets()?)
    }

    /// Renders the site's page at `path`.
    pub fn render(&mut self, path: &str) -> Result<RenderedPage, HarnessError> {
        let (file, source) = self
            .site
            .pages
            .iter()
            .find(|(p, _, _)| p == path)
            .map(|(_, file, source)| (file.clone(), source.clone()))
            .ok_or_else(|| HarnessError::Usage(format!("the test site has no page {path:?}")))?;
        Ok(self.session.render_page(&PageInput {
            path: path.to_string(),
            file,
            source,
            modified: None,
        })?)
    }
}

/// A site to render in a test: pages in navigation order, under one group.
#[derive(Debug, Clone)]
pub struct TestSite {
    name: String,
    config_json: String,
    /// (path, file, source)
    pages: Vec<(String, String, String)>,
    snippets: Vec<SiteFile>,
}

impl TestSite {
    /// An empty site called `name`.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            config_json: serde_json::json!({ "name": name }).to_string(),
            pages: Vec::new(),
            snippets: Vec::new(),
        }
    }

    /// Adds the page `path` (no extension) from `PATH.mdx` with `source`.
    pub fn page(mut self, path: &str, source: &str) -> Self {
        self.pages
            .push((path.to_string(), format!("{path}.mdx"), source.to_string()));
        self
    }

    /// Replaces the navigation file (docs.json) text.
    pub fn config(mut self, json: &str) -> Self {
        self.config_json = json.to_string();
        self
    }

    /// Adds a snippet file (`snippets/NAME.mdx`).
    pub fn snippet(mut self, path: &str, contents: &str) -> Self {
        self.snippets.push(SiteFile {
            path: path.to_string(),
            contents: contents.to_string(),
        });
        self
    }

    /// What the host hands the renderer for this site.
    pub fn info(&self) -> SiteInfo {
        let mut navigation = vec![NavEntry {
            kind: NavKind::Group,
            depth: 0,
            label: "Pages".into(),
            target: None,
            icon: None,
            tag: None,
            expanded: true,
            directory: None,
        }];
        navigation.extend(self.pages.iter().map(|(path, _, _)| NavEntry {
            kind: NavKind::Page,
            depth: 1,
            label: path.clone(),
            target: Some(path.clone()),
            icon: None,
            tag: None,
            expanded: false,
            directory: None,
        }));
        SiteInfo {
            name: self.name.clone(),
            version: "v1".into(),
            navigation,
            pages: self.pages.iter().map(|(p, _, _)| p.clone()).collect(),
            config_json: self.config_json.clone(),
            snippets: self.snippets.clone(),
            api_documents: Vec::new(),
            stylesheets: Vec::new(),
            scripts: Vec::new(),
            files: Vec::new(),
        }
    }
}

/// A retriever under test.
pub struct TestRetriever(TestPlugin);

impl TestRetriever {
    /// Builds and loads the retriever crate at `manifest_dir`.
    pub fn build(manifest_dir: &str) -> Result<Self, HarnessError> {
        TestPlugin::build(manifest_dir, Role::Retriever).map(Self)
    }

    /// Indexes `sections` as one segment and returns its bytes, as the host does for each group
    /// of pages at publish time.
    pub fn index(&self, sections: &[IndexSection]) -> Result<Vec<u8>, HarnessError> {
        let mut builder = IndexBuilderSession::start(&self.0.runtime, &self.0.plugin, "test")?;
        builder.add(sections)?;
        Ok(builder.finish()?)
    }

    /// Loads `index` (one segment) and answers `text` with at most `limit` hits.
    pub fn search(
        &self,
        index: &[u8],
        text: &str,
        limit: u32,
    ) -> Result<Vec<SearchHit>, HarnessError> {
        self.search_segments(&[index.to_vec()], text, limit)
    }

    /// Loads the index of `segments` (in the site's order) and answers `text` with at most
    /// `limit` hits: what the host does with a site indexed in groups of pages.
    pub fn search_segments(
        &self,
        segments: &[Vec<u8>],
        text: &str,
        limit: u32,
    ) -> Result<Vec<SearchHit>, HarnessError> {
        let mut session = IndexSession::load(&self.0.runtime, &self.0.plugin, segments, "test")?;
        Ok(session.search(&SearchQuery {
            text: text.to_string(),
            limit,
            filter: SearchFilter {
                version: None,
                language: None,
            },
            boost_paths: Vec::new(),
        })?)
    }
}

/// A packager under test.
pub struct TestPackager(TestPlugin);

/// An archive a packager wrote.
pub struct Packed {
    pub extension: String,
    pub media_type: String,
    pub bytes: Vec<u8>,
}

impl TestPackager {
    /// Builds and loads the packager crate at `manifest_dir`.
    pub fn build(manifest_dir: &str) -> Result<Self, HarnessError> {
        TestPlugin::build(manifest_dir, Role::Packager).map(Self)
    }

    /// Packs `files` (path, contents) into one archive.
    pub fn pack(&self, files: &[(&str, &[u8])]) -> Result<Packed, HarnessError> {
        let mut archive = ArchiveSession::start(&self.0.runtime, &self.0.plugin, "test")?;
        let (extension, media_type) = (archive.extension.clone(), archive.media_type.clone());
        let mut bytes = Vec::new();
        for (path, contents) in files {
            bytes.extend(archive.add_file(path, contents)?);
        }
        bytes.extend(archive.finish()?);
        Ok(Packed {
            extension,
            media_type,
            bytes,
        })
    }
}

/// Builds the crate at `manifest_dir` for `wasm32-wasip2` (once per test process) and returns
/// the component's path.
pub fn build_component(manifest_dir: &Path) -> Result<PathBuf, HarnessError> {
    static BUILT: Mutex<Option<HashMap<PathBuf, PathBuf>>> = Mutex::new(None);
    let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
    let built = built.get_or_insert_with(HashMap::new);
    if let Some(wasm) = built.get(manifest_dir) {
        return Ok(wasm.clone());
    }
    let manifest = manifest_dir.join("Cargo.toml");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let metadata = Command::new(&cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(&manifest)
        .output()
        .map_err(|e| HarnessError::Build(format!("cannot run {cargo}: {e}")))?;
    if !metadata.status.success() {
        return Err(HarnessError::Build(
            String::from_utf8_lossy(&metadata.stderr).into_owned(),
        ));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout)
        .map_err(|e| HarnessError::Build(format!("cargo metadata: {e}")))?;
    let package = metadata["packages"]
        .as_array()
        .and_then(|packages| {
            packages
                .iter()
                .find(|p| p["manifest_path"].as_str().map(Path::new) == Some(manifest.as_path()))
        })
        .and_then(|p| p["name"].as_str())
        .ok_or_else(|| HarnessError::Build(format!("no package in {}", manifest.display())))?
        .to_string();
    let target_dir = metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| HarnessError::Build("cargo metadata has no target directory".into()))?;
    let status = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-wasip2",
            "--manifest-path",
        ])
        .arg(&manifest)
        .args(["--package", &package])
        .status()
        .map_err(|e| HarnessError::Build(format!("cannot run {cargo}: {e}")))?;
    if !status.success() {
        return Err(HarnessError::Build(format!(
            "cargo build --target wasm32-wasip2 for {package} failed ({status}); is the target installed? (rustup target add wasm32-wasip2)"
        )));
    }
    let wasm = target_dir
        .join("wasm32-wasip2")
        .join("release")
        .join(format!("{}.wasm", package.replace('-', "_")));
    if !wasm.is_file() {
        return Err(HarnessError::Build(format!(
            "{} was not produced; is the crate a cdylib?",
            wasm.display()
        )));
    }
    built.insert(manifest_dir.to_path_buf(), wasm.clone());
    Ok(wasm)
}

/// Shows the runtime's log lines (the plugin's included) in the test output. `RUST_LOG`
/// chooses the level; default `info`.
fn show_plugin_logs() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_test_writer()
            .try_init();
    });
}
