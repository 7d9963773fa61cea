//! A large file across releases in one server process: `llms-full.txt` over the size that is
//! packed in parts, changed in its middle. The second export cuts and hashes it from the layout
//! the first one left in the process (`export::part_layout`), copies its unchanged parts, and
//! patches it for the delta from the earlier contents it kept; its bundle verifies against its
//! manifest and holds the same files, byte for byte, as an export of the same version on a
//! server that never saw the first.

use crate::common::{self, Api, Instance};
use crate::incremental::{publish_and_export, verified_files};

/// Text of `words` words that does not repeat, so that its parts are cut by content.
fn prose(words: usize, seed: u64) -> String {
    const WORDS: [&str; 16] = [
        "bundle", "export", "page", "search", "docs", "server", "release", "delta", "index",
        "theme", "archive", "version", "snippet", "render", "cache", "reader",
    ];
    let mut state = seed | 1;
    let mut text = String::with_capacity(words * 8);
    for n in 0..words {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        text.push_str(WORDS[(state % 16) as usize]);
        text.push_str(if n % 12 == 11 { ".\n\n" } else { " " });
    }
    text
}

/// Publishes `site` as `label` on `api`'s server and exports it; the job's id.
async fn release(api: &Api, site: &std::path::Path, label: &str) -> String {
    publish_and_export(api, site, label).await.0
}

#[tokio::test]
async fn a_large_file_changed_in_its_middle_exports_as_it_would_from_nothing() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let site = instance.dir.path().join("site");
    common::sites::copy_dir(&common::example_site(), &site);
    // Two pages of the navigation made long: 2.4 MB of `llms-full.txt` between them.
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("docs.json")).unwrap()).unwrap();
    let pages: Vec<String> = config["navigation"]
        .to_string()
        .split('"')
        .filter(|part| site.join(format!("{part}.mdx")).is_file())
        .map(str::to_string)
        .take(2)
        .collect();
    assert_eq!(pages.len(), 2, "two navigation pages: {config}");
    let long = |page: &str, seed| {
        let path = site.join(format!("{page}.mdx"));
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}\n\n{}\n", prose(170_000, seed))).unwrap();
    };
    long(&pages[0], 3);
    long(&pages[1], 5);
    let first = release(&api, &site, "v1").await;
    let before = verified_files(&api, &first).await;
    assert!(
        before["llms-full.txt"].len() > 2 << 20,
        "llms-full.txt is large"
    );

    // One sentence in the middle of the first long page.
    let path = site.join(format!("{}.mdx", pages[0]));
    let text = std::fs::read_to_string(&path).unwrap();
    let middle = text.len() / 2 + text[text.len() / 2..].find("\n\n").unwrap();
    std::fs::write(
        &path,
        format!(
            "{}\n\nOne sentence more.{}",
            &text[..middle],
            &text[middle..]
        ),
    )
    .unwrap();
    let second = release(&api, &site, "v2").await;
    let after = verified_files(&api, &second).await;
    assert_ne!(after["llms-full.txt"], before["llms-full.txt"]);
    let log = server.log();
    let pieces: u64 = log
        .rsplit("reused_pieces=")
        .next()
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        pieces > 0,
        "the second export copied llms-full.txt's unchanged parts: {log}"
    );

    let fresh = Instance::new("");
    let key = fresh.organization("acme", "enterprise");
    let other = fresh.start();
    let from_nothing = release(&Api::new(&other.base, &key), &site, "v2").await;
    common::archive::assert_same_files(
        &after,
        &verified_files(&Api::new(&other.base, &key), &from_nothing).await,
        "the second export, and the same version exported on a new server",
    );
}
