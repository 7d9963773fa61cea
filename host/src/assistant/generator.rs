//! Answer generators: what one is given and how it streams. The built-in one is extractive and
//! offline (`extractive`): it quotes the retrieved sentences that answer the question, with
//! links, and says plainly when the documentation does not, instead of inventing an answer.

use futures::future::BoxFuture;
use futures::stream::BoxStream;

use std::sync::Arc;

use super::RetrievedSection;
use crate::search::Vocabulary;

/// What a generator answers from.
pub struct GenerationInput {
    pub site_name: String,
    pub question: String,
    pub sections: Vec<RetrievedSection>,
    /// Earlier turns of the conversation as (role, text), oldest first.
    pub history: Vec<(String, String)>,
    /// The site's word counts, when its version has them: how much each word of the question
    /// tells (see `quire_answer::vocabulary`).
    pub vocabulary: Option<Arc<Vocabulary>>,
}

/// One piece of an answer, in the order the reader gets them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Answer text.
    Text(String),
    /// The answer uses `sections[i]` of its input: the assistant sends it as a source, once.
    /// Only the sections an answer cites become sources, never the rest of what was searched.
    /// It comes right after the text it supports (the line or mark that links the section),
    /// which is how the chat SDK's streams place a citation: between the text around it.
    Cite(usize),
}

/// A generator could not produce (the rest of) an answer.
#[derive(Debug, thiserror::Error)]
#[error("the answer generator failed: {0}")]
pub struct GenerateError(pub String);

/// Produces an answer as a stream of pieces.
pub trait Generator: Send + Sync {
    fn generate(&self, input: GenerationInput) -> BoxStream<'static, Result<Piece, GenerateError>>;

    /// A follow-up `question` rewritten as a query that stands alone, given the conversation
    /// before it; `None` when this generator does not rewrite (the built-in one: the assistant
    /// then steers the search itself, see `follow_up`) or the rewrite failed.
    fn standalone_query(
        &self,
        question: &str,
        history: &[(String, String)],
    ) -> BoxFuture<'static, Option<String>> {
        let _ = (question, history);
        Box::pin(async { None })
    }
}

/// `text` as word-sized text pieces (spaces kept), as a model would stream it.
pub fn word_pieces(text: &str) -> impl Iterator<Item = Piece> + '_ {
    text.split_inclusive(' ')
        .map(|w| Piece::Text(w.to_string()))
}

/// `text` as word-sized pieces with each citation right after the text it supports:
/// `citations` holds each cited section with the byte offset in `text` where it is first
/// linked, in order.
pub fn cited_pieces(text: &str, citations: impl IntoIterator<Item = (usize, usize)>) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut from = 0;
    for (section, at) in citations {
        let at = at.clamp(from, text.len());
        pieces.extend(word_pieces(text.get(from..at).unwrap_or_default()));
        pieces.push(Piece::Cite(section));
        from = at;
    }
    pieces.extend(word_pieces(text.get(from..).unwrap_or_default()));
    pieces
}
