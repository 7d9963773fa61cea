//! Syntax highlighting in native code, which the host offers renderer plugins through the
//! contract's `highlighting` interface (and the SDK calls directly outside a component).
//!
//! Tree-sitter grammars (through arborium, with the `grammars` feature) parse the code; their
//! highlight captures (`keyword`, `function.method`, `string.special.key`, ...) are reduced to
//! a handful of token kinds, and nested captures are flattened so the innermost wins. The
//! result is runs of code that do not overlap, which a renderer turns into markup of its own.
//! Without the feature the crate is only the types, for components, which get the runs from
//! the host.

#[cfg(feature = "grammars")]
mod grammars;
#[cfg(feature = "grammars")]
mod memo;

#[cfg(feature = "grammars")]
pub use grammars::highlight;

/// Code longer than this is not highlighted (the caller shows it plain): a page's code block
/// is a few kilobytes, and parsing time grows with the code.
pub const MAX_CODE_BYTES: usize = 512 * 1024;

/// What a run of code is, for colouring. The kinds a documentation theme tells apart; anything
/// else (punctuation, plain identifiers) is plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Comment,
    String,
    /// An escape sequence or a regular expression inside a string.
    Escape,
    /// Numbers and other literal constants (`true`, `None`, `null`).
    Number,
    Keyword,
    Operator,
    Function,
    /// Types, classes, constructors and namespaces.
    Type,
    /// Parameters and built-in variables (`self`, `this`).
    Variable,
    /// Markup tag names.
    Tag,
    /// Markup attributes and annotations.
    Attribute,
    /// Object keys, fields and properties.
    Property,
    /// Markup headings and emphasis.
    Heading,
    Inserted,
    Deleted,
}

/// Bytes `start` to `end` of the code are of `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenRun {
    pub start: u32,
    pub end: u32,
    pub kind: TokenKind,
}
