//! `quire site publish`: a site folder published as a new content version, with no server.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Subcommand;
use quire::config::Config;
use quire::publishing::{PublishRequest, publish};
use quire::sites::SiteLimits;

/// The `quire site` commands.
#[derive(Subcommand)]
pub enum SiteCommand {
    /// Publish a site folder as a new content version of DOMAIN.
    Publish {
        domain: String,
        path: PathBuf,
        #[arg(long)]
        org: String,
        /// Version label; default: the time of publishing.
        #[arg(long)]
        version: Option<String>,
        /// Refuse a site with warnings (a navigation entry naming a missing page, ...)
        /// instead of publishing it without what they name.
        #[arg(long)]
        strict: bool,
    },
}

/// Publishes, printing what was published and its warnings on stderr and the version's label
/// alone on stdout.
pub fn run(
    command: SiteCommand,
    config: &Config,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
) -> Result<()> {
    let SiteCommand::Publish {
        domain,
        path,
        org,
        version,
        strict,
    } = command;
    let store = runtime.block_on(quire::store::open(config.database.url.as_deref(), data_dir))?;
    let operator = quire::storage::operator(&config.storage, data_dir)?;
    let limits = SiteLimits::of(&config.publish);
    if !path.is_dir() {
        bail!("{} is not a folder", path.display());
    }
    let plugins = quire::server::load_plugins(config, data_dir)?;
    let published = runtime.block_on(publish(
        store.as_ref(),
        &operator,
        PublishRequest {
            organization: &org,
            domain: &domain,
            label: version.as_deref(),
            root: &path,
            file_hashes: None,
            limits,
            plugins: &plugins,
            strict,
            // The user's own folder: copied, never moved.
            movable: false,
        },
    ))?;
    eprintln!(
        "published {} version {} ({} pages, {} files, {} searchable sections)",
        published.domain,
        published.label,
        published.page_count,
        published.file_count,
        published.indexed_sections
    );
    for warning in &published.warnings {
        eprintln!("warning: {warning}");
    }
    for problem in &published.index_problems {
        eprintln!("warning: search index: {problem}");
    }
    println!("{}", published.label);
    Ok(())
}
