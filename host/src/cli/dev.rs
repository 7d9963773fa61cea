//! `quire dev SITE_DIR`: the command line over `quire::dev`, reporting each build on stderr.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use quire::config::Config;
use quire::dev::{DevRequest, run as preview};

/// The arguments of `quire dev`.
#[derive(clap::Args)]
pub struct DevArgs {
    /// The site folder (with docs.json or mint.json).
    site: PathBuf,
    /// Where to serve the preview (loopback unless you mean to share it).
    #[arg(long, default_value = "127.0.0.1:3000")]
    listen: SocketAddr,
}

/// Builds, serves and rebuilds until stopped; fails only when the first build cannot be made
/// or the address is taken.
pub fn run(
    args: DevArgs,
    config: &Config,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
) -> Result<ExitCode> {
    let plugins = quire::server::load_plugins(config, data_dir)?;
    let cache_dir = config.plugins.render_cache_dir(data_dir);
    let request = DevRequest {
        site: &args.site,
        listen: args.listen,
        cache_dir: Some(&cache_dir),
    };
    preview(&request, config, plugins, runtime.handle(), &|line| {
        eprintln!("{line}")
    })?;
    Ok(ExitCode::SUCCESS)
}
