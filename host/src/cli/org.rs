//! `quire org`: organizations and their plans.

use std::path::Path;

use anyhow::{Result, bail};
use clap::Subcommand;
use quire::store::{Plan, Store};

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

pub fn run(command: OrgCommand, data_dir: &Path) -> Result<()> {
    let store = Store::open(data_dir)?;
    match command {
        OrgCommand::Create { name, plan } => {
            if name.trim().is_empty() {
                bail!("the organization name must not be empty");
            }
            store.create_organization(&name, plan)?;
            eprintln!("created organization {name} on the {} plan", plan.name());
        }
        OrgCommand::List => {
            for org in store.organizations()? {
                println!("{}\t{}", org.name, org.plan.name());
            }
        }
    }
    Ok(())
}
