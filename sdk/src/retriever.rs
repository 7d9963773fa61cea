//! Writing a retriever: an [`IndexBuilder`] that turns sections into bytes at publish time, and
//! an [`Index`] that loads those bytes when a server starts and answers searches. Export both
//! with [`export_retriever!`](crate::export_retriever).
//!
//! The host builds a site's index in segments (a builder per group of pages, so a publish that
//! changes one page builds one segment again) and hands [`Index::load`] all of them at once.

use serde::{Deserialize, Serialize};

use crate::Result;

/// A section of a page to index (serializable, so an index can store it as it came).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexSection {
    /// Page path without extension.
    pub path: String,
    /// The section heading's `id`; empty for the opening text.
    pub anchor: String,
    /// The page's title.
    pub title: String,
    /// Titles from the page title down to this section's heading.
    pub heading_trail: Vec<String>,
    pub text: String,
    pub version: Option<String>,
    pub language: Option<String>,
}

/// A search.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    pub text: String,
    /// The most hits to return.
    pub limit: usize,
    /// Only sections of this version, if set.
    pub version: Option<String>,
    /// Only sections of this language, if set.
    pub language: Option<String>,
    /// Pages to favour (the page the reader is on).
    pub boost_paths: Vec<String>,
}

impl Query {
    /// Whether `section` passes the query's version and language filter. A section with no
    /// version (or language) belongs to every version (or language): pages outside the
    /// `versions` of docs.json are shared by all of them.
    pub fn admits(&self, section: &IndexSection) -> bool {
        let passes = |wanted: &Option<String>, has: &Option<String>| match (wanted, has) {
            (Some(wanted), Some(has)) => wanted == has,
            _ => true,
        };
        passes(&self.version, &section.version) && passes(&self.language, &section.language)
    }
}

/// One ranked result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub section: IndexSection,
    /// Higher is better; comparable only within one search.
    pub score: f32,
}

/// Collects sections and serializes an index segment.
pub trait IndexBuilder: Default + 'static {
    /// Adds sections; called as often as needed.
    fn add(&mut self, sections: Vec<IndexSection>) -> Result<()>;
    /// The segment's bytes: the same for the same sections added in the same order, since the
    /// host keeps them by what went in.
    fn finish(self) -> Result<Vec<u8>>;
}

/// A loaded index.
pub trait Index: Sized + 'static {
    /// Loads the segments [`IndexBuilder::finish`] produced, in the site's order, as one index:
    /// a section must rank as it would in one segment built from every section (count a term's
    /// sections and the average length over all segments). Refuse bytes of another format with
    /// `Error::InvalidInput`: the host then asks for the site to be published again.
    fn load(segments: Vec<Vec<u8>>) -> Result<Self>;
    /// Ranks sections for `query`, best first, at most `query.limit`.
    fn search(&self, query: &Query) -> Result<Vec<Hit>>;
}

/// Exports an [`IndexBuilder`] and an [`Index`] as the component's `retriever` world:
/// `quire_sdk::export_retriever!(MyBuilder, MyIndex);`
#[macro_export]
macro_rules! export_retriever {
    ($builder:ty, $index:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[doc(hidden)]
        pub struct QuireRetrieverExport;
        #[cfg(target_arch = "wasm32")]
        impl $crate::bindings::retriever::exports::quire::plugins::retrieve::Guest
            for QuireRetrieverExport
        {
            type IndexBuilder = $crate::retriever::adapter::BuilderAdapter<$builder>;
            type Index = $crate::retriever::adapter::IndexAdapter<$index>;
        }
        #[cfg(target_arch = "wasm32")]
        $crate::bindings::retriever::export_retriever_world!(
            QuireRetrieverExport with_types_in $crate::bindings::retriever
        );
    };
}

/// The glue between the traits and the generated bindings.
#[cfg(feature = "retriever")]
#[doc(hidden)]
pub mod adapter {
    use std::cell::RefCell;

    use super::{Hit, Index, IndexBuilder, IndexSection, Query};
    use crate::Error;
    use crate::bindings::retriever::exports::quire::plugins::retrieve as wit;
    use crate::bindings::retriever::quire::plugins::types::Error as WitError;

    /// Holds the author's builder as the `index-builder` resource.
    pub struct BuilderAdapter<B>(RefCell<Option<B>>);

    /// Holds the author's index as the `index` resource.
    pub struct IndexAdapter<I>(I);

    fn finished() -> WitError {
        Error::invalid_input("the index is already finished").into()
    }

    impl<B: IndexBuilder> wit::GuestIndexBuilder for BuilderAdapter<B> {
        fn new() -> Self {
            Self(RefCell::new(Some(B::default())))
        }

        fn add(&self, sections: Vec<wit::Section>) -> Result<(), WitError> {
            let mut builder = self.0.borrow_mut();
            let builder = builder.as_mut().ok_or_else(finished)?;
            builder
                .add(sections.into_iter().map(from_wit).collect())
                .map_err(Into::into)
        }

        fn finish(&self) -> Result<Vec<u8>, WitError> {
            let builder = self.0.borrow_mut().take().ok_or_else(finished)?;
            builder.finish().map_err(Into::into)
        }
    }

    impl<I: Index> wit::GuestIndex for IndexAdapter<I> {
        fn load(segments: Vec<Vec<u8>>) -> Result<wit::Index, WitError> {
            Ok(wit::Index::new(Self(I::load(segments)?)))
        }

        fn search(&self, query: wit::Query) -> Result<Vec<wit::Hit>, WitError> {
            let query = Query {
                text: query.text,
                limit: query.limit as usize,
                version: query.filter.version,
                language: query.filter.language,
                boost_paths: query.boost_paths,
            };
            let hits = self.0.search(&query)?;
            Ok(hits
                .into_iter()
                .take(query.limit)
                .map(|Hit { section, score }| wit::Hit {
                    section: to_wit(section),
                    score,
                })
                .collect())
        }
    }

    fn from_wit(s: wit::Section) -> IndexSection {
        IndexSection {
            path: s.path,
            anchor: s.anchor,
            title: s.title,
            heading_trail: s.heading_trail,
            text: s.text,
            version: s.version,
            language: s.language,
        }
    }

    fn to_wit(s: IndexSection) -> wit::Section {
        wit::Section {
            path: s.path,
            anchor: s.anchor,
            title: s.title,
            heading_trail: s.heading_trail,
            text: s.text,
            version: s.version,
            language: s.language,
        }
    }
}
