//! Reading the bundle's offline search index outside a browser: the same BM25 over the same
//! files `assets/search.js` loads (the header, one term shard per query word, the document
//! chunks of the results), with the same tokens, so a search from the docs server's or
//! `quire mcp`'s MCP server ranks as the search box does. The format is `search_index`'s.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use super::search_index::shard_of;
use quire_core::tokens::browser::tokens;

/// Why the index cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum OfflineSearchError {
    #[error("cannot read {file}: {message}")]
    Read { file: String, message: String },
    #[error("{file} is not a search index file: {message}")]
    Format { file: String, message: String },
}

/// The header, `search/index.js`.
#[derive(Debug, Deserialize)]
struct Meta {
    documents: usize,
    shards: usize,
    chunk: usize,
}

/// A bundle's index, read from the folder it is unpacked in.
pub struct OfflineIndex {
    dir: PathBuf,
    meta: Meta,
}

/// One section found.
#[derive(Debug, Clone, PartialEq)]
pub struct OfflineHit {
    /// The page path (no extension) and the section's anchor (empty for the page's opening).
    pub path: String,
    pub anchor: String,
    /// Titles from the page title down to the section's heading.
    pub trail: Vec<String>,
    /// The start of the section's text.
    pub excerpt: String,
    /// The page's version and language, if it has them.
    pub version: Option<String>,
    pub language: Option<String>,
    pub score: f64,
}

/// The trail separator `search_index` joins headings with.
const TRAIL_SEPARATOR: &str = " › ";
/// Candidates looked at beyond `limit` when a filter leaves some out, as the search box does.
const CANDIDATES_PER_RESULT: usize = 4;

impl OfflineIndex {
    /// The index of the bundle unpacked at `dir`.
    pub fn open(dir: &Path) -> Result<Self, OfflineSearchError> {
        let meta: Meta =
            serde_json::from_value(read_part(dir, "search/index.js")?).map_err(|e| {
                OfflineSearchError::Format {
                    file: "search/index.js".into(),
                    message: e.to_string(),
                }
            })?;
        Ok(Self {
            dir: dir.to_path_buf(),
            meta,
        })
    }

    /// The best `limit` sections for `text` among those of `version` and `language` (when
    /// given; pages without a version or language match any).
    pub fn search(
        &self,
        text: &str,
        version: Option<&str>,
        language: Option<&str>,
        limit: usize,
    ) -> Result<Vec<OfflineHit>, OfflineSearchError> {
        let mut terms: Vec<String> = tokens(text).collect();
        terms.sort();
        terms.dedup();
        let mut scores: HashMap<u32, f64> = HashMap::new();
        let mut shards: HashMap<usize, Value> = HashMap::new();
        for term in &terms {
            let shard = shard_of(term, self.meta.shards);
            let part = match shards.entry(shard) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(read_part(&self.dir, &format!("search/t{shard}.js"))?)
                }
            };
            let Some(postings) = part.get(term).and_then(Value::as_array) else {
                continue;
            };
            let numbers: Vec<f64> = postings.iter().filter_map(Value::as_f64).collect();
            let Some((&df, rest)) = numbers.split_first() else {
                continue;
            };
            let documents = self.meta.documents as f64;
            let idf = (1.0 + (documents - df + 0.5) / (df + 0.5)).ln();
            let mut doc = 0u32;
            for pair in rest.chunks_exact(2) {
                doc += pair[0] as u32;
                *scores.entry(doc).or_default() += idf * pair[1] / 100.0;
            }
        }
        let mut ranked: Vec<(u32, f64)> = scores.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut chunks: HashMap<usize, Value> = HashMap::new();
        let mut hits = Vec::new();
        for (doc, score) in ranked
            .into_iter()
            .take(limit.saturating_mul(CANDIDATES_PER_RESULT).max(limit))
        {
            let chunk = doc as usize / self.meta.chunk.max(1);
            let rows = match chunks.entry(chunk) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(read_part(&self.dir, &format!("search/d{chunk}.js"))?)
                }
            };
            let Some(row) = rows
                .get(doc as usize % self.meta.chunk.max(1))
                .and_then(Value::as_array)
            else {
                continue;
            };
            let Some(hit) = hit_of(row, score) else {
                continue;
            };
            let wanted = |own: &Option<String>, asked: Option<&str>| {
                own.is_none() || asked.is_none() || own.as_deref() == asked
            };
            if wanted(&hit.version, version) && wanted(&hit.language, language) {
                hits.push(hit);
                if hits.len() == limit {
                    break;
                }
            }
        }
        Ok(hits)
    }
}

/// A document row, `[href, title, trail, excerpt, scope]`, as a hit.
fn hit_of(row: &[Value], score: f64) -> Option<OfflineHit> {
    let field = |i: usize| row.get(i).and_then(Value::as_str).unwrap_or_default();
    let href = field(0);
    let (page, anchor) = href.split_once('#').unwrap_or((href, ""));
    let path = page.strip_suffix(".html")?.to_string();
    let mut trail: Vec<String> = field(2)
        .split(TRAIL_SEPARATOR)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    trail.push(field(1).to_string());
    let (version, language) = field(4).split_once('/').unwrap_or(("", ""));
    let given = |s: &str| (!s.is_empty()).then(|| s.to_string());
    Some(OfflineHit {
        path,
        anchor: anchor.to_string(),
        trail,
        excerpt: field(3).to_string(),
        version: given(version),
        language: given(language),
        score,
    })
}

/// The JSON inside a data file: `QUIRE_SEARCH_DATA("name",{...});`.
fn read_part(dir: &Path, file: &str) -> Result<Value, OfflineSearchError> {
    let text = std::fs::read_to_string(dir.join(file)).map_err(|e| OfflineSearchError::Read {
        file: file.to_string(),
        message: e.to_string(),
    })?;
    let format = |message: &str| OfflineSearchError::Format {
        file: file.to_string(),
        message: message.to_string(),
    };
    let start = text.find(',').ok_or_else(|| format("no data"))?;
    let end = text.rfind(");").ok_or_else(|| format("unterminated"))?;
    let json = text.get(start + 1..end).ok_or_else(|| format("no data"))?;
    serde_json::from_str(json).map_err(|e| format(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{SearchDocument, SearchIndexBuilder};

    fn document(
        path: &str,
        anchor: &str,
        trail: &[&str],
        text: &str,
        scope: &str,
    ) -> SearchDocument {
        SearchDocument {
            path: path.into(),
            anchor: anchor.into(),
            trail: trail.iter().map(|s| s.to_string()).collect(),
            text: text.into(),
            scope: scope.into(),
        }
    }

    /// Writes an index of `documents` as an export would, in pages of two and groups of ten
    /// (so documents are numbered with gaps between pages and groups), and opens it.
    fn index_of(documents: Vec<SearchDocument>) -> (tempfile::TempDir, OfflineIndex) {
        let dir = tempfile::tempdir().unwrap();
        let mut builder = SearchIndexBuilder::default();
        let mut files = Vec::new();
        for (i, d) in documents.into_iter().enumerate() {
            builder.add(d);
            if i % 2 == 1 {
                builder.end_page();
            }
            if i % 10 == 9 {
                builder.end_group();
            }
            files.extend(builder.take_ready());
        }
        files.extend(builder.finish().files);
        for (path, contents) in files {
            let target = dir.path().join(path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, contents).unwrap();
        }
        let index = OfflineIndex::open(dir.path()).unwrap();
        (dir, index)
    }

    #[test]
    fn finds_what_an_export_indexed_ranked_and_scoped() {
        let mut documents = vec![
            document(
                "guides/webhooks",
                "retries",
                &["Webhooks", "Retries"],
                "Failed webhook deliveries are retried five times.",
                "v2/en",
            ),
            document(
                "v1/webhooks",
                "",
                &["Webhooks (1.x)"],
                "Webhooks are not retried in 1.x.",
                "v1/",
            ),
            document(
                "changelog",
                "",
                &["Changelog"],
                "Everything that changed.",
                "/",
            ),
        ];
        for i in 0..40 {
            documents.push(document(
                &format!("filler/{i}"),
                "",
                &["Filler"],
                "Widgets and gadgets.",
                "/",
            ));
        }
        let (_dir, index) = index_of(documents);
        let hits = index.search("webhook retries", None, None, 5).unwrap();
        assert_eq!(hits[0].path, "guides/webhooks");
        assert_eq!(hits[0].anchor, "retries");
        assert_eq!(hits[0].trail, ["Webhooks", "Retries"]);
        assert_eq!(hits[0].version.as_deref(), Some("v2"));
        assert_eq!(hits[0].language.as_deref(), Some("en"));
        assert!(hits[0].excerpt.starts_with("Failed webhook"));

        let v1 = index.search("webhook", Some("v1"), None, 5).unwrap();
        assert_eq!(v1.len(), 1);
        assert_eq!(v1[0].path, "v1/webhooks");
        assert!(
            index
                .search("nothing-like-this", None, None, 5)
                .unwrap()
                .is_empty()
        );
        // A document past the first chunk is found too.
        let last = index.search("gadgets", None, None, 50).unwrap();
        assert_eq!(last.len(), 40);
        assert!(last.iter().all(|hit| hit.path.starts_with("filler/")));
        // The documents' count, not their highest number, weighs the terms.
        assert!(index.meta.documents == 43);
    }

    #[test]
    fn a_missing_or_broken_index_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            OfflineIndex::open(dir.path()),
            Err(OfflineSearchError::Read { .. })
        ));
        std::fs::create_dir_all(dir.path().join("search")).unwrap();
        std::fs::write(dir.path().join("search/index.js"), "nonsense").unwrap();
        assert!(matches!(
            OfflineIndex::open(dir.path()),
            Err(OfflineSearchError::Format { .. })
        ));
    }
}
