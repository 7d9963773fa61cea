//! What a question asks, as the built-in answer reads it: the kind of answer it wants, its
//! words of substance (stemmed, the words of its form left out), and how much each weighs.

use std::collections::{HashMap, HashSet};

use crate::search::Vocabulary;
use crate::search::vocabulary::{normalised, stem};

/// Words that say nothing about what a question is about, including those of the question's
/// form ("what does X mean", "what happens when", "explain X", "how many", "where do I put").
const QUESTION_WORDS: &[&str] = &[
    "a", "about", "all", "also", "an", "and", "any", "are", "at", "be", "but", "by", "can",
    "could", "did", "do", "does", "each", "else", "explain", "for", "from", "get", "give", "had",
    "happen", "happens", "has", "have", "here", "how", "i", "if", "in", "into", "is", "it", "its",
    "just", "many", "me", "mean", "meaning", "means", "more", "most", "much", "my", "need", "not",
    "of", "on", "one", "or", "other", "our", "put", "should", "so", "some", "tell", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "us", "use",
    "using", "want", "was", "way", "we", "what", "when", "where", "which", "while", "who", "why",
    "will", "with", "would", "you", "your",
];

/// What kind of answer the question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Asking {
    /// "What is X": the sentences that define it.
    Definition,
    /// "How do I X": the steps, and the code that does it.
    HowTo,
    Other,
}

pub(super) fn asking(question: &str) -> Asking {
    let q = normalised(question);
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| q.starts_with(p));
    if starts(&[
        "what is",
        "what are",
        "what s ",
        "whats ",
        "define ",
        "what does",
        "meaning of",
    ]) {
        Asking::Definition
    } else if starts(&[
        "how do",
        "how can",
        "how to",
        "how should",
        "how would",
        "steps to",
    ]) || q.contains("set up")
        || q.starts_with("configure ")
        || q.starts_with("install ")
        // Asking for a command or a flag: the answer is code.
        || q.split(' ').any(|w| matches!(w, "command" | "commands" | "flag" | "flags" | "syntax"))
    {
        Asking::HowTo
    } else {
        Asking::Other
    }
}

/// A question's or sentence's words that carry meaning, reduced so that plurals and verb
/// endings meet.
pub(in crate::assistant) fn terms(text: &str) -> HashSet<String> {
    normalised(text)
        .split(' ')
        .filter(|w| w.chars().count() > 1 && !QUESTION_WORDS.contains(w))
        .map(stem)
        .collect()
}

/// Each question term's weight among the sentences it may be answered from (each a set of
/// terms): rarer is more telling (an IDF).
pub(super) fn weights<'a>(
    asked: &HashSet<String>,
    sentences: impl Iterator<Item = &'a HashSet<String>> + Clone,
) -> HashMap<String, f32> {
    let n = sentences.clone().count() as f32;
    asked
        .iter()
        .map(|term| {
            let df = sentences.clone().filter(|t| t.contains(term)).count() as f32;
            (term.clone(), (1.0 + n / (1.0 + df)).ln())
        })
        .collect()
}

/// Each question term's weight by the whole site: rarer among its sections is more telling,
/// and a word it never uses weighs most.
pub(super) fn site_weights(
    asked: &HashSet<String>,
    vocabulary: &Vocabulary,
) -> HashMap<String, f32> {
    asked
        .iter()
        .map(|term| (term.clone(), vocabulary.rarity(term)))
        .collect()
}

/// The weight of question terms `terms` covers, leaving out those already `covered`.
pub(super) fn covered(
    terms: &HashSet<String>,
    weights: &HashMap<String, f32>,
    already: &HashSet<String>,
) -> f32 {
    weights
        .iter()
        .filter(|(term, _)| terms.contains(*term) && !already.contains(*term))
        .map(|(_, w)| w)
        .sum()
}

/// The question term with the most weight (the earlier in order on a tie): what the question
/// is about.
pub(super) fn heaviest_term(weights: &HashMap<String, f32>) -> Option<(&String, f32)> {
    weights
        .iter()
        .max_by(|a, b| a.1.total_cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(term, &weight)| (term, weight))
}
