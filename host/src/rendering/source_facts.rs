//! What a page's render key reads of its source (the snippets the source references, and
//! whether its frontmatter says to show its date), kept by this process under the source's
//! SHA-256. With it, the key of a page whose source is unchanged is worked out without reading
//! the source, and an export whose page is kept whole (its summary and its files in the earlier
//! archive, `export::page_summary`) never reads it: on a large site, reading every unchanged
//! page's source was the largest part of a one-page export's pages (BENCHMARKS.md).
//!
//! Only a caller that knows each file's SHA-256 without reading it (a content version, whose
//! manifest lists them) benefits. The key also covers the page's file (references resolve
//! against it) and the site's variables (references are read with them replaced). Memory is
//! bounded by two generations (`memo`), as the site loader's kept reads are.

use std::sync::{Arc, LazyLock};

use quire_core::variables::Variables;
use sha2::{Digest, Sha256};

use crate::memo::{self, TwoGenerations};

/// Entries one generation holds before it is retired: two generations hold more than the
/// pages of the largest sites we know of (25,000), at a few hundred bytes each.
const GENERATION_ENTRIES: usize = 64 * 1024;

/// Changes whenever what is kept, or how it is read, changes.
const FORMAT: &[u8] = b"quire-source-facts/1";

type Key = [u8; 32];

/// What a page's render key takes from its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFacts {
    /// The snippets the source references, as `keys::references` reads them; `None` when
    /// one cannot be read (the key then covers every snippet).
    pub references: Option<Vec<String>>,
    /// What the frontmatter's `timestamp` says, if it says anything.
    pub timestamp: Option<bool>,
}

impl SourceFacts {
    /// Whether the page shows its "last modified" date, where the site's
    /// `metadata.timestamp` is `site_default`.
    pub fn shows_date(&self, site_default: bool) -> bool {
        self.timestamp.unwrap_or(site_default)
    }
}

/// What a page's facts depend on besides its source and its file: the site's variables,
/// hashed once per run.
#[derive(Clone, Copy)]
pub struct FactsContext(Key);

impl FactsContext {
    pub fn of(variables: &Variables) -> Self {
        Self(memo::variables_context(FORMAT, variables))
    }

    /// The key of the facts of `file`, whose source has the SHA-256 `source_sha256`.
    pub fn key(&self, source_sha256: &[u8; 32], file: &str) -> Key {
        let mut hash = Sha256::new();
        hash.update(self.0);
        hash.update(source_sha256);
        hash.update((file.len() as u64).to_le_bytes());
        hash.update(file.as_bytes());
        hash.finalize().into()
    }
}

fn shared() -> &'static TwoGenerations<Key, Arc<SourceFacts>> {
    static KEPT: LazyLock<TwoGenerations<Key, Arc<SourceFacts>>> =
        LazyLock::new(|| TwoGenerations::new(GENERATION_ENTRIES));
    &KEPT
}

/// The facts kept under `key`, if any.
pub fn get(key: &Key) -> Option<Arc<SourceFacts>> {
    shared().get(key)
}

/// Keeps `facts` under `key` for the next run.
pub fn put(key: Key, facts: Arc<SourceFacts>) {
    shared().put([(key, facts)]);
}

/// What the frontmatter of `source` says of showing the page's date. The YAML is parsed only
/// when it names the field: this runs on every page read.
pub fn frontmatter_timestamp(source: &str) -> Option<bool> {
    let block = quire_core::frontmatter::block(source)?;
    if !block.yaml.contains("timestamp") {
        return None;
    }
    quire_core::frontmatter::read(block.yaml).0.timestamp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_key_apart_by_source_file_and_variables() {
        let none = FactsContext::of(&Variables::default());
        let config = quire_core::config::SiteConfig::of(
            &quire_core::config::document(
                r#"{"name": "D", "navigation": {"pages": []}, "variables": {"v": "1"}}"#,
            )
            .unwrap(),
        );
        let some = FactsContext::of(&Variables::of(&config));
        let (a, b) = ([1; 32], [2; 32]);
        let keys = [
            none.key(&a, "a.mdx"),
            none.key(&b, "a.mdx"),
            none.key(&a, "b.mdx"),
            some.key(&a, "a.mdx"),
        ];
        for (i, x) in keys.iter().enumerate() {
            for y in &keys[i + 1..] {
                assert_ne!(x, y);
            }
        }
        assert_eq!(none.key(&a, "a.mdx"), keys[0]);
    }

    #[test]
    fn a_page_shows_its_date_as_its_frontmatter_or_else_the_site_says() {
        let shows = |source: &str, site: bool| {
            SourceFacts {
                references: None,
                timestamp: frontmatter_timestamp(source),
            }
            .shows_date(site)
        };
        assert!(!shows("# A\n", false));
        assert!(shows("# A\n", true));
        assert!(shows("---\ntitle: A\n---\n# A\n", true));
        assert!(shows("---\ntimestamp: true\n---\n# A\n", false));
        assert!(!shows("---\ntitle: A\ntimestamp: false\n---\n# A\n", true));
    }
}
