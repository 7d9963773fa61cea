//! A retriever that fuses the default retriever's BM25 ranking with a dense one. Texts are
//! embedded without a model: the IDF-weighted mean of their WordPiece tokens' vectors, from a
//! static table distilled from all-MiniLM-L6-v2 (`distill.py`), compiled in from the file named
//! by `QUIRE_STATIC_EMBEDDINGS` at build time. The two rankings are fused by reciprocal rank.

mod table;
mod wordpiece;

use std::collections::HashMap;

use quire_retriever::{Index as Bm25, IndexBuilder as Bm25Builder};
use quire_sdk::retriever::{self as sdk, Hit, IndexSection, Query};
use quire_sdk::{Error, Result};
use serde::{Deserialize, Serialize};

pub use table::Table;

/// Candidates each ranking gives to the fusion.
const CANDIDATES: usize = 50;
/// Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009).
const RRF_K: f32 = 60.0;
/// The dense ranking's weight in the fusion (BM25's is 1), from `QUIRE_DENSE_WEIGHT` at build
/// time; and whether the dense ranking only re-orders BM25's candidates
/// (`QUIRE_DENSE_RERANK_ONLY=1`) or brings its own.
fn dense_weight() -> f32 {
    option_env!("QUIRE_DENSE_WEIGHT")
        .and_then(|w| w.parse().ok())
        .unwrap_or(1.0)
}
fn rerank_only() -> bool {
    option_env!("QUIRE_DENSE_RERANK_ONLY") == Some("1")
}

static TABLE_BYTES: &[u8] = include_bytes!(env!("QUIRE_STATIC_EMBEDDINGS"));

fn table() -> &'static Table {
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| Table::parse(TABLE_BYTES).expect("the compiled-in embedding table"))
}

#[derive(Serialize, Deserialize)]
struct Stored {
    bm25: Vec<u8>,
    /// Each section's token ids: the vectors are made at load, when the inverse document
    /// frequencies of every segment's sections are known.
    tokens: Vec<Vec<u32>>,
}

/// Builds the BM25 index and the sections' token ids.
#[derive(Default)]
pub struct Builder {
    bm25: Bm25Builder,
    tokens: Vec<Vec<u32>>,
}

impl sdk::IndexBuilder for Builder {
    fn add(&mut self, sections: Vec<IndexSection>) -> Result<()> {
        for section in sections {
            let text = format!(
                "{} {} {}",
                section.title,
                section.heading_trail.join(" "),
                section.text
            );
            self.tokens.push(wordpiece::ids(table(), &text));
            self.bm25.add_section(section);
        }
        Ok(())
    }

    fn finish(self) -> Result<Vec<u8>> {
        let bm25 = self.bm25.to_bytes().map_err(Error::internal)?;
        postcard::to_allocvec(&Stored {
            bm25,
            tokens: self.tokens,
        })
        .map_err(|e| Error::internal(e.to_string()))
    }
}

/// A loaded index.
pub struct Index {
    bm25: Bm25,
    idf: Vec<f32>,
    vectors: Vec<f32>,
}

impl Index {
    /// The dense ranking: the sections `query` admits, most similar first.
    fn dense(&self, query: &Query, among: Option<&[usize]>) -> Vec<usize> {
        let table = table();
        let dims = table.dims();
        let q = table.embed(&wordpiece::ids(table, &query.text), &self.idf);
        let mut scored: Vec<(f32, usize)> = self
            .vectors
            .chunks_exact(dims)
            .enumerate()
            .filter(|(i, _)| query.admits(self.bm25.section(*i)))
            .filter(|(i, _)| among.is_none_or(|among| among.contains(i)))
            .map(|(i, v)| (v.iter().zip(&q).map(|(a, b)| a * b).sum(), i))
            .collect();
        let keep = CANDIDATES.min(scored.len());
        if keep == 0 {
            return Vec::new();
        }
        scored.select_nth_unstable_by(keep - 1, |a, b| b.0.total_cmp(&a.0));
        scored.truncate(keep);
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, i)| i).collect()
    }
}

impl sdk::Index for Index {
    fn load(segments: Vec<Vec<u8>>) -> Result<Self> {
        let mut bm25 = Vec::new();
        let mut tokens = Vec::new();
        for bytes in &segments {
            let stored: Stored = postcard::from_bytes(bytes)
                .map_err(|e| Error::invalid_input(format!("not a semantic index: {e}")))?;
            bm25.push(stored.bm25);
            tokens.extend(stored.tokens);
        }
        let bm25 = Bm25::from_segments(&bm25).map_err(Error::invalid_input)?;
        let table = table();
        let n = tokens.len() as f32;
        let mut df = vec![0u32; table.len()];
        for ids in &tokens {
            let mut seen: Vec<u32> = ids.clone();
            seen.sort_unstable();
            seen.dedup();
            for id in seen {
                df[id as usize] += 1;
            }
        }
        let idf: Vec<f32> = df
            .iter()
            .map(|&d| (1.0 + (n - d as f32 + 0.5) / (d as f32 + 0.5)).ln())
            .collect();
        let mut vectors = Vec::with_capacity(tokens.len() * table.dims());
        for ids in &tokens {
            vectors.extend(table.embed(ids, &idf));
        }
        Ok(Self {
            bm25,
            idf,
            vectors,
        })
    }

    fn search(&self, query: &Query) -> Result<Vec<Hit>> {
        let wide = Query {
            limit: CANDIDATES,
            ..query.clone()
        };
        let lexical: Vec<usize> = self
            .bm25
            .rank(&wide)
            .into_iter()
            .map(|r| r.section)
            .collect();
        let dense = self.dense(query, rerank_only().then_some(lexical.as_slice()));
        let mut fused: HashMap<usize, f32> = HashMap::new();
        for (ranking, weight) in [(&lexical, 1.0), (&dense, dense_weight())] {
            for (rank, &section) in ranking.iter().enumerate() {
                *fused.entry(section).or_default() += weight / (RRF_K + rank as f32 + 1.0);
            }
        }
        let mut fused: Vec<(usize, f32)> = fused.into_iter().collect();
        fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(fused
            .into_iter()
            .take(query.limit)
            .map(|(section, score)| Hit {
                section: self.bm25.section(section).clone(),
                score,
            })
            .collect())
    }
}

quire_sdk::export_retriever!(Builder, Index);
