//! `quire org`: organizations and their plans.

use std::path::Path;

use anyhow::{Result, bail};
use clap::Subcommand;
use quire::config::Config;
use quire::store::Plan;

/// The `quire org` commands.
#[derive(Subcommand)]
pub enum OrgCommand {
    /// Create an organization.
    Create {
        name: String,
        #[arg(long, value_enum)]
        plan: Plan,
    },
    /// List organizations.
    List,
}

pub fn run(
    command: OrgCommand,
    config: &Config,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
) -> Result<()> {
    let store = runtime.block_on(quire::store::open(config.database.url.as_deref(), data_dir))?;
    match command {
        OrgCommand::Create { name, plan } => {
            if name.trim().is_empty() {
                bail!("the organization name must not be empty");
            }
            runtime.block_on(store.create_organization(&name, plan))?;
            eprintln!("created organization {name} on the {} plan", plan.name());
        }
        OrgCommand::List => {
            for org in runtime.block_on(store.organizations())? {
                println!("{}\t{}", org.name, org.plan.name());
            }
        }
    }
    Ok(())
}
