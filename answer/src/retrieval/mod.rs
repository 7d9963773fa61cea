//! What the assistant searches for a question and how it merges what the searches return,
//! whatever answers it afterwards (the built-in answer or a model) and wherever it runs (the
//! API host, or the exported site's assistant): a question standing alone is searched once,
//! steered by the reader's context; a follow-up is also searched steered by the conversation
//! (`follow_up`), and the rankings are fused (`fusion`). More sections are fetched than used,
//! so that copies and one page's many sections leave room for other pages (`diversity`).
//!
//! The searching itself is the caller's: the host asks its retriever component, the exported
//! site its copy of the default retriever's index.

mod diversity;
mod follow_up;
mod fusion;

pub use diversity::fetch_size;
pub use follow_up::{Steering, cited_headings, is_follow_up, steering};

use crate::question::searched_words;

/// Sections an answer draws from when the request does not say, and the most it may ask for.
pub const DEFAULT_RETRIEVAL_PAGE_SIZE: u32 = 5;
pub const MAX_RETRIEVAL_PAGE_SIZE: u32 = 50;

/// A section a search returned, as the merging sees it.
pub trait Ranked {
    /// The page path of the section.
    fn path(&self) -> &str;
    /// The section's anchor on its page (empty for the page's top).
    fn anchor(&self) -> &str;
    /// The section's text.
    fn text(&self) -> &str;
    /// Replaces the section's score by its fused one.
    fn set_score(&mut self, score: f32);
}

/// The searches one question takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searches {
    /// The question as asked.
    pub question: String,
    /// The reader's context added to each query (each item's start, space-separated).
    pub context: String,
    /// The main query: the question (or, for a follow-up, the question and the previous one)
    /// and the context. What the stream shows as searched.
    pub query: String,
    /// A follow-up's query steered by the headings the previous answer quoted.
    pub steered_by_citations: Option<String>,
}

impl Searches {
    /// The searches for `question` after `history` (oldest first, as (role, text)), with the
    /// reader's `context` (already cut, each item preceded by a space).
    pub fn plan(question: &str, history: &[(String, String)], context: &str) -> Self {
        let steering = steering(question, history);
        let query = match &steering {
            Some(steering) => format!("{}{context}", steering.by_question),
            None => format!("{question}{context}"),
        };
        Self {
            question: question.to_string(),
            context: context.to_string(),
            query,
            steered_by_citations: steering
                .and_then(|s| s.by_citations)
                .map(|q| format!("{q}{context}")),
        }
    }

    /// The queries to search, in the order `merge` takes their rankings: the main query alone,
    /// or, when it is not the question itself, the question, the main query and the query
    /// steered by citations; each without the words of the question's form (`searched_words`:
    /// "What kinds of API keys are there?" is searched as "API keys are there?").
    pub fn queries(&self) -> Vec<String> {
        if self.query == self.question {
            return vec![searched_words(&self.query)];
        }
        let mut queries = vec![self.question.as_str(), self.query.as_str()];
        queries.extend(self.steered_by_citations.as_deref());
        queries.into_iter().map(searched_words).collect()
    }

    /// The sections to answer from, at most `limit`: the rankings of `queries` (each fetched
    /// with `fetch_size(limit)`) fused when there are several, then made to vary.
    pub fn merge<H: Ranked>(&self, mut rankings: Vec<Vec<H>>, limit: usize) -> Vec<H> {
        if rankings.len() == 1 {
            let only = rankings.pop().unwrap_or_default();
            return diversity::diversify(only, limit);
        }
        let fused = fusion::fuse(rankings, usize::MAX);
        diversity::diversify(fused, limit)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A search hit for the tests.
    #[derive(Debug, Clone)]
    pub struct Hit {
        path: String,
        anchor: String,
        text: String,
        pub score: f32,
    }

    impl Hit {
        pub fn new(path: &str, anchor: &str, text: &str) -> Self {
            Self {
                path: path.into(),
                anchor: anchor.into(),
                text: text.into(),
                score: 1.0,
            }
        }
    }

    impl Ranked for Hit {
        fn path(&self) -> &str {
            &self.path
        }
        fn anchor(&self) -> &str {
            &self.anchor
        }
        fn text(&self) -> &str {
            &self.text
        }
        fn set_score(&mut self, score: f32) {
            self.score = score;
        }
    }

    pub fn paths(hits: &[Hit]) -> Vec<&str> {
        hits.iter().map(|h| h.path.as_str()).collect()
    }

    fn turn(role: &str, text: &str) -> (String, String) {
        (role.to_string(), text.to_string())
    }

    #[test]
    fn a_question_alone_is_searched_once_and_a_follow_up_three_ways() {
        let alone = Searches::plan("How do I rotate my API keys?", &[], " keys page");
        assert_eq!(
            alone.queries(),
            [
                "How do I rotate my API keys?",
                "How do I rotate my API keys? keys page"
            ],
            "the context steers a search fused with the question's"
        );
        let just_asked = Searches::plan("How do I rotate my API keys?", &[], "");
        assert_eq!(just_asked.queries(), ["How do I rotate my API keys?"]);
        let history = [
            turn("user", "How are webhooks retried?"),
            turn(
                "assistant",
                "> Retried.\n\nFrom [Webhooks › Retries](/webhooks#retries)",
            ),
        ];
        let follow_up = Searches::plan("And their signatures?", &history, "");
        assert_eq!(
            follow_up.queries(),
            [
                "And their signatures?",
                "And their signatures? How are webhooks retried?",
                "And their signatures? Webhooks Retries",
            ]
        );
        let merged = follow_up.merge(
            vec![
                vec![Hit::new("signing", "", "s")],
                vec![Hit::new("retries", "", "r"), Hit::new("signing", "", "s")],
                vec![Hit::new("signing", "", "s")],
            ],
            5,
        );
        assert_eq!(paths(&merged), ["signing", "retries"]);
    }
}
