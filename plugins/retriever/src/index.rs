//! A BM25 index over documentation sections: built in segments (the host builds one per group
//! of pages and keeps them), serialized, loaded from all of a site's segments as one index, and
//! searched in place (a search allocates its score table, never a copy of the index).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use quire_sdk::tokens::Tokenizer;

pub use quire_sdk::retriever::{IndexSection as Section, Query};

/// Version of the serialized form; an index of another version is refused, not misread.
/// Format 2 tokenizes each section in its page's language; format 1, still read, tokenized all
/// of them as English, and its queries are tokenized the same way.
const FORMAT: u32 = 2;
/// The oldest format still read.
const OLDEST_FORMAT: u32 = 1;
/// BM25 parameters (the usual defaults).
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// A section's title and headings count this many times over its body words.
const HEADING_WEIGHT: u32 = 3;
/// Sections on a boosted page (the reader's current page) score this much higher.
const PATH_BOOST: f32 = 1.25;

/// Collects sections; `to_bytes` produces the serialized segment.
#[derive(Default)]
pub struct IndexBuilder {
    tokenizer: Tokenizer,
    sections: Vec<Section>,
    postings: HashMap<String, Vec<(u32, u32)>>,
    lengths: Vec<u32>,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    format: u32,
    sections: Vec<Section>,
    lengths: Vec<u32>,
    /// Term, then (section, weighted term frequency) sorted by section.
    terms: Vec<(String, Vec<(u32, u32)>)>,
}

impl IndexBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Indexes one section.
    pub fn add_section(&mut self, section: Section) {
        let id = self.sections.len() as u32;
        let mut counts: HashMap<String, u32> = HashMap::new();
        let mut length = 0;
        let headings = std::iter::once(section.title.as_str())
            .chain(section.heading_trail.iter().skip(1).map(String::as_str));
        for heading in headings {
            self.tokenizer
                .tokens_in(heading, section.language.as_deref(), |t| {
                    *counts.entry(t).or_default() += HEADING_WEIGHT;
                    length += HEADING_WEIGHT;
                });
        }
        self.tokenizer
            .tokens_in(&section.text, section.language.as_deref(), |t| {
                *counts.entry(t).or_default() += 1;
                length += 1;
            });
        for (term, count) in counts {
            self.postings.entry(term).or_default().push((id, count));
        }
        self.lengths.push(length);
        self.sections.push(section);
    }

    /// The segment's bytes, as `Index::from_segments` reads them. Terms are written in order,
    /// so the same sections always give the same bytes.
    pub fn to_bytes(self) -> Result<Vec<u8>, String> {
        let mut terms: Vec<_> = self.postings.into_iter().collect();
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        postcard::to_allocvec(&Stored {
            format: FORMAT,
            sections: self.sections,
            lengths: self.lengths,
            terms,
        })
        .map_err(|e| format!("cannot serialize the index: {e}"))
    }
}

/// A loaded index.
pub struct Index {
    tokenizer: Tokenizer,
    sections: Vec<Section>,
    lengths: Vec<u32>,
    average_length: f32,
    terms: HashMap<String, Vec<(u32, u32)>>,
    /// The languages the sections were tokenized in (format 2), each once; empty for format 1,
    /// where every section was tokenized as English.
    languages: Vec<Option<String>>,
}

/// One ranked result: the section's position in the index and its score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    pub section: usize,
    pub score: f32,
}

impl Index {
    /// Reads one segment `IndexBuilder::to_bytes` wrote, as a whole index; bytes of another
    /// format are refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        Self::from_segments(&[bytes])
    }

    /// Reads the segments of one index, in the site's order, as one index: sections are
    /// numbered across them and each term's postings joined, so a section ranks as it would
    /// in one segment built from every section.
    pub fn from_segments(segments: &[impl AsRef<[u8]>]) -> Result<Self, String> {
        let mut sections = Vec::new();
        let mut lengths = Vec::new();
        let mut terms: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut facts = Vec::with_capacity(segments.len());
        for bytes in segments {
            let stored = read_segment(bytes.as_ref())?;
            facts.push(SegmentFacts::of(&stored));
            let first = u32::try_from(sections.len())
                .map_err(|_| "the index has more sections than it can number".to_string())?;
            for (term, postings) in stored.terms {
                terms.entry(term).or_default().extend(
                    postings
                        .into_iter()
                        .map(|(section, count)| (first + section, count)),
                );
            }
            sections.extend(stored.sections);
            lengths.extend(stored.lengths);
        }
        let format = check_together(&facts)?;
        let total: u64 = lengths.iter().map(|&l| u64::from(l)).sum();
        let average_length = if sections.is_empty() {
            1.0
        } else {
            total as f32 / sections.len() as f32
        };
        let mut languages: Vec<Option<String>> = Vec::new();
        if format.is_some_and(|format| format >= 2) {
            for section in &sections {
                if !languages.contains(&section.language) {
                    languages.push(section.language.clone());
                }
            }
        }
        Ok(Self {
            languages,
            tokenizer: Tokenizer::new(),
            sections,
            lengths,
            average_length: average_length.max(1.0),
            terms,
        })
    }

    pub fn section(&self, i: usize) -> &Section {
        &self.sections[i]
    }

    pub fn len(&self) -> usize {
        self.sections.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// The best `query.limit` sections for `query`, best first.
    pub fn rank(&self, query: &Query) -> Vec<Ranked> {
        let limit = query.limit;
        // A query in one language is tokenized as that language's sections were; one open to
        // every language, as each language of the index.
        let mut terms = match (&query.language, self.languages.len()) {
            (_, 0) => self.tokenizer.collect(&query.text),
            (Some(language), _) => self.tokenizer.collect_in(&query.text, Some(language)),
            (None, _) => self
                .languages
                .iter()
                .flat_map(|l| self.tokenizer.collect_in(&query.text, l.as_deref()))
                .collect(),
        };
        terms.sort();
        terms.dedup();
        let n = self.sections.len() as f32;
        let mut scores = vec![0f32; self.sections.len()];
        for term in &terms {
            let Some(postings) = self.terms.get(term) else {
                continue;
            };
            let df = postings.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(section, tf) in postings {
                let tf = tf as f32;
                let length = self.lengths[section as usize] as f32;
                let norm = K1 * (1.0 - B + B * length / self.average_length);
                scores[section as usize] += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        let boosted: HashSet<&str> = query.boost_paths.iter().map(String::as_str).collect();
        let mut ranked: Vec<Ranked> = scores
            .into_iter()
            .enumerate()
            .filter(|(i, score)| *score > 0.0 && query.admits(&self.sections[*i]))
            .map(|(i, score)| {
                let boost = if boosted.contains(self.sections[i].path.as_str()) {
                    PATH_BOOST
                } else {
                    1.0
                };
                Ranked {
                    section: i,
                    score: score * boost,
                }
            })
            .collect();
        let by_score =
            |a: &Ranked, b: &Ranked| b.score.total_cmp(&a.score).then(a.section.cmp(&b.section));
        if ranked.len() > limit && limit > 0 {
            ranked.select_nth_unstable_by(limit - 1, by_score);
            ranked.truncate(limit);
        }
        ranked.sort_by(by_score);
        ranked.truncate(limit);
        ranked
    }
}

/// What checking one segment tells of it: enough to check segments together without loading
/// them (`check_together`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegmentFacts {
    pub format: u32,
    pub sections: usize,
}

impl SegmentFacts {
    /// Checks one segment as `Index::from_segments` reads it (its format, and every posting
    /// naming a section of its own), without loading it into an index.
    pub fn check(bytes: &[u8]) -> Result<Self, String> {
        read_segment(bytes).map(|stored| Self::of(&stored))
    }

    fn of(stored: &Stored) -> Self {
        Self {
            format: stored.format,
            sections: stored.sections.len(),
        }
    }
}

/// Checks that segments, each checked on its own, make one index: one format, and no more
/// sections than it can number. Gives that format (none for no segments).
pub fn check_together(segments: &[SegmentFacts]) -> Result<Option<u32>, String> {
    let format = segments.first().map(|s| s.format);
    if segments.iter().any(|s| Some(s.format) != format) {
        return Err("the index's segments are of different formats; publish the site again".into());
    }
    let sections: usize = segments.iter().map(|s| s.sections).sum();
    if u32::try_from(sections).is_err() {
        return Err("the index has more sections than it can number".into());
    }
    Ok(format)
}

/// One segment's bytes, decoded and checked: a format this retriever reads, a length per
/// section, and every posting naming one of its sections.
fn read_segment(bytes: &[u8]) -> Result<Stored, String> {
    let stored: Stored =
        postcard::from_bytes(bytes).map_err(|e| format!("not a Quire search index: {e}"))?;
    if !(OLDEST_FORMAT..=FORMAT).contains(&stored.format) {
        return Err(format!(
            "index format {} is not supported (this retriever reads formats {OLDEST_FORMAT} to {FORMAT}); publish the site again",
            stored.format
        ));
    }
    if stored.lengths.len() != stored.sections.len() {
        return Err("corrupt index: section and length counts differ".into());
    }
    let sections = stored.sections.len();
    if stored
        .terms
        .iter()
        .flat_map(|(_, postings)| postings)
        .any(|&(section, _)| section as usize >= sections)
    {
        return Err("corrupt index: a posting names no section".into());
    }
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(path: &str, title: &str, text: &str, version: Option<&str>) -> Section {
        Section {
            path: path.into(),
            anchor: String::new(),
            title: title.into(),
            heading_trail: vec![title.into()],
            text: text.into(),
            version: version.map(String::from),
            language: None,
        }
    }

    fn index() -> Index {
        let mut builder = IndexBuilder::new();
        builder.add_section(section(
            "auth",
            "Authentication",
            "Send your API key in the Authorization header as a bearer token.",
            None,
        ));
        builder.add_section(section(
            "webhooks",
            "Webhooks",
            "Verify each delivery with the signature header. Retries use exponential backoff.",
            None,
        ));
        builder.add_section(section(
            "limits",
            "Rate limits",
            "Requests per organization are limited to 10,000 per hour.",
            Some("v2"),
        ));
        builder.add_section(section(
            "old-limits",
            "Rate limits",
            "Requests are limited to 100 per hour.",
            Some("v1"),
        ));
        builder.add_section(section(
            "config",
            "Configuration",
            "Set retrievalPageSize to change how many results are used.",
            None,
        ));
        Index::from_bytes(&builder.to_bytes().unwrap()).unwrap()
    }

    fn query(text: &str, limit: usize) -> Query {
        Query {
            text: text.into(),
            limit,
            version: None,
            language: None,
            boost_paths: Vec::new(),
        }
    }

    fn paths(index: &Index, query: &Query) -> Vec<String> {
        index
            .rank(query)
            .iter()
            .map(|r| index.section(r.section).path.clone())
            .collect()
    }

    #[test]
    fn ranks_the_answering_section_first() {
        let i = index();
        assert_eq!(
            paths(&i, &query("how do I verify webhook signatures?", 5))[0],
            "webhooks"
        );
        assert_eq!(paths(&i, &query("bearer token", 5))[0], "auth");
        assert_eq!(paths(&i, &query("page size", 5))[0], "config");
        assert_eq!(paths(&i, &query("retrievalPageSize", 5))[0], "config");
        assert!(paths(&i, &query("kubernetes", 5)).is_empty());
    }

    #[test]
    fn filters_and_boosts_apply() {
        let i = index();
        let v1 = Query {
            version: Some("v1".into()),
            ..query("rate limits", 5)
        };
        assert_eq!(paths(&i, &v1), ["old-limits"]);
        let boosted = i.rank(&Query {
            boost_paths: vec!["old-limits".into()],
            ..query("rate limits", 5)
        });
        assert_eq!(i.section(boosted[0].section).path, "old-limits");
    }

    #[test]
    fn limit_bounds_the_results() {
        let i = index();
        assert_eq!(i.rank(&query("limits header", 1)).len(), 1);
        assert!(i.rank(&query("limits", 0)).is_empty());
    }

    #[test]
    fn an_index_in_segments_ranks_as_one_index_of_the_same_sections() {
        let sections = [
            section(
                "auth",
                "Authentication",
                "Send your API key as a bearer token.",
                None,
            ),
            section(
                "hooks",
                "Webhooks",
                "Verify the signature header. Retries back off.",
                None,
            ),
            section(
                "limits",
                "Rate limits",
                "Requests are limited per hour.",
                Some("v2"),
            ),
            section(
                "old",
                "Rate limits",
                "Requests are limited to 100 per hour.",
                Some("v1"),
            ),
            section(
                "keys",
                "API keys",
                "Rotate your API key; requests carry the key.",
                None,
            ),
        ];
        let segment = |part: &[Section]| {
            let mut builder = IndexBuilder::new();
            part.iter().cloned().for_each(|s| builder.add_section(s));
            builder.to_bytes().unwrap()
        };
        let whole = Index::from_bytes(&segment(&sections)).unwrap();
        let parts = [
            segment(&sections[..2]),
            segment(&sections[2..3]),
            segment(&sections[3..]),
        ];
        {
            let split = Index::from_segments(&parts).unwrap();
            assert_eq!(split.len(), whole.len());
            for text in [
                "api key requests",
                "rate limits per hour",
                "signature",
                "nothing",
            ] {
                let q = query(text, 5);
                assert_eq!(split.rank(&q), whole.rank(&q), "{text}");
            }
        }
        // Segments of two formats are not one index.
        let mut older: Stored = postcard::from_bytes(&parts[0]).unwrap();
        older.format = 1;
        let mixed = [postcard::to_allocvec(&older).unwrap(), parts[1].clone()];
        assert!(Index::from_segments(&mixed).is_err());
        // A posting naming a section its segment lacks is damage, not a panic later.
        let mut broken: Stored = postcard::from_bytes(&parts[1]).unwrap();
        broken.terms[0].1.push((7, 1));
        assert!(Index::from_segments(&[postcard::to_allocvec(&broken).unwrap()]).is_err());
    }

    #[test]
    fn garbage_is_not_an_index() {
        assert!(Index::from_bytes(b"nope").is_err());
        assert!(Index::from_bytes(&[]).is_err());
        assert!(SegmentFacts::check(b"nope").is_err());
    }

    #[test]
    fn a_segment_checked_alone_is_what_loading_it_finds() {
        let mut builder = IndexBuilder::new();
        builder.add_section(section("a", "A", "alpha", None));
        builder.add_section(section("b", "B", "beta", None));
        let bytes = builder.to_bytes().unwrap();
        let facts = SegmentFacts::check(&bytes).unwrap();
        assert_eq!(
            facts,
            SegmentFacts {
                format: FORMAT,
                sections: 2
            }
        );
        assert_eq!(check_together(&[facts, facts]), Ok(Some(FORMAT)));
        assert_eq!(check_together(&[]), Ok(None));
        // Segments of two formats are refused together, as loading them is.
        let older = SegmentFacts {
            format: OLDEST_FORMAT,
            ..facts
        };
        assert!(FORMAT == OLDEST_FORMAT || check_together(&[facts, older]).is_err());
        // A posting naming a section the segment lacks is refused, checked or loaded.
        let mut stored: Stored = postcard::from_bytes(&bytes).unwrap();
        stored.terms[0].1.push((7, 1));
        let damaged = postcard::to_allocvec(&stored).unwrap();
        assert!(SegmentFacts::check(&damaged).is_err());
        assert!(Index::from_bytes(&damaged).is_err());
    }

    fn in_language(path: &str, text: &str, language: &str) -> Section {
        Section {
            language: Some(language.into()),
            ..section(path, path, text, None)
        }
    }

    fn multilingual() -> Index {
        let mut builder = IndexBuilder::new();
        builder.add_section(in_language(
            "es/config",
            "Las configuraciones se guardan en el servidor.",
            "es",
        ));
        builder.add_section(in_language(
            "en/config",
            "Settings are saved on the server.",
            "en",
        ));
        builder.add_section(in_language("zh/search", "快速检索所有文档。", "zh"));
        Index::from_bytes(&builder.to_bytes().unwrap()).unwrap()
    }

    #[test]
    fn sections_are_found_in_their_own_language() {
        let i = multilingual();
        let spanish = Query {
            language: Some("es".into()),
            ..query("¿Cómo configurar?", 5)
        };
        assert_eq!(paths(&i, &spanish), ["es/config"]);
        // Open to every language, the query is read in each language of the index.
        assert_eq!(paths(&i, &query("configurar", 5)), ["es/config"]);
        assert_eq!(paths(&i, &query("文档", 5)), ["zh/search"]);
        assert_eq!(paths(&i, &query("saved settings", 5)), ["en/config"]);
    }

    #[test]
    fn an_index_of_the_previous_format_is_still_searched_as_english() {
        let mut builder = IndexBuilder::new();
        builder.add_section(in_language("es/config", "configuraciones", "es"));
        builder.add_section(in_language("en/hooks", "Webhooks are retried.", "en"));
        let mut stored: Stored = postcard::from_bytes(&builder.to_bytes().unwrap()).unwrap();
        // What format 1 wrote: the same layout, every section's words as English.
        stored.format = 1;
        let english = Tokenizer::new();
        stored.terms = {
            let mut terms: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
            for (id, s) in stored.sections.iter().enumerate() {
                for t in english.collect(&s.text) {
                    terms.entry(t).or_default().push((id as u32, 1));
                }
            }
            terms.into_iter().collect()
        };
        let old = Index::from_bytes(&postcard::to_allocvec(&stored).unwrap()).unwrap();
        assert_eq!(paths(&old, &query("retries", 5)), ["en/hooks"]);
        // Its Spanish words were English-stemmed; so is the query, whatever its language.
        let spanish = Query {
            language: Some("es".into()),
            ..query("configuraciones", 5)
        };
        assert_eq!(paths(&old, &spanish), ["es/config"]);
        stored.format = FORMAT + 1;
        let newer = postcard::to_allocvec(&stored).unwrap();
        let refused = Index::from_bytes(&newer).err().unwrap_or_default();
        assert!(refused.contains("publish the site again"), "{refused}");
    }
}
