//! Renders every page of a docs folder natively (no host, no navigation) and prints the
//! warnings grouped by message, most frequent first: a quick way for renderer work to see what a
//! real site still lacks. Usage: `cargo run --release -p quire-renderer --example page_warnings -- DIR`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

fn main() {
    let Some(root) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: page_warnings DOCS_FOLDER");
        std::process::exit(2);
    };
    let config = ["docs.json", "mint.json"]
        .iter()
        .find_map(|name| std::fs::read_to_string(root.join(name)).ok())
        .unwrap_or_default();
    let mut files = Vec::new();
    walk(&root, &mut files);
    let page_of = |file: &Path| {
        let relative = file.strip_prefix(&root).unwrap_or(file).to_string_lossy();
        relative
            .trim_end_matches(".mdx")
            .trim_end_matches(".md")
            .to_string()
    };
    let pages: Vec<String> = files.iter().map(|f| page_of(f)).collect();
    let snippets = files
        .iter()
        .filter(|f| {
            f.strip_prefix(&root)
                .is_ok_and(|r| r.starts_with("snippets"))
        })
        .filter_map(|f| {
            let path = f.strip_prefix(&root).ok()?.to_string_lossy().to_string();
            Some((path, std::fs::read_to_string(f).ok()?))
        })
        .collect();
    let site = quire_renderer::Site::new("site".into(), "latest".into(), vec![], &config, pages)
        .unwrap_or_else(|e| panic!("the site's settings: {e}"))
        .with_files(snippets, Vec::new());
    let mut by_message: HashMap<String, usize> = HashMap::new();
    let mut pages_with_warnings = 0;
    for file in &files {
        let Ok(source) = std::fs::read_to_string(file) else {
            continue;
        };
        let relative = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .to_string_lossy()
            .to_string();
        let out = quire_renderer::render_page(&site, &page_of(file), &relative, &source);
        pages_with_warnings += usize::from(!out.warnings.is_empty());
        for warning in out.warnings {
            *by_message.entry(warning.message).or_default() += 1;
        }
    }
    let mut sorted: BTreeMap<(std::cmp::Reverse<usize>, String), ()> = BTreeMap::new();
    for (message, count) in by_message {
        sorted.insert((std::cmp::Reverse(count), message), ());
    }
    for ((count, message), ()) in sorted {
        println!("{:5}  {message}", count.0);
    }
    println!(
        "{pages_with_warnings} of {} pages have a warning",
        files.len()
    );
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            walk(&path, out);
        } else if name.ends_with(".mdx") || name.ends_with(".md") {
            out.push(path);
        }
    }
}
