//! Renders every page of a docs folder natively (no host, no navigation) and prints the
//! warnings grouped by message, most frequent first: a quick way for renderer work to see what a
//! real site still lacks. Usage: `cargo run --release -p quire-renderer --example page_warnings -- DIR`.

mod support;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

fn main() {
    let Some(root) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: page_warnings DOCS_FOLDER");
        std::process::exit(2);
    };
    let (site, files) = support::load(&root);
    let mut by_message: HashMap<String, usize> = HashMap::new();
    let mut pages_with_warnings = 0;
    for file in &files {
        let Ok(source) = std::fs::read_to_string(&file.disk) else {
            continue;
        };
        let out = quire_renderer::render_page(&site, &file.page, &file.relative, &source);
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
