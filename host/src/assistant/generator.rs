//! Answer generators. The built-in one is extractive and offline: it quotes the retrieved
//! sentences that best match the question, with links, and says plainly when nothing relevant
//! was found instead of inventing an answer.

use std::collections::HashSet;

use futures::stream::{self, BoxStream};

use super::RetrievedSection;

/// What a generator answers from.
pub struct GenerationInput {
    pub site_name: String,
    pub question: String,
    pub sections: Vec<RetrievedSection>,
    /// Earlier turns of the thread as (role, text), oldest first.
    pub history: Vec<(String, String)>,
}

/// A generator could not produce (the rest of) an answer.
#[derive(Debug, thiserror::Error)]
#[error("the answer generator failed: {0}")]
pub struct GenerateError(pub String);

/// Produces an answer as a stream of text pieces.
pub trait Generator: Send + Sync {
    fn generate(&self, input: GenerationInput)
    -> BoxStream<'static, Result<String, GenerateError>>;
}

/// Sentences quoted at most.
const MAX_SENTENCES: usize = 3;
/// Words that say nothing about what a question is about.
const QUESTION_WORDS: &[&str] = &[
    "a", "an", "and", "are", "can", "do", "does", "for", "how", "i", "in", "is", "it", "my", "of",
    "on", "or", "the", "to", "what", "when", "where", "which", "who", "why", "with", "you", "your",
];

/// The built-in, offline generator.
pub struct ExtractiveGenerator;

impl Generator for ExtractiveGenerator {
    fn generate(
        &self,
        input: GenerationInput,
    ) -> BoxStream<'static, Result<String, GenerateError>> {
        let answer = compose(&input);
        // Word-sized pieces, as a model would stream them.
        let pieces: Vec<Result<String, GenerateError>> = answer
            .split_inclusive(' ')
            .map(|w| Ok(w.to_string()))
            .collect();
        Box::pin(stream::iter(pieces))
    }
}

fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.len() > 1 && !QUESTION_WORDS.contains(&w.as_str()))
        .map(|w| w.trim_end_matches('s').to_string())
        .collect()
}

/// The answer text: the best-matching sentences as quotes with their links.
fn compose(input: &GenerationInput) -> String {
    let asked = words(&input.question);
    let mut candidates: Vec<(f32, usize, usize, String)> = Vec::new();
    for (rank, section) in input.sections.iter().enumerate() {
        for (position, sentence) in sentences(&section.content).into_iter().enumerate() {
            let found = words(&sentence);
            let overlap = asked.intersection(&found).count();
            if overlap == 0 {
                continue;
            }
            // Earlier-ranked sections and earlier sentences break ties.
            let score = overlap as f32 / (asked.len().max(1) as f32)
                - rank as f32 * 0.01
                - position as f32 * 0.001;
            candidates.push((score, rank, position, sentence));
        }
    }
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    candidates.truncate(MAX_SENTENCES);
    if candidates.is_empty() {
        return format!(
            "I could not find anything about that in the {} documentation. Try other words, or browse the documentation directly.",
            input.site_name
        );
    }
    candidates.sort_by_key(|c| (c.1, c.2));
    let mut answer = format!(
        "Here is what the {} documentation says:\n\n",
        input.site_name
    );
    for (_, rank, _, sentence) in &candidates {
        let section = &input.sections[*rank];
        answer.push_str(&format!(
            "> {sentence}\n\nFrom [{}]({})\n\n",
            section.label(),
            section.url
        ));
    }
    answer.trim_end().to_string()
}

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        if matches!(c, '.' | '!' | '?') && current.trim().len() > 1 {
            out.push(current.trim().to_string());
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(title: &str, path: &str, content: &str) -> RetrievedSection {
        RetrievedSection {
            path: path.into(),
            anchor: String::new(),
            title: title.into(),
            heading_trail: vec![title.into()],
            content: content.into(),
            url: format!("/{path}"),
        }
    }

    #[test]
    fn quotes_the_matching_sentences_with_links() {
        let input = GenerationInput {
            site_name: "Acme".into(),
            question: "How are failed webhook deliveries retried?".into(),
            sections: vec![section(
                "Webhooks",
                "guides/webhooks",
                "Register an endpoint. Failed deliveries are retried with exponential backoff for up to 24 hours.",
            )],
            history: Vec::new(),
        };
        let answer = compose(&input);
        assert!(
            answer.contains(
                "> Failed deliveries are retried with exponential backoff for up to 24 hours."
            ),
            "{answer}"
        );
        assert!(answer.contains("[Webhooks](/guides/webhooks)"), "{answer}");
    }

    #[test]
    fn says_so_when_nothing_matches() {
        let input = GenerationInput {
            site_name: "Acme".into(),
            question: "zeppelin pricing".into(),
            sections: vec![section("Webhooks", "w", "Register an endpoint.")],
            history: Vec::new(),
        };
        assert!(
            compose(&input)
                .starts_with("I could not find anything about that in the Acme documentation")
        );
    }
}
