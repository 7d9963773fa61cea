//! `quire plugins`: which components serve each role, whether a `.wasm` file satisfies a role's
//! contract (and why not), and new plugin crates from the templates.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;
use quire::config::Config;
use quire::plugins::{CONTRACT_VERSION, PluginRuntime, Role};

/// The `quire plugins` commands.
#[derive(Subcommand)]
pub enum PluginsCommand {
    /// Show the components serving each role.
    List,
    /// Say whether a .wasm component satisfies a role's contract, and if not, why.
    Check {
        file: PathBuf,
        /// The role it must satisfy; default: say which roles it satisfies.
        #[arg(long, value_parser = parse_role)]
        role: Option<Role>,
    },
    /// Create a plugin crate from a template: it builds, and passes its own test, as created.
    New {
        /// renderer, retriever or packager.
        #[arg(value_parser = parse_role)]
        role: Role,
        /// The crate's name (lowercase letters, digits, '-', '_'); also its folder's.
        name: String,
        /// The folder to create it in.
        #[arg(long, default_value = ".")]
        path: PathBuf,
        /// The Quire SDK folder (`sdk/` of a Quire checkout); default: the checkout this
        /// binary was built from.
        #[arg(long)]
        sdk: Option<PathBuf>,
    },
}

fn parse_role(s: &str) -> Result<Role, String> {
    Role::ALL
        .into_iter()
        .find(|r| r.name() == s)
        .ok_or_else(|| format!("unknown role {s:?}: one of renderer, packager, retriever"))
}

pub fn run(command: PluginsCommand, config: &Config, data_dir: &Path) -> Result<ExitCode> {
    match command {
        PluginsCommand::New {
            role,
            name,
            path,
            sdk,
        } => {
            let dir = quire::scaffold::create(&quire::scaffold::NewPlugin {
                role,
                name: &name,
                parent: &path,
                sdk: sdk.as_deref(),
            })?;
            let file = name.replace('-', "_");
            println!("created the {role} plugin {name} in {}", dir.display());
            println!();
            println!("  cd {}", dir.display());
            println!(
                "  cargo test                                     # builds it and runs it in Quire's plugin runtime"
            );
            println!(
                "  cargo build --release --target wasm32-wasip2   # target/wasm32-wasip2/release/{file}.wasm"
            );
            println!(
                "  QUIRE_PLUGINS__{}=$PWD/target/wasm32-wasip2/release/{file}.wasm quire serve",
                role.name().to_uppercase()
            );
            Ok(ExitCode::SUCCESS)
        }
        PluginsCommand::List => {
            let plugins = quire::server::load_plugins(config, data_dir)?;
            println!(
                "contract quire:plugins@{CONTRACT_VERSION} (deployment type {})",
                config.deployment.kind
            );
            for slot in plugins.slots() {
                let plugin = slot.current();
                println!(
                    "{}\t{}\t{}\t{} bytes\t{} MiB\t{} ms",
                    plugin.role,
                    plugin.name,
                    plugin.path.display(),
                    plugin.size_bytes,
                    plugin.limits.memory_bytes >> 20,
                    plugin.limits.cpu_time.as_millis()
                );
            }
            println!(
                "formats\t{} (default {})",
                plugins.packagers.formats().join(", "),
                plugins.packagers.default_format()
            );
            Ok(ExitCode::SUCCESS)
        }
        PluginsCommand::Check { file, role } => {
            let runtime = PluginRuntime::new(
                config.plugins.limits(),
                Some(config.plugins.cache_dir(data_dir)),
            )?;
            let verdicts = runtime.check_file(&file)?;
            let mut satisfied = false;
            for (candidate, verdict) in &verdicts {
                if role.is_some_and(|r| r != *candidate) {
                    continue;
                }
                match verdict {
                    Ok(()) => {
                        satisfied = true;
                        println!(
                            "ok: {} satisfies the {candidate} contract (quire:plugins@{CONTRACT_VERSION})",
                            file.display()
                        );
                    }
                    Err(quire::plugins::PluginError::Contract { problems, .. }) => {
                        println!("not a {candidate}:");
                        for problem in problems {
                            println!("  - {problem}");
                        }
                    }
                    Err(other) => println!("not a {candidate}: {other}"),
                }
            }
            Ok(if satisfied {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
    }
}
