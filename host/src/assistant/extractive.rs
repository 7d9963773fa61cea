//! The built-in generator: the answer `quire_answer` composes, streamed as a model would
//! stream one: its text in word-sized pieces, each source right after the line that links it.

use futures::stream::{self, BoxStream};

use super::generator::{GenerateError, GenerationInput, Generator, Piece, cited_pieces};

/// The built-in, offline generator.
pub struct ExtractiveGenerator;

impl Generator for ExtractiveGenerator {
    fn generate(&self, input: GenerationInput) -> BoxStream<'static, Result<Piece, GenerateError>> {
        let pieces: Vec<_> = answer(&input).map(Ok).collect();
        Box::pin(stream::iter(pieces))
    }
}

/// The built-in answer to `input` as pieces: its text, with each section it quotes cited right
/// after the quote's "From" line.
pub fn answer(input: &GenerationInput) -> impl Iterator<Item = Piece> + use<> {
    let answer = quire_answer::compose(&quire_answer::Question {
        site_name: &input.site_name,
        question: &input.question,
        sections: &input.sections,
        vocabulary: input.vocabulary.as_deref(),
    });
    let citations = answer.cited.into_iter().zip(answer.cited_at);
    cited_pieces(&answer.text, citations).into_iter()
}
