//! `llms.txt` (the site's pages as a Markdown list of links to their sources, per the llms.txt
//! proposal) and `llms-full.txt` (every page's Markdown in one file, for tools that read a site
//! at once).

/// The path of `llms.txt` in a bundle.
pub const INDEX_FILE: &str = "llms.txt";

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

/// The growing `llms-full.txt`.
#[derive(Default)]
pub struct FullText {
    text: String,
    left_out: usize,
}

impl FullText {
    /// Adds a page's `body` (`full_text_body` of its source) under its title, or leaves the
    /// page out when there is no room for it.
    pub fn add(&mut self, path: &str, title: &str, body: &str) {
        if !self.takes(body.len()) {
            self.leave_out();
            return;
        }
        self.text
            .push_str(&format!("# {title}\nSource: {path}.md\n\n{body}\n\n"));
    }

    /// Whether a page whose body is `body_len` bytes long has room here.
    pub fn takes(&self, body_len: usize) -> bool {
        self.text.len() + body_len <= FULL_TEXT_LIMIT
    }

    /// Leaves a page out, as `add` does one there is no room for.
    pub fn leave_out(&mut self) {
        self.left_out += 1;
    }

    pub fn finish(mut self) -> String {
        if self.left_out > 0 {
            self.text.push_str(&format!(
                "({} more pages are not included here to keep this file small; each page's Markdown is beside it as PAGE.md, listed in llms.txt)\n",
                self.left_out
            ));
        }
        self.text
    }
}

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
        );
        let text = full.finish();
        assert!(text.starts_with("# Quickstart\nSource: quickstart.md\n\nHello"));
        assert!(!text.contains("title: Q"));
        let advertised = list + &mcp_section("/mcp");
        assert!(advertised.ends_with(
            "\n\n## MCP server\n\n- [MCP server](/mcp): these docs over the Model Context Protocol (Streamable HTTP), with the tools `search` (sections matching a query, with their page URLs), `get_page` (a page's Markdown by path or URL) and `list_pages` (every page in navigation order)\n"
        ));
    }
}
