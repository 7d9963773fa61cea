//! One section made ready for the offline search index (`search_index`): its terms counted and
//! its result's text cut, work that needs nothing of the rest of the site and so runs on any
//! thread. Kept in a page's summary in its stored form (postcard), which the index's thread
//! reads in place: its text is borrowed from the stored bytes rather than made into strings.

use quire_core::tokens::browser::each_token;
use rustc_hash::FxBuildHasher;

/// A map with rustc's fast hash: terms are hashed once per word of every section, and nothing
/// here faces keys but page text, whose worst case only slows the export.
pub(super) type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuildHasher>;

/// Heading words count this many times over body words.
const TITLE_BOOST: u32 = 3;
/// Characters of a section's text kept for the result's excerpt.
const EXCERPT_CHARS: usize = 160;

/// Per document: (path#anchor, title, trail, excerpt, scope).
type Document = (String, String, String, String, String);
/// A [`Document`] borrowed, as the index writes it.
pub(super) type DocumentRef<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

/// One searchable section.
pub struct SearchDocument {
    /// The page path (no extension).
    pub path: String,
    pub anchor: String,
    /// Page title down to the section's heading.
    pub trail: Vec<String>,
    pub text: String,
    /// The page's version and language as `version/language` (either may be empty); the search
    /// box shows a reader results of their own version and language, and of unscoped pages.
    pub scope: String,
}

/// A section made ready for the index: its terms counted and its result's text cut (an export
/// does it on the threads that take pages from the render cache), leaving
/// [`super::SearchIndexBuilder::add_counted`] only the postings to append.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct CountedSection {
    document: Document,
    /// The section's distinct terms, one after another.
    terms: String,
    /// (end of the term in `terms`, its frequency), in the order of `terms`.
    counts: Vec<(u32, u32)>,
    /// Tokens in the section, headings included.
    length: u32,
}

impl CountedSection {
    pub fn of(document: SearchDocument) -> Self {
        // Every token into one buffer first (tokens are never longer than their words), then
        // counted by a map over the finished buffer, in the order terms first appear.
        let words = document.text.len() + document.trail.iter().map(String::len).sum::<usize>();
        let mut tokens = String::with_capacity(words);
        let mut spans: Vec<(u32, u32, u32)> = Vec::with_capacity(words / 4);
        let mut push = |token: &str, weight: u32| {
            let start = tokens.len() as u32;
            tokens.push_str(token);
            spans.push((start, tokens.len() as u32, weight));
        };
        for heading in &document.trail {
            each_token(heading, |token| push(token, TITLE_BOOST));
        }
        each_token(&document.text, |token| push(token, 1));
        let length = spans.len() as u32;
        let mut distinct: FxHashMap<&str, usize> =
            FxHashMap::with_capacity_and_hasher(spans.len(), Default::default());
        let mut terms = String::with_capacity(tokens.len());
        let mut counts: Vec<(u32, u32)> = Vec::with_capacity(spans.len());
        for &(start, end, weight) in &spans {
            let term = &tokens[start as usize..end as usize];
            match distinct.get(term) {
                Some(&at) => counts[at].1 += weight,
                None => {
                    distinct.insert(term, counts.len());
                    terms.push_str(term);
                    counts.push((terms.len() as u32, weight));
                }
            }
        }
        let title = document.trail.last().cloned().unwrap_or_default();
        let trail = document
            .trail
            .iter()
            .take(document.trail.len().saturating_sub(1))
            .cloned()
            .collect::<Vec<_>>()
            .join(" › ");
        let href = if document.anchor.is_empty() {
            format!("{}.html", document.path)
        } else {
            format!("{}.html#{}", document.path, document.anchor)
        };
        Self {
            document: (href, title, trail, excerpt(&document.text), document.scope),
            terms,
            counts,
            length,
        }
    }
}

/// A [`CountedSection`] read in place out of its stored form: the same fields, its text
/// borrowed from the stored bytes.
#[derive(serde::Deserialize)]
pub struct StoredSection<'a> {
    #[serde(borrow)]
    document: DocumentRef<'a>,
    terms: &'a str,
    counts: Vec<(u32, u32)>,
    length: u32,
}

/// What the index takes of a section, owned or stored alike.
pub(super) struct SectionParts<'a> {
    pub document: DocumentRef<'a>,
    pub terms: &'a str,
    pub counts: &'a [(u32, u32)],
    pub length: u32,
}

impl CountedSection {
    pub(super) fn parts(&self) -> SectionParts<'_> {
        let (href, title, trail, excerpt, scope) = &self.document;
        SectionParts {
            document: (href, title, trail, excerpt, scope),
            terms: &self.terms,
            counts: &self.counts,
            length: self.length,
        }
    }
}

impl StoredSection<'_> {
    pub(super) fn parts(&self) -> SectionParts<'_> {
        SectionParts {
            document: self.document,
            terms: self.terms,
            counts: &self.counts,
            length: self.length,
        }
    }
}

/// The start of a section's text as a result shows it: the fence lines around code blocks
/// (see `quire_core::sections::push_code`) left out, white space collapsed, cut at
/// `EXCERPT_CHARS` with an ellipsis. Only as much of the text is read as the excerpt shows.
fn excerpt(text: &str) -> String {
    let words = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("```"))
        .flat_map(str::split_whitespace);
    let mut out = String::new();
    let mut chars = 0;
    for word in words {
        if chars > 0 {
            out.push(' ');
            chars += 1;
        }
        out.push_str(word);
        chars += word.chars().count();
        if chars > EXCERPT_CHARS {
            break;
        }
    }
    if chars > EXCERPT_CHARS {
        let cut = out
            .char_indices()
            .nth(EXCERPT_CHARS)
            .map_or(out.len(), |(at, _)| at);
        out.truncate(cut);
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_leave_out_code_fences() {
        assert_eq!(
            excerpt("Run this:\n```bash\nnpm i  acme\n```\n then log in."),
            "Run this: npm i acme then log in."
        );
    }

    proptest::proptest! {
        /// The excerpt reads only as far as it shows, and is what collapsing the whole text
        /// and cutting it would give.
        #[test]
        fn an_excerpt_is_the_collapsed_text_cut(text in "(\\PC{0,12}[ \n]{0,3}(```)?){0,40}") {
            let whole = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("```"))
                .flat_map(str::split_whitespace)
                .collect::<Vec<_>>()
                .join(" ");
            let mut expected: String = whole.chars().take(EXCERPT_CHARS).collect();
            if whole.chars().count() > EXCERPT_CHARS {
                expected.push('…');
            }
            proptest::prop_assert_eq!(excerpt(&text), expected);
        }
    }

    #[test]
    fn a_stored_section_reads_back_in_place_as_counted() {
        let counted = CountedSection::of(SearchDocument {
            path: "guides/webhooks".into(),
            anchor: "retries".into(),
            trail: vec!["Webhooks".into(), "Retries".into()],
            text: "Retries happen three times, then webhooks stop.".into(),
            scope: "v2/".into(),
        });
        let stored = postcard::to_allocvec(&vec![counted]).expect("stores");
        let read: Vec<StoredSection<'_>> = postcard::from_bytes(&stored).expect("reads");
        let counted: Vec<CountedSection> = postcard::from_bytes(&stored).expect("reads owned");
        let (a, b) = (read[0].parts(), counted[0].parts());
        assert_eq!(a.document, b.document);
        assert_eq!((a.terms, a.counts, a.length), (b.terms, b.counts, b.length));
        assert_eq!(a.document.0, "guides/webhooks.html#retries");
    }
}
