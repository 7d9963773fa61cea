//! The built-in answer of the docs assistant: extractive and offline. It quotes the sentences
//! of the retrieved sections that best cover the question's words (rarer words weigh more),
//! never the same sentence twice (across versions of a page, say), never code as prose, and
//! more of the best-ranked section than of the others (`choice`); a quoted sentence that
//! introduces code ("...: ") shows it right after itself, and the block that covers most of the
//! question is added, shown as code. What the question asks for leans the choice: a definition
//! for "what is", a sentence with a number for "how much", a step and its code for "how do I".
//! When the best sentence covers too little of the question (its words weighed by the whole
//! site, when the site's vocabulary was counted at publish), it says the documentation does not
//! seem to answer it and lists the closest pages instead of quoting something beside the point.
//!
//! It does no I/O and holds no state: the host streams its answers, and the same code builds
//! for WebAssembly, so an exported site can answer as the server does.

mod choice;
mod code;
mod passage;
mod question;
pub mod retrieval;
mod text;
pub mod vocabulary;
mod window;

use std::collections::{HashMap, HashSet};

use choice::{choose, more_of_the_best_section};
use code::{ShownCode, code_to_show, excerpt, fenced};
pub use question::terms;
use question::{
    Asking, asking, covered, defined_subject, heaviest_term, question_terms, site_weights, weights,
};
use text::{looks_like_code, split};
use vocabulary::{Vocabulary, normalised};

/// A question may be at most this many characters. The public assistant key is in every
/// reader's browser: without a bound, anyone could make the server search and echo megabytes.
pub const MAX_QUESTION_CHARS: usize = 4_000;

/// Refuses a question or query over `MAX_QUESTION_CHARS`, naming it as `field` ("query").
pub fn check_question_length(field: &str, text: &str) -> Result<(), String> {
    let length = text.chars().count();
    if length > MAX_QUESTION_CHARS {
        return Err(format!(
            "{field} is {length} characters long; it may be at most {MAX_QUESTION_CHARS}"
        ));
    }
    Ok(())
}

/// Below this share of the question's weight, the best sentence is not an answer: weighed by
/// the sections retrieved, and by the site's vocabulary (which gives the question's phrasing
/// less weight, so the subject's share is larger and less of the rest is needed).
const WEAK_EVIDENCE: f32 = 0.42;
const WEAK_EVIDENCE_BY_SITE: f32 = 0.36;
/// Sentences shorter or longer than these many words are not quoted.
const MIN_WORDS: usize = 4;
const MAX_WORDS: usize = 80;
/// When no sentence answers, code alone must cover this much to be the answer.
const CODE_ALONE: f32 = 0.6;
/// A question term carrying this share of the question's weight is what it is about ("Emacs"
/// in "Does it have a plugin for Emacs?"): unless the best sentence covers `SURE_EVIDENCE`,
/// an answer that never says that word does not answer.
const SUBJECT: f32 = 0.25;
const SURE_EVIDENCE: f32 = 0.5;

/// One quotable sentence.
struct Candidate {
    section: usize,
    position: usize,
    text: String,
    terms: HashSet<String>,
}

/// A section the search returned, with the link an answer cites.
#[derive(Debug, Clone)]
pub struct RetrievedSection {
    pub path: String,
    pub anchor: String,
    pub title: String,
    pub heading_trail: Vec<String>,
    pub content: String,
    /// Site-relative link to the section (`/guides/webhooks#retries`).
    pub url: String,
}

impl RetrievedSection {
    /// The section of page `path` at `anchor` (empty for the page's opening text), linked as
    /// `/path#anchor`.
    pub fn new(
        path: String,
        anchor: String,
        title: String,
        heading_trail: Vec<String>,
        content: String,
    ) -> Self {
        let url = if anchor.is_empty() {
            format!("/{path}")
        } else {
            format!("/{path}#{anchor}")
        };
        Self {
            path,
            anchor,
            title,
            heading_trail,
            content,
            url,
        }
    }

    /// "Page title › Section heading", or the page title for a page's opening text.
    pub fn label(&self) -> String {
        match self.heading_trail.last() {
            Some(last) if self.heading_trail.len() > 1 => format!("{} › {last}", self.title),
            _ => self.title.clone(),
        }
    }
}

/// What an answer is composed from.
pub struct Question<'a> {
    /// The site's name, as the answer names its documentation.
    pub site_name: &'a str,
    pub question: &'a str,
    /// The sections retrieved for it, best first.
    pub sections: &'a [RetrievedSection],
    /// The site's word counts, when its version has them: how much each word of the question
    /// tells (see `vocabulary`).
    pub vocabulary: Option<&'a Vocabulary>,
}

/// A composed answer: its Markdown and the sections it links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    /// Indexes into the input's sections, each once, in the order the answer first links them.
    pub cited: Vec<usize>,
    /// Where each of `cited` is first linked: the byte offset in `text` right after the line
    /// that links it, so a stream can send the section as a source at the point it supports.
    pub cited_at: Vec<usize>,
}

impl Answer {
    /// `cited` holds each linked section with the length of the text when it was linked.
    fn new(text: String, cited: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let text = text.trim_end().to_string();
        let (mut unique, mut at) = (Vec::new(), Vec::new());
        for (section, offset) in cited {
            if !unique.contains(&section) {
                unique.push(section);
                at.push(offset.min(text.len()));
            }
        }
        Self {
            text,
            cited: unique,
            cited_at: at,
        }
    }
}

/// The answer for `input`.
pub fn compose(input: &Question) -> Answer {
    let asked = question_terms(input.question);
    let kind = asking(input.question);
    let subject = defined_subject(input.question);
    let splits: Vec<_> = input.sections.iter().map(|s| split(&s.content)).collect();
    let own_headings: Vec<&str> = input.sections.iter().map(own_heading).collect();
    let mut seen = HashSet::new();
    let mut candidates = Vec::new();
    for (section, parts) in splits.iter().enumerate() {
        let heading = own_headings[section];
        for (position, sentence) in parts.sentences.iter().enumerate() {
            let words = sentence.split_whitespace().count();
            // A step of a "how do I" answer is the sentence and the code it introduces
            // ("Verify the installation:" over `cn --version`), however short the sentence.
            let step_code = (kind == Asking::HowTo)
                .then(|| parts.introduced_code(position))
                .flatten();
            let fewest = if step_code.is_some() { 2 } else { MIN_WORDS };
            if !(fewest..=MAX_WORDS).contains(&words)
                || looks_like_code(sentence)
                || introduces_nothing(parts, position)
                || !seen.insert(normalised(sentence))
            {
                continue;
            }
            let code = step_code.map_or("", |b| b.code.as_str());
            candidates.push(Candidate {
                section,
                position,
                text: sentence.clone(),
                // A sentence is about its section's heading too ("Verifying signatures").
                terms: terms(&format!("{sentence} {heading} {code}")),
            });
        }
    }
    if asked.is_empty() || candidates.is_empty() {
        return nothing_found(input);
    }
    // Sentences are chosen by how they cover the question among the sections retrieved; whether
    // they answer it at all is judged by the whole site's words when it has them counted: a
    // word of the question the site never uses weighs most there, so a question about what
    // the docs do not cover is refused, while a word of its phrasing that the retrieved
    // sections happen to miss ("another", "big") no longer outweighs its subject.
    let by_sections = weights(&asked, candidates.iter().map(|c| &c.terms));
    let by_sections_total: f32 = by_sections.values().sum();
    let chosen = choose(
        &candidates,
        &by_sections,
        by_sections_total,
        kind,
        subject.as_deref(),
    );
    let Some(best) = chosen.first() else {
        return nothing_found(input);
    };
    let (weights, weak_evidence) = match input.vocabulary {
        Some(vocabulary) if vocabulary.sections() > 0 => {
            (site_weights(&asked, vocabulary), WEAK_EVIDENCE_BY_SITE)
        }
        _ => (by_sections.clone(), WEAK_EVIDENCE),
    };
    let total: f32 = weights.values().sum();
    let best_share = covered(&candidates[*best].terms, &weights, &HashSet::new()) / total;
    if best_share == 0.0 {
        return nothing_found(input);
    }
    if best_share < weak_evidence
        || misses_the_subject(&chosen, &candidates, &weights, total, best_share)
    {
        // No sentence says it, but a code block may show it (a flag, a setting), or a
        // best-ranked section as a whole (`window`).
        let headings: Vec<String> = input
            .sections
            .iter()
            .map(|s| format!("{} {}", s.title, s.heading_trail.join(" ")))
            .collect();
        let code_alone = code_to_show(Asking::Other, &[], &splits, &own_headings, &weights, total)
            .filter(|shown| shown.share >= CODE_ALONE);
        if code_alone.is_none()
            && let Some(window) = window::best_window(&splits, &headings, &weights, total, terms)
        {
            return quote_window(input, &splits, &window, &weights, total, kind);
        }
        return match code_alone {
            Some(shown) => {
                let text = format!(
                    "Here is what the {} documentation shows:\n\n{}",
                    input.site_name,
                    shown.markdown(input)
                );
                let end = text.len();
                Answer::new(text, [(shown.section, end)])
            }
            None => not_answered(input),
        };
    }
    let first_section = candidates[*best].section;
    let mut chosen = chosen;
    more_of_the_best_section(
        &mut chosen,
        &candidates,
        &by_sections,
        by_sections_total,
        kind,
        subject.as_deref(),
    );
    // The section of the best sentence first (a definition may lie below the search's first
    // section), then the others in the search's order.
    chosen.sort_by_key(|&c| {
        let section = candidates[c].section;
        (section != first_section, section, candidates[c].position)
    });
    let mut answer = format!(
        "Here is what the {} documentation says:\n\n",
        input.site_name
    );
    let mut cited = Vec::new();
    let mut quoted: HashSet<(usize, usize)> = chosen
        .iter()
        .map(|&c| (candidates[c].section, candidates[c].position))
        .collect();
    // A quote that introduces code ("Verify the installation:") shows it right after itself,
    // cut to the lines that matter; one whose list or code the answer cannot show is left out.
    let mut shown_inline: Vec<&text::CodeBlock> = Vec::new();
    let mut inline_share: f32 = 0.0;
    let mut section_written = false;
    let none = HashSet::new();
    for &c in &chosen {
        let candidate = &candidates[c];
        let section = &input.sections[candidate.section];
        let split = &splits[candidate.section];
        let passage = passage::passage(split, candidate.position, |i| {
            !quoted.contains(&(candidate.section, i))
        });
        let introduced = passage
            .items
            .is_empty()
            .then(|| split.introduced_code(candidate.position))
            .flatten();
        // A lead ending in a colon with no code to show introduces what the answer cannot show.
        let introduces = passage.items.is_empty() && passage.lead.trim_end().ends_with(':');
        if !introduces || introduced.is_some() {
            quoted.extend(passage.taken.iter().map(|&i| (candidate.section, i)));
            answer.push_str(&passage.markdown());
            section_written = true;
        }
        if let Some(block) = introduced {
            answer.push_str(&fenced(block, &excerpt(&block.code, &weights)));
            shown_inline.push(block);
            inline_share = inline_share.max(covered(&terms(&block.code), &weights, &none) / total);
        }
        if section_written
            && chosen
                .iter()
                .filter(|&&o| o > c)
                .all(|&o| candidates[o].section != candidate.section)
        {
            answer.push_str(&format!("From [{}]({})\n\n", section.label(), section.url));
            cited.push((candidate.section, answer.len()));
            section_written = false;
        }
    }
    // Code that covers more of the question than any shown with its quote ("how do I"
    // answers show their best block whatever it covers).
    let shown = code_to_show(
        kind,
        &quoted_sections(&cited),
        &splits,
        &own_headings,
        &weights,
        total,
    )
    .filter(|best| {
        !shown_inline.iter().any(|b| std::ptr::eq(*b, best.block))
            && (shown_inline.is_empty() || best.share > inline_share)
    });
    if cited.is_empty() && shown.is_none() {
        // Every quote chosen introduced what another had already shown.
        return not_answered(input);
    }
    if let Some(shown) = shown {
        answer.push_str(&shown.markdown(input));
        cited.push((shown.section, answer.len()));
    }
    Answer::new(answer, cited)
}

/// The answer that quotes a section's `window`, with the section's code block that covers
/// most of the question when it covers enough (`code_to_show`).
fn quote_window(
    input: &Question,
    splits: &[text::Split],
    window: &window::Window,
    weights: &HashMap<String, f32>,
    total: f32,
    kind: Asking,
) -> Answer {
    let section = &input.sections[window.section];
    let mut answer = format!(
        "Here is what the {} documentation says:\n\n",
        input.site_name
    );
    let split = &splits[window.section];
    let mut shown_inline = None;
    for &i in &window.positions {
        let sentence = &split.sentences[i];
        let introduced = split.introduced_code(i);
        if sentence.trim_end().ends_with(':') && introduced.is_none() {
            continue; // it introduces what the quote does not show
        }
        answer.push_str(&format!("> {sentence}\n"));
        if let Some(block) = introduced {
            answer.push_str(&format!(
                "\n{}",
                fenced(block, &excerpt(&block.code, weights))
            ));
            shown_inline = Some(block);
        }
    }
    answer.push_str(&format!(
        "\nFrom [{}]({})\n\n",
        section.label(),
        section.url
    ));
    let linked_at = answer.len();
    let only_this = &splits[window.section..=window.section];
    let own_heading = own_heading(section);
    if let Some(shown) = code_to_show(kind, &[0], only_this, &[own_heading], weights, total)
        && !shown_inline.is_some_and(|b| std::ptr::eq(b, shown.block))
    {
        let shown = ShownCode {
            section: window.section,
            ..shown
        };
        answer.push_str(&shown.markdown(input));
    }
    Answer::new(answer, [(window.section, linked_at)])
}

/// Whether sentence `position` introduces something ("Run:", "as follows:") that a quote of
/// it could not show: neither code nor a list follows it in its section. Such a sentence says
/// nothing on its own, so it is never quoted.
fn introduces_nothing(split: &text::Split, position: usize) -> bool {
    split.sentences[position].trim_end().ends_with(':')
        && split.introduced_code(position).is_none()
        && passage::passage(split, position, |_| true).items.is_empty()
}

/// A section's own heading: the last of its trail, none for a page's opening text (whose trail
/// is the page title alone).
fn own_heading(section: &RetrievedSection) -> &str {
    match section.heading_trail.as_slice() {
        [_, .., last] => last,
        _ => "",
    }
}

/// Whether the chosen sentences leave out what the question is about: its heaviest term, when
/// that carries `SUBJECT` of its weight, while the best sentence covers less than
/// `SURE_EVIDENCE`. Sentences that share the question's lesser words ("run", "LangSmith") but
/// not its subject ("Windows 95") are beside the point.
fn misses_the_subject(
    chosen: &[usize],
    candidates: &[Candidate],
    weights: &HashMap<String, f32>,
    total: f32,
    best_share: f32,
) -> bool {
    if best_share >= SURE_EVIDENCE {
        return false;
    }
    let Some((subject, weight)) = heaviest_term(weights) else {
        return false;
    };
    weight / total >= SUBJECT
        && !chosen
            .iter()
            .any(|&c| candidates[c].terms.contains(subject))
}

fn nothing_found(input: &Question) -> Answer {
    Answer::new(
        format!(
            "I could not find anything about that in the {} documentation. Try other words, or browse the documentation directly.",
            input.site_name
        ),
        [],
    )
}

/// The sections of `cited`, in its order.
fn quoted_sections(cited: &[(usize, usize)]) -> Vec<usize> {
    cited.iter().map(|&(section, _)| section).collect()
}

/// The documentation does not say: the closest pages, each once. They are linked, so they are
/// the answer's sources.
fn not_answered(input: &Question) -> Answer {
    let mut answer = format!(
        "The {} documentation does not seem to answer that directly. The closest pages:\n\n",
        input.site_name
    );
    let mut pages = HashSet::new();
    let mut cited = Vec::new();
    for (i, section) in input
        .sections
        .iter()
        .enumerate()
        .filter(|(_, s)| pages.insert(s.path.clone()))
        .take(3)
    {
        answer.push_str(&format!("- [{}]({})\n", section.label(), section.url));
        cited.push((i, answer.len()));
    }
    Answer::new(answer, cited)
}

#[cfg(test)]
mod tests;
