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

/// What the runs of some code depend on besides the code: the grammars' release and how their
/// captures are reduced to token kinds. A cache of pages drawn with this highlighter (the
/// host's render cache) keys by it, so a Quire built with other grammars renders its pages
/// again instead of serving them highlighted by the old ones. A test holds the release to
/// Cargo.lock's; the reduction's number goes up whenever a capture maps to another kind.
pub const FINGERPRINT: &str = "arborium 2.18.2; reduction 1";

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

#[cfg(test)]
mod tests {
    /// Every arborium package in the workspace's Cargo.lock, with its version.
    fn locked_grammars() -> Vec<(String, String)> {
        let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock"))
            .expect("the workspace's Cargo.lock");
        let mut found = Vec::new();
        let mut lines = lock.lines();
        while let Some(line) = lines.next() {
            let Some(name) = line.strip_prefix("name = \"arborium") else {
                continue;
            };
            let version = lines
                .next()
                .and_then(|l| l.strip_prefix("version = \""))
                .and_then(|v| v.strip_suffix('"'))
                .expect("a version after the name");
            found.push((
                format!("arborium{}", name.trim_end_matches('"')),
                version.to_string(),
            ));
        }
        found
    }

    #[test]
    fn the_fingerprint_names_the_locked_grammar_release() {
        let grammars = locked_grammars();
        assert!(grammars.len() > 1, "arborium and its grammars are locked");
        for (name, version) in grammars {
            assert!(
                super::FINGERPRINT.starts_with(&format!("arborium {version};")),
                "Cargo.lock has {name} {version} but FINGERPRINT says {:?}: update it, so that \
                 pages cached with the old grammars are rendered again",
                super::FINGERPRINT
            );
        }
    }
}
