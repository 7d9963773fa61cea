//! `quire mcp PATH`: a site's MCP server over stdio, for an agent on this machine, from an
//! exported bundle (`.tar.gz`, `.zip` or its unpacked folder) or a site folder, which is built
//! first. Nothing goes over the network: this is how an air-gapped team gives its agents its
//! docs. stdout carries the protocol; logs go to stderr.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use quire::build::{BuildRequest, OutputFormat, build};
use quire::config::Config;
use quire::deployment_type::DeploymentType;
use quire::mcp::BundleSite;

/// The arguments of `quire mcp`.
#[derive(clap::Args)]
pub struct McpArgs {
    /// An exported bundle (`.tar.gz`, `.zip` or the folder it unpacks to), or a site folder
    /// (with docs.json or mint.json), which is built first.
    path: PathBuf,
    /// Where the pages' URLs in answers point (default: `https://` and the bundle's domain).
    #[arg(long)]
    base_url: Option<String>,
    /// The domain a site folder is built for.
    #[arg(long, default_value = "docs.example.com")]
    domain: String,
}

/// Serves until the client closes stdin.
pub fn run(
    args: McpArgs,
    config: &Config,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
) -> Result<ExitCode> {
    let scratch = tempfile::tempdir().context("cannot make a scratch folder")?;
    let bundle = bundle_folder(&args, config, data_dir, scratch.path())?;
    let site = BundleSite::open(&bundle, args.base_url.as_deref())?;
    eprintln!(
        "quire mcp: serving {} ({} pages) over stdio",
        site.name(),
        site.page_count()
    );
    runtime.block_on(quire::mcp::serve_stdio(std::sync::Arc::new(site)))?;
    Ok(ExitCode::SUCCESS)
}

/// The folder holding the bundle `args.path` names: that folder itself, the archive unpacked
/// (and verified) into `scratch`, or the site folder built into `scratch`.
fn bundle_folder(
    args: &McpArgs,
    config: &Config,
    data_dir: &Path,
    scratch: &Path,
) -> Result<PathBuf> {
    let path = &args.path;
    if path.is_dir() && path.join(quire::bundle::PAGE_LIST_FILE).is_file() {
        return Ok(path.clone());
    }
    let out = scratch.join("bundle");
    if path.is_dir() {
        if !path.join("docs.json").is_file() && !path.join("mint.json").is_file() {
            bail!(
                "{} is neither a bundle (no pages.json) nor a site folder (no docs.json or mint.json)",
                path.display()
            );
        }
        let plugins = quire::server::load_plugins(config, data_dir)?;
        // The same cache as `quire build`: serving a site folder again renders what changed.
        let cache_dir = config.plugins.render_cache_dir(data_dir);
        let request = BuildRequest {
            site: path,
            out: &out,
            format: OutputFormat::Dir,
            deployment: DeploymentType::AirGapped,
            domain: &args.domain,
            strict: false,
            cache_dir: Some(&cache_dir),
            delta: None,
            // Agents search the bundle's offline index; no reader asks in a browser here.
            assistant: false,
        };
        let report = build(&request, config, plugins, &|_, _| {})?;
        eprintln!(
            "quire mcp: built {} pages ({} warnings)",
            report.pages, report.warning_count
        );
        return Ok(out);
    }
    let archive = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    std::fs::create_dir_all(&out)?;
    quire::docs_server::unpack_bundle(&archive, &out)
        .with_context(|| format!("{} is not a bundle Quire can serve", path.display()))?;
    Ok(out)
}
