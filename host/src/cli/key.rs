//! `quire key`: creating, revoking and listing API keys. A new key is printed alone on stdout,
//! once, so a script can capture it.

use std::path::Path;

use anyhow::Result;
use clap::Subcommand;
use quire::config::Config;
use quire::store::KeyKind;

/// The `quire key` commands.
#[derive(Subcommand)]
pub enum KeyCommand {
    /// Create a key and print it (alone, on stdout). It is shown only this once.
    Create {
        #[arg(long)]
        org: String,
        #[arg(long, value_enum)]
        kind: KeyKind,
    },
    /// Revoke a key, given the key itself or its id (key_...).
    Revoke { key: String },
    /// List an organization's keys (ids, never secrets).
    List {
        #[arg(long)]
        org: String,
    },
}

pub fn run(
    command: KeyCommand,
    config: &Config,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
) -> Result<()> {
    let store = runtime.block_on(quire::store::open(config.database.url.as_deref(), data_dir))?;
    match command {
        KeyCommand::Create { org, kind } => {
            let key = runtime.block_on(quire::auth::create_key(store.as_ref(), &org, kind))?;
            eprintln!(
                "created {} key {} for {org}; store it now, it is not shown again",
                kind_name(kind),
                key.record.id
            );
            println!("{}", key.secret);
        }
        KeyCommand::Revoke { key } => {
            let hash = quire::auth::hash_key(&key);
            let revoked = runtime.block_on(store.revoke_key(Some(&hash), &key))?;
            eprintln!("revoked key {} of {}", revoked.id, revoked.organization);
        }
        KeyCommand::List { org } => {
            for key in runtime.block_on(store.keys_of(&org))? {
                let state = if key.revoked_at.is_some() {
                    "revoked"
                } else {
                    "active"
                };
                println!("{}\t{}\t{}", key.id, kind_name(key.kind), state);
            }
        }
    }
    Ok(())
}

fn kind_name(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Admin => "admin",
        KeyKind::Assistant => "assistant",
    }
}
