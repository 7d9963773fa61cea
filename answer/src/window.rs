//! When no single sentence answers, a best-ranked section may still answer as a whole: its
//! heading names the subject ("Step 1: Install Ollama"), a table row gives the flag, the next
//! sentence gives the value. Such a section is quoted as a window of consecutive sentences, the
//! few that cover most of the question, rather than refused. It is held to more than a
//! sentence: the section must cover most of the question's weight, its heaviest word included,
//! so that a question the docs cannot answer is still refused.

use std::collections::{HashMap, HashSet};

use super::text::{Split, looks_like_code};
use super::{covered, heaviest_term};

/// Sections considered, in rank order: the search's confidence is what this trusts.
const SECTIONS: usize = 2;
/// The share of the question's weight a section must cover, heading and text together.
pub const SECTION_EVIDENCE: f32 = 0.75;
/// A window holds at most this many sentences and words.
const WINDOW_SENTENCES: usize = 3;
const WINDOW_WORDS: usize = 90;

/// A window of a section to quote.
#[derive(Debug, PartialEq)]
pub struct Window {
    /// The section's index in the answer's input.
    pub section: usize,
    /// Positions of the sentences quoted, in order.
    pub positions: Vec<usize>,
}

/// The window to quote, if a best-ranked section covers `SECTION_EVIDENCE` of the question
/// (`weights`, summing to `total`) and its heaviest term. `terms` reduces text to question
/// terms; `headings` are the sections' heading trails, joined.
pub fn best_window(
    splits: &[Split],
    headings: &[String],
    weights: &HashMap<String, f32>,
    total: f32,
    terms: impl Fn(&str) -> HashSet<String>,
) -> Option<Window> {
    let (subject, _) = heaviest_term(weights)?;
    let none = HashSet::new();
    let weight_of = |terms: &HashSet<String>| covered(terms, weights, &none);
    for (section, split) in splits.iter().enumerate().take(SECTIONS) {
        let heading_terms = terms(&headings[section]);
        let sentence_terms: Vec<HashSet<String>> =
            split.sentences.iter().map(|s| terms(s)).collect();
        let mut all = heading_terms.clone();
        for t in &sentence_terms {
            all.extend(t.iter().cloned());
        }
        for block in &split.code {
            all.extend(terms(&block.code));
        }
        if weight_of(&all) / total < SECTION_EVIDENCE || !all.contains(subject) {
            continue;
        }
        // The window of prose sentences that, with the heading, covers most of the question.
        let mut best: Option<(f32, Vec<usize>)> = None;
        for start in 0..split.sentences.len() {
            let mut covering = heading_terms.clone();
            let mut positions: Vec<usize> = Vec::new();
            let mut words = 0;
            for (i, sentence) in split
                .sentences
                .iter()
                .enumerate()
                .skip(start)
                .take(WINDOW_SENTENCES)
            {
                let count = sentence.split_whitespace().count();
                if words + count > WINDOW_WORDS || looks_like_code(sentence) {
                    break;
                }
                // A sentence the window already quotes (written twice in a row) is not quoted
                // again.
                if positions.iter().any(|&p| split.sentences[p] == *sentence) {
                    continue;
                }
                words += count;
                covering.extend(sentence_terms[i].iter().cloned());
                positions.push(i);
                let score = weight_of(&covering);
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, positions.clone()));
                }
            }
        }
        if let Some((_, positions)) = best {
            return Some(Window { section, positions });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::text::split;
    use super::*;

    fn terms(text: &str) -> HashSet<String> {
        text.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 2)
            .map(String::from)
            .collect()
    }

    fn weights(words: &[(&str, f32)]) -> (HashMap<String, f32>, f32) {
        let weights: HashMap<String, f32> =
            words.iter().map(|(w, x)| (w.to_string(), *x)).collect();
        let total = weights.values().sum();
        (weights, total)
    }

    #[test]
    fn a_section_that_answers_as_a_whole_is_quoted_where_it_answers() {
        let splits = [split(
            "Ollama runs models locally. Download it for your system. On a Mac run brew install ollama. Then pull a model.",
        )];
        let headings = ["Guide Step 1: Install Ollama".to_string()];
        let (weights, total) = weights(&[("install", 1.0), ("ollama", 1.0), ("mac", 2.0)]);
        let window = best_window(&splits, &headings, &weights, total, terms).unwrap();
        assert_eq!(window.section, 0);
        assert!(window.positions.contains(&2), "{window:?}");
        assert!(window.positions.len() <= WINDOW_SENTENCES);
    }

    #[test]
    fn a_sentence_written_twice_is_quoted_once() {
        let splits = [split(
            "Deploy the app to a region. Keys are kept. Keys are kept. Install the CLI:",
        )];
        let headings = ["Keys".to_string()];
        // The window that covers both words starts at the first "Keys are kept."
        let (weights, total) = weights(&[("cli", 1.0), ("keys", 1.0)]);
        let window = best_window(&splits, &headings, &weights, total, terms).unwrap();
        let quoted: Vec<&String> = window
            .positions
            .iter()
            .map(|&p| &splits[0].sentences[p])
            .collect();
        assert_eq!(quoted, ["Keys are kept.", "Install the CLI:"]);
    }

    #[test]
    fn a_section_without_the_subject_is_not_quoted() {
        let splits = [split("Install the CLI with npm. Run it in any folder.")];
        let headings = ["Quickstart Install".to_string()];
        // "printer" is what the question is about; the section says all the rest.
        let (weights, total) = weights(&[
            ("printer", 1.0),
            ("install", 0.9),
            ("cli", 0.9),
            ("folder", 0.9),
            ("run", 0.9),
        ]);
        let covered_but_the_subject = (total - 1.0) / total;
        assert!(covered_but_the_subject >= SECTION_EVIDENCE);
        assert_eq!(
            best_window(&splits, &headings, &weights, total, terms),
            None
        );
    }
}
