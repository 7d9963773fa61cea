//! Render keys: the hash of everything a page's output depends on, under which the render
//! cache keeps it. The site part covers what every page is given: the renderer component's
//! digest, the host's highlighter it calls (its grammars' release) and the site as the
//! renderer sees it, less its version label (the contract has page output not depend on it)
//! and its snippets. The page part covers the page's input (its source by its SHA-256, which
//! the version's manifest records, so a page's key does not hash its whole source again) and
//! the snippets it reaches: those it imports or names in `<Snippet file="...">`, and theirs in
//! turn, so a changed snippet renders again only the pages that use it. A page whose references cannot be read (`<Snippet file={expression}>`)
//! depends on every snippet.

use std::collections::{BTreeMap, HashMap};

use quire_core::imports::{import_statements, snippet_file};
use quire_core::variables::Variables;
use sha2::{Digest, Sha256};

use super::source_facts::{FactsContext, SourceFacts, frontmatter_timestamp};
use crate::plugins::{PageInput, SiteInfo};

/// Changes whenever what a key covers changes, so older entries are simply not found.
const FORMAT: &[u8] = b"quire-render-key/4";
const HASH_LEN: usize = 32;
type Hash = [u8; HASH_LEN];

/// One page's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageKey(pub(super) Hash);

impl PageKey {
    /// The key of what a caller makes of the page's output, named `kind` (which should
    /// change whenever how it is made changes), given `inputs`, everything else it depends
    /// on (an absent input told apart from an empty one): kept beside the page with
    /// `RenderCache::put_bytes`.
    pub fn derived(&self, kind: &str, inputs: &[Option<&str>]) -> [u8; HASH_LEN] {
        let mut hash = Sha256::new();
        hash.update(b"quire-derived/1");
        for part in [Some(kind.as_bytes()), Some(&self.0[..])]
            .into_iter()
            .chain(inputs.iter().map(|input| input.map(str::as_bytes)))
        {
            match part {
                Some(bytes) => {
                    hash.update([1]);
                    hash.update((bytes.len() as u64).to_le_bytes());
                    hash.update(bytes);
                }
                None => hash.update([0]),
            }
        }
        hash.finalize().into()
    }

    /// [`PageKey::derived`] for what is made of the output of `page` at its place in the site
    /// (its path, version and language), which is all most makers depend on besides.
    pub fn derived_at(&self, kind: &str, page: &crate::sites::PageEntry) -> [u8; HASH_LEN] {
        self.derived(
            kind,
            &[
                Some(&page.path),
                page.version.as_deref(),
                page.language.as_deref(),
            ],
        )
    }
}

/// What a page's key takes of its input besides its source.
#[derive(serde::Serialize)]
struct KeyedInput<'a> {
    path: &'a str,
    file: &'a str,
    modified: Option<u64>,
}

/// The SHA-256 of a page's source as read, as the manifest lists a file's whose bytes it is.
pub fn digest_of(source: &str) -> Hash {
    Sha256::digest(source.as_bytes()).into()
}

/// A file's SHA-256 as hex names it (the version manifest's), as the key takes it.
pub fn source_digest(hex_sha256: &str) -> Option<Hash> {
    let mut digest = [0; HASH_LEN];
    hex::decode_to_slice(hex_sha256, &mut digest).ok()?;
    Some(digest)
}

/// What every page of one run shares in its key, and the site's snippets with what each one
/// references.
pub struct SiteKey {
    hash: Hash,
    snippets: HashMap<String, Snippet>,
    /// Every snippet, for a page whose references cannot be read.
    all_snippets: Hash,
    variables: Variables,
}

/// One snippet: its contents' hash and the snippets it references (`None`: unreadable).
struct Snippet {
    hash: Hash,
    references: Option<Vec<String>>,
}

impl SiteKey {
    /// The key of `site` rendered by the component whose digest is `renderer_sha256`, with
    /// code highlighted by the host's highlighter `highlighter` (its fingerprint).
    pub fn of(renderer_sha256: &str, highlighter: &str, site: &SiteInfo) -> Option<Self> {
        let shared = SiteInfo {
            version: String::new(),
            snippets: Vec::new(),
            ..site.clone()
        };
        let mut hash = Sha256::new();
        hash.update(FORMAT);
        hash.update((renderer_sha256.len() as u64).to_le_bytes());
        hash.update(renderer_sha256.as_bytes());
        hash.update((highlighter.len() as u64).to_le_bytes());
        hash.update(highlighter.as_bytes());
        hash.update(postcard::to_allocvec(&shared).ok()?);
        let settings = quire_core::config::SiteConfig::of(
            &quire_core::config::document(&site.config_json).unwrap_or_default(),
        );
        let variables = Variables::of(&settings);
        let mut all = Sha256::new();
        let mut snippets = HashMap::new();
        for file in &site.snippets {
            let contents = Sha256::digest(&file.contents).into();
            all.update((file.path.len() as u64).to_le_bytes());
            all.update(file.path.as_bytes());
            all.update(contents);
            let text = &file.contents;
            snippets.insert(
                file.path.clone(),
                Snippet {
                    hash: contents,
                    references: references(text, &file.path, &variables),
                },
            );
        }
        Some(Self {
            hash: hash.finalize().into(),
            snippets,
            all_snippets: all.finalize().into(),
            variables,
        })
    }

    /// The key of `page` in this site. `source_sha256` is the SHA-256 of its source where it
    /// is known already (the version's manifest records each file's); else it is hashed here.
    pub fn page(&self, page: &PageInput, source_sha256: Option<&Hash>) -> Option<PageKey> {
        let digest: Hash = match source_sha256 {
            Some(known) => *known,
            None => digest_of(&page.source),
        };
        let references = references(&page.source, &page.file, &self.variables);
        self.page_of(
            (&page.path, &page.file, page.modified),
            &digest,
            references.as_deref(),
        )
    }

    /// The key of the page `path` in `file`, shown with the date `modified`, whose source has
    /// the SHA-256 `source_sha256` and references `references` (`None`: some reference
    /// cannot be read), without its source: what [`SiteKey::page`] makes of it.
    pub fn page_of(
        &self,
        (path, file, modified): (&str, &str, Option<u64>),
        source_sha256: &Hash,
        references: Option<&[String]>,
    ) -> Option<PageKey> {
        let mut hash = Sha256::new();
        hash.update(self.hash);
        let input = KeyedInput {
            path,
            file,
            modified,
        };
        hash.update(postcard::to_allocvec(&input).ok()?);
        hash.update(source_sha256);
        match references.map(|references| self.reached(references.to_vec())) {
            Some(Some(reached)) => {
                for (path, contents) in reached {
                    hash.update((path.len() as u64).to_le_bytes());
                    hash.update(path.as_bytes());
                    // A snippet the site lacks is part of the key too: adding it changes the page.
                    hash.update(contents.map_or([0; HASH_LEN], |h| *h));
                }
            }
            _ => hash.update(self.all_snippets),
        }
        Some(PageKey(hash.finalize().into()))
    }

    /// What the key of a page in `file` with `source` reads of the source.
    pub fn facts(&self, source: &str, file: &str) -> SourceFacts {
        SourceFacts {
            references: references(source, file, &self.variables),
            timestamp: frontmatter_timestamp(source),
        }
    }

    /// What the facts of this site's pages are kept under besides their sources and files.
    pub fn facts_context(&self) -> FactsContext {
        FactsContext::of(&self.variables)
    }

    /// Every snippet a page referencing `references` reaches, in path order, with its
    /// contents' hash (`None` for one the site does not have); `None` when some reference
    /// cannot be read.
    fn reached(&self, mut pending: Vec<String>) -> Option<BTreeMap<String, Option<&Hash>>> {
        let mut reached = BTreeMap::new();
        while let Some(path) = pending.pop() {
            if reached.contains_key(&path) {
                continue;
            }
            let snippet = self.snippets.get(&path);
            if let Some(snippet) = snippet {
                pending.extend(snippet.references.clone()?);
            }
            reached.insert(path, snippet.map(|s| &s.hash));
        }
        Some(reached)
    }
}

/// The snippets `text` (the file `file`) references, as the renderer resolves them: its
/// imports of site files and its `<Snippet file="...">` elements, read in the text as written
/// and with the site's variables replaced (as the renderer reads snippets). Reading more than
/// the renderer would (an import inside a code block) costs a render; reading less would serve
/// a stale page, so an element whose file is an expression makes this `None`.
fn references(text: &str, file: &str, variables: &Variables) -> Option<Vec<String>> {
    let mut found = direct_references(text, file)?;
    if text.contains("{{") {
        found.extend(direct_references(&variables.substitute(text), file)?);
    }
    Some(found)
}

fn direct_references(text: &str, file: &str) -> Option<Vec<String>> {
    let mut found: Vec<String> = import_statements(text)
        .filter_map(|statement| snippet_file(statement.source, file))
        .collect();
    let mut rest = text;
    let element = memchr::memmem::Finder::new("<Snippet");
    while let Some(at) = element.find(rest.as_bytes()) {
        rest = &rest[at + "<Snippet".len()..];
        if !rest.starts_with(|c: char| c.is_whitespace() || c == '/' || c == '>') {
            continue; // `<SnippetCard>`: another element
        }
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        let Some(value) = tag.split_once("file=").map(|(_, v)| v.trim_start()) else {
            continue; // no file: the renderer warns, and reads none
        };
        let value = value.strip_prefix('{').map_or(value, str::trim_start);
        let quote = value
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'))?;
        let end = value[1..].find(quote)?;
        let named = value[1..1 + end].trim().trim_start_matches('/');
        found.push(if named.starts_with("snippets/") {
            named.to_string()
        } else {
            format!("snippets/{named}")
        });
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::SiteFile;

    fn site(snippets: &[(&str, &str)]) -> SiteInfo {
        SiteInfo {
            name: "Docs".into(),
            version: "v1".into(),
            navigation: Vec::new(),
            pages: vec!["a".into(), "b".into()],
            config_json: r#"{"variables": {"where": "/snippets/c.mdx"}}"#.into(),
            snippets: snippets
                .iter()
                .map(|(path, text)| SiteFile {
                    path: path.to_string(),
                    contents: text.to_string(),
                })
                .collect(),
            api_documents: Vec::new(),
            stylesheets: Vec::new(),
            scripts: Vec::new(),
            files: Vec::new(),
        }
    }

    fn page(source: &str) -> PageInput {
        PageInput {
            path: "guides/a".into(),
            file: "guides/a.mdx".into(),
            source: source.into(),
            modified: None,
        }
    }

    fn key(snippets: &[(&str, &str)], source: &str) -> PageKey {
        SiteKey::of("renderer", "highlighter", &site(snippets))
            .expect("site key")
            .page(&page(source), None)
            .expect("page key")
    }

    #[test]
    fn derived_keys_tell_their_kind_page_and_inputs_apart() {
        let (a, b) = (key(&[], "A"), key(&[], "B"));
        let derived = a.derived("sections", &[Some("p"), None]);
        assert_eq!(derived, a.derived("sections", &[Some("p"), None]));
        for other in [
            b.derived("sections", &[Some("p"), None]),
            a.derived("other", &[Some("p"), None]),
            a.derived("sections", &[Some("p"), Some("")]),
            a.derived("sections", &[Some("p"), None, None]),
            a.derived("sections", &[Some(""), Some("p")]),
        ] {
            assert_ne!(derived, other);
        }
        assert_ne!(derived, a.0, "never the page's own key");
    }

    #[test]
    fn references_are_imports_and_legacy_elements() {
        let none = Variables::default();
        let text = "import A from '/snippets/a.mdx';\nimport { b } from \"../shared/b.mdx\"\nimport R from 'react'\n\n<Snippet file=\"c.mdx\" />\n<Snippet file={'/snippets/d.mdx'} x=\"1\"/>\n<SnippetCard file=\"no.mdx\" />\n";
        let mut found = references(text, "guides/a.mdx", &none).expect("readable");
        found.sort();
        assert_eq!(
            found,
            [
                "shared/b.mdx",
                "snippets/a.mdx",
                "snippets/c.mdx",
                "snippets/d.mdx"
            ]
        );
        assert_eq!(references("<Snippet file={name} />", "a.mdx", &none), None);
    }

    #[test]
    fn a_page_key_changes_with_the_snippets_it_reaches_and_no_others() {
        let uses = "import A from '/snippets/a.mdx';\n\n<A />\n";
        let base = [
            ("snippets/a.mdx", "import B from './b.mdx'\n\n<B />"),
            ("snippets/b.mdx", "B"),
            ("snippets/other.mdx", "O"),
        ];
        let same = key(&base, uses);
        assert_eq!(same, key(&base, uses), "keys are stable");
        let mut other = base;
        other[2].1 = "O, changed";
        assert_eq!(same, key(&other, uses), "a snippet it does not reach");
        let mut nested = base;
        nested[1].1 = "B, changed";
        assert_ne!(
            same,
            key(&nested, uses),
            "a snippet it reaches through another"
        );
        let without_b = [base[0], base[2]];
        assert_ne!(same, key(&without_b, uses), "a snippet it reaches, removed");
        assert_ne!(
            same,
            key(&base, "import A from '/snippets/a.mdx';\n\nChanged.")
        );
        // A snippet the page names but the site lacks, then gains.
        let missing = "<Snippet file=\"new.mdx\" />";
        let with = [("snippets/new.mdx", "New")];
        assert_ne!(key(&[], missing), key(&with, missing));
        // Unreadable references depend on every snippet.
        let unreadable = "<Snippet file={name} />";
        assert_ne!(key(&base, unreadable), key(&other, unreadable));
        // Variables that name a snippet are followed.
        let through_variable = "import C from '{{where}}'\n\n<C />";
        assert_ne!(
            key(&[("snippets/c.mdx", "1")], through_variable),
            key(&[("snippets/c.mdx", "2")], through_variable)
        );
    }

    #[test]
    fn the_version_label_is_not_part_of_a_key() {
        let mut next = site(&[]);
        next.version = "v2".into();
        let first = SiteKey::of("renderer", "highlighter", &site(&[])).unwrap();
        let second = SiteKey::of("renderer", "highlighter", &next).unwrap();
        assert_eq!(first.page(&page("x"), None), second.page(&page("x"), None));
        let other_renderer = SiteKey::of("another renderer", "highlighter", &site(&[])).unwrap();
        assert_ne!(
            first.page(&page("x"), None),
            other_renderer.page(&page("x"), None)
        );
    }

    #[test]
    fn other_grammars_in_the_host_change_every_key() {
        let first = SiteKey::of("renderer", "arborium 2.18.2; reduction 1", &site(&[])).unwrap();
        let upgraded = SiteKey::of("renderer", "arborium 2.19.0; reduction 1", &site(&[])).unwrap();
        assert_ne!(
            first.page(&page("x"), None),
            upgraded.page(&page("x"), None)
        );
        // The two parts are told apart, not run together.
        let joined = SiteKey::of("rendererarborium", " 2.18.2; reduction 1", &site(&[])).unwrap();
        assert_ne!(first.page(&page("x"), None), joined.page(&page("x"), None));
    }

    #[test]
    fn a_known_source_digest_keys_as_hashing_the_source_does() {
        let site = SiteKey::of("renderer", "highlighter", &site(&[])).unwrap();
        let digest: Hash = Sha256::digest(b"x").into();
        let hex = hex::encode(digest);
        let known = source_digest(&hex).expect("a digest");
        assert_eq!(
            site.page(&page("x"), Some(&known)),
            site.page(&page("x"), None)
        );
        assert_ne!(
            site.page(&page("y"), Some(&known)),
            site.page(&page("y"), None),
            "the digest stands for the source"
        );
        assert!(source_digest("not hex").is_none());
    }
}
