//! `quire build SITE_DIR -o OUT`: the command line over `quire::build`, with a progress bar on
//! a terminal and a summary of warnings with their file and line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use quire::build::{BuildRequest, OutputFormat, build};
use quire::config::Config;
use quire::deployment_type::DeploymentType;

/// Warnings printed in full; the rest are counted.
const WARNINGS_SHOWN: usize = 50;

/// The arguments of `quire build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// The site folder (with docs.json or mint.json).
    site: PathBuf,
    /// Where to write the bundle: a new or empty folder for `--format dir`, else the archive.
    #[arg(short, long)]
    out: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value = "dir")]
    format: OutputFormat,
    /// The deployment type the bundle's feature file is set for.
    #[arg(long, default_value = "cloud", value_parser = |s: &str| s.parse::<DeploymentType>())]
    deployment_type: DeploymentType,
    /// The domain the sitemap's URLs name.
    #[arg(long, default_value = "docs.example.com")]
    domain: String,
    /// Refuse a site with warnings about its navigation (a page it names that is missing).
    #[arg(long)]
    strict: bool,
    /// Write every warning to this file as a JSON list of `{file, line, message}` (the
    /// terminal shows the first 50).
    #[arg(long, value_name = "FILE")]
    warnings_json: Option<PathBuf>,
    /// Keep rendered pages in this folder and reuse them while their inputs are unchanged, so
    /// a build after a one-page change renders that page. Default: `render-cache` in the data
    /// folder (shared with `quire dev`).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Render every page, neither reading nor writing the render cache.
    #[arg(long, conflicts_with = "cache_dir")]
    no_cache: bool,
    /// Also write the delta against the archive the cache folder kept from the last build:
    /// only the files that changed, with the new manifest, for a docs server that serves that
    /// build (`quire docs-server --delta-url`). Written only when there is such an archive.
    #[arg(long, value_name = "FILE", conflicts_with = "no_cache")]
    delta: Option<PathBuf>,
    /// Ship the docs assistant in the bundle, answering in readers' browsers (from file:// too)
    /// as the API host's built-in assistant does. Builds the site's search index as publishing
    /// does, which adds the retriever's time to the build.
    #[arg(long)]
    assistant: bool,
}

/// Runs the build; exits non-zero only when the site cannot be built.
pub fn run(args: BuildArgs, config: &Config, data_dir: &Path) -> Result<ExitCode> {
    let plugins = quire::server::load_plugins(config, data_dir)?;
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} pages {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let cache_dir = (!args.no_cache).then(|| {
        args.cache_dir
            .clone()
            .unwrap_or_else(|| config.plugins.render_cache_dir(data_dir))
    });
    let request = BuildRequest {
        site: &args.site,
        out: &args.out,
        format: args.format,
        deployment: args.deployment_type,
        domain: &args.domain,
        strict: args.strict,
        cache_dir: cache_dir.as_deref(),
        delta: args.delta.as_deref(),
        assistant: args.assistant,
    };
    let report = build(&request, config, plugins, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let report = report?;
    if let Some(path) = &args.warnings_json {
        let json = serde_json::to_vec_pretty(&report.warnings)?;
        std::fs::write(path, json)
            .with_context(|| format!("cannot write the warnings to {}", path.display()))?;
    }
    for warning in report.warnings.iter().take(WARNINGS_SHOWN) {
        let line = warning.line.map(|l| format!(":{l}")).unwrap_or_default();
        eprintln!("warning: {}{line}: {}", warning.file, warning.message);
    }
    let hidden = report
        .warning_count
        .saturating_sub(report.warnings.len().min(WARNINGS_SHOWN) as u64);
    if hidden > 0 {
        eprintln!("... and {hidden} more warnings");
    }
    eprintln!(
        "built {} pages into {} ({} rendered, {} reused; {} warnings, {:.1} MB, {:.1} s)",
        report.pages,
        args.out.display(),
        report.rendered.rendered,
        report.rendered.reused,
        report.warning_count,
        report.bytes as f64 / 1e6,
        report.elapsed.as_secs_f64()
    );
    if report.reused_entries > 0 || report.reused_pieces > 0 {
        eprintln!(
            "copied {} unchanged files' archive entries and {} unchanged parts of large files from the last build",
            report.reused_entries, report.reused_pieces
        );
    }
    match (&args.delta, report.delta_bytes) {
        (Some(path), Some(bytes)) => eprintln!(
            "wrote the delta against the last build to {} ({:.1} MB)",
            path.display(),
            bytes as f64 / 1e6
        ),
        (Some(_), None) => {
            eprintln!("no delta written: the cache folder keeps no archive of an earlier build")
        }
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}
