//! `quire serve`: the API server and its export workers.

use std::path::Path;

use anyhow::Result;
use quire::config::Config;

/// The arguments of `quire serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (overrides server.listen).
    #[arg(long)]
    listen: Option<std::net::SocketAddr>,
}

/// Serves until a shutdown signal.
pub fn run(
    args: ServeArgs,
    mut config: Config,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
) -> Result<()> {
    if let Some(listen) = args.listen {
        config.server.listen = listen;
    }
    runtime.block_on(quire::server::serve(config, data_dir))?;
    Ok(())
}
