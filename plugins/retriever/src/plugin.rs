//! The default retriever as a plugin: the SDK's retriever traits over the plain-Rust index,
//! exported as the `retriever` world (the SDK holds the WIT glue).

use quire_sdk::retriever::{self as sdk, Hit, IndexSection, Query};
use quire_sdk::{Error, Result};

use crate::{Index, IndexBuilder};

impl sdk::IndexBuilder for IndexBuilder {
    fn add(&mut self, sections: Vec<IndexSection>) -> Result<()> {
        for section in sections {
            self.add_section(section);
        }
        Ok(())
    }

    fn finish(self) -> Result<Vec<u8>> {
        self.to_bytes().map_err(Error::internal)
    }
}

impl sdk::Index for Index {
    fn load(segments: Vec<Vec<u8>>) -> Result<Self> {
        Index::from_segments(&segments).map_err(Error::invalid_input)
    }

    fn search(&self, query: &Query) -> Result<Vec<Hit>> {
        Ok(self
            .rank(query)
            .into_iter()
            .map(|ranked| Hit {
                section: self.section(ranked.section).clone(),
                score: ranked.score,
            })
            .collect())
    }
}

quire_sdk::export_retriever!(IndexBuilder, Index);
