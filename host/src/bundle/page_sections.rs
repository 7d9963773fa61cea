//! A page's sections made ready for the offline search index (`PageSections`): counted on the
//! page's thread, or read back from a page's summary in their stored form, with the search
//! documents the index's chunks hold of them. Apart from the site-wide files (`SiteFiles`),
//! which take them in the site's order on one thread.

use sha2::{Digest, Sha256};

use super::search_index::{self, CountedSection, SearchDocument, StoredSection};
use crate::plugins::RenderedPage;

/// A page's sections made ready for the offline search index, on whichever thread has the
/// page: counting the terms of every section is most of what an export of pages taken from
/// the render cache does, and [`SiteFiles`] runs on one thread. Serialised as their stored
/// form (postcard bytes), which is what a page's summary keeps and gives back: read back, they
/// stay bytes until the index's thread reads them in place.
pub struct PageSections {
    pub(super) sections: Sections,
    /// The documents' JSON as the index's chunks hold it, where written on the page's thread
    /// ([`PageSections::write_documents`]); not part of what is stored.
    pub(super) documents: Option<PageDocuments>,
    /// [`PageSections::digest`] as the stored form carries it: read back, a page's sections
    /// are not hashed again at every export (the offline index keys its groups by it).
    stored_digest: Option<[u8; 32]>,
}

/// A page's search documents as [`search_index::document_json`] writes them, one after another,
/// and where each ends.
pub(super) struct PageDocuments {
    pub(super) json: Vec<u8>,
    pub(super) ends: Vec<usize>,
}

/// The sections as counted on the page's thread, or in their stored form (postcard bytes).
pub(super) enum Sections {
    Counted(Vec<CountedSection>),
    Stored(Vec<u8>),
}

impl PageSections {
    /// The sections of `page` at `path` (taken out of it), scoped to the page's `version` and
    /// `language`: those of every page, as whether a page is searched is the site's to say
    /// (`PageFacts::searchable`; `seo.indexing: "all"` takes in even a hidden one).
    pub fn count(
        path: &str,
        page: &mut RenderedPage,
        version: Option<&str>,
        language: Option<&str>,
    ) -> Self {
        let scope = format!("{}/{}", version.unwrap_or(""), language.unwrap_or(""));
        let sections = std::mem::take(&mut page.sections).into_iter();
        Self::of(Sections::Counted(
            sections
                .map(|section| {
                    CountedSection::of(SearchDocument {
                        path: path.to_string(),
                        anchor: section.anchor,
                        trail: section.heading_trail,
                        text: section.text,
                        scope: scope.clone(),
                    })
                })
                .collect(),
        ))
    }

    /// No sections: those of a page the offline index does not take.
    pub fn none() -> Self {
        Self::of(Sections::Counted(Vec::new()))
    }

    pub(super) fn of(sections: Sections) -> Self {
        Self {
            sections,
            documents: None,
            stored_digest: None,
        }
    }

    /// Writes the sections' documents as the index's chunks hold them: work for the thread
    /// that has the page, so that the one that puts the chunks together, in the site's order,
    /// only copies bytes. Sections read back from their stored form have them written already.
    pub fn write_documents(&mut self) {
        if self.documents.is_none() {
            self.documents = Some(self.documents_written());
        }
    }

    pub(super) fn documents_written(&self) -> PageDocuments {
        let mut documents = PageDocuments {
            json: Vec::new(),
            ends: Vec::new(),
        };
        self.each(|section| {
            search_index::document_json(&mut documents.json, section.document);
            documents.ends.push(documents.json.len());
        });
        documents
    }

    /// The SHA-256 of the sections' stored form (postcard), which is what they are whether
    /// counted now or read back from a summary; `None` where they cannot be stored.
    pub(super) fn digest(&self) -> Option<[u8; 32]> {
        if let Some(digest) = self.stored_digest {
            return Some(digest);
        }
        match &self.sections {
            Sections::Stored(bytes) => Some(Sha256::digest(bytes).into()),
            Sections::Counted(sections) => postcard::to_allocvec(sections)
                .ok()
                .map(|bytes| Sha256::digest(&bytes).into()),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        match &self.sections {
            Sections::Counted(sections) => sections.is_empty(),
            // An empty list is stored as its length alone.
            Sections::Stored(bytes) => bytes.as_slice() == [0],
        }
    }

    /// Gives each section to `each`, in order; stored ones read in place. Stored sections that
    /// do not read back (the summary they came from passed its cache's check, so never in
    /// practice) give none, with an error in the log.
    pub(super) fn each(&self, mut each: impl FnMut(&super::counted_section::SectionParts<'_>)) {
        match &self.sections {
            Sections::Counted(sections) => sections.iter().for_each(|s| each(&s.parts())),
            Sections::Stored(bytes) => {
                match postcard::from_bytes::<Vec<StoredSection<'_>>>(bytes) {
                    Ok(sections) => sections.iter().for_each(|s| each(&s.parts())),
                    Err(e) => {
                        tracing::error!("a page's stored search sections do not read back: {e}")
                    }
                }
            }
        }
    }
}

/// The stored form: the sections (postcard bytes, read in place by the index's thread) and
/// their documents as the chunks hold them, written once when the page is counted. Kept with
/// the sections, the documents are not written again from them at every export that reads the
/// page's summary, which decoded every section twice (BENCHMARKS.md).
impl serde::Serialize for PageSections {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let counted;
        let sections = match &self.sections {
            Sections::Stored(bytes) => bytes,
            Sections::Counted(sections) => {
                counted = postcard::to_allocvec(sections).map_err(serde::ser::Error::custom)?;
                &counted
            }
        };
        let written;
        let documents = match &self.documents {
            Some(documents) => documents,
            None => {
                written = self.documents_written();
                &written
            }
        };
        let digest: [u8; 32] = match self.stored_digest {
            Some(digest) => digest,
            None => Sha256::digest(sections).into(),
        };
        (
            serde_bytes::Bytes::new(sections),
            serde_bytes::Bytes::new(&documents.json),
            &documents.ends,
            digest,
        )
            .serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for PageSections {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        type Stored = (
            serde_bytes::ByteBuf,
            serde_bytes::ByteBuf,
            Vec<usize>,
            [u8; 32],
        );
        let (sections, json, ends, digest): Stored = serde::Deserialize::deserialize(deserializer)?;
        // The chunks are cut at these ends: ones out of order or past the documents are damage,
        // refused here rather than cut at.
        let in_order = ends.windows(2).all(|pair| pair[0] <= pair[1]);
        if !in_order || ends.last().is_some_and(|&end| end > json.len()) {
            return Err(serde::de::Error::custom(
                "a page's stored search documents end out of order or past their bytes",
            ));
        }
        Ok(PageSections {
            sections: Sections::Stored(sections.into_vec()),
            documents: Some(PageDocuments {
                json: json.into_vec(),
                ends,
            }),
            stored_digest: Some(digest),
        })
    }
}
