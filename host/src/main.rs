//! The `quire` command line: a thin layer over the library, one file per command in `cli/`.
//! Logs go to stderr, results to stdout, so scripts can capture what a command prints (a new
//! key, say).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use quire::config::Config;

mod cli;

use cli::{build, dev, docs_server, key, mcp, migrate, org, plugins, serve, site};

/// Quire: documentation assistant and static export service.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Folder holding the database, local storage and compiled plugins.
    #[arg(long, global = true, env = "QUIRE_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// TOML configuration file (see docs/operating.md for its keys).
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
    Serve(serve::ServeArgs),
    /// Manage organizations.
    Org {
        #[command(subcommand)]
        command: org::OrgCommand,
    },
    /// Manage API keys.
    Key {
        #[command(subcommand)]
        command: key::KeyCommand,
    },
    /// Copy every record between the data folder's embedded store and a PostgreSQL database
    /// (`--to postgres://...`, or back with `--from postgres://...`).
    Migrate(migrate::MigrateArgs),
    /// Publish sites.
    Site {
        #[command(subcommand)]
        command: site::SiteCommand,
    },
    /// Create, inspect and check plugins (`quire plugin new renderer NAME`).
    #[command(alias = "plugin")]
    Plugins {
        #[command(subcommand)]
        command: plugins::PluginsCommand,
    },
    /// Serve an exported bundle: fetch it from a link, verify it and serve it (the self-hosted
    /// docs server the Helm chart runs).
    DocsServer(Box<docs_server::DocsServerArgs>),
    /// Build a site folder into a bundle on disk, with no server, organization or key.
    Build(build::BuildArgs),
    /// Preview a site folder on 127.0.0.1, rebuilding changed pages on save and reloading the
    /// browser.
    Dev(dev::DevArgs),
    /// Serve a bundle's or a site folder's docs to a local agent over MCP on stdio, with no
    /// network at all.
    Mcp(mcp::McpArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A build is one command's output, not a service's log: only problems by default. The MCP
    // SDK logs each stateless request's start and end at info; the request log has them.
    let default_filter = match cli.command {
        Command::Build(_) | Command::Dev(_) | Command::Mcp(_) => {
            "warn,wasmtime=warn,cranelift=warn,rmcp=warn"
        }
        _ => "info,wasmtime=warn,cranelift=warn,rmcp=warn",
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
    let config = Config::load(cli.config.as_deref())?;
    let data_dir = cli.data_dir;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    match cli.command {
        Command::Serve(args) => serve::run(args, config, &data_dir, &runtime)?,
        Command::DocsServer(args) => {
            runtime.block_on(quire::docs_server::run(args.into_config(data_dir)))?;
        }
        Command::Org { command } => org::run(command, &config, &data_dir, &runtime)?,
        Command::Key { command } => key::run(command, &config, &data_dir, &runtime)?,
        Command::Migrate(args) => migrate::run(args, &data_dir, &runtime)?,
        Command::Site { command } => site::run(command, &config, &data_dir, &runtime)?,
        Command::Plugins { command } => return plugins::run(command, &config, &data_dir),
        Command::Build(args) => return build::run(args, &config, &data_dir),
        Command::Dev(args) => return dev::run(args, &config, &data_dir, &runtime),
        Command::Mcp(args) => return mcp::run(args, &config, &data_dir, &runtime),
    }
    Ok(ExitCode::SUCCESS)
}
