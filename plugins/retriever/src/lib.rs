//! Quire's default retriever: BM25 over heading-level documentation sections.
//!
//! [`IndexBuilder`] and [`Index`] are plain Rust, tested natively; `plugin` implements the
//! SDK's retriever traits over them and exports the component.

mod index;
#[cfg(feature = "component")]
mod plugin;

pub use index::{Index, IndexBuilder, Query, Ranked, Section, SegmentFacts, check_together};
pub use quire_sdk::tokens::Tokenizer;
