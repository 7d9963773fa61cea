//! Which sentences an answer quotes: greedily, each adding the most of the question's weight
//! not yet covered, leaned toward what the question asks for (a definition, a number, a place,
//! a yes or no) and toward the better-ranked sections; then more of the best-ranked section,
//! whose sentences beside the best one often hold the point ("The API key will be shown only
//! once" after "Then click Create API Key").

use std::collections::{HashMap, HashSet};

use super::Candidate;
use super::question::{Asking, covered, terms};

/// Sentences the greedy choice quotes at most.
const MAX_SENTENCES: usize = 3;
/// A further sentence must add at least this share of the question's weight.
const MIN_GAIN: f32 = 0.15;
/// Each rank down the search's order weighs a sentence's coverage this much less.
const RANK_DISCOUNT: f32 = 0.08;
/// Two sentences sharing this share of their words say the same thing.
const SAME_SENTENCE: f32 = 0.8;
/// How far the kind of question leans the choice toward a sentence of that kind.
const LEANING: f32 = 0.1;
/// How far a "what is X" question leans it toward a sentence that says what X is ("A seat is
/// a distinct user ..."): the answer a reader expects first, though it may share fewer words
/// with the question than one that only mentions X.
const DEFINING_LEANING: f32 = 1.0;
/// The words that say what something is, after a subject of at most `SUBJECT_WORDS` words.
const DEFINING: [&str; 7] = [
    " is a ",
    " is an ",
    " is the ",
    " are the ",
    " refers to ",
    " means ",
    " is one of ",
];
const SUBJECT_WORDS: usize = 5;
/// Sentences of the best-ranked section quoted at most, counting those already chosen, and
/// the share of the question's weight each further one must touch.
const BEST_SECTION_SENTENCES: usize = 3;
const BEST_SECTION_SHARE: f32 = 0.1;

/// Picks sentences greedily: each adds the most question weight not yet covered; earlier
/// sections and sentences break ties, and a definition's "X is" sentences come first.
pub(super) fn choose(
    candidates: &[Candidate],
    weights: &HashMap<String, f32>,
    total: f32,
    kind: Asking,
    subject: Option<&str>,
) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    let mut already: HashSet<String> = HashSet::new();
    while chosen.len() < MAX_SENTENCES {
        let scored = candidates
            .iter()
            .enumerate()
            .filter(|(i, c)| !chosen.contains(i) && !repeats(c, &chosen, candidates))
            .map(|(i, c)| {
                let gain = covered(&c.terms, weights, &already) / total;
                let bonus = leaning(kind, &c.text, subject);
                // The search ranked the sections: a sentence of a better-ranked one is more
                // likely what the question is about.
                let prior = 1.0 - RANK_DISCOUNT * c.section.min(4) as f32;
                let order = c.position as f32 * 0.001;
                (i, gain, gain * prior + bonus - order)
            })
            .max_by(|a, b| a.2.total_cmp(&b.2));
        match scored {
            Some((i, gain, _)) if gain >= MIN_GAIN || chosen.is_empty() => {
                already.extend(candidates[i].terms.iter().cloned());
                chosen.push(i);
            }
            _ => break,
        }
    }
    chosen
}

/// Whether `candidate` says what a chosen sentence already says (most words shared).
fn repeats(candidate: &Candidate, chosen: &[usize], candidates: &[Candidate]) -> bool {
    chosen.iter().any(|&o| {
        let other = &candidates[o].terms;
        let shared = candidate.terms.intersection(other).count() as f32;
        let smaller = candidate.terms.len().min(other.len()).max(1) as f32;
        shared / smaller >= SAME_SENTENCE
    })
}

/// A sentence that says what something is.
fn defines(sentence: &str) -> bool {
    let s = format!(" {} ", sentence.to_lowercase());
    [
        " is a ",
        " is an ",
        " is the ",
        " are ",
        " refers to ",
        " means ",
        " lets you ",
        " is used to ",
    ]
    .iter()
    .any(|p| s.contains(p))
}

/// A sentence that says what `subject` (a term) is: it opens with a short subject holding the
/// term, then "is a", "refers to", "means".
fn defines_subject(sentence: &str, subject: &str) -> bool {
    let s = format!(" {} ", sentence.to_lowercase());
    DEFINING
        .iter()
        .filter_map(|words| s.find(words))
        .min()
        .is_some_and(|at| {
            let before = &s[..at];
            before.split_whitespace().count() <= SUBJECT_WORDS && terms(before).contains(subject)
        })
}

/// A sentence that gives a number or an amount ("16 GB", "$10/month", "1,000 items").
fn gives_a_number(sentence: &str) -> bool {
    sentence.chars().any(|c| c.is_ascii_digit())
}

/// A sentence that names where something is: a file or a path (`~/.config/app.toml`,
/// `.continue/mcpServers`), or a place to go to ("in the Marketplace", "under Settings").
fn names_a_place(sentence: &str) -> bool {
    let path = sentence.split_whitespace().any(|word| {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric() && !"~/._-".contains(c));
        !word.contains("://")
            && (word.starts_with("~/")
                || word.starts_with("./")
                || (word.contains('/') && word.len() > 2)
                || word.rsplit_once('.').is_some_and(|(stem, ext)| {
                    !stem.is_empty()
                        && matches!(
                            ext,
                            "toml" | "yaml" | "yml" | "json" | "env" | "ini" | "conf" | "config"
                        )
                }))
    });
    let s = format!(" {} ", sentence.to_lowercase());
    path || [" in the ", " under ", " from the ", " in your ", " at the "]
        .iter()
        .any(|p| s.contains(p))
}

/// A sentence that lists the kinds of something: it counts them ("two types", "several
/// plans", "the following modes") and names them after a colon or in a series ("A, B and C").
fn lists_kinds(sentence: &str) -> bool {
    const COUNTS: [&str; 13] = [
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "several",
        "multiple",
        "various",
        "different",
        "following",
        "these",
    ];
    let lower = sentence.to_lowercase();
    let counted = lower.split_whitespace().any(|word| {
        COUNTS.contains(&word) || (word.len() <= 3 && word.chars().all(|c| c.is_ascii_digit()))
    });
    let named = [": ", " and ", " or "].iter().any(|p| lower.contains(p));
    counted && named
}

/// A sentence that settles a yes-or-no question: it says what only, never or by default
/// happens, or what cannot.
fn says_yes_or_no(sentence: &str) -> bool {
    let s = format!(" {} ", sentence.to_lowercase());
    [
        " only ",
        " not ",
        "n't ",
        " cannot ",
        " never ",
        " always ",
        " by default",
        " must ",
        " no ",
        " yes",
    ]
    .iter()
    .any(|p| s.contains(p))
}

/// Adds sentences of the best-ranked section to `chosen`, up to `BEST_SECTION_SENTENCES` from
/// it in all: the search put that section first, and the sentence holding the point often sits
/// beside the one that shares most words with the question. Each must touch
/// `BEST_SECTION_SHARE` of the question's weight (whatever the chosen ones already cover), and
/// not repeat a chosen one; the kind of question leans the choice, and the earlier sentence
/// wins a tie.
pub(super) fn more_of_the_best_section(
    chosen: &mut Vec<usize>,
    candidates: &[Candidate],
    weights: &HashMap<String, f32>,
    total: f32,
    kind: Asking,
    subject: Option<&str>,
) {
    // The section's sentences that touch enough of the question, best first; a candidate's
    // share does not change as others are chosen, so it is weighed once.
    let none = HashSet::new();
    let mut eligible: Vec<(usize, f32)> = candidates
        .iter()
        .enumerate()
        .filter(|(i, c)| c.section == 0 && !chosen.contains(i))
        .filter_map(|(i, c)| {
            let share = covered(&c.terms, weights, &none) / total;
            (share >= BEST_SECTION_SHARE).then(|| {
                (
                    i,
                    share + leaning(kind, &c.text, subject) - c.position as f32 * 0.001,
                )
            })
        })
        .collect();
    eligible.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut from_best = chosen
        .iter()
        .filter(|&&c| candidates[c].section == 0)
        .count();
    for (i, _) in eligible {
        if from_best >= BEST_SECTION_SENTENCES {
            break;
        }
        if !repeats(&candidates[i], chosen, candidates) {
            chosen.push(i);
            from_best += 1;
        }
    }
}

/// How much a sentence is favoured for being the kind of answer the question asks for; a
/// definition's `subject` is the term it asks about.
fn leaning(kind: Asking, sentence: &str, subject: Option<&str>) -> f32 {
    if kind == Asking::Definition && subject.is_some_and(|s| defines_subject(sentence, s)) {
        return DEFINING_LEANING;
    }
    let fits = match kind {
        Asking::Definition => defines(sentence),
        Asking::Quantity => gives_a_number(sentence),
        Asking::Place => names_a_place(sentence),
        Asking::YesNo => says_yes_or_no(sentence),
        Asking::Kinds => lists_kinds(sentence),
        _ => false,
    };
    if fits { LEANING } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::super::question::{asking, defined_subject, terms, weights};
    use super::*;

    /// Candidates from `sentences` (section, text), and the question's weights among them.
    fn candidates(
        question: &str,
        sentences: &[(usize, &str)],
    ) -> (Vec<Candidate>, HashMap<String, f32>, f32) {
        let candidates: Vec<Candidate> = sentences
            .iter()
            .enumerate()
            .map(|(position, &(section, text))| Candidate {
                section,
                position,
                text: text.to_string(),
                terms: terms(text),
            })
            .collect();
        let weights = weights(&terms(question), candidates.iter().map(|c| &c.terms));
        let total = weights.values().sum();
        (candidates, weights, total)
    }

    /// The first choice for `question` among `sentences`, as `compose` makes it.
    fn first_choice(question: &str, sentences: &[(usize, &str)]) -> String {
        let (candidates, weights, total) = candidates(question, sentences);
        let chosen = choose(
            &candidates,
            &weights,
            total,
            asking(question),
            defined_subject(question).as_deref(),
        );
        candidates[chosen[0]].text.clone()
    }

    #[test]
    fn the_kind_of_question_leans_the_first_choice() {
        // A mere mention, even in the better-ranked section, comes second.
        assert_eq!(
            first_choice(
                "What is a workspace?",
                &[
                    (
                        0,
                        "You can rename a workspace from its settings page at any time."
                    ),
                    (
                        0,
                        "A workspace is a shared space where a team keeps its projects."
                    ),
                ]
            ),
            "A workspace is a shared space where a team keeps its projects."
        );
        assert_eq!(
            first_choice(
                "What kinds of API keys are there?",
                &[
                    (0, "You need an API key to authenticate your requests."),
                    (
                        0,
                        "To create either type of API key, open the Settings page."
                    ),
                    (
                        1,
                        "There are two types of API keys: service keys and personal tokens."
                    ),
                ]
            ),
            "There are two types of API keys: service keys and personal tokens."
        );
        assert_eq!(
            first_choice(
                "Where does the CLI keep my token?",
                &[
                    (0, "The CLI keeps your token until you sign out."),
                    (1, "The CLI keeps your token in ~/.config/acme/auth.toml."),
                ]
            ),
            "The CLI keeps your token in ~/.config/acme/auth.toml."
        );
        assert_eq!(
            first_choice(
                "Can the bot speak while the user speaks?",
                &[
                    (
                        0,
                        "The bot can speak in many voices while the user listens."
                    ),
                    (1, "The bot cannot speak while the user speaks: it waits."),
                ]
            ),
            "The bot cannot speak while the user speaks: it waits."
        );
        assert_eq!(
            first_choice(
                "How much memory does a machine have?",
                &[
                    (
                        0,
                        "Tasks that need more memory can run on a larger machine."
                    ),
                    (0, "Each machine has 0.5 GB of memory by default."),
                ]
            ),
            "Each machine has 0.5 GB of memory by default."
        );
        assert!(names_a_place(
            "Click Install in the Visual Studio Marketplace."
        ));
        assert!(!names_a_place(
            "Tokens last a day; see https://acme.test/tokens for more."
        ));
    }

    #[test]
    fn the_best_ranked_section_gives_up_to_three_sentences_that_touch_the_question() {
        let question = "Can I see my API key again after creating it?";
        let (candidates, weights, total) = candidates(
            question,
            &[
                (0, "Open Settings and scroll to API Keys."),
                (0, "Click Create API Key to see your new key."),
                (0, "The key is shown only once, so store it safely."),
                (0, "Each key belongs to one workspace."),
                (0, "Invoices list your plan and your seats."),
                (1, "Query again to see all the stats."),
            ],
        );
        let mut chosen = vec![1];
        more_of_the_best_section(
            &mut chosen,
            &candidates,
            &weights,
            total,
            asking(question),
            defined_subject(question).as_deref(),
        );
        // Three in all from the best section, the yes-or-no sentence among them; never one
        // touching nothing of the question, never another section's.
        assert_eq!(chosen.len(), 3, "{chosen:?}");
        assert!(chosen.contains(&2), "{chosen:?}");
        assert!(!chosen.contains(&4) && !chosen.contains(&5), "{chosen:?}");
    }
}
