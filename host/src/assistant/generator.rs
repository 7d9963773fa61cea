//! Answer generators: what one is given and how it streams. The built-in one is extractive and
//! offline (`extractive`): it quotes the retrieved sentences that answer the question, with
//! links, and says plainly when the documentation does not, instead of inventing an answer.

use futures::stream::BoxStream;

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
