//! What a question asks, as the built-in answer reads it: the kind of answer it wants, its
//! words of substance (stemmed, the words of its form left out), and how much each weighs.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::vocabulary::{Vocabulary, normalised, stem};

/// Words that say nothing about what a question is about, including those of the question's
/// form ("what does X mean", "what happens when", "explain X", "how many", "where do I put")
/// and what is left of its contractions ("don" of "don't").
const QUESTION_WORDS: &[&str] = &[
    "a", "about", "all", "also", "an", "and", "any", "are", "aren", "at", "be", "but", "by", "can",
    "could", "did", "didn", "do", "does", "doesn", "don", "each", "else", "explain", "for", "from",
    "get", "give", "had", "happen", "happens", "has", "hasn", "have", "haven", "here", "how", "i",
    "if", "in", "into", "is", "isn", "it", "its", "just", "many", "me", "mean", "meaning", "means",
    "more", "most", "much", "my", "need", "not", "of", "on", "one", "or", "other", "our", "put",
    "should", "shouldn", "so", "some", "tell", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "to", "us", "use", "using", "want", "was", "way",
    "we", "what", "when", "where", "which", "while", "who", "why", "will", "with", "won", "would",
    "wouldn", "you", "your",
];

/// Words of a question's form that a search for its subject is better without.
const FORM_WORDS: &[&str] = &[
    "explain", "happen", "happens", "mean", "meaning", "means", "tell", "way",
];

/// Phrases that only frame what a question asks about: "what counts as a seat" asks what a
/// seat is, "what kinds of keys are there" asks for the keys. Their words are not its subject.
const FRAMINGS: &[&str] = &[
    DEFINITION_FRAMING,
    "what kinds of ",
    "what kind of ",
    "which kinds of ",
    "which kind of ",
    "what types of ",
    "what type of ",
    "which types of ",
    "which type of ",
    "what sorts of ",
    "what sort of ",
];
/// The framing that asks what something is; the others ask for its kinds.
const DEFINITION_FRAMING: &str = "what counts as ";

/// The framing a normalised question opens with, if any.
fn framing(normalised_question: &str) -> Option<&'static str> {
    FRAMINGS
        .iter()
        .copied()
        .find(|framing| normalised_question.starts_with(framing))
}

/// A question's words of substance: [`terms`] of it, its framing left out.
pub(super) fn question_terms(question: &str) -> HashSet<String> {
    terms(unframed(&normalised(question)))
}

/// What of `text` (a question, or a question with its context) is worth searching for: its
/// words as written, less the framing it opens with and the words of its form ("What kinds of
/// API keys are there?" searches "API keys": "kinds" would find every `kind:` of a YAML
/// example). A text with no word of substance left is searched as it is.
pub fn searched_words(text: &str) -> String {
    let framing_words = framing(&normalised(text)).map_or(0, |f| f.split_whitespace().count());
    let kept: Vec<&str> = text
        .split_whitespace()
        .skip(framing_words)
        .filter(|word| {
            let plain = normalised(word);
            !plain.is_empty() && !plain.split(' ').all(|w| FORM_WORDS.contains(&w))
        })
        .collect();
    let searched = kept.join(" ");
    if normalised(&searched).split(' ').any(is_substantive) {
        searched
    } else {
        text.to_string()
    }
}

/// A normalised question without the framing it opens with, if any.
fn unframed(normalised_question: &str) -> &str {
    framing(normalised_question)
        .and_then(|framing| normalised_question.strip_prefix(framing))
        .unwrap_or(normalised_question)
}

/// Whether a normalised word says something: longer than a letter, and not a question word.
fn is_substantive(word: &str) -> bool {
    word.chars().count() > 1 && !QUESTION_WORDS.contains(&word)
}

/// What a "what is" question asks about: its first word of substance ("seat" in "What counts
/// as a seat for billing?"), stemmed as [`terms`] stems it.
pub(super) fn defined_subject(question: &str) -> Option<String> {
    if asking(question) != Asking::Definition {
        return None;
    }
    unframed(&normalised(question))
        .split(' ')
        .find(|w| is_substantive(w))
        .map(stem)
}

/// What kind of answer the question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Asking {
    /// "What is X": the sentences that define it.
    Definition,
    /// "How do I X": the steps, and the code that does it.
    HowTo,
    /// "How much / how many / how big": the sentences that give a number.
    Quantity,
    /// "Where do I / where is": the sentences that name a place (a file, a path, a page or a
    /// setting to go to).
    Place,
    /// "Can I / does it / is there": the sentences that say yes or no (what only, never, or
    /// by default happens).
    YesNo,
    /// "What kinds of X are there": the sentences that list them ("two types of keys: ...").
    Kinds,
    Other,
}

pub(super) fn asking(question: &str) -> Asking {
    let q = normalised(question);
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| q.starts_with(p));
    let has_word = |words: &[&str]| q.split(' ').any(|w| words.contains(&w));
    // "What does it cost" asks for an amount, not for what something is.
    let for_an_amount = starts(&[
        "how much",
        "how many",
        "how big",
        "how large",
        "how long",
        "how often",
        "how fast",
        "how small",
        "what does it cost",
        "what do they cost",
    ]);
    if framing(&q).is_some_and(|f| f != DEFINITION_FRAMING) {
        Asking::Kinds
    } else if !for_an_amount
        && starts(&[
            "what is",
            "what are",
            "what s ",
            "whats ",
            "define ",
            "what does",
            "meaning of",
            DEFINITION_FRAMING,
            // What something lets one do is what it is for.
            "what can i do in ",
            "what can i do with ",
            "what can you do in ",
            "what can you do with ",
        ])
    {
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
        || has_word(&["command", "commands", "flag", "flags", "syntax"])
    {
        Asking::HowTo
    } else if for_an_amount
        || has_word(&[
            "cost", "costs", "price", "maximum", "minimum", "longest", "shortest", "largest",
            "smallest",
        ])
    {
        Asking::Quantity
    } else if starts(&["where "]) {
        Asking::Place
    } else if starts(&[
        "can ", "could ", "does ", "do ", "is ", "are ", "will ", "should ", "may ", "am ",
    ]) {
        Asking::YesNo
    } else {
        Asking::Other
    }
}

/// A question's or sentence's words that carry meaning, reduced so that plurals and verb
/// endings meet.
pub fn terms(text: &str) -> HashSet<String> {
    normalised(text)
        .split(' ')
        .filter(|w| is_substantive(w))
        .map(stem)
        .collect()
}

/// The most a common English word weighs ("another", "later", "without"): as much as a word
/// that a thirtieth of the sections use (ln 31). A site rarely says "another", but a question
/// that does is not about it, and such a word must not outweigh its subject or make an
/// answerable question look unanswered. (A tenth, ln 11, also capped words that docs use as
/// their own, "first", "allow", and lost answers; measured in BENCHMARKS.md.)
const COMMON_WORD_WEIGHT: f32 = 3.434;

/// The stems of common English words (the Stopwords ISO list, 1,298 words).
static COMMON_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    stop_words::get(stop_words::LANGUAGE::English)
        .iter()
        .map(|w| stem(&normalised(w)))
        .collect()
});

/// `weight`, capped when `term` is a common English word.
fn capped(term: &str, weight: f32) -> f32 {
    if COMMON_WORDS.contains(term) {
        weight.min(COMMON_WORD_WEIGHT)
    } else {
        weight
    }
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
            (term.clone(), capped(term, (1.0 + n / (1.0 + df)).ln()))
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
        .map(|term| (term.clone(), capped(term, vocabulary.rarity(term))))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_of_answer_is_read_from_the_question() {
        assert_eq!(asking("What is a waitpoint?"), Asking::Definition);
        assert_eq!(asking("How do I deploy?"), Asking::HowTo);
        assert_eq!(asking("Which flag prints JSON?"), Asking::HowTo);
        assert_eq!(
            asking("How much memory does a machine have?"),
            Asking::Quantity
        );
        assert_eq!(asking("How many items can a batch hold?"), Asking::Quantity);
        assert_eq!(
            asking("What is the maximum payload size?"),
            Asking::Definition
        );
        assert_eq!(
            asking("Which plan has the longest retention?"),
            Asking::Quantity
        );
        assert_eq!(asking("What does it cost to add seats?"), Asking::Quantity);
        assert_eq!(asking("Where are logs kept?"), Asking::Place);
        assert_eq!(asking("Why are logs kept?"), Asking::Other);
        assert_eq!(asking("Can I see the key again?"), Asking::YesNo);
        assert_eq!(asking("What kinds of API keys are there?"), Asking::Kinds);
        assert_eq!(asking("What can I do in plan mode?"), Asking::Definition);
        assert_eq!(
            defined_subject("What can I do with a workspace?").as_deref(),
            Some("workspac")
        );
        assert_eq!(asking("Which type of machine runs it?"), Asking::Kinds);
        assert_eq!(asking("Does it run on Windows?"), Asking::YesNo);
        assert_eq!(
            asking("What counts as a seat for billing?"),
            Asking::Definition
        );
    }

    #[test]
    fn a_question_s_framing_is_not_its_subject() {
        let owned = |s: &str| s.to_string();
        assert_eq!(
            question_terms("What counts as a seat for billing?"),
            terms("seat billing")
        );
        assert_eq!(
            question_terms("What kinds of API keys are there?"),
            terms("API keys")
        );
        // Only as a frame: a question about types keeps the word.
        assert!(question_terms("How do I export TypeScript types?").contains(&owned("type")));
        // Nor are what contractions leave ("don" of "don't").
        assert_eq!(
            question_terms("Which region do jobs run in if I don't choose one?"),
            terms("region jobs run choose")
        );
    }

    #[test]
    fn a_search_is_for_the_subject_not_the_question_s_form() {
        assert_eq!(
            searched_words("What kinds of API keys are there?"),
            "API keys are there?"
        );
        assert_eq!(
            searched_words("What happens when a run's maxDuration is exceeded?"),
            "What when a run's maxDuration is exceeded?"
        );
        // A question of nothing but its form is searched as asked.
        assert_eq!(searched_words("What does it mean?"), "What does it mean?");
        assert_eq!(
            searched_words("How do I export TypeScript types?"),
            "How do I export TypeScript types?"
        );
    }

    proptest::proptest! {
        /// Whatever is asked, what is searched keeps a word of substance when the question has
        /// one, and is made of the question's own words.
        #[test]
        fn what_is_searched_keeps_the_subject(
            question in "(What kinds of |what kind of |What happens |how |explain |way |API |keys |\\? |\\PC){0,10}",
        ) {
            let searched = searched_words(&question);
            if normalised(&question).split(' ').any(is_substantive) {
                proptest::prop_assert!(normalised(&searched).split(' ').any(is_substantive));
            }
            let words: Vec<&str> = question.split_whitespace().collect();
            proptest::prop_assert!(
                searched == question || searched.split(' ').all(|w| words.contains(&w)),
                "{searched:?} from {question:?}"
            );
        }
    }

    #[test]
    fn a_definition_asks_about_its_first_word_of_substance() {
        assert_eq!(
            defined_subject("What counts as a seat for billing?"),
            Some(stem("seat"))
        );
        assert_eq!(
            defined_subject("What are webhooks used for?"),
            Some(stem("webhooks"))
        );
        assert_eq!(defined_subject("How do I add a seat?"), None);
    }

    #[test]
    fn common_words_weigh_little_even_where_the_site_never_uses_them() {
        let mut vocabulary = Vocabulary::new();
        for i in 0..300 {
            vocabulary.add_section(&format!("Deploy section {i} to a region."));
        }
        let asked = terms("Deploy to another region with kubectl");
        let weights = site_weights(&asked, &vocabulary);
        // "another" and "kubectl" are used by no section; only "kubectl" is the subject.
        assert!(weights["anoth"] <= COMMON_WORD_WEIGHT, "{weights:?}");
        assert!(weights["kubectl"] > 5.0, "{weights:?}");
        assert_eq!(
            heaviest_term(&weights).map(|(t, _)| t.as_str()),
            Some("kubectl")
        );
        // A common word the site uses often keeps its (low) weight.
        assert!(weights["deploy"] < 1.0, "{weights:?}");
        // The same cap among the sentences retrieved.
        let sentences = [terms("Deploy to a region."), terms("Regions list.")];
        let by_sections = super::weights(&asked, sentences.iter());
        assert!(
            by_sections["anoth"] <= by_sections["kubectl"],
            "{by_sections:?}"
        );
    }
}
