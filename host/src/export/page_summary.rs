//! What an export takes of a page besides its files' contents, kept in the render cache under
//! a key derived from the page's render key: its sections counted for the offline search index
//! (`bundle::PageSections`, with their documents as the index's chunks hold them), what the
//! site-wide files list of it, and each file's path, size and SHA-256. With it, and an earlier
//! archive holding each of those files, an export of an unchanged page reads neither the page
//! nor its files: it copies the earlier archive's entries (`files::BundleFile::Kept`). Counting
//! sections and hashing files was most of what an export of a large site's unchanged pages did
//! (BENCHMARKS.md).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::assembly::{EarlierArchive, Entry};
use crate::bundle::PageSections;
use crate::plugins::{RenderedPage, Warning};
use crate::rendering::{PageKey, RenderCache};
use crate::sites::PageEntry;

/// Names what is kept. The host counts the sections' terms, so another host version keys
/// apart; the number changes with what a summary holds.
const KIND: &str = concat!("page-summary/6/", env!("CARGO_PKG_VERSION"));

/// A page as an export needs it when it does not read the page.
#[derive(Serialize, Deserialize)]
pub(super) struct PageSummary {
    pub title: String,
    pub description: Option<String>,
    pub indexable: bool,
    pub needs: Vec<String>,
    pub warnings: Vec<Warning>,
    pub files: Vec<FileSummary>,
    pub sections: PageSections,
}

impl PageSummary {
    /// The summary of `output`, the page `page` with `files`, its sections taken out of it and
    /// counted.
    fn of(page: &PageEntry, output: &mut RenderedPage, files: Vec<FileSummary>) -> Self {
        Self {
            sections: count(page, output),
            title: output.title.clone(),
            description: output.description.clone(),
            indexable: output.indexable,
            needs: output.needs.clone(),
            warnings: output.warnings.clone(),
            files,
        }
    }
}

/// One of a page's files, as the bundle's manifest lists it.
#[derive(Serialize, Deserialize, PartialEq, Eq)]
pub(super) struct FileSummary {
    pub path: String,
    pub size: u64,
    /// Hex, as the manifest has it.
    pub sha256: String,
}

/// What the render side made of a page for the export.
pub(super) enum PagePrepared {
    /// The page was read: its sections, and its files' SHA-256 in the order of its files.
    Read {
        sections: PageSections,
        hashes: Vec<String>,
    },
    /// The page was not read: its summary, and the earlier archive's entry for each of its
    /// files, in order, read and checked.
    Kept {
        summary: PageSummary,
        entries: Vec<Entry>,
    },
}

/// Where summaries are kept and read from, and the archive whose entries a page not read
/// takes its files from.
#[derive(Clone, Copy)]
pub(super) struct Summaries<'a> {
    /// Only a cache on a local disk: reading a summary from remote storage costs a round trip,
    /// more than counting and hashing do.
    cache: Option<&'a RenderCache>,
    earlier: Option<&'a EarlierArchive>,
}

impl<'a> Summaries<'a> {
    pub fn new(cache: Option<&'a RenderCache>, earlier: Option<&'a EarlierArchive>) -> Self {
        Self {
            cache: cache.filter(|cache| cache.reads_are_local()),
            earlier,
        }
    }

    /// The page `page` rendered or found under `key`, made ready on the thread that has it:
    /// its files hashed, and its sections taken out of `output` and counted, or, when its
    /// summary is kept for the same files, taken from there. A summary is kept for the next
    /// export.
    pub fn read(
        &self,
        page: &PageEntry,
        key: Option<&PageKey>,
        output: &mut RenderedPage,
    ) -> PagePrepared {
        let files: Vec<FileSummary> = output
            .files
            .iter()
            .map(|file| FileSummary {
                path: file.path.clone(),
                size: file.contents.len() as u64,
                sha256: hex::encode(Sha256::digest(&file.contents)),
            })
            .collect();
        let kept_key = self
            .cache
            .zip(key)
            .map(|(cache, key)| (cache, kept_key(page, key)));
        let kept = kept_key
            .and_then(|(cache, key)| cache.get_bytes(&key))
            .and_then(|bytes| postcard::from_bytes::<PageSummary>(&bytes).ok())
            .filter(|summary| summary.files == files);
        let summary = match kept {
            Some(summary) => {
                // As counting takes them: nothing after this reads a page's sections.
                output.sections.clear();
                summary
            }
            None => {
                let mut summary = PageSummary::of(page, output, files);
                // Kept with the summary, so that an export that reads it does not write them.
                summary.sections.write_documents();
                if let Some((cache, key)) = kept_key
                    && let Ok(bytes) = postcard::to_allocvec(&summary)
                {
                    cache.put_bytes(&key, &bytes);
                }
                summary
            }
        };
        // Its documents are written: read back with the summary, or just above.
        PagePrepared::Read {
            hashes: summary.files.into_iter().map(|f| f.sha256).collect(),
            sections: summary.sections,
        }
    }

    /// The page `page` under `key` without reading it: its kept summary, when the earlier
    /// archive holds every one of its files with checked bytes.
    pub fn kept(&self, page: &PageEntry, key: &PageKey) -> Option<PagePrepared> {
        let (cache, earlier) = self.cache.zip(self.earlier)?;
        let bytes = cache.get_bytes(&kept_key(page, key))?;
        // Read back, its sections come with their documents written.
        let summary: PageSummary = postcard::from_bytes(&bytes).ok()?;
        let entries = summary
            .files
            .iter()
            .map(|file| earlier.entry(&file.path, &file.sha256))
            .collect::<Option<Vec<_>>>()?;
        Some(PagePrepared::Kept { summary, entries })
    }
}

/// The sections of `output` for the offline search index, taken out of it: none for a page
/// the index does not take (`PageEntry::searchable`), so that its summary, which an export of
/// an unchanged page reads, holds no text (most of a large site's pages, on some sites).
pub(super) fn count(page: &PageEntry, output: &mut RenderedPage) -> PageSections {
    if !page.searchable {
        output.sections.clear();
        return PageSections::none();
    }
    PageSections::count(
        &page.path,
        output,
        page.version.as_deref(),
        page.language.as_deref(),
    )
}

/// The key of the summary of `page` rendered under `key`: a summary follows from the page's
/// output, its path, its place in the navigation and whether it is searched (whose sections
/// it holds only then).
fn kept_key(page: &PageEntry, key: &PageKey) -> [u8; 32] {
    let searched = if page.searchable {
        "searched"
    } else {
        "not searched"
    };
    key.derived(
        KIND,
        &[
            Some(&page.path),
            page.version.as_deref(),
            page.language.as_deref(),
            Some(searched),
        ],
    )
}
