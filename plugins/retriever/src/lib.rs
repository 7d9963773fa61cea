//! Quire's default retriever: BM25 over heading-level documentation sections.
//!
//! [`IndexBuilder`] and [`Index`] are plain Rust, tested natively; `component` is the WIT
//! glue, compiled only for WebAssembly.

#[cfg(target_arch = "wasm32")]
mod component;
mod index;
mod tokenize;

pub use index::{Filter, Index, IndexBuilder, Ranked, Section};
pub use tokenize::Tokenizer;
