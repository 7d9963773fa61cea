//! Highlights every fenced code block of the given documentation folders with each highlighter
//! and prints, per highlighter: the blocks it highlighted, the time, and the HTML bytes per byte
//! of code. Output markup is each tool's compact class form (one-letter classes, giallo's CSS
//! classes, arborium's custom elements), so the bytes compare what a bundle would carry.

// The renderer examples' folder walk, so both read a site the same way.
#[path = "../../../plugins/renderer/examples/support/mod.rs"]
#[allow(dead_code)]
mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One fenced block: its language name as written and its code.
struct Block {
    lang: String,
    code: String,
}

/// What one highlighter made of all blocks.
#[derive(Default)]
struct Tally {
    highlighted: usize,
    code_bytes: usize,
    html_bytes: usize,
    time: Duration,
    missing: BTreeMap<String, usize>,
}

fn main() {
    let roots: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if roots.is_empty() {
        eprintln!("usage: highlighter-comparison DOCS_FOLDER [DOCS_FOLDER...]");
        std::process::exit(2);
    }
    let mut blocks = Vec::new();
    for root in &roots {
        for file in support::markdown_files(root) {
            if let Ok(text) = std::fs::read_to_string(&file) {
                fenced_blocks(&text, &mut blocks);
            }
        }
    }
    let blocks: Vec<Block> = blocks
        .into_iter()
        .filter(|b| {
            !matches!(
                b.lang.as_str(),
                "" | "output" | "text" | "txt" | "plaintext" | "mermaid"
            )
        })
        .collect();
    let code_bytes: usize = blocks.iter().map(|b| b.code.len()).sum();
    println!(
        "{} blocks with a language, {} KB of code",
        blocks.len(),
        code_bytes / 1024
    );

    let mut results: Vec<(&str, Tally)> = Vec::new();
    results.push((
        "syntect, one-letter classes (Quire)",
        run(&blocks, |lang, code| {
            quire_renderer::highlight_code(lang, code)
        }),
    ));

    let started = Instant::now();
    let mut registry = giallo::Registry::builtin().expect("giallo's grammars");
    registry.link_grammars();
    eprintln!("giallo: registry loaded in {:?}", started.elapsed());
    let renderer = giallo::HtmlRenderer {
        css_class_prefix: Some("g-".into()),
        ..giallo::HtmlRenderer::default()
    };
    results.push((
        "giallo, CSS classes",
        run(&blocks, |lang, code| {
            let options = giallo::HighlightOptions::new(
                canonical(lang),
                giallo::ThemeVariant::Dual {
                    light: "github-light",
                    dark: "github-dark",
                },
            );
            let highlighted = registry.highlight(code, &options).ok()?;
            Some(renderer.render(&highlighted, &giallo::RenderOptions::default()))
        }),
    ));

    let mut arborium = arborium::Highlighter::new();
    results.push((
        "arborium, custom elements",
        run(&blocks, |lang, code| {
            arborium.highlight(canonical(lang), code).ok()
        }),
    ));

    println!();
    println!(
        "| highlighter | blocks highlighted | ms | µs/block | HTML bytes per code byte | most frequent languages without a grammar |"
    );
    println!("|---|---:|---:|---:|---:|---|");
    for (name, tally) in results {
        let mut missing: Vec<(String, usize)> = tally.missing.into_iter().collect();
        missing.sort_by_key(|m| std::cmp::Reverse(m.1));
        let missing: Vec<String> = missing
            .iter()
            .take(5)
            .map(|(l, n)| format!("{l} {n}"))
            .collect();
        println!(
            "| {name} | {} of {} | {:.0} | {:.0} | {:.2} | {} |",
            tally.highlighted,
            blocks.len(),
            tally.time.as_secs_f64() * 1000.0,
            tally.time.as_secs_f64() * 1e6 / tally.highlighted.max(1) as f64,
            tally.html_bytes as f64 / tally.code_bytes.max(1) as f64,
            missing.join(", ")
        );
    }
}

/// Highlights every block, timing only the highlighting.
fn run(blocks: &[Block], mut highlight: impl FnMut(&str, &str) -> Option<String>) -> Tally {
    let mut tally = Tally::default();
    for block in blocks {
        let started = Instant::now();
        let html = highlight(&block.lang, &block.code);
        let elapsed = started.elapsed();
        match html {
            Some(html) => {
                tally.time += elapsed;
                tally.highlighted += 1;
                tally.code_bytes += block.code.len();
                tally.html_bytes += html.len();
            }
            None => *tally.missing.entry(block.lang.clone()).or_default() += 1,
        }
    }
    tally
}

/// Common fence aliases to the names giallo and arborium know (Quire maps its own).
fn canonical(lang: &str) -> &str {
    match lang {
        "py" | "python3" | "pycon" => "python",
        "ts" => "typescript",
        "js" | "jsx" => "javascript",
        "sh" | "shell" | "zsh" | "console" | "terminal" => "bash",
        "yml" => "yaml",
        "kt" => "kotlin",
        "ps1" | "pwsh" => "powershell",
        "cs" | "csharp" => "c-sharp",
        "md" | "mdx" => "markdown",
        "env" => "ini",
        other => other,
    }
}

/// The fenced blocks of a Markdown text (``` or ~~~, any indentation).
fn fenced_blocks(text: &str, out: &mut Vec<Block>) {
    let mut open: Option<(String, Block)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match &mut open {
            Some((fence, block)) => {
                if trimmed.starts_with(fence.as_str())
                    && trimmed.trim_end().chars().all(|c| fence.starts_with(c))
                {
                    if let Some((_, block)) = open.take() {
                        out.push(block);
                    }
                } else {
                    block.code.push_str(line);
                    block.code.push('\n');
                }
            }
            None => {
                for marker in ["```", "~~~"] {
                    if let Some(rest) = trimmed.strip_prefix(marker) {
                        let fence_len = marker.len()
                            + rest
                                .chars()
                                .take_while(|&c| c == marker.as_bytes()[0] as char)
                                .count();
                        let info = trimmed[fence_len..].trim();
                        let lang = info
                            .split_whitespace()
                            .next()
                            .unwrap_or("")
                            .to_ascii_lowercase();
                        open = Some((
                            trimmed[..fence_len].to_string(),
                            Block {
                                lang,
                                code: String::new(),
                            },
                        ));
                        break;
                    }
                }
            }
        }
    }
}
