//! The WIT glue: `index-builder` and `index` resources over the plain-Rust index.

use std::cell::RefCell;

use crate::{Filter, Index, IndexBuilder, Section};

wit_bindgen::generate!({
    world: "retriever",
    path: "../../wit",
});

use exports::quire::plugins::retrieve::{
    self as wit, Guest, GuestIndex, GuestIndexBuilder, Hit, Query,
};
use quire::plugins::types::Error;

struct Retriever;

struct BuilderResource(RefCell<Option<IndexBuilder>>);

struct IndexResource(Index);

impl Guest for Retriever {
    type IndexBuilder = BuilderResource;
    type Index = IndexResource;
}

impl GuestIndexBuilder for BuilderResource {
    fn new() -> Self {
        Self(RefCell::new(Some(IndexBuilder::new())))
    }

    fn add(&self, sections: Vec<wit::Section>) -> Result<(), Error> {
        let mut slot = self.0.borrow_mut();
        let builder = slot
            .as_mut()
            .ok_or_else(|| Error::InvalidInput("the index is already finished".into()))?;
        for s in sections {
            builder.add(Section {
                path: s.path,
                anchor: s.anchor,
                title: s.title,
                heading_trail: s.heading_trail,
                text: s.text,
                version: s.version,
                language: s.language,
            });
        }
        Ok(())
    }

    fn finish(&self) -> Result<Vec<u8>, Error> {
        let builder = self
            .0
            .borrow_mut()
            .take()
            .ok_or_else(|| Error::InvalidInput("the index is already finished".into()))?;
        builder.finish().map_err(Error::Internal)
    }
}

impl GuestIndex for IndexResource {
    fn load(bytes: Vec<u8>) -> Result<wit::Index, Error> {
        let index = Index::load(&bytes).map_err(Error::InvalidInput)?;
        Ok(wit::Index::new(IndexResource(index)))
    }

    fn search(&self, query: Query) -> Result<Vec<Hit>, Error> {
        let filter = Filter {
            version: query.filter.version,
            language: query.filter.language,
        };
        let ranked = self.0.search(
            &query.text,
            query.limit as usize,
            &filter,
            &query.boost_paths,
        );
        Ok(ranked
            .into_iter()
            .map(|r| {
                let s = self.0.section(r.section);
                Hit {
                    section: wit::Section {
                        path: s.path.clone(),
                        anchor: s.anchor.clone(),
                        title: s.title.clone(),
                        heading_trail: s.heading_trail.clone(),
                        text: s.text.clone(),
                        version: s.version.clone(),
                        language: s.language.clone(),
                    },
                    score: r.score,
                }
            })
            .collect())
    }
}

export!(Retriever);
