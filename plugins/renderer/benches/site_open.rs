//! How long the default renderer takes to open a large site (`Site::new`: the navigation
//! split into contexts, the lookups every page uses, the theme's files with one navigation
//! script per context), natively. Every render session pays it once before its first page, so
//! a one-page publish of a large site waits on it. The site has the shape of
//! `scripts/bench-vs-hugo`'s generated one: two versions, two languages, groups of 50 pages.
//!
//!     cargo bench -p quire-renderer --bench site_open -- [PAGES]   # default 25000

use std::time::{Duration, Instant};

use quire_renderer::{NavEntry, NavKind, Site};

const RUNS: usize = 11;

fn main() {
    let pages: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(25_000);
    let (items, paths, config) = generated_site(pages);
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            let site = Site::new(
                "Generated".into(),
                "v3".into(),
                items.clone(),
                &config,
                paths.clone(),
            );
            let took = started.elapsed();
            drop(site);
            took
        })
        .collect();
    times.sort();
    println!(
        "site open, {pages} pages ({} navigation entries, {RUNS} runs): median {:.1} ms, fastest {:.1} ms",
        items.len(),
        times[RUNS / 2].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
    );
}

/// The flattened navigation, every page's path and the docs.json text of a site of `pages`
/// pages split over two versions and two languages.
fn generated_site(pages: usize) -> (Vec<NavEntry>, Vec<String>, String) {
    let per_context = (pages / 4).max(1);
    let (mut items, mut paths, mut versions) = (Vec::new(), Vec::new(), Vec::new());
    for version in ["v2", "v1"] {
        items.push(NavEntry::new(NavKind::Version, 0, version, None));
        let mut languages = Vec::new();
        for language in ["en", "fr"] {
            items.push(NavEntry::new(NavKind::Language, 1, language, None));
            let mut groups = Vec::new();
            for start in (0..per_context).step_by(50) {
                let label = format!("Section {}", start / 50);
                items.push(NavEntry::new(NavKind::Group, 2, &label, None));
                let mut names = Vec::new();
                for i in start..(start + 50).min(per_context) {
                    let path = format!("{version}/{language}/section-{}/page-{i}", start / 50);
                    items.push(NavEntry::new(NavKind::Page, 3, &path, Some(&path)));
                    names.push(path.clone());
                    paths.push(path);
                }
                groups.push(serde_json::json!({ "group": label, "pages": names }));
            }
            languages.push(serde_json::json!({ "language": language, "groups": groups }));
        }
        versions.push(serde_json::json!({ "version": version, "languages": languages }));
    }
    let config = serde_json::json!({
        "name": "Generated",
        "theme": "mint",
        "navigation": { "versions": versions },
    });
    (items, paths, config.to_string())
}
