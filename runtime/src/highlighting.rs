//! The `highlighting` interface the host offers renderers: their code blocks highlighted in
//! native code by `quire-highlight`, on the calling plugin's thread.

use super::bindings::renderer::quire::plugins::highlighting::{Host, TokenKind, TokenRun};
use super::sandbox::PluginState;
use quire_highlight::TokenKind as Kind;

impl Host for PluginState {
    fn highlight(&mut self, language: String, code: String) -> Option<Vec<TokenRun>> {
        let runs = quire_highlight::highlight(&language, &code)?;
        Some(
            runs.into_iter()
                .map(|run| TokenRun {
                    start: run.start,
                    end: run.end,
                    kind: contract_kind(run.kind),
                })
                .collect(),
        )
    }
}

fn contract_kind(kind: Kind) -> TokenKind {
    match kind {
        Kind::Comment => TokenKind::Comment,
        Kind::String => TokenKind::String,
        Kind::Escape => TokenKind::Escape,
        Kind::Number => TokenKind::Number,
        Kind::Keyword => TokenKind::Keyword,
        Kind::Operator => TokenKind::Operator,
        Kind::Function => TokenKind::Function,
        Kind::Type => TokenKind::Type,
        Kind::Variable => TokenKind::Variable,
        Kind::Tag => TokenKind::Tag,
        Kind::Attribute => TokenKind::Attribute,
        Kind::Property => TokenKind::Property,
        Kind::Heading => TokenKind::Heading,
        Kind::Inserted => TokenKind::Inserted,
        Kind::Deleted => TokenKind::Deleted,
    }
}
