//! The built-in generator: the answer `quire_answer` composes, streamed as a model would
//! stream one (its sources first, then its text in word-sized pieces).

use futures::stream::{self, BoxStream};

use super::generator::{GenerateError, GenerationInput, Generator, Piece, word_pieces};

/// The built-in, offline generator.
pub struct ExtractiveGenerator;

impl Generator for ExtractiveGenerator {
    fn generate(&self, input: GenerationInput) -> BoxStream<'static, Result<Piece, GenerateError>> {
        let pieces: Vec<_> = answer(&input).map(Ok).collect();
        Box::pin(stream::iter(pieces))
    }
}

/// The built-in answer to `input` as pieces: the sources first, so a widget can show them
/// while the text arrives, then the text.
pub fn answer(input: &GenerationInput) -> impl Iterator<Item = Piece> + use<> {
    let answer = quire_answer::compose(&quire_answer::Question {
        site_name: &input.site_name,
        question: &input.question,
        sections: &input.sections,
        vocabulary: input.vocabulary.as_deref(),
    });
    let text: Vec<Piece> = word_pieces(&answer.text).collect();
    answer.cited.into_iter().map(Piece::Cite).chain(text)
}
