//! The last `llms-full.txt` this process made for a site, with where each page's part lies in
//! it, so that the next export takes an unchanged page's part from there instead of reading
//! the page's source again: a one-page release of langchain read 1,231 sources to write the
//! same parts again (BENCHMARKS.md). A part is found by a key of
//! everything its bytes follow from (the page's path and title, its source's SHA-256 and the
//! site's variables, which `kept_markdown` keys the page's Markdown by), so a part taken from
//! any earlier file is the part the page's source would give. Memory is bounded by two
//! generations of a few files (`memo`), each at most `llms-full.txt`'s 16 MiB.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use sha2::{Digest, Sha256};

use super::kept_markdown::MarkdownContext;
use crate::memo::TwoGenerations;

/// Files kept per generation of the memo: at most twice this many sites' files are held.
const FILES_PER_GENERATION: usize = 2;

/// Changes whenever a page's part of `llms-full.txt` is written differently.
const FORMAT: &[u8] = b"quire-llms-full-part/1";

/// What a page's part of `llms-full.txt` follows from, hashed.
pub type PartKey = [u8; 32];

/// An `llms-full.txt` as made, and where each page's part lies in it.
pub struct KeptFullText {
    pub(super) text: String,
    pub(super) parts: HashMap<PartKey, Range<usize>>,
}

impl KeptFullText {
    /// The part of the page keyed `key`, if this file holds it.
    pub fn part(&self, key: &PartKey) -> Option<&str> {
        self.text.get(self.parts.get(key)?.clone())
    }
}

/// The key of the part of `llms-full.txt` that the page at `path`, titled `title`, whose
/// source has the SHA-256 `source_sha256`, has in a site with `markdown`'s variables.
pub fn part_key(
    markdown: &MarkdownContext,
    source_sha256: &[u8; 32],
    path: &str,
    title: &str,
) -> PartKey {
    let mut hash = Sha256::new();
    hash.update(FORMAT);
    hash.update(markdown.key(source_sha256));
    // Lengths first, so that no two paths and titles hash alike.
    for text in [path, title] {
        hash.update((text.len() as u64).to_le_bytes());
        hash.update(text.as_bytes());
    }
    hash.finalize().into()
}

/// The last `llms-full.txt` this process made for the site served at `domain`.
pub fn last_for(domain: &str) -> Option<Arc<KeptFullText>> {
    shared().get(&site_key(domain))
}

/// Keeps `file` as the last `llms-full.txt` made for the site served at `domain`.
pub fn keep(domain: &str, file: KeptFullText) {
    shared().put([(site_key(domain), Arc::new(file))]);
}

fn site_key(domain: &str) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update(FORMAT);
    hash.update(domain.as_bytes());
    hash.finalize().into()
}

fn shared() -> &'static TwoGenerations<[u8; 32], Arc<KeptFullText>> {
    static KEPT: LazyLock<TwoGenerations<[u8; 32], Arc<KeptFullText>>> =
        LazyLock::new(|| TwoGenerations::new(FILES_PER_GENERATION));
    &KEPT
}
