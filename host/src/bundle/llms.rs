//! `llms.txt` (the site's pages as a Markdown list of links to their sources, per the llms.txt
//! proposal) and `llms-full.txt` (every page's Markdown in one file, for tools that read a site
//! at once).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::kept_full_text::{self, KeptFullText, PartKey};

/// The path of `llms.txt` in a bundle.
pub const INDEX_FILE: &str = "llms.txt";

/// The path of `llms-full.txt` in a bundle.
pub const FULL_TEXT_FILE: &str = "llms-full.txt";

/// `llms-full.txt` stops growing here and says so; the per-page `.md` files hold the rest.
const FULL_TEXT_LIMIT: usize = 16 << 20;

/// `llms.txt`: the site's name, its `description` as the proposal's summary line, and a link
/// to each page's Markdown with its description.
pub fn index(
    name: &str,
    description: Option<&str>,
    pages: &[(&str, &str, Option<&str>)],
) -> String {
    let mut out = format!("# {name}\n\n");
    if let Some(description) = description {
        out.push_str(&format!("> {description}\n\n"));
    }
    out.push_str("## Docs\n\n");
    for (path, title, description) in pages {
        out.push_str(&format!("- [{}]({path}.md)", title.replace(['[', ']'], "")));
        if let Some(description) = description {
            out.push_str(": ");
            out.push_str(description);
        }
        out.push('\n');
    }
    out
}

/// The section a server that answers MCP for the site adds to `llms.txt`: where the endpoint
/// is (`endpoint`, as a link from `llms.txt`) and what its tools do.
pub fn mcp_section(endpoint: &str) -> String {
    format!(
        "\n## MCP server\n\n- [MCP server]({endpoint}): these docs over the Model Context Protocol (Streamable HTTP), with the tools `search` (sections matching a query, with their page URLs), `get_page` (a page's Markdown by path or URL) and `list_pages` (every page in navigation order)\n"
    )
}

/// The growing `llms-full.txt`: the site's pages in navigation order, up to the first that
/// does not fit in [`FULL_TEXT_LIMIT`]. It holds a prefix of the site rather than every page
/// that fits, so it is complete as soon as one page does not fit: the export hands it to the
/// archive then, while the rest of the pages come, instead of packing 16 MiB at the end.
/// Where each keyed page's part lies is noted, and the file is kept for the site's next
/// export, whose unchanged pages take their parts from it (`kept_full_text`).
#[derive(Default)]
pub struct FullText {
    text: String,
    /// A page did not fit: no later page is taken.
    closed: bool,
    /// The file has been handed out (`take_complete`).
    taken: bool,
    /// Where each keyed page's part lies in `text`.
    parts: HashMap<PartKey, Range<usize>>,
    /// The site's domain, under which the file is kept; none keeps nothing.
    site: Option<String>,
    /// The last file made for the site, whose parts a page not read takes.
    earlier: Option<Arc<KeptFullText>>,
}

impl FullText {
    /// For the site served at `domain`: kept for its next export, and made with the parts of
    /// the last file this process made for it.
    pub fn for_site(domain: &str) -> Self {
        Self {
            site: Some(domain.to_string()),
            earlier: kept_full_text::last_for(domain),
            ..Self::default()
        }
    }

    /// Adds a page's `body` (`full_text_body` of its source) under its title, or, when there
    /// is no room for it, closes the file. With `key`, where the part lies is noted.
    pub fn add(&mut self, path: &str, title: &str, body: &str, key: Option<PartKey>) {
        if !self.takes(body.len()) {
            self.leave_out();
            return;
        }
        let start = self.text.len();
        // Pushed piece by piece: through `format!`, each page's text was copied twice.
        for piece in ["# ", title, "\nSource: ", path, ".md\n\n", body, "\n\n"] {
            self.text.push_str(piece);
        }
        if let Some(key) = key {
            self.parts.insert(key, start..self.text.len());
        }
    }

    /// Whether the last file made for the site holds the part keyed `key`.
    pub fn has_earlier(&self, key: &PartKey) -> bool {
        self.earlier
            .as_ref()
            .is_some_and(|earlier| earlier.part(key).is_some())
    }

    /// Adds the part keyed `key` of the last file made for the site, which [`has_earlier`]
    /// found, for a page whose body is `body_len` bytes long that [`takes`] took: the bytes
    /// `add` gives of the page's source.
    ///
    /// [`has_earlier`]: FullText::has_earlier
    /// [`takes`]: FullText::takes
    pub fn add_earlier(&mut self, key: PartKey, body_len: usize) {
        let part = self.earlier.as_ref().and_then(|earlier| earlier.part(&key));
        match part {
            Some(part) if self.takes(body_len) => {
                let start = self.text.len();
                self.text.push_str(part);
                self.parts.insert(key, start..self.text.len());
            }
            _ => self.leave_out(),
        }
    }

    /// Whether a page whose body is `body_len` bytes long would be added.
    pub fn takes(&self, body_len: usize) -> bool {
        !self.closed && self.text.len() + body_len <= FULL_TEXT_LIMIT
    }

    /// Leaves out a page that `takes` refused, as `add` does: the file is closed.
    pub fn leave_out(&mut self) {
        if !self.closed {
            self.closed = true;
            self.text.push_str(LEFT_OUT_NOTE);
        }
    }

    /// The whole file, once, when no later page can change it (a page did not fit).
    pub fn take_complete(&mut self) -> Option<String> {
        (self.closed && !self.taken).then(|| {
            self.taken = true;
            let text = std::mem::take(&mut self.text);
            self.keep(&text);
            text
        })
    }

    /// The file at the end of the pages, unless `take_complete` gave it already.
    pub fn finish(mut self) -> Option<String> {
        if self.taken {
            return None;
        }
        let text = std::mem::take(&mut self.text);
        self.keep(&text);
        Some(text)
    }

    /// Keeps a copy of `text` for the site's next export: a copy of 16 MiB costs a few
    /// milliseconds, where the next export would read again the source of every page it holds.
    fn keep(&mut self, text: &str) {
        if let Some(site) = &self.site {
            let parts = std::mem::take(&mut self.parts);
            kept_full_text::keep(
                site,
                KeptFullText {
                    text: text.to_string(),
                    parts,
                },
            );
        }
        self.earlier = None;
    }
}

/// The end of an `llms-full.txt` that does not hold every page.
const LEFT_OUT_NOTE: &str = "(The pages after this one are not included here to keep this file small; each page's Markdown is beside it as PAGE.md, listed in llms.txt)\n";

/// What `llms-full.txt` takes of a page's Markdown `source`: its body, without frontmatter
/// and trimmed.
pub fn full_text_body(source: &str) -> &str {
    strip_frontmatter(source).trim()
}

/// `source` without a leading `---` frontmatter block, nor the blank lines after it.
pub(super) fn strip_frontmatter(source: &str) -> &str {
    match quire_core::frontmatter::block(source) {
        Some(block) => block.body.trim_start_matches(['\r', '\n']),
        None => source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llms_files_list_and_concatenate_pages() {
        let list = index(
            "Acme",
            None,
            &[("quickstart", "Quickstart", Some("Start here"))],
        );
        assert!(list.contains("- [Quickstart](quickstart.md): Start here"));
        assert!(list.starts_with("# Acme\n\n## Docs\n\n"));
        let summarised = index("Acme", Some("Widgets, documented."), &[]);
        assert!(summarised.starts_with("# Acme\n\n> Widgets, documented.\n\n## Docs\n"));
        let mut full = FullText::default();
        full.add(
            "quickstart",
            "Quickstart",
            full_text_body("---\ntitle: Q\n---\nHello\n"),
            None,
        );
        assert_eq!(full.take_complete(), None, "every page fits so far");
        let text = full.finish().expect("not taken before");
        assert!(text.starts_with("# Quickstart\nSource: quickstart.md\n\nHello"));
        assert!(!text.contains("title: Q"));
        let advertised = list + &mcp_section("/mcp");
        assert!(advertised.ends_with(
            "\n\n## MCP server\n\n- [MCP server](/mcp): these docs over the Model Context Protocol (Streamable HTTP), with the tools `search` (sections matching a query, with their page URLs), `get_page` (a page's Markdown by path or URL) and `list_pages` (every page in navigation order)\n"
        ));
    }

    /// Pages whose parts are taken from the last file made for the site give the bytes their
    /// sources give; a changed page's part is not found, and another site's file is not used.
    #[test]
    fn llms_full_text_takes_unchanged_pages_parts_from_the_last_file_made_for_the_site() {
        let domain = "llms-full-parts.test";
        let key = |page: &str, version: u8| -> PartKey {
            let mut key = [version; 32];
            key[..page.len()].copy_from_slice(page.as_bytes());
            key
        };
        let pages = [
            ("a", "A", "Alpha text."),
            ("b", "B", "Beta text."),
            ("c", "C", "Gamma."),
        ];
        let mut first = FullText::for_site(domain);
        for (path, title, body) in pages {
            first.add(path, title, body, Some(key(path, 1)));
        }
        first.finish().expect("complete");

        // Page b changed: its key is new; a and c are taken from the last file.
        let mut next = FullText::for_site(domain);
        assert!(next.has_earlier(&key("a", 1)) && !next.has_earlier(&key("b", 2)));
        next.add_earlier(key("a", 1), "Alpha text.".len());
        next.add("b", "B", "Beta text, edited.", Some(key("b", 2)));
        next.add_earlier(key("c", 1), "Gamma.".len());
        let mut fresh = FullText::default();
        fresh.add("a", "A", "Alpha text.", None);
        fresh.add("b", "B", "Beta text, edited.", None);
        fresh.add("c", "C", "Gamma.", None);
        assert_eq!(next.finish(), fresh.finish());
        assert!(!FullText::for_site("another-site.test").has_earlier(&key("a", 1)));

        // The file just made is the one the next export takes parts from, b's new one too.
        let after = FullText::for_site(domain);
        assert!(after.has_earlier(&key("b", 2)) && !after.has_earlier(&key("b", 1)));
    }

    #[test]
    fn llms_full_text_holds_the_pages_before_the_first_that_does_not_fit() {
        let mut full = FullText::default();
        let big = "x".repeat(FULL_TEXT_LIMIT / 2);
        full.add("a", "A", &big, None);
        assert!(full.takes(10));
        full.add("b", "B", &big, None);
        assert!(!full.takes(10), "closed by the page that did not fit");
        let text = full.take_complete().expect("complete once closed");
        assert!(text.contains("Source: a.md") && !text.contains("Source: b.md"));
        assert!(text.ends_with(LEFT_OUT_NOTE));
        full.add("c", "C", "small enough to have fitted", None);
        assert_eq!(full.take_complete(), None, "handed out once");
        assert_eq!(full.finish(), None);
    }
}
