//! The `quire` command line: a thin layer over the library. Logs go to stderr, results to
//! stdout, so scripts can capture what a command prints (a new key, say).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use quire::config::Config;
use quire::plugins::{CONTRACT_VERSION, PluginRuntime, Role};
use quire::sites::{PublishRequest, SiteLimits, publish};
use quire::store::{KeyKind, Plan, Store};

mod build_command;
mod dev_command;
mod docs_server_args;

/// Quire: documentation assistant and static export service.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Folder holding the database, local storage and compiled plugins.
    #[arg(long, global = true, env = "QUIRE_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// TOML configuration file (see the README for its keys).
    #[arg(long, global = true, env = "QUIRE_CONFIG")]
    config: Option<PathBuf>,
    /// Log format on stderr: `text` for people, `json` (one object per line, with the request
    /// id of the request being handled) for log collectors.
    #[arg(long, global = true, env = "QUIRE_LOG_FORMAT", default_value = "text", value_parser = ["text", "json"])]
    log_format: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and run export jobs.
    Serve {
        /// Address to listen on (overrides server.listen).
        #[arg(long)]
        listen: Option<std::net::SocketAddr>,
    },
    /// Manage organizations.
    Org {
        #[command(subcommand)]
        command: OrgCommand,
    },
    /// Manage API keys.
    Key {
        #[command(subcommand)]
        command: KeyCommand,
    },
    /// Publish sites.
    Site {
        #[command(subcommand)]
        command: SiteCommand,
    },
    /// Create, inspect and check plugins (`quire plugin new renderer NAME`).
    #[command(alias = "plugin")]
    Plugins {
        #[command(subcommand)]
        command: PluginsCommand,
    },
    /// Serve an exported bundle: fetch it from a link, verify it and serve it (the self-hosted
    /// docs server the Helm chart runs).
    DocsServer(Box<docs_server_args::DocsServerArgs>),
    /// Build a site folder into a bundle on disk, with no server, organization or key.
    Build(build_command::BuildArgs),
    /// Preview a site folder on 127.0.0.1, rebuilding changed pages on save and reloading the
    /// browser.
    Dev(dev_command::DevArgs),
}

#[derive(Subcommand)]
enum OrgCommand {
    /// Create an organization.
    Create {
        name: String,
        #[arg(long, value_enum)]
        plan: Plan,
    },
    /// List organizations.
    List,
}

#[derive(Subcommand)]
enum KeyCommand {
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

#[derive(Subcommand)]
enum SiteCommand {
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

#[derive(Subcommand)]
enum PluginsCommand {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A build is one command's output, not a service's log: only problems by default.
    let default_filter = match cli.command {
        Command::Build(_) | Command::Dev(_) => "warn,wasmtime=warn,cranelift=warn",
        _ => "info,wasmtime=warn,cranelift=warn",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| default_filter.into());
    let logs = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter);
    if cli.log_format == "json" {
        logs.json()
            .with_current_span(true)
            .with_span_list(false)
            .init();
    } else {
        use std::io::IsTerminal;
        logs.with_ansi(std::io::stderr().is_terminal()).init();
    }
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let mut config = Config::load(cli.config.as_deref())?;
    let data_dir = cli.data_dir;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    match cli.command {
        Command::Serve { listen } => {
            if let Some(listen) = listen {
                config.server.listen = listen;
            }
            runtime.block_on(quire::server::serve(config, &data_dir))?;
        }
        Command::DocsServer(args) => {
            runtime.block_on(quire::deploy::run(args.into_config(data_dir)))?;
        }
        Command::Org { command } => {
            let store = Store::open(&data_dir)?;
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
        }
        Command::Key { command } => {
            let store = Store::open(&data_dir)?;
            match command {
                KeyCommand::Create { org, kind } => {
                    let key = quire::auth::create_key(&store, &org, kind)?;
                    eprintln!(
                        "created {} key {} for {org}; store it now, it is not shown again",
                        kind_name(kind),
                        key.record.id
                    );
                    println!("{}", key.secret);
                }
                KeyCommand::Revoke { key } => {
                    let hash = quire::auth::hash_key(&key);
                    let revoked = store.revoke_key(Some(&hash), &key)?;
                    eprintln!("revoked key {} of {}", revoked.id, revoked.organization);
                }
                KeyCommand::List { org } => {
                    for key in store.keys_of(&org)? {
                        let state = if key.revoked_at.is_some() {
                            "revoked"
                        } else {
                            "active"
                        };
                        println!("{}\t{}\t{}", key.id, kind_name(key.kind), state);
                    }
                }
            }
        }
        Command::Site {
            command:
                SiteCommand::Publish {
                    domain,
                    path,
                    org,
                    version,
                    strict,
                },
        } => {
            let store = Store::open(&data_dir)?;
            let operator = quire::storage::operator(&config.storage, &data_dir)?;
            let limits = SiteLimits {
                max_files: config.publish.max_files,
                max_bytes: config.publish.max_site_mib << 20,
            };
            if !path.is_dir() {
                bail!("{} is not a folder", path.display());
            }
            let plugins = quire::server::load_plugins(&config, &data_dir)?;
            let published = runtime.block_on(publish(
                &store,
                &operator,
                PublishRequest {
                    organization: &org,
                    domain: &domain,
                    label: version.as_deref(),
                    root: &path,
                    limits,
                    plugins: &plugins,
                    strict,
                    index: true,
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
        }
        Command::Plugins { command } => return plugins(command, &config, &data_dir),
        Command::Build(args) => return build_command::run(args, &config, &data_dir, &runtime),
        Command::Dev(args) => return dev_command::run(args, &config, &data_dir, &runtime),
    }
    Ok(ExitCode::SUCCESS)
}

fn plugins(command: PluginsCommand, config: &Config, data_dir: &Path) -> Result<ExitCode> {
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
            let runtime =
                PluginRuntime::new(config.plugins.limits(), Some(data_dir.join("plugin-cache")))?;
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

fn kind_name(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Admin => "admin",
        KeyKind::Assistant => "assistant",
    }
}
