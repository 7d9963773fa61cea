//! Renders every page of a docs folder natively and prints what its code blocks cost: render
//! time per page, HTML bytes per page, the share of those bytes inside code blocks, and the
//! blocks that name a language but come out without highlighting, by language. Used to measure
//! highlighting changes (BENCHMARKS.md, "Highlighting"). Usage:
//! `cargo run --release -p quire-renderer --example code_figures -- DIR [DIR...]`.

mod support;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn main() {
    let roots: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if roots.is_empty() {
        eprintln!("usage: code_figures DOCS_FOLDER [DOCS_FOLDER...]");
        std::process::exit(2);
    }
    println!(
        "| site | pages | ms/page | HTML bytes/page | in code blocks | blocks | not highlighted |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for root in roots {
        let (site, files) = support::load(&root);
        let (mut elapsed, mut bytes, mut code_bytes, mut blocks) = (Duration::ZERO, 0, 0, 0);
        let mut plain: HashMap<String, usize> = HashMap::new();
        let mut pages = 0;
        for file in &files {
            let Ok(source) = std::fs::read_to_string(&file.disk) else {
                continue;
            };
            let started = Instant::now();
            let out = quire_renderer::render_page(&site, &file.page, &file.relative, &source);
            elapsed += started.elapsed();
            pages += 1;
            bytes += out.html.len();
            for block in out.html.split("<pre><code").skip(1) {
                let block = block.split("</code></pre>").next().unwrap_or(block);
                code_bytes += block.len() + "<pre><code</code></pre>".len();
                blocks += 1;
                let lang = block
                    .strip_prefix(" class=\"language-")
                    .and_then(|rest| rest.split('"').next());
                let tokens = block.matches("<span class=\"").count()
                    - block.matches("<span class=\"line").count();
                if let Some(lang) = lang.filter(|_| tokens == 0) {
                    *plain.entry(lang.to_ascii_lowercase()).or_default() += 1;
                }
            }
        }
        let mut plain: Vec<(String, usize)> = plain.into_iter().collect();
        plain.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let plain_total: usize = plain.iter().map(|(_, n)| n).sum();
        let listed: Vec<String> = plain
            .iter()
            .take(8)
            .map(|(l, n)| format!("{l} {n}"))
            .collect();
        let per_page = |n: usize| n / pages.max(1);
        println!(
            "| {} | {pages} | {:.2} | {} | {:.0}% | {blocks} | {plain_total} ({}) |",
            root.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default(),
            elapsed.as_secs_f64() * 1000.0 / pages.max(1) as f64,
            per_page(bytes),
            100.0 * code_bytes as f64 / bytes.max(1) as f64,
            listed.join(", ")
        );
    }
}
