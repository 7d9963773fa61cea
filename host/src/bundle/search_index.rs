//! The bundle's offline search index: the same sections the retriever indexes, as script files
//! a page loads on demand (so search works from `file://`, with no server).
//!
//! BM25 is split between build and query time: each posting carries its term's length-normalised
//! weight `tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))`, so the browser only multiplies by the
//! term's IDF, which it derives from the document frequency stored first in each list. A term
//! found in very many sections keeps only its highest-weighted postings (its IDF is low, so the
//! rest could only reorder weak matches), which bounds every list. Terms are spread over shards
//! by a hash and documents over small chunks, so a query loads `search/index.js`, one shard per
//! query word and the chunks of the results it shows: tens of kilobytes whatever the size of
//! the site. `assets/search.js` is the other half and must tokenize the same way.

use std::sync::Arc;

use serde_json::json;

use super::counted_section::SectionParts;
pub use super::counted_section::{CountedSection, SearchDocument, StoredSection};
use super::group_postings::GroupPostings;
use super::merged_postings::{MergedPostings, ShardSet, TermTotals};
pub use super::search_chunks::ChunkWriter;
pub(super) use super::search_chunks::document_json;
use super::search_chunks::{DOCS_PER_CHUNK, Numbering, data_file};
use super::shard_keys::ShardSources;
#[cfg(test)]
use super::term_shards::push_json_string;
pub use super::term_shards::shard_of;
use super::term_shards::{self, Lengths, ShardMemo};

/// Postings a term shard aims to hold; the shard count grows with the index.
const POSTINGS_PER_SHARD: usize = 4_000;
const MAX_SHARDS: usize = 4_096;

/// Collects sections during an export. Document chunks are written as they fill (a large
/// site's documents would otherwise be most of the export's memory), by its own
/// [`ChunkWriter`] or, where documents and postings are collected on different threads, by
/// the caller's; the term shards and the index header at the end, when every document's length
/// is known.
///
/// Groups' postings are merged as they come until a group kept from an earlier export comes:
/// from there on the index is most likely an earlier one with a small change, most of whose
/// term shards are kept too, so the groups from there are merged at the end, and only for the
/// terms of the shards to write.
#[derive(Default)]
pub struct SearchIndexBuilder {
    /// The sections' numbers (`search_chunks` says how pages and groups are numbered).
    numbering: Numbering,
    /// Documents added so far.
    documents: usize,
    /// The chunks of the documents added with [`SearchIndexBuilder::add_counted`].
    chunks: ChunkWriter,
    /// The groups merged so far, every term of them.
    merged: MergedPostings,
    /// Every term's postings in all the groups added.
    totals: TermTotals,
    lengths: Vec<u32>,
    /// The sum of `lengths`, for the running average length a pruning weighs postings by.
    total_length: u64,
    /// The groups added, for the shards' keys, and the running average after each.
    sources: ShardSources,
    averages: Vec<f64>,
    /// The first group not merged yet, once a kept group has come.
    merged_until: Option<usize>,
    /// Where shards' files are kept between exports: the process's memo unless a test gives
    /// its own.
    kept_shards: Option<&'static ShardMemo>,
}

/// The index's files and how many of its term shards there are and were kept.
pub struct IndexFiles {
    /// (path, contents), the term shards and header (and the last chunk of documents, where
    /// the builder wrote them).
    pub files: Vec<(String, Vec<u8>)>,
    pub shards: usize,
    pub shards_kept: usize,
}

impl SearchIndexBuilder {
    pub fn add(&mut self, document: SearchDocument) {
        self.add_counted(CountedSection::of(document));
    }

    /// Adds a section whose terms are counted already.
    pub fn add_counted(&mut self, section: CountedSection) {
        let parts = section.parts();
        self.add_postings(&parts);
        self.chunks.push(parts.document);
    }

    /// Adds a section's postings, its document written elsewhere (by a [`ChunkWriter`] given
    /// the same sections in the same order).
    pub(super) fn add_postings(&mut self, section: &SectionParts<'_>) {
        self.add_group(&Arc::new(GroupPostings::of_section(section)), false);
    }

    /// A builder keeping its shards' files in `memo`.
    #[cfg(test)]
    pub(super) fn with_shard_memo(memo: &'static ShardMemo) -> Self {
        Self {
            kept_shards: Some(memo),
            ..Self::default()
        }
    }

    /// Adds the postings of `group`, the next group of sections in the site's order, their
    /// documents written elsewhere (by a [`ChunkWriter`] given the same sections in the same
    /// order); `kept` says it was kept from an earlier export.
    pub(super) fn add_group(&mut self, group: &Arc<GroupPostings>, kept: bool) {
        let first = self.numbering.next() as u32;
        if kept && self.merged_until.is_none() {
            self.merged_until = Some(self.averages.len());
        }
        self.sources.add(group, first);
        let lengths = group.lengths();
        self.numbering.take(lengths.len());
        self.documents += group.documents();
        self.lengths.extend_from_slice(lengths);
        self.total_length += lengths.iter().map(|&l| u64::from(l)).sum::<u64>();
        let average = self.total_length as f64 / self.documents.max(1) as f64;
        self.averages.push(average);
        self.totals.add(group);
        if self.merged_until.is_none() {
            self.merged.add(group, first, &self.lengths, average, None);
        }
    }

    /// Ends the page whose sections were added one by one since the last call: the next
    /// page's are numbered from the end of its range, as [`ChunkWriter::end_page`] numbers
    /// its documents. A group of pages added at once comes with its pages' ranges.
    #[cfg(test)]
    pub(super) fn end_page(&mut self) {
        let next = self.numbering.end_page();
        // The numbers with no section have no length; no posting names them.
        self.lengths.resize(next, 0);
        self.chunks.end_page();
    }

    /// Ends the group of pages added since the last call: the next group's sections are
    /// numbered from the end of its range, as [`ChunkWriter::end_group`] numbers its
    /// documents.
    pub(super) fn end_group(&mut self) {
        let next = self.numbering.end_group();
        self.lengths.resize(next, 0);
        self.chunks.end_group();
    }

    pub fn is_empty(&self) -> bool {
        self.documents == 0
    }

    /// The document chunk files written since the last call, as (path, contents).
    pub fn take_ready(&mut self) -> Vec<(String, Vec<u8>)> {
        self.chunks.take_ready()
    }

    /// The rest of the index files: the last chunk, the term shards and the header.
    pub fn finish(mut self) -> IndexFiles {
        let count = self.documents;
        let shards = self
            .totals
            .listed()
            .div_ceil(POSTINGS_PER_SHARD)
            .clamp(1, MAX_SHARDS);
        let mean = self.total_length as f64 / count.max(1) as f64;
        let average = term_shards::weighing_average(mean);

        let pruned = self.totals.pruned_shards(shards);
        let keys = self.sources.keys(shards, average, &pruned);
        let memo = self.kept_shards.unwrap_or_else(term_shards::process_memo);
        let kept = term_shards::kept(memo, &keys);
        let shards_kept = kept.iter().flatten().count();
        let to_write: Vec<bool> = kept.iter().map(Option::is_none).collect();
        let to_write = ShardSet {
            marked: &to_write,
            shards,
        };
        if let Some(from) = self.merged_until {
            let groups = self.sources.groups().iter().skip(from);
            for ((group, first), &average) in groups.zip(&self.averages[from..]) {
                self.merged
                    .add(group, *first, &self.lengths, average, Some(&to_write));
            }
        }
        // Each shard's JSON object written as text: a `serde_json::Value` per number would
        // take several times the memory of the index, which for a large site is most of the
        // export's.
        let lengths = Lengths {
            lengths: &self.lengths,
            average,
        };
        let placed = self.merged.placed(&to_write);
        let wrap = |number: usize, body: &str| script(&format!("t{number}"), &[body, "}"]);
        let by_shard = term_shards::write(
            memo,
            kept,
            &placed,
            self.merged.postings(),
            &lengths,
            &keys,
            &wrap,
        );

        let mut files = Vec::with_capacity(shards + count / DOCS_PER_CHUNK + 2);
        let meta = json!({
            "documents": count,
            "shards": shards,
            "chunk": DOCS_PER_CHUNK,
        });
        files.push((
            "search/index.js".to_string(),
            script("meta", &[&meta.to_string()]),
        ));
        for (i, file) in by_shard.into_iter().enumerate() {
            files.push((format!("search/t{i}.js"), file.to_vec()));
        }
        files.extend(std::mem::take(&mut self.chunks).finish());
        IndexFiles {
            files,
            shards,
            shards_kept,
        }
    }
}

/// A data file of the JSON text that `parts` make: a call the search script has set up, so
/// it loads as a `<script>`.
pub(super) fn script(name: &str, parts: &[&str]) -> Vec<u8> {
    let safe: Vec<String> = parts
        .iter()
        .map(|part| part.replace('<', "\\u003c"))
        .collect();
    let safe: Vec<&[u8]> = safe.iter().map(|part| part.as_bytes()).collect();
    data_file(name, &safe)
}

#[cfg(test)]
mod tests {
    use super::super::merged_postings::PRUNE_AT;
    use super::super::term_shards::MAX_POSTINGS;
    use super::*;

    #[test]
    fn the_stemmer_folds_plurals() {
        let words: Vec<String> =
            quire_core::tokens::browser::tokens("Webhooks queries Status boxes class, API keys")
                .collect();
        assert_eq!(
            words,
            ["webhook", "query", "status", "boxe", "class", "api", "key"]
        );
    }

    #[test]
    fn shards_match_the_browser_hash() {
        // FNV-1a 32 of "webhook" is 0xa0ebd926 (computed independently in JavaScript).
        assert_eq!(shard_of("webhook", usize::MAX), 0xa0eb_d926);
        assert!(shard_of("é", 7) < 7);
    }

    #[test]
    fn files_hold_every_term_and_document() {
        let mut builder = SearchIndexBuilder::default();
        for i in 0..100 {
            builder.add(SearchDocument {
                path: format!("p{i}"),
                anchor: if i % 2 == 0 {
                    String::new()
                } else {
                    "a".into()
                },
                trail: vec![format!("Page {i}"), "Retry".into()],
                text: format!("webhooks retry after failure number{i}"),
                scope: "/".into(),
            });
        }
        let files = builder.finish().files;
        let names: Vec<_> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"search/index.js"));
        assert_eq!(
            names.iter().filter(|n| n.starts_with("search/d")).count(),
            100usize.div_ceil(DOCS_PER_CHUNK)
        );
        let all: String = files
            .iter()
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .collect();
        assert!(all.contains("\"number42\""));
        assert!(all.contains("\"p1.html#a\""));
        assert!(
            all.contains("\"number42\":[1,42,"),
            "df first, then the delta"
        );
    }

    /// A builder given `documents` sections that all hold `term`, the one at `strong` four
    /// times; `after_each` looks at the builder after each one.
    fn holding_everywhere(
        term: &str,
        documents: usize,
        strong: usize,
        after_each: impl Fn(&SearchIndexBuilder),
    ) -> SearchIndexBuilder {
        let mut builder = SearchIndexBuilder::default();
        for i in 0..documents {
            let text = if i == strong {
                format!("{term} {term} {term} {term}")
            } else {
                format!("{term} filler words here and there {i}")
            };
            builder.add(SearchDocument {
                path: format!("p{i}"),
                anchor: String::new(),
                trail: vec![],
                text,
                scope: "/".into(),
            });
            after_each(&builder);
        }
        builder
    }

    /// `term`'s list in the index files: its document frequency, then the documents kept.
    fn postings_of(files: &[(String, Vec<u8>)], term: &str) -> (u64, Vec<u64>) {
        let shards = files
            .iter()
            .filter(|(n, _)| n.starts_with("search/t"))
            .count();
        let shard = format!("t{}", shard_of(term, shards));
        let (_, text) = files
            .iter()
            .find(|(n, _)| *n == format!("search/{shard}.js"))
            .expect("its shard");
        let text = String::from_utf8_lossy(text);
        let json = text
            .trim_start_matches(&format!("QUIRE_SEARCH_DATA(\"{shard}\","))
            .trim_end()
            .trim_end_matches(");");
        let terms: serde_json::Value = serde_json::from_str(json).expect("a shard's JSON");
        let list: Vec<u64> = terms[term]
            .as_array()
            .expect("the term")
            .iter()
            .map(|n| n.as_u64().expect("a number"))
            .collect();
        let mut doc = 0;
        let kept = list[1..]
            .chunks(2)
            .map(|pair| {
                doc += pair[0];
                doc
            })
            .collect();
        (list[0], kept)
    }

    #[test]
    fn a_term_in_very_many_documents_is_pruned_as_it_goes_and_keeps_its_count() {
        let documents = PRUNE_AT * 2 + 10;
        let builder = holding_everywhere("gadget", documents, documents - 3, |builder| {
            let gadget = builder.merged.of("gadget").expect("merged as it comes");
            assert!(gadget.list.len() < PRUNE_AT);
        });
        let files = builder.finish().files;
        let (df, kept) = postings_of(&files, "gadget");
        assert_eq!(df as usize, documents, "the true document frequency");
        assert_eq!(kept.len(), MAX_POSTINGS);
        // The one document that says it four times is among those kept.
        assert!(kept.contains(&((documents - 3) as u64)));
        // Document chunks were handed out as they filled: all of them are there.
        let chunks = files
            .iter()
            .filter(|(n, _)| n.starts_with("search/d"))
            .count();
        assert_eq!(chunks, documents.div_ceil(DOCS_PER_CHUNK));
    }

    proptest::proptest! {
        /// A term is written as `serde_json` writes the string, escapes and all.
        #[test]
        fn terms_are_written_as_json_strings(text in "(\\PC|[\"\\\\\\x00-\\x1f\\x7f])*") {
            let mut out = String::new();
            push_json_string(&mut out, &text);
            proptest::prop_assert_eq!(out, serde_json::Value::String(text).to_string());
        }
    }

    #[test]
    fn common_terms_keep_their_best_postings_only() {
        let files = holding_everywhere("widget", MAX_POSTINGS + 500, 7, |_| {})
            .finish()
            .files;
        let (df, kept) = postings_of(&files, "widget");
        assert_eq!(
            df,
            (MAX_POSTINGS + 500) as u64,
            "the true document frequency"
        );
        assert_eq!(kept.len(), MAX_POSTINGS);
        assert!(kept.contains(&7));
    }
}
