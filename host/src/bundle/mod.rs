//! What an export adds around the renderer's pages, whatever the renderer: each page's Markdown
//! source beside it, `sitemap.xml` and `robots.txt`, `llms.txt` and `llms-full.txt`, the
//! offline search index (and its reader, `offline_search`), `pages.json`, the assistant the
//! bundle carries (`assistant`), and `manifest.json` listing every file with its size and
//! SHA-256.
//! Built here rather than in the renderer plugin so every renderer's bundle has them, and so
//! whole-site files stream through the host instead of piling up in a plugin's memory.

pub mod assistant;
mod counted_section;
mod fallback;
pub mod file_patch;
mod group_postings;
mod index_groups;
mod index_thread;
mod kept_full_text;
mod kept_markdown;
pub mod llms;
mod manifest;
mod merged_postings;
pub mod offline_search;
mod page_list;
mod page_sections;
pub mod redirects;
mod search_chunks;
mod search_index;
mod shard_keys;
mod sitemap;
mod term_shards;

pub use fallback::fallback_page;
use llms::FULL_TEXT_FILE;
pub use llms::INDEX_FILE as LLMS_INDEX_FILE;
pub use manifest::{
    MANIFEST_FILE, MANIFEST_PATCH_FILE, Manifest, ManifestBuilder, ManifestPatch, PATCH_ENTRIES,
    PatchError, PatchedFile,
};
pub use page_list::{ListedPage, PAGE_LIST_FILE, PageList};
pub use page_sections::PageSections;

/// The feature file every bundle carries, which a docs server replaces.
pub use quire_core::features::{FILE as FEATURES_FILE, script as features_script};
pub use quire_core::tokens::browser::tokens;
pub use search_index::{
    CountedSection, SearchDocument, SearchIndexBuilder, StoredSection, shard_of,
};

use sha2::{Digest, Sha256};

use crate::plugins::{OutputFile, RenderedPage};

/// A page as the site-wide files list it.
struct Listing {
    path: String,
    title: String,
    description: Option<String>,
    version: Option<String>,
    language: Option<String>,
}

/// What the site-wide files take of a rendered page besides its sections.
#[derive(Clone, Copy)]
pub struct PageFacts<'a> {
    pub title: &'a str,
    pub description: Option<&'a str>,
    /// Not hidden or noindex: listed in the sitemap and llms files.
    pub indexable: bool,
    /// Reachable in the navigation (or taken in by `seo.indexing` or a `searchable` entry,
    /// `sites::searchable`): in the offline search index, as the server's search has the
    /// same pages.
    pub searchable: bool,
}

impl<'a> PageFacts<'a> {
    /// The facts of `page`, which is `searchable` or not.
    pub fn of(page: &'a RenderedPage, searchable: bool) -> Self {
        Self {
            title: &page.title,
            description: page.description.as_deref(),
            indexable: page.indexable,
            searchable,
        }
    }
}

/// The files [`SiteFiles::add_page`] adds beside a page.
pub struct PageFiles {
    /// The page's source, as `{path}.md`.
    pub markdown: OutputFile,
    /// The Markdown's SHA-256 (hex), where it is known without hashing it.
    pub markdown_sha256: Option<String>,
    /// The search index's document chunks the page's sections filled.
    pub chunks: Vec<OutputFile>,
}

impl PageFiles {
    /// The files, each with its SHA-256 (hex) where it is known.
    pub fn into_files(self) -> impl Iterator<Item = (OutputFile, Option<String>)> {
        std::iter::once((self.markdown, self.markdown_sha256))
            .chain(self.chunks.into_iter().map(|chunk| (chunk, None)))
    }
}

/// A page an export adds without reading its source ([`SiteFiles::unread_page`]).
pub struct UnreadPage {
    /// Its Markdown beside it, as this process kept it.
    pub markdown: kept_markdown::MarkdownFacts,
    /// Its part of `llms-full.txt`, from the last one made for the site; none when the file
    /// does not take the page.
    full_text_part: Option<kept_full_text::PartKey>,
}

/// Collects what the site-wide files need while pages are rendered.
pub struct SiteFiles {
    domain: String,
    name: String,
    listed: Vec<Listing>,
    search: index_thread::IndexThread,
    /// The index's documents, written into chunks here in the pages' order while the index's
    /// thread collects their postings: the chunks go into the bundle as they fill, beside the
    /// pages, rather than all at its end.
    chunks: search_index::ChunkWriter,
    /// Where the index's groups of pages close, for its documents and its postings alike.
    groups: index_groups::GroupCut,
    full_text: llms::FullText,
    redirects: quire_core::redirects::Redirects,
    /// docs.json `variables`, replaced in the page sources the bundle carries as Markdown.
    variables: quire_core::variables::Variables,
    /// Where the pages' Markdown is kept by its sources' hashes, with these variables.
    markdown: kept_markdown::MarkdownContext,
    /// docs.json `description`: the summary under `llms.txt`'s title.
    description: Option<String>,
}

impl SiteFiles {
    /// For the site `name` served at `domain`.
    pub fn new(domain: &str, name: &str) -> Self {
        Self {
            domain: domain.to_string(),
            name: name.to_string(),
            listed: Vec::new(),
            search: index_thread::IndexThread::default(),
            chunks: search_index::ChunkWriter::default(),
            groups: index_groups::GroupCut::default(),
            full_text: llms::FullText::for_site(domain),
            redirects: quire_core::redirects::Redirects::default(),
            variables: quire_core::variables::Variables::default(),
            markdown: kept_markdown::MarkdownContext::of(&Default::default()),
            description: None,
        }
    }

    /// Adds the site's description (docs.json `description`), which `llms.txt` gives under its
    /// title.
    pub fn with_description(mut self, description: Option<&str>) -> Self {
        self.description = description
            .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|d| !d.is_empty());
        self
    }

    /// Adds the site's variables, replaced in each page's Markdown as the renderer replaces
    /// them in its HTML.
    pub fn with_variables(mut self, variables: quire_core::variables::Variables) -> Self {
        self.markdown = kept_markdown::MarkdownContext::of(&variables);
        self.variables = variables;
        self
    }

    /// Adds the site's redirect rules: their pages and table go into the bundle.
    pub fn with_redirects(mut self, redirects: quire_core::redirects::Redirects) -> Self {
        self.redirects = redirects;
        self
    }

    /// Takes note of a rendered page (`facts`, and its `sections` for the search index) and
    /// returns the files to add beside it: its source as `{path}.md`, and the search index's
    /// document chunks its sections filled. Pages marked hidden or noindex stay out of the
    /// sitemap and llms files, and pages not searchable out of search. `version` and
    /// `language` are the page's place in the navigation, if any. `source_sha256` is the
    /// SHA-256 of `source`'s bytes where it is known (the version's manifest records each
    /// file's), which is then the Markdown's too unless a variable is replaced in it.
    pub fn add_page(
        &mut self,
        path: &str,
        (source, source_sha256): (String, Option<&[u8; 32]>),
        facts: PageFacts<'_>,
        sections: PageSections,
        scope: (Option<&str>, Option<&str>),
    ) -> PageFiles {
        let (source, markdown_sha256) = match self.variables.substitute(&source) {
            std::borrow::Cow::Owned(replaced) => (replaced, None),
            std::borrow::Cow::Borrowed(_) => (source, source_sha256.copied()),
        };
        let full_text_body = llms::full_text_body(&source);
        let mut part_key = None;
        if let Some(source_sha256) = source_sha256 {
            let markdown = kept_markdown::MarkdownFacts {
                sha256: markdown_sha256.unwrap_or_else(|| Sha256::digest(source.as_bytes()).into()),
                size: source.len() as u64,
                full_text_len: full_text_body.len(),
            };
            self.markdown.put(source_sha256, markdown);
            // Only `llms-full.txt` takes a part, and only of an indexable page.
            part_key = facts.indexable.then(|| {
                kept_full_text::part_key(&self.markdown, source_sha256, path, facts.title)
            });
        }
        let chunks = self.take_note(path, facts, sections, scope, |full_text| {
            full_text.add(path, facts.title, full_text_body, part_key)
        });
        PageFiles {
            markdown: OutputFile {
                path: format!("{path}.md"),
                contents: source.into_bytes(),
            },
            markdown_sha256: markdown_sha256.map(hex::encode),
            chunks,
        }
    }

    /// A page whose source has the SHA-256 `source_sha256` and that can be added unread
    /// ([`SiteFiles::add_unread_page`]): when this process kept its Markdown (copied by its
    /// hash from an earlier archive) and either `llms-full.txt` does not take the page or the
    /// last one made for the site holds its part.
    pub fn unread_page(
        &self,
        source_sha256: &[u8; 32],
        path: &str,
        facts: PageFacts<'_>,
    ) -> Option<UnreadPage> {
        let markdown = self.markdown.get(source_sha256)?;
        if !(facts.indexable && self.full_text.takes(markdown.full_text_len)) {
            return Some(UnreadPage {
                markdown,
                full_text_part: None,
            });
        }
        let key = kept_full_text::part_key(&self.markdown, source_sha256, path, facts.title);
        self.full_text.has_earlier(&key).then_some(UnreadPage {
            markdown,
            full_text_part: Some(key),
        })
    }

    /// [`SiteFiles::add_page`] for a page whose source was not read, after
    /// [`SiteFiles::unread_page`] found it: the search index's document chunks its sections
    /// filled, its Markdown being the caller's to add.
    pub fn add_unread_page(
        &mut self,
        path: &str,
        facts: PageFacts<'_>,
        sections: PageSections,
        scope: (Option<&str>, Option<&str>),
        unread: &UnreadPage,
    ) -> Vec<OutputFile> {
        let body_len = unread.markdown.full_text_len;
        self.take_note(path, facts, sections, scope, |full_text| {
            match unread.full_text_part {
                Some(key) => full_text.add_earlier(key, body_len),
                None => full_text.leave_out(),
            }
        })
    }

    /// Takes note of a page in the site-wide files (its `llms-full.txt` part by `full_text`)
    /// and returns the search index's document chunks it filled, and `llms-full.txt` when
    /// this page completed it.
    fn take_note(
        &mut self,
        path: &str,
        facts: PageFacts<'_>,
        sections: PageSections,
        (version, language): (Option<&str>, Option<&str>),
        full_text: impl FnOnce(&mut llms::FullText),
    ) -> Vec<OutputFile> {
        if facts.indexable {
            self.listed.push(Listing {
                path: path.to_string(),
                title: facts.title.to_string(),
                description: facts.description.map(str::to_string),
                version: version.map(str::to_string),
                language: language.map(str::to_string),
            });
            full_text(&mut self.full_text);
        }
        if facts.searchable && !sections.is_empty() {
            match &sections.documents {
                Some(documents) => {
                    let mut start = 0;
                    for &end in &documents.ends {
                        self.chunks.push_json(&documents.json[start..end]);
                        start = end;
                    }
                }
                None => sections.each(|section| self.chunks.push(section.document)),
            }
            // One decision for both halves: the documents' numbers and the postings'
            // must agree on where each group starts.
            self.chunks.end_page();
            let closes = self.groups.closes_after(path);
            if closes {
                self.chunks.end_group();
            }
            self.search.add(sections, closes);
        }
        let mut ready: Vec<OutputFile> = self
            .chunks
            .take_ready()
            .into_iter()
            .map(|(path, contents)| OutputFile { path, contents })
            .collect();
        if let Some(text) = self.full_text.take_complete() {
            ready.push(file(FULL_TEXT_FILE, text));
        }
        ready
    }

    /// Says every page has been added, so the search index's thread can write its term shards
    /// while the export makes what is left (the renderer's site-wide output, the static
    /// assets, the other site files); `finish` calls it too.
    pub fn pages_done(&mut self) {
        self.search.close();
    }

    /// The site-wide files.
    pub fn finish(mut self) -> Vec<OutputFile> {
        self.pages_done();
        let pages: Vec<(&str, &str, Option<&str>)> = self
            .listed
            .iter()
            .map(|l| (l.path.as_str(), l.title.as_str(), l.description.as_deref()))
            .collect();
        let mut files = vec![
            file("sitemap.xml", sitemap::sitemap(&self.domain, &pages)),
            file("robots.txt", sitemap::robots(&self.domain)),
            file(
                LLMS_INDEX_FILE,
                llms::index(&self.name, self.description.as_deref(), &pages),
            ),
        ];
        if let Some(text) = self.full_text.finish() {
            files.push(file(FULL_TEXT_FILE, text));
        }
        let page_list = PageList {
            name: self.name.clone(),
            domain: self.domain.clone(),
            pages: self
                .listed
                .iter()
                .map(|l| ListedPage {
                    path: l.path.clone(),
                    title: l.title.clone(),
                    description: l.description.clone(),
                    version: l.version.clone(),
                    language: l.language.clone(),
                })
                .collect(),
        };
        files.push(OutputFile {
            path: PAGE_LIST_FILE.to_string(),
            contents: serde_json::to_vec(&page_list).unwrap_or_default(),
        });
        files.extend(
            self.search
                .finish()
                .into_iter()
                .chain(self.chunks.finish())
                .map(|(path, contents)| OutputFile { path, contents }),
        );
        files.extend(redirects::files(&self.redirects));
        files
    }
}

fn file(path: &str, contents: String) -> OutputFile {
    OutputFile {
        path: path.to_string(),
        contents: contents.into_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::page_sections::Sections;
    use super::*;

    fn document(i: usize) -> SearchDocument {
        SearchDocument {
            path: format!("guides/page-{i}"),
            anchor: if i.is_multiple_of(3) {
                String::new()
            } else {
                format!("part-{i}")
            },
            trail: vec![format!("Page {i}"), "Retries".into()],
            text: format!("Webhooks retry {i} times, with <backoff> number{i}."),
            scope: "v1/en".into(),
        }
    }

    /// The search files of a site whose pages come with counted sections and, every other
    /// page, stored ones (as a kept summary gives them back), some with their documents
    /// written already, documents and postings collected on two threads: the files one
    /// builder makes of the same sections in line.
    #[test]
    fn a_sites_search_files_are_one_builders_whatever_form_its_sections_come_in() {
        let mut site = SiteFiles::new("docs.test", "Docs");
        let mut files = Vec::new();
        for page in 0..40 {
            let counted = (0..3)
                .map(|s| CountedSection::of(document(page * 3 + s)))
                .collect();
            let mut sections = PageSections::of(Sections::Counted(counted));
            if page % 2 == 1 {
                // Stored with its documents written before, or written as it is stored.
                if page % 4 == 3 {
                    sections.write_documents();
                }
                let stored = postcard::to_allocvec(&sections).expect("stores");
                sections = postcard::from_bytes(&stored).expect("reads back");
                assert!(matches!(sections.sections, Sections::Stored(_)));
            }
            // Documents written on the page's thread, or by the site's.
            if page % 4 < 2 {
                sections.write_documents();
            }
            let facts = PageFacts {
                title: "Page",
                description: None,
                indexable: true,
                searchable: true,
            };
            let path = format!("guides/page-{page}");
            let beside = site.add_page(
                &path,
                ("# Page".into(), None),
                facts,
                sections,
                (None, None),
            );
            files.extend(beside.into_files().map(|(file, _)| file));
        }
        files.extend(site.finish());
        let mut ours: Vec<(String, Vec<u8>)> = files
            .into_iter()
            .filter(|file| file.path.starts_with("search/"))
            .map(|file| (file.path, file.contents))
            .collect();
        let mut builder = SearchIndexBuilder::default();
        let mut cut = index_groups::GroupCut::default();
        let mut expected = Vec::new();
        for page in 0..40 {
            for s in 0..3 {
                builder.add(document(page * 3 + s));
            }
            builder.end_page();
            if cut.closes_after(&format!("guides/page-{page}")) {
                builder.end_group();
            }
            expected.extend(builder.take_ready());
        }
        expected.extend(builder.finish().files);
        ours.sort();
        expected.sort();
        // Each page's three documents take eight numbers, and page 9 closes the first group
        // (80 numbers, chunks 0 and 1); the next group's are numbered from 256, chunk 4.
        let names: Vec<&str> = ours.iter().map(|(name, _)| name.as_str()).collect();
        for chunk in [0, 1, 4, 7] {
            assert!(
                names.contains(&format!("search/d{chunk}.js").as_str()),
                "{names:?}"
            );
        }
        assert!(!names.contains(&"search/d2.js") && !names.contains(&"search/d8.js"));
        assert_eq!(ours.len(), expected.len());
        assert!(ours == expected, "the same files, byte for byte");
    }

    /// Sections read back from their stored form come with their documents, as written from
    /// the sections; a stored form whose documents end out of order or past their bytes is
    /// refused, never cut at.
    #[test]
    fn stored_sections_keep_their_documents_and_damaged_ones_are_refused() {
        let counted = (0..4).map(|i| CountedSection::of(document(i))).collect();
        let mut sections = PageSections::of(Sections::Counted(counted));
        let stored = postcard::to_allocvec(&sections).expect("stores");
        sections.write_documents();
        let read: PageSections = postcard::from_bytes(&stored).expect("reads back");
        // Kept with the stored form, the digest is the one the counted sections hash to.
        assert!(read.digest().is_some());
        assert_eq!(read.digest(), sections.digest());
        let (ours, theirs) = (
            read.documents.expect("documents"),
            sections.documents.expect("written"),
        );
        assert_eq!((ours.json, ours.ends), (theirs.json, theirs.ends));

        let damaged = |ends: Vec<usize>| {
            let form = (
                serde_bytes::Bytes::new(&[0]),
                serde_bytes::Bytes::new(b"{}{}"),
                ends,
                [0u8; 32],
            );
            postcard::from_bytes::<PageSections>(&postcard::to_allocvec(&form).expect("stores"))
        };
        assert!(damaged(vec![2, 4]).is_ok());
        assert!(damaged(vec![3, 2]).is_err(), "out of order");
        assert!(damaged(vec![2, 5]).is_err(), "past the documents");
    }

    #[test]
    fn a_pages_markdown_keeps_its_sources_hash_unless_a_variable_is_replaced_in_it() {
        let (config, _) = quire_core::config::SiteConfig::parse(
            r#"{"name": "Docs", "navigation": {"pages": []}, "variables": {"release": "2.4"}}"#,
        )
        .expect("docs.json");
        let mut site = SiteFiles::new("docs.test", "Docs")
            .with_variables(quire_core::variables::Variables::of(&config));
        let known = [9u8; 32];
        let mut add = |path: &str, source: &str, sha256: Option<&[u8; 32]>| {
            let facts = PageFacts {
                title: "Page",
                description: None,
                indexable: false,
                searchable: true,
            };
            let none = PageSections::of(Sections::Counted(Vec::new()));
            site.add_page(path, (source.into(), sha256), facts, none, (None, None))
        };

        let plain = add("a", "# A", Some(&known));
        assert_eq!(plain.markdown.contents, b"# A");
        assert_eq!(plain.markdown_sha256, Some(hex::encode(known)));

        let replaced = add("b", "Release {{release}}", Some(&known));
        assert_eq!(replaced.markdown.contents, b"Release 2.4");
        assert_eq!(
            replaced.markdown_sha256, None,
            "the source's hash is not the Markdown's"
        );

        let unknown = add("c", "# C", None);
        assert_eq!(unknown.markdown_sha256, None);
    }
}
