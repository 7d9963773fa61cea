//! An example retriever: BM25 where words of a section's page title and headings count three
//! times, with a tokenizer that folds plurals and verb endings ("signing", "signed" and
//! "signs" all match "sign"). Written with the Quire plugin SDK; the default retriever is
//! plain BM25 over exact words.
//!
//! The index is JSON tagged with its format, so an index built by another retriever is refused
//! by name instead of misread.

use std::collections::HashMap;

use quire_sdk::retriever::{Hit, Index, IndexBuilder, IndexSection, Query};
use quire_sdk::{Error, Result};
use serde::{Deserialize, Serialize};

/// Written at the start of every index.
const FORMAT: &str = "quire-title-retriever/1";
/// How much a word in the title or headings counts against one in the text.
const TITLE_WEIGHT: f32 = 3.0;
/// BM25 parameters.
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// How much a boosted page's score is multiplied by.
const BOOST: f32 = 1.5;

#[derive(Serialize, Deserialize)]
struct Stored {
    format: String,
    sections: Vec<StoredSection>,
}

#[derive(Serialize, Deserialize)]
struct StoredSection {
    path: String,
    anchor: String,
    title: String,
    trail: Vec<String>,
    text: String,
    version: Option<String>,
    language: Option<String>,
}

/// Collects sections; the index is their JSON.
#[derive(Default)]
pub struct TitleIndexBuilder {
    sections: Vec<StoredSection>,
}

impl IndexBuilder for TitleIndexBuilder {
    fn add(&mut self, sections: Vec<IndexSection>) -> Result<()> {
        self.sections
            .extend(sections.into_iter().map(|s| StoredSection {
                path: s.path,
                anchor: s.anchor,
                title: s.title,
                trail: s.heading_trail,
                text: s.text,
                version: s.version,
                language: s.language,
            }));
        Ok(())
    }

    fn finish(self) -> Result<Vec<u8>> {
        quire_sdk::info!("indexed {} sections", self.sections.len());
        let stored = Stored {
            format: FORMAT.into(),
            sections: self.sections,
        };
        serde_json::to_vec(&stored).map_err(|e| Error::internal(e.to_string()))
    }
}

/// Weighted term frequencies per section, and document frequencies, computed at load.
pub struct TitleIndex {
    sections: Vec<StoredSection>,
    weights: Vec<HashMap<String, f32>>,
    lengths: Vec<f32>,
    document_frequency: HashMap<String, usize>,
    average_length: f32,
}

impl Index for TitleIndex {
    fn load(segments: Vec<Vec<u8>>) -> Result<Self> {
        // Frequencies are computed here, over every segment at once, so however the host
        // grouped the pages a section ranks the same.
        let mut sections = Vec::new();
        for bytes in &segments {
            let stored: Stored = serde_json::from_slice(bytes)
                .ok()
                .filter(|s: &Stored| s.format == FORMAT)
                .ok_or_else(|| {
                    Error::invalid_input(format!(
                        "not a {FORMAT} index (built by another retriever?)"
                    ))
                })?;
            sections.extend(stored.sections);
        }
        let mut document_frequency = HashMap::new();
        let mut weights = Vec::with_capacity(sections.len());
        let mut lengths = Vec::with_capacity(sections.len());
        for section in &sections {
            let mut terms: HashMap<String, f32> = HashMap::new();
            let titles = std::iter::once(&section.title).chain(&section.trail);
            for title in titles {
                for term in tokenize(title) {
                    *terms.entry(term).or_default() += TITLE_WEIGHT;
                }
            }
            for term in tokenize(&section.text) {
                *terms.entry(term).or_default() += 1.0;
            }
            for term in terms.keys() {
                *document_frequency.entry(term.clone()).or_insert(0) += 1;
            }
            lengths.push(terms.values().sum());
            weights.push(terms);
        }
        let average_length = lengths.iter().sum::<f32>() / lengths.len().max(1) as f32;
        Ok(Self {
            sections,
            weights,
            lengths,
            document_frequency,
            average_length,
        })
    }

    fn search(&self, query: &Query) -> Result<Vec<Hit>> {
        let terms = tokenize(&query.text);
        let count = self.sections.len() as f32;
        let mut hits: Vec<(usize, f32)> = Vec::new();
        for (i, section) in self.sections.iter().enumerate() {
            let admitted = query
                .version
                .as_ref()
                .is_none_or(|v| section.version.as_ref() == Some(v))
                && query
                    .language
                    .as_ref()
                    .is_none_or(|l| section.language.as_ref() == Some(l));
            if !admitted {
                continue;
            }
            let mut score = 0.0;
            for term in &terms {
                let Some(tf) = self.weights[i].get(term) else {
                    continue;
                };
                let df = self.document_frequency.get(term).copied().unwrap_or(0) as f32;
                let idf = ((count - df + 0.5) / (df + 0.5) + 1.0).ln();
                let norm = K1 * (1.0 - B + B * self.lengths[i] / self.average_length.max(1.0));
                score += idf * tf * (K1 + 1.0) / (tf + norm);
            }
            if score > 0.0 {
                if query.boost_paths.contains(&section.path) {
                    score *= BOOST;
                }
                hits.push((i, score));
            }
        }
        hits.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(hits
            .into_iter()
            .take(query.limit)
            .map(|(i, score)| Hit {
                section: to_section(&self.sections[i]),
                score,
            })
            .collect())
    }
}

fn to_section(s: &StoredSection) -> IndexSection {
    IndexSection {
        path: s.path.clone(),
        anchor: s.anchor.clone(),
        title: s.title.clone(),
        heading_trail: s.trail.clone(),
        text: s.text.clone(),
        version: s.version.clone(),
        language: s.language.clone(),
    }
}

/// Lowercase words without common English endings, stop words left out.
pub fn tokenize(text: &str) -> Vec<String> {
    const STOP: &[&str] = &[
        "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "how", "i", "in", "is", "it",
        "of", "on", "or", "the", "to", "what", "with", "my", "can", "does",
    ];
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOP.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect()
}

/// Folds `-ing`, `-ed`, `-es` and `-s` endings on words long enough to keep a stem.
fn stem(word: &str) -> String {
    for suffix in ["ing", "ed", "es", "s"] {
        let Some(stem) = word.strip_suffix(suffix) else {
            continue;
        };
        // `-es` only after a sibilant (boxes, classes); warehouses is warehouse + s.
        let sibilant = ["ss", "x", "z", "ch", "sh"]
            .iter()
            .any(|end| stem.ends_with(end));
        if suffix == "es" && !sibilant {
            continue;
        }
        if stem.chars().count() >= 3 && !word.ends_with("ss") {
            return stem.to_string();
        }
    }
    word.to_string()
}

quire_sdk::export_retriever!(TitleIndexBuilder, TitleIndex);

#[cfg(test)]
mod tests {
    use super::tokenize;

    #[test]
    fn endings_and_stop_words_fold() {
        assert_eq!(
            tokenize("How do I verify signed Webhooks?"),
            ["verify", "sign", "webhook"]
        );
        assert_eq!(tokenize("signing access"), ["sign", "access"]);
        assert_eq!(
            tokenize("warehouses boxes classes"),
            ["warehouse", "box", "class"]
        );
    }
}
