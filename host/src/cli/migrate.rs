//! `quire migrate`: copies every record from the data folder's redb file into a PostgreSQL
//! database (`--to`), or from PostgreSQL into an empty data folder (`--from`), so a team can
//! move to several replicas and back. Site files and bundles stay where storage keeps them.

use std::path::Path;

use anyhow::{Result, bail};
use clap::Args;
use quire::store::{PostgresStore, RedbStore, Store};

/// Where the records go.
#[derive(Args)]
#[command(group(clap::ArgGroup::new("direction").required(true)))]
pub struct MigrateArgs {
    /// Copy the data folder's records into this PostgreSQL database (it must hold no
    /// organizations yet).
    #[arg(long, group = "direction", value_name = "postgres://...")]
    to: Option<String>,
    /// Copy this PostgreSQL database's records into the data folder (which must hold no
    /// organizations yet).
    #[arg(long, group = "direction", value_name = "postgres://...")]
    from: Option<String>,
}

pub fn run(args: MigrateArgs, data_dir: &Path, runtime: &tokio::runtime::Runtime) -> Result<()> {
    runtime.block_on(async {
        let redb = RedbStore::open(data_dir)?;
        let (source, target): (Box<dyn Store>, Box<dyn Store>) = match (args.to, args.from) {
            (Some(url), None) => (
                Box::new(redb),
                Box::new(PostgresStore::connect(&url).await?),
            ),
            (None, Some(url)) => (
                Box::new(PostgresStore::connect(&url).await?),
                Box::new(redb),
            ),
            _ => bail!("give exactly one of --to and --from"),
        };
        let dump = source.dump().await?;
        eprintln!(
            "copying {} from {} to {}",
            dump.summary(),
            source.backend(),
            target.backend()
        );
        target.load(&dump).await?;
        let copied = target.dump().await?;
        if copied.summary() != dump.summary() {
            bail!(
                "the copy holds {}, not what was read ({})",
                copied.summary(),
                dump.summary()
            );
        }
        eprintln!("done: {}", copied.summary());
        Ok(())
    })
}
