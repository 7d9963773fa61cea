//! Syntax highlighting by the host, for renderers: [`highlight`] gives a code block's runs of
//! keywords, strings, comments and the rest, from tree-sitter grammars the host runs in native
//! code (the contract's `highlighting` interface). Outside a component (in native tests) the
//! same highlighter runs in the test's own process, so results do not depend on where the
//! renderer runs.

pub use quire_highlight::{MAX_CODE_BYTES, TokenKind, TokenRun};

/// The runs of `code` in `language` (a fence's language name; aliases such as `ts`, `py` and
/// `sh` work), in order and not overlapping; bytes between runs are plain. `None` when the
/// host has no grammar for the language or the code is longer than [`MAX_CODE_BYTES`].
///
/// Offsets are checked here: a run that does not fall on the code's character boundaries
/// makes the answer `None`, so slicing the code with the runs cannot panic.
#[cfg(feature = "renderer")]
pub fn highlight(language: &str, code: &str) -> Option<Vec<TokenRun>> {
    let runs = from_host(language, code)?;
    let valid = runs
        .iter()
        .all(|run| run.start < run.end && code.get(run.start as usize..run.end as usize).is_some())
        && runs.windows(2).all(|pair| pair[0].end <= pair[1].start);
    valid.then_some(runs)
}

#[cfg(all(feature = "renderer", target_arch = "wasm32"))]
fn from_host(language: &str, code: &str) -> Option<Vec<TokenRun>> {
    use crate::bindings::renderer::quire::plugins::highlighting::{self, TokenKind as Wit};
    let runs = highlighting::highlight(language, code)?;
    Some(
        runs.into_iter()
            .map(|run| TokenRun {
                start: run.start,
                end: run.end,
                kind: match run.kind {
                    Wit::Comment => TokenKind::Comment,
                    Wit::String => TokenKind::String,
                    Wit::Escape => TokenKind::Escape,
                    Wit::Number => TokenKind::Number,
                    Wit::Keyword => TokenKind::Keyword,
                    Wit::Operator => TokenKind::Operator,
                    Wit::Function => TokenKind::Function,
                    Wit::Type => TokenKind::Type,
                    Wit::Variable => TokenKind::Variable,
                    Wit::Tag => TokenKind::Tag,
                    Wit::Attribute => TokenKind::Attribute,
                    Wit::Property => TokenKind::Property,
                    Wit::Heading => TokenKind::Heading,
                    Wit::Inserted => TokenKind::Inserted,
                    Wit::Deleted => TokenKind::Deleted,
                },
            })
            .collect(),
    )
}

#[cfg(all(feature = "renderer", not(target_arch = "wasm32")))]
fn from_host(language: &str, code: &str) -> Option<Vec<TokenRun>> {
    quire_highlight::highlight(language, code)
}
