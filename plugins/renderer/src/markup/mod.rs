//! The Markdown tree (mdast, from a real MDX parser) to HTML, collecting headings, searchable
//! sections and warnings on the way.

use std::collections::HashMap;

use markdown::mdast::Node;
pub use quire_sdk::sections::{Anchors, Heading, Section};

use crate::icons::IconRef;
use crate::links;
use crate::site::Site;
use quire_sdk::escape;

mod blocks;
pub(crate) mod components;
mod scope;
use crate::snippets::Import;

/// The variable holding a component element's rendered children (not a valid JS name, so no
/// prop can shadow it).
pub(super) const CHILDREN: &str = "\u{0}children";

/// Deepest chain of snippets rendering snippets; deeper is taken for a cycle.
pub(super) const MAX_SNIPPET_DEPTH: usize = 8;

/// A problem in the page's source, with the line it is on.
#[derive(Debug, Clone, PartialEq)]
pub struct PageWarning {
    /// The snippet the problem is in, when it is in one rather than in the page: reported
    /// against the snippet, once, however many pages use it.
    pub file: Option<String>,
    pub line: Option<u32>,
    pub message: String,
}

/// State of one page's rendering.
pub struct Markup<'a> {
    pub site: &'a Site,
    pub page_path: &'a str,
    pub html: String,
    /// HTML for the page's side column (request and response examples), in place of the table
    /// of contents where the layout has room; after the article where it has not.
    pub side: String,
    pub headings: Vec<Heading>,
    pub warnings: Vec<PageWarning>,
    sections: Vec<Section>,
    /// Headings above the current position, as (level, text).
    heading_stack: Vec<(u8, String)>,
    page_title: String,
    anchors: Anchors,
    definitions: HashMap<String, (String, Option<String>)>,
    /// Names the page imported from snippets.
    imports: HashMap<String, Import>,
    /// Components the page defines itself (`export const Name = (props) => (...)`).
    local_components: HashMap<String, std::rc::Rc<crate::jsx::JsxComponent>>,
    /// Values of `{name}` expressions: snippet props, innermost last.
    variables: Vec<HashMap<String, String>>,
    snippet_depth: usize,
    /// The snippet files being rendered, innermost last (their problems are theirs), and
    /// whether node lines are lines of that file.
    snippet_files: Vec<(String, bool)>,
    /// Whether the page has a Mermaid diagram, so it loads the script that draws them.
    pub has_diagram: bool,
    /// The raw HTML, SVG or MathML element being written, if any (see `components::html`).
    raw: Option<components::html::RawCapture>,
    /// Props given as JSX elements (`icon={<svg .../>}`), rendered, for each component being
    /// rendered, innermost last.
    element_props: Vec<HashMap<String, String>>,
}

impl<'a> Markup<'a> {
    pub fn new(site: &'a Site, page_path: &'a str, page_title: String) -> Self {
        Self {
            site,
            page_path,
            html: String::new(),
            side: String::new(),
            headings: Vec::new(),
            warnings: Vec::new(),
            sections: vec![Section {
                anchor: String::new(),
                heading_trail: vec![page_title.clone()],
                text: String::new(),
            }],
            heading_stack: Vec::new(),
            page_title,
            anchors: Anchors::default(),
            definitions: HashMap::new(),
            imports: HashMap::new(),
            local_components: HashMap::new(),
            variables: Vec::new(),
            snippet_depth: 0,
            snippet_files: Vec::new(),
            has_diagram: false,
            raw: None,
            element_props: Vec::new(),
        }
    }

    /// Renders a whole document tree.
    pub fn render_root(&mut self, root: &Node) {
        collect_definitions(root, &mut self.definitions);
        let page_path = self.page_path;
        self.collect_imports(root, page_path);
        self.render(root);
    }

    /// The sections, without empty ones.
    pub fn into_sections(self) -> Vec<Section> {
        self.sections
            .into_iter()
            .map(|mut s| {
                s.text = quire_sdk::sections::tidy(&s.text);
                s
            })
            .filter(|s| !s.text.is_empty())
            .collect()
    }

    pub fn warn(&mut self, node: &Node, message: String) {
        let line = node
            .position()
            .and_then(|p| u32::try_from(p.start.line).ok());
        let (file, line) = match self.snippet_files.last() {
            Some((file, lines_known)) => (Some(file.clone()), line.filter(|_| *lines_known)),
            None => (None, line),
        };
        self.warnings.push(PageWarning {
            file,
            line,
            message,
        });
    }

    /// Renders what `write` writes into the side column instead of the page body; its text
    /// still goes to the current search section.
    pub fn aside(&mut self, write: impl FnOnce(&mut Self)) {
        let body = std::mem::take(&mut self.html);
        write(self);
        let block = std::mem::replace(&mut self.html, body);
        self.side.push_str(&block);
    }

    /// Adds text to the page and to the current search section.
    pub fn text(&mut self, text: &str) {
        escape::push_html(&mut self.html, text);
        if let Some(section) = self.sections.last_mut() {
            section.text.push_str(text);
        }
    }

    /// Adds a component's label (a title, a field name) as text that ends with a word break,
    /// so it does not run into what follows in the search text.
    pub fn label(&mut self, text: &str) {
        self.text(text);
        self.block_break();
    }

    /// A component's labelled part: `open`, the label `text`, `close` (`<div class="x">`,
    /// the title, `</div>`).
    pub fn labelled(&mut self, open: &str, text: &str, close: &str) {
        self.html.push_str(open);
        self.label(text);
        self.html.push_str(close);
    }

    /// Adds text to the current search section only (its HTML was written another way).
    pub fn search_text(&mut self, text: &str) {
        if let Some(section) = self.sections.last_mut() {
            section.text.push_str(text);
            section.text.push(' ');
        }
    }

    /// Where the current search section's text ends now, for `take_search_text`.
    fn search_mark(&self) -> (usize, usize) {
        let len = self.sections.last().map_or(0, |s| s.text.len());
        (self.sections.len(), len)
    }

    /// Removes and returns the search text added since `mark`, with its whitespace collapsed
    /// (empty if a new section began since).
    fn take_search_text(&mut self, (sections, len): (usize, usize)) -> String {
        if self.sections.len() != sections {
            return String::new();
        }
        let Some(section) = self.sections.last_mut() else {
            return String::new();
        };
        let taken = section.text.split_off(len.min(section.text.len()));
        taken.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Adds `line` to the current search section as a block of its own.
    fn search_line(&mut self, line: &str) {
        if line.is_empty() {
            return;
        }
        self.block_break();
        if let Some(section) = self.sections.last_mut() {
            section.text.push_str(line);
        }
        self.block_break();
    }

    /// Ends a block in the search text with a blank line, which `tidy` keeps as a line break:
    /// words of adjacent blocks do not run together, and a block ends its sentence.
    fn block_break(&mut self) {
        if let Some(section) = self.sections.last_mut() {
            section.text.push_str("\n\n");
        }
    }

    pub fn children(&mut self, node: &Node) {
        let Some(children) = node.children() else {
            return;
        };
        if self.raw.is_none() && children.iter().any(|c| matches!(c, Node::Html(_))) {
            self.children_with_raw_html(children);
            return;
        }
        for child in children {
            self.render(child);
        }
    }

    /// An `href`/`src` from the source, made relative to this page and checked (a problem is
    /// a warning); `None` for a link to a page the site does not have, which the caller shows
    /// without a link, so no bundle sends readers to a page it does not carry.
    pub fn link_target(&mut self, node: &Node, url: &str) -> Option<String> {
        let rewritten = links::rewrite(url, self.page_path, &self.site.links);
        if let Some(problem) = rewritten.problem {
            self.warn(node, problem);
        }
        (!rewritten.leads_nowhere).then_some(rewritten.href)
    }

    /// An icon of the site's library as HTML; an unknown name is a warning and draws nothing.
    pub fn icon(&mut self, node: &Node, icon: IconRef<'_>, size: u32) -> Option<String> {
        let root = links::root_prefix(self.page_path);
        let html = self.site.settings.icon_html(icon, size, Some(&root));
        if html.is_none() {
            self.warn(node, format!("unknown icon {:?}", icon.name));
        }
        html
    }

    pub fn render(&mut self, node: &Node) {
        if self.raw.is_some() && !components::html::passes_through(node) {
            self.raw_slot(node);
            return;
        }
        match node {
            Node::Root(_) => self.children(node),
            // A paragraph holding only components (`<Note>one line</Note>`) is the components:
            // wrapping their blocks in <p> would be invalid HTML.
            Node::Paragraph(p) if p.children.iter().all(is_component_or_space) => {
                self.children(node);
                self.html.push('\n');
                self.block_break();
            }
            Node::Paragraph(_) => self.wrap(node, "<p>", "</p>\n"),
            Node::Heading(h) => self.heading(node, h.depth),
            Node::Text(t) => self.text(&t.value),
            Node::Emphasis(_) => self.wrap(node, "<em>", "</em>"),
            Node::Strong(_) => self.wrap(node, "<strong>", "</strong>"),
            Node::Delete(_) => self.wrap(node, "<del>", "</del>"),
            Node::Break(_) => self.html.push_str("<br>"),
            Node::ThematicBreak(_) => self.html.push_str("<hr>\n"),
            Node::Blockquote(_) => self.wrap(node, "<blockquote>", "</blockquote>\n"),
            Node::InlineCode(c) => {
                self.html.push_str("<code>");
                self.text(&c.value);
                self.html.push_str("</code>");
            }
            // Prices in prose ("$5 and $10", "$0.10 per minute (...) or $2") are dollar signs,
            // unless the site says (`styling.latex`).
            Node::InlineMath(m)
                if !self
                    .site
                    .settings
                    .appearance
                    .latex
                    .unwrap_or_else(|| crate::math::looks_like_math(&m.value)) =>
            {
                self.text(&format!("${}$", m.value));
            }
            Node::InlineMath(m) => self.math(node, &m.value, false),
            Node::Math(m) if self.site.settings.appearance.latex == Some(false) => {
                self.text(&format!("$${}$$", m.value));
            }
            Node::Math(m) => self.math(node, &m.value, true),
            Node::Code(code) => {
                self.code_block(code.lang.as_deref(), code.meta.as_deref(), &code.value)
            }
            Node::List(list) => {
                let (open, close) = if list.ordered {
                    match list.start {
                        Some(start) if start != 1 => (format!("<ol start=\"{start}\">"), "</ol>\n"),
                        _ => ("<ol>".to_string(), "</ol>\n"),
                    }
                } else {
                    ("<ul>".to_string(), "</ul>\n")
                };
                self.html.push_str(&open);
                self.children(node);
                self.html.push_str(close);
            }
            Node::ListItem(item) => {
                self.html.push_str("<li>");
                if let Some(checked) = item.checked {
                    let state = if checked { " checked" } else { "" };
                    self.html
                        .push_str(&format!("<input type=\"checkbox\" disabled{state}> "));
                }
                // Tight list items hold one paragraph: render its content without <p>.
                match item.children.as_slice() {
                    [Node::Paragraph(_)] if !item.spread => self.children(&item.children[0]),
                    _ => self.children(node),
                }
                self.html.push_str("</li>\n");
                self.block_break();
            }
            Node::Link(link) => {
                let Some(href) = self.link_target(node, &link.url) else {
                    self.wrap(node, "<span class=\"broken-link\">", "</span>");
                    return;
                };
                self.html.push_str("<a href=\"");
                escape::push_html(&mut self.html, &href);
                self.html.push('"');
                if let Some(title) = &link.title {
                    self.html.push_str(" title=\"");
                    escape::push_html(&mut self.html, title);
                    self.html.push('"');
                }
                self.html.push('>');
                self.children(node);
                self.html.push_str("</a>");
            }
            Node::Image(image) => self.image(node, &image.url, &image.alt),
            Node::LinkReference(reference) => {
                match self
                    .definitions
                    .get(&reference.identifier.to_lowercase())
                    .cloned()
                {
                    Some((url, _)) => match self.link_target(node, &url) {
                        Some(href) => {
                            self.html
                                .push_str(&format!("<a href=\"{}\">", escape::html(&href)));
                            self.children(node);
                            self.html.push_str("</a>");
                        }
                        None => self.wrap(node, "<span class=\"broken-link\">", "</span>"),
                    },
                    None => self.children(node),
                }
            }
            Node::ImageReference(reference) => {
                if let Some((url, _)) = self
                    .definitions
                    .get(&reference.identifier.to_lowercase())
                    .cloned()
                {
                    self.image(node, &url, &reference.alt);
                }
            }
            Node::Definition(_) | Node::Yaml(_) | Node::Toml(_) | Node::MdxjsEsm(_) => {}
            Node::FootnoteReference(f) => {
                let id = escape::html(&f.identifier);
                self.html.push_str(&format!(
                    "<sup class=\"footnote-ref\"><a href=\"#fn-{id}\" id=\"fnref-{id}\">{id}</a></sup>"
                ));
            }
            Node::FootnoteDefinition(f) => {
                let id = escape::html(&f.identifier);
                self.html.push_str(&format!(
                    "<div class=\"footnote\" id=\"fn-{id}\"><span class=\"footnote-label\">{id}.</span> "
                ));
                self.children(node);
                self.html.push_str("</div>\n");
            }
            Node::Table(table) => self.table(node, &table.align),
            Node::TableRow(_) | Node::TableCell(_) => self.children(node),
            Node::Html(h) => self.raw_html(node, &h.value),
            Node::MdxFlowExpression(e) => self.expression(node, &e.value),
            Node::MdxTextExpression(e) => self.expression(node, &e.value),
            Node::MdxJsxFlowElement(el) => {
                components::render(self, node, el.name.as_deref(), &el.attributes, true)
            }
            Node::MdxJsxTextElement(el) => {
                components::render(self, node, el.name.as_deref(), &el.attributes, false)
            }
        }
    }

    /// Raw HTML in a Markdown page, as written, with its `href` and `src` values made relative
    /// and checked like every other link (a link to a page the site does not have loses its
    /// `href`); `children` sanitises it with the text around it.
    fn raw_html(&mut self, node: &Node, value: &str) {
        let mut rest = value;
        while let Some((at, name_len, quote)) = next_link_attribute(rest) {
            let start = at + name_len + 1; // past `href=` or `src=` and the quote
            let Some(length) = rest[start..].find(quote) else {
                break;
            };
            let url = &rest[start..start + length];
            let after = &rest[start + length + 1..];
            let is_frame = value
                .trim_start()
                .get(..7)
                .is_some_and(|t| t.eq_ignore_ascii_case("<iframe"));
            let external = url.starts_with("//") || url.contains("://");
            match self.link_target(node, url) {
                Some(target) if is_frame && external => {
                    // Loaded by the page script where the deployment allows requests off the
                    // bundle (see `setupEmbeds` in quire.js), never by the bundle as written.
                    self.html.push_str(&rest[..at]);
                    self.html.push_str("data-quire-embed=");
                    self.html.push(quote);
                    escape::push_html(&mut self.html, &target);
                    self.html.push(quote);
                }
                Some(target) => {
                    self.html.push_str(&rest[..start]);
                    escape::push_html(&mut self.html, &target);
                    self.html.push(quote);
                }
                None => self.html.push_str(rest[..at].trim_end()),
            }
            rest = after;
        }
        self.html.push_str(rest);
    }
}

fn is_component_or_space(node: &Node) -> bool {
    match node {
        Node::MdxJsxTextElement(_) => true,
        Node::Text(t) => t.value.trim().is_empty(),
        _ => false,
    }
}

/// The plain text of a node and its descendants.
pub fn plain_text(node: &Node) -> String {
    let mut out = String::new();
    collect_text(node, &mut out);
    out.trim().to_string()
}

pub(crate) fn collect_text(node: &Node, out: &mut String) {
    match node {
        Node::Text(t) => out.push_str(&t.value),
        Node::InlineCode(c) => out.push_str(&c.value),
        Node::Code(c) => out.push_str(&c.value),
        Node::InlineMath(m) => out.push_str(&m.value),
        _ => {
            for child in node.children().into_iter().flatten() {
                collect_text(child, out);
            }
        }
    }
}

fn collect_definitions(node: &Node, out: &mut HashMap<String, (String, Option<String>)>) {
    if let Node::Definition(d) = node {
        out.entry(d.identifier.to_lowercase())
            .or_insert_with(|| (d.url.clone(), d.title.clone()));
    }
    for child in node.children().into_iter().flatten() {
        collect_definitions(child, out);
    }
}

/// The next ` href="` or ` src="` (either quote) in raw HTML: where the attribute's name
/// starts, the length of `name=`, and the quote.
fn next_link_attribute(html: &str) -> Option<(usize, usize, char)> {
    let bytes = html.as_bytes();
    let mut best: Option<(usize, usize, char)> = None;
    for name in [" href=", " src="] {
        let mut from = 0;
        while let Some(found) = html[from..].find(name) {
            let at = from + found;
            let quote = bytes.get(at + name.len()).copied();
            if let Some(q @ (b'"' | b'\'')) = quote {
                if best.is_none_or(|(b, _, _)| at + 1 < b) {
                    best = Some((at + 1, name.len() - 1, q as char));
                }
                break;
            }
            from = at + name.len();
        }
    }
    best
}
