//! The code an answer shows: the retrieved block that covers most of the question (a flag, a
//! setting, a command), shown as code with a link to its section, and cut to the lines around
//! the best match when long.

use std::collections::{HashMap, HashSet};

use super::Question;
use super::text::{CodeBlock, Split};
use super::{Asking, covered, terms};

/// Code blocks longer than this are shown in part: `EXCERPT_LINES` lines around the best match.
const MAX_CODE_LINES: usize = 20;
const EXCERPT_LINES: usize = 10;
/// Below this share of the question's weight, code is shown only for "how do I" questions.
const CODE_EVIDENCE: f32 = 0.4;

/// A code block, or the part of it, that the answer shows.
pub(super) struct ShownCode<'a> {
    pub(super) section: usize,
    pub(super) block: &'a CodeBlock,
    pub(super) code: String,
    /// The share of the question's weight the block covers.
    pub(super) share: f32,
}

impl ShownCode<'_> {
    /// The fenced code and the link to its section.
    pub(super) fn markdown(&self, input: &Question) -> String {
        let section = &input.sections[self.section];
        format!(
            "{}From [{}]({})\n\n",
            fenced(self.block, &self.code),
            section.label(),
            section.url
        )
    }
}

/// `code` (all of `block`, or the part shown) fenced with the block's language.
pub(super) fn fenced(block: &CodeBlock, code: &str) -> String {
    format!("```{}\n{code}\n```\n\n", block.language)
}

/// The code the answer shows: the block of the retrieved sections whose words cover most of
/// the question (a flag, a setting, a command), preferring the sections the answer quoted. A
/// "how do I" answer shows the best one it has; any other answer only one that covers at least
/// `CODE_EVIDENCE` of the question. Long blocks are cut to the lines around the best match.
pub(super) fn code_to_show<'a>(
    kind: Asking,
    cited: &[usize],
    splits: &'a [Split],
    headings: &[&str],
    weights: &HashMap<String, f32>,
    total: f32,
) -> Option<ShownCode<'a>> {
    let none = HashSet::new();
    // (score, share, section, block)
    let mut best: Option<(f32, f32, usize, &CodeBlock)> = None;
    for (section, split) in splits.iter().enumerate() {
        let quoted = cited.contains(&section);
        if kind == Asking::HowTo && !quoted {
            continue;
        }
        for block in split.code.iter().filter(|b| !b.code.trim().is_empty()) {
            // A block is about what its section's heading and the sentence introducing it say
            // too ("Check the installed version:" over `cn --version`).
            let intro = block
                .after_sentence
                .and_then(|i| split.sentences.get(i))
                .map_or("", String::as_str);
            let heading = headings.get(section).copied().unwrap_or_default();
            let context = format!("{heading}\n{intro}\n{}", block.code);
            let share = covered(&terms(&context), weights, &none) / total;
            // The sections quoted come first; then rank order (the first best wins ties).
            let score = share + if quoted { 0.1 } else { 0.0 };
            if best.is_none_or(|(b, ..)| score > b) {
                best = Some((score, share, section, block));
            }
        }
    }
    let (_, share, section, block) = best?;
    if kind != Asking::HowTo && share < CODE_EVIDENCE {
        return None;
    }
    let code = excerpt(&block.code, weights);
    Some(ShownCode {
        section,
        block,
        code,
        share,
    })
}

/// `code` whole when it is short; else `EXCERPT_LINES` lines from just before the line that
/// covers most of the question.
pub(super) fn excerpt(code: &str, weights: &HashMap<String, f32>) -> String {
    let lines: Vec<&str> = code.lines().collect();
    if lines.len() <= MAX_CODE_LINES {
        return code.to_string();
    }
    let none = HashSet::new();
    let best = lines
        .iter()
        .map(|line| covered(&terms(line), weights, &none))
        .enumerate()
        // On equal scores the earlier line is the greater.
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map_or(0, |(i, _)| i);
    let start = best.saturating_sub(2);
    let end = (start + EXCERPT_LINES).min(lines.len());
    lines[start..end].join("\n")
}
