//! The assistant a bundle carries (`quire-bundle-assistant`): its WebAssembly module and what it
//! answers from (the version's search index as the default retriever built it, the version's
//! vocabulary, and the site's name and page scopes), as scripts a page loads only when the
//! reader opens the assistant, so they load from `file://` too.
//!
//! The data is cut into content-defined chunks (FastCDC), each a file named by its hash: a
//! release that changes a page changes the few chunks holding its sections and postings, so an
//! assembled archive copies every other chunk and a docs server's delta carries only the new
//! ones, where one file of the whole index would be new in every release.
//!
//! - `assistant/answerer.js`: `QUIRE_ASSISTANT_MODULE`, the module's bytes in base64;
//! - `assistant/data.js`: `QUIRE_ASSISTANT_DATA`, each stream's chunk names in order;
//! - `assistant/chunks/{hash}.js`: `QUIRE_ASSISTANT_CHUNK(hash, base64)`.

use std::sync::LazyLock;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use sha2::{Digest, Sha256};

use crate::memo::TwoGenerations;
use crate::plugins::OutputFile;
use crate::sites::SiteManifest;
use quire_bundle_assistant::{Assistant, Scope, SegmentFacts, SiteFacts};

/// The index segments this process has checked, by the SHA-256 of their bytes: a release after
/// a one-page change shares all of its version's segments but one with the release before, and
/// only that one needs decoding to be checked (the others' checks held for the same bytes).
static CHECKED_SEGMENTS: LazyLock<TwoGenerations<[u8; 32], SegmentFacts>> =
    LazyLock::new(|| TwoGenerations::new(256));

/// The folder of the assistant's files, and the two a page loads first.
pub const ASSISTANT_DIR: &str = "assistant/";
pub const MODULE_FILE: &str = "assistant/answerer.js";
pub const DATA_FILE: &str = "assistant/data.js";
/// FastCDC's bounds: chunks of about 32 KiB, never under 8 KiB (but the last) or over 128 KiB.
/// A one-sentence change touches a chunk per new word's postings and one for the page's
/// sections: at 256 KiB those were 0.6 MB of a docs server's delta, at 32 KiB a tenth of it;
/// a reader who opens the assistant loads about 30 scripts per MiB, in parallel.
const MIN_CHUNK: usize = 8 << 10;
const AVERAGE_CHUNK: usize = 32 << 10;
const MAX_CHUNK: usize = 128 << 10;
/// The most data (index, vocabulary, site facts) a bundle's assistant carries: a reader's
/// browser loads all of it, as base64, into one tab's memory. The four real sites of our
/// corpora need 0.5 to 5.4 MiB; a 25,000-page site's index is 446 MB, which no reader should
/// download to ask a question.
pub const MAX_DATA_BYTES: usize = 64 << 20;

/// Why a version's assistant cannot be shipped.
#[derive(Debug, thiserror::Error)]
pub enum BundleAssistantError {
    #[error("the module is missing: {0}")]
    NoModule(String),
    #[error(transparent)]
    Unreadable(#[from] quire_bundle_assistant::AssistantError),
    #[error(
        "its data is {0} MiB, more than a reader's browser should load ({max} MiB); the bundle's search still works",
        max = MAX_DATA_BYTES >> 20
    )]
    TooLarge(usize),
}

/// What a bundle's assistant answers from.
pub struct AssistantData {
    /// The version's search index, as the default retriever built it.
    pub index: Vec<u8>,
    /// The version's vocabulary, when it has one.
    pub vocabulary: Option<Vec<u8>>,
    pub site: SiteFacts,
}

impl AssistantData {
    /// Checks that the bundle's assistant can load this data (the index is the default
    /// retriever's and not damaged): an assistant that would fail in every reader's browser is
    /// not shipped.
    pub fn check(&self) -> Result<(), BundleAssistantError> {
        let site = serde_json::to_vec(&self.site).unwrap_or_default();
        let size = self.index.len() + self.vocabulary.as_ref().map_or(0, Vec::len) + site.len();
        if size > MAX_DATA_BYTES {
            return Err(BundleAssistantError::TooLarge(size >> 20));
        }
        Assistant::check(&self.index, self.vocabulary.as_deref(), &site, |segment| {
            let key: [u8; 32] = Sha256::digest(segment).into();
            if let Some(facts) = CHECKED_SEGMENTS.get(&key) {
                return Ok(facts);
            }
            let facts = SegmentFacts::check(segment)?;
            CHECKED_SEGMENTS.put([(key, facts)]);
            Ok(facts)
        })?;
        Ok(())
    }

    /// The bundle's assistant files: `module` (the compiled `quire-bundle-assistant`) and the
    /// data, chunked.
    pub fn files(&self, module: &[u8]) -> Vec<OutputFile> {
        let mut files = vec![OutputFile {
            path: MODULE_FILE.to_string(),
            contents: format!(
                "// The docs assistant, compiled to WebAssembly (quire-bundle-assistant).\n\
                 window.QUIRE_ASSISTANT_MODULE = \"{}\";\n",
                BASE64.encode(module)
            )
            .into_bytes(),
        }];
        let site = serde_json::to_vec(&self.site).unwrap_or_default();
        let streams: [(&str, &[u8]); 3] = [
            ("index", &self.index),
            ("vocabulary", self.vocabulary.as_deref().unwrap_or_default()),
            ("site", &site),
        ];
        let mut listing = serde_json::Map::new();
        for (name, bytes) in streams {
            let mut names = Vec::new();
            for chunk in fastcdc::v2020::FastCDC::new(bytes, MIN_CHUNK, AVERAGE_CHUNK, MAX_CHUNK) {
                let chunk = &bytes[chunk.offset..chunk.offset + chunk.length];
                let hash = hex::encode(&Sha256::digest(chunk)[..16]);
                if !names.contains(&hash) {
                    files.push(OutputFile {
                        path: format!("{ASSISTANT_DIR}chunks/{hash}.js"),
                        contents: format!(
                            "QUIRE_ASSISTANT_CHUNK(\"{hash}\", \"{}\");\n",
                            BASE64.encode(chunk)
                        )
                        .into_bytes(),
                    });
                }
                names.push(hash);
            }
            listing.insert(name.to_string(), names.into());
        }
        files.push(OutputFile {
            path: DATA_FILE.to_string(),
            contents: format!(
                "// What the docs assistant answers from: each stream's chunks, in order.\n\
                 window.QUIRE_ASSISTANT_DATA = {};\n",
                serde_json::Value::Object(listing)
            )
            .into_bytes(),
        });
        files
    }
}

/// The facts of `manifest`'s site the assistant needs, as the API host's search takes them:
/// the site's name and each page's version and language, the first page's for a reader on no
/// known page.
pub fn site_facts(manifest: &SiteManifest) -> SiteFacts {
    let scope = |page: &crate::sites::PageEntry| Scope {
        version: page.version.clone(),
        language: page.language.clone(),
    };
    SiteFacts {
        name: manifest.name.clone(),
        scopes: manifest
            .pages
            .iter()
            .map(|page| (page.path.clone(), scope(page)))
            .collect(),
        default_scope: manifest.pages.first().map(scope).unwrap_or_default(),
    }
}

/// The module's bytes at `path`, once checked to be a WebAssembly module.
pub fn read_module(path: &std::path::Path) -> Result<Vec<u8>, BundleAssistantError> {
    let bytes = std::fs::read(path)
        .map_err(|e| BundleAssistantError::NoModule(format!("{}: {e}", path.display())))?;
    if !bytes.starts_with(b"\0asm") {
        return Err(BundleAssistantError::NoModule(format!(
            "{} is not a WebAssembly module",
            path.display()
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(index: Vec<u8>) -> AssistantData {
        AssistantData {
            index,
            vocabulary: None,
            site: SiteFacts {
                name: "Acme".into(),
                ..SiteFacts::default()
            },
        }
    }

    fn chunks(files: &[OutputFile]) -> Vec<&str> {
        files
            .iter()
            .filter(|f| f.path.starts_with("assistant/chunks/"))
            .map(|f| f.path.as_str())
            .collect()
    }

    #[test]
    fn an_edit_changes_the_chunks_around_it_only() {
        // Bytes with no repeats, so chunk boundaries depend on the content alone.
        let bytes = crate::testing::noise(4 << 20);
        let before = data(bytes.clone()).files(b"\0asm");
        let mut edited = bytes;
        edited.splice(
            2_000_000..2_000_010,
            b"a longer edit in the middle".iter().copied(),
        );
        let after = data(edited).files(b"\0asm");
        let (before, after) = (chunks(&before), chunks(&after));
        assert!(before.len() >= 8, "{} chunks", before.len());
        let new = after.iter().filter(|c| !before.contains(c)).count();
        assert!(new <= 2, "{new} of {} chunks are new", after.len());
    }

    #[test]
    fn the_data_lists_every_chunk_in_order() {
        // Three chunks of the largest size, all alike: listed thrice, written once.
        let files = data(vec![7; 3 * MAX_CHUNK]).files(b"\0asm");
        let listing = files.iter().find(|f| f.path == DATA_FILE).unwrap();
        let text = String::from_utf8(listing.contents.clone()).unwrap();
        let json = text
            .split_once(" = ")
            .unwrap()
            .1
            .trim_end()
            .trim_end_matches(';');
        let listing: serde_json::Value = serde_json::from_str(json).unwrap();
        let index = listing["index"].as_array().unwrap();
        assert_eq!(index.len(), 3, "{listing}");
        assert!(index.iter().all(|name| name == &index[0]), "{listing}");
        assert_eq!(
            chunks(&files).len(),
            2,
            "one file for the three, one for the site"
        );
        for name in index {
            let name = name.as_str().unwrap();
            assert!(
                files
                    .iter()
                    .any(|f| f.path == format!("assistant/chunks/{name}.js"))
            );
        }
        assert_eq!(listing["vocabulary"], serde_json::json!([]));
        assert!(data(vec![1, 2]).check().is_err(), "not an index");
        let too_large = data(vec![0; MAX_DATA_BYTES + 1]).check().unwrap_err();
        assert!(too_large.to_string().contains("64 MiB"), "{too_large}");
    }
}
