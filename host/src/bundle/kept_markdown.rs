//! What a page's Markdown beside it (`{path}.md`) is, kept by this process under the page's
//! source's SHA-256 and the site's variables: the Markdown's SHA-256 and size, and the length
//! of the body `llms-full.txt` would take of it. With it, an export that did not read a page's
//! source (`rendering::source_facts`) names the page's Markdown by its hash, which the earlier
//! archive holds, and knows whether `llms-full.txt` takes the page: it reads the source only
//! then. Memory is bounded by two generations (`memo`).

use std::sync::LazyLock;

use quire_core::variables::Variables;
use sha2::{Digest, Sha256};

use crate::memo::{self, TwoGenerations};

/// Entries one generation holds before it is retired: two generations hold more than the
/// pages of the largest sites we know of (25,000).
const GENERATION_ENTRIES: usize = 64 * 1024;

/// Changes whenever what is kept, or how it is made, changes.
const FORMAT: &[u8] = b"quire-page-markdown/1";

type Key = [u8; 32];

/// A page's Markdown, as the bundle has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkdownFacts {
    pub sha256: [u8; 32],
    pub size: u64,
    /// The length of the page's body in `llms-full.txt` (`llms::FullText::add`).
    pub full_text_len: usize,
}

/// What a page's Markdown depends on besides its source: the site's variables.
#[derive(Clone, Copy)]
pub struct MarkdownContext(Key);

impl MarkdownContext {
    pub fn of(variables: &Variables) -> Self {
        Self(memo::variables_context(FORMAT, variables))
    }

    /// The key of the Markdown of the page whose source has the SHA-256 `source_sha256`.
    pub(super) fn key(&self, source_sha256: &[u8; 32]) -> Key {
        let mut hash = Sha256::new();
        hash.update(self.0);
        hash.update(source_sha256);
        hash.finalize().into()
    }

    /// The Markdown of the page whose source has the SHA-256 `source_sha256`, if kept.
    pub fn get(&self, source_sha256: &[u8; 32]) -> Option<MarkdownFacts> {
        shared().get(&self.key(source_sha256))
    }

    /// Keeps `facts` as the Markdown of the page whose source has `source_sha256`.
    pub fn put(&self, source_sha256: &[u8; 32], facts: MarkdownFacts) {
        shared().put([(self.key(source_sha256), facts)]);
    }
}

fn shared() -> &'static TwoGenerations<Key, MarkdownFacts> {
    static KEPT: LazyLock<TwoGenerations<Key, MarkdownFacts>> =
        LazyLock::new(|| TwoGenerations::new(GENERATION_ENTRIES));
    &KEPT
}
