//! A content version's vocabulary: in how many of its sections each word appears, counted at
//! publish time beside the search index. The built-in answer weighs a question's words by it: a
//! word the whole site uses everywhere says little about what is asked, and a word the site
//! never uses is usually what the documentation cannot answer ("Rust" on a Node.js platform's
//! docs). Weighing by the few sections retrieved instead gives such a word, and any word of the
//! question's phrasing the sections happen to miss ("big", "another"), the most weight of all.
//!
//! It belongs to the answer, not to the retriever: it holds whatever retriever an operator
//! selects.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

/// Version of the stored form; a vocabulary of another version is not read (answers then weigh
/// words by the retrieved sections, as before there was one).
const FORMAT: u32 = 1;

/// Word counts of a content version's sections.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Vocabulary {
    format: u32,
    /// Sections counted.
    sections: u32,
    /// For each word (`words`), the sections that use it. Written in word order, so that one
    /// version's vocabulary is always the same bytes (a bundle ships it in content-defined
    /// chunks, which must not change when nothing did).
    #[serde(serialize_with = "in_word_order")]
    counts: HashMap<String, u32>,
}

fn in_word_order<S: serde::Serializer>(
    counts: &HashMap<String, u32>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(counts.iter().collect::<std::collections::BTreeMap<_, _>>())
}

/// Why stored bytes are no vocabulary.
#[derive(Debug, thiserror::Error)]
pub enum VocabularyError {
    #[error("not a vocabulary: {0}")]
    Malformed(#[from] serde_json::Error),
    #[error("vocabulary format {0} is not read by this version (it reads {FORMAT})")]
    OtherFormat(u32),
}

impl Vocabulary {
    /// An empty vocabulary.
    pub fn new() -> Self {
        Self {
            format: FORMAT,
            ..Self::default()
        }
    }

    /// Counts one section's text (its headings included).
    pub fn add_section(&mut self, text: &str) {
        self.sections += 1;
        for word in words(text) {
            *self.counts.entry(word).or_default() += 1;
        }
    }

    /// Adds the counts of `other`, a vocabulary of other sections (a segment of the index's).
    pub fn absorb(&mut self, other: Vocabulary) {
        self.sections += other.sections;
        for (word, count) in other.counts {
            *self.counts.entry(word).or_default() += count;
        }
    }

    /// Sections counted.
    pub fn sections(&self) -> u32 {
        self.sections
    }

    /// How telling `word` (as `words` gives it) is: the smoothed inverse share of sections
    /// that use it, highest for a word no section uses.
    pub fn rarity(&self, word: &str) -> f32 {
        let using = self.counts.get(word).copied().unwrap_or(0) as f32;
        (1.0 + self.sections as f32 / (1.0 + using)).ln()
    }

    /// The stored form.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Serializing a map of strings to numbers cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads the stored form.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, VocabularyError> {
        let vocabulary: Self = serde_json::from_slice(bytes)?;
        if vocabulary.format != FORMAT {
            return Err(VocabularyError::OtherFormat(vocabulary.format));
        }
        Ok(vocabulary)
    }
}

/// The distinct words of `text` as answers compare them: `normalised`, each reduced to its English
/// stem (Snowball, as the default retriever stems English pages), so that
/// "retries"/"retried"/"retrying" meet "retry" and "saved" meets "save".
pub fn words(text: &str) -> HashSet<String> {
    normalised(text)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(stem)
        .collect()
}

/// A word's English stem, as server-side search stems English pages.
pub fn stem(word: &str) -> String {
    quire_core::tokens::stem_english(word)
}

/// The words of `text` for comparing sentences: lower case, letters and digits only, except
/// that a dot between digits stays (`v0.2.95`, `1.5`): a version or a decimal is one word, so
/// "Windows 95" does not meet "v0.2.95".
pub fn normalised(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let in_word = |i: usize| {
        let c = chars[i];
        c.is_alphanumeric()
            || (c == '.'
                && i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(char::is_ascii_digit))
    };
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    for (i, c) in chars.iter().enumerate() {
        if in_word(i) {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_decimals_are_one_word() {
        assert_eq!(
            normalised("LangGraph Server v0.2.95: 1.5x faster, Windows 95."),
            "langgraph server v0.2.95 1.5x faster windows 95"
        );
    }

    #[test]
    fn a_word_no_section_uses_is_the_rarest_and_one_every_section_uses_the_least() {
        let mut vocabulary = Vocabulary::new();
        vocabulary.add_section("Tasks run on Node.js. Tasks retry.");
        vocabulary.add_section("Retrying a task: set retries.");
        vocabulary.add_section("Deploy your tasks.");
        let [task, retry, deploy, rust] =
            ["tasks", "retries", "deploy", "rust"].map(|w| vocabulary.rarity(&stem(w)));
        assert!(
            rust > deploy && deploy > retry && retry > task,
            "{rust} {deploy} {retry} {task}"
        );
        assert_eq!(vocabulary.sections(), 3);
    }

    #[test]
    fn vocabularies_of_segments_absorbed_count_as_one_of_all_their_sections() {
        let texts = [
            "Tasks run on Node.js.",
            "Retrying a task.",
            "Deploy your tasks.",
        ];
        let mut whole = Vocabulary::new();
        texts.iter().for_each(|t| whole.add_section(t));
        let (mut first, mut second) = (Vocabulary::new(), Vocabulary::new());
        first.add_section(texts[0]);
        texts[1..].iter().for_each(|t| second.add_section(t));
        first.absorb(second);
        assert_eq!(first.to_bytes(), whole.to_bytes());
    }

    #[test]
    fn the_stored_form_reads_back_and_another_format_is_refused() {
        let mut vocabulary = Vocabulary::new();
        vocabulary.add_section("Machines have 0.5 GB of RAM.");
        let read = Vocabulary::from_bytes(&vocabulary.to_bytes()).expect("reads back");
        assert_eq!(read.rarity("ram"), vocabulary.rarity("ram"));
        assert_eq!(
            read.to_bytes(),
            vocabulary.to_bytes(),
            "always the same bytes"
        );
        let json = String::from_utf8(vocabulary.to_bytes()).expect("JSON");
        assert!(
            json.find("\"0.5\"") < json.find("\"ram\""),
            "in word order: {json}"
        );
        assert!(Vocabulary::from_bytes(b"not json").is_err());
        let other = br#"{"format": 99, "sections": 1, "counts": {}}"#;
        assert!(matches!(
            Vocabulary::from_bytes(other),
            Err(VocabularyError::OtherFormat(99))
        ));
    }
}
