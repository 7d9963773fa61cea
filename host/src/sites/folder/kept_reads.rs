//! What loading a site read of each page (its imports and what its frontmatter tells the
//! navigation), kept by this process under the page's source hash, so that the next load of
//! the site reads only the pages whose sources changed. A release of a large site is one
//! changed page among tens of thousands, and reading every other page again (often from disk:
//! an upload links unchanged files from the last version) was most of the time its loading
//! took.
//!
//! Only a caller that knows each file's SHA-256 without reading it (an upload, which hashed
//! every file it wrote) benefits; the key also covers the page's file and path and the site's
//! variables, which reading a page depends on besides its source. Memory is bounded by two
//! generations (`memo`), as the highlighter's memo is.

use std::sync::LazyLock;

use quire_core::variables::Variables;
use sha2::{Digest, Sha256};

use super::PageRead;
use crate::memo::{self, TwoGenerations};

/// Entries one generation holds before it is retired: two generations hold more than the
/// pages of the largest sites we know of (25,000), at a few hundred bytes each.
const GENERATION_ENTRIES: usize = 64 * 1024;

/// Changes whenever what is kept, or how it is read, changes.
const FORMAT: &[u8] = b"quire-page-read/1";

type Key = [u8; 32];

/// What a page's read depends on besides its file's SHA-256 and its file and path: the
/// site's variables, hashed once per load.
#[derive(Clone, Copy)]
pub(super) struct ReadContext(Key);

impl ReadContext {
    pub(super) fn of(variables: &Variables) -> Self {
        Self(memo::variables_context(FORMAT, variables))
    }

    /// The key of the page `path` in `file`, whose contents have the SHA-256 `sha256` (hex).
    pub(super) fn key(&self, sha256: &str, file: &str, path: &str) -> Key {
        let mut hash = Sha256::new();
        hash.update(self.0);
        for part in [sha256, file, path] {
            hash.update((part.len() as u64).to_le_bytes());
            hash.update(part.as_bytes());
        }
        hash.finalize().into()
    }
}

fn shared() -> &'static TwoGenerations<Key, PageRead> {
    static KEPT: LazyLock<TwoGenerations<Key, PageRead>> =
        LazyLock::new(|| TwoGenerations::new(GENERATION_ENTRIES));
    &KEPT
}

/// The read kept under `key`, if any.
pub(super) fn get(key: &Key) -> Option<PageRead> {
    shared().get(key)
}

/// Keeps `reads` (key and read) for the next load.
pub(super) fn put(reads: impl IntoIterator<Item = (Key, PageRead)>) {
    shared().put(reads);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_covers_the_source_the_file_the_path_and_the_variables() {
        let none = ReadContext::of(&Variables::default());
        let key = none.key("ab12", "guide.mdx", "guide");
        assert_eq!(key, none.key("ab12", "guide.mdx", "guide"));
        assert_ne!(key, none.key("ab13", "guide.mdx", "guide"));
        assert_ne!(key, none.key("ab12", "guide.md", "guide"));
        assert_ne!(key, none.key("ab12", "guide.mdx", "guides"));
        // A part's end is part of its hash: moving a character across parts is another key.
        assert_ne!(key, none.key("ab12g", "uide.mdx", "guide"));
        let config = |variables: serde_json::Value| {
            quire_core::config::SiteConfig::of(&serde_json::json!({ "variables": variables }))
        };
        let one = ReadContext::of(&Variables::of(&config(serde_json::json!({"v": "1"}))));
        let two = ReadContext::of(&Variables::of(&config(serde_json::json!({"v": "2"}))));
        assert_ne!(key, one.key("ab12", "guide.mdx", "guide"));
        assert_ne!(
            one.key("ab12", "guide.mdx", "guide"),
            two.key("ab12", "guide.mdx", "guide")
        );
    }
}
