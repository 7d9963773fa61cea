//! Block elements drawn by the markup itself rather than by a component: headings with their
//! anchors, formulas, code blocks, images and tables (each row also a sentence for search).

use markdown::mdast::{AlignKind, Node};

use super::{Heading, Markup, Section, plain_text};
use crate::icons::IconRef;
use quire_sdk::escape;

impl Markup<'_> {
    pub(super) fn wrap(&mut self, node: &Node, open: &str, close: &str) {
        self.html.push_str(open);
        self.children(node);
        self.html.push_str(close);
        if close.ends_with('\n') {
            self.block_break();
        }
    }

    /// A heading; `{#custom-id}` at its end (an MDX expression, or text in Markdown) names
    /// its anchor instead of the slug of its text.
    pub(super) fn heading(&mut self, node: &Node, depth: u8) {
        let custom = node.children().and_then(|c| match c.last() {
            Some(Node::MdxTextExpression(e)) => {
                e.value.trim().strip_prefix('#').map(str::to_string)
            }
            _ => None,
        });
        let text = plain_text(node);
        let (text, custom) = match custom {
            Some(id) => (text, Some(id)),
            None => match text
                .trim_end()
                .strip_suffix('}')
                .and_then(|t| t.rsplit_once("{#"))
            {
                Some((before, id)) => (before.trim_end().to_string(), Some(id.to_string())),
                None => (text, None),
            },
        };
        let custom = custom.filter(|id| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_alphanumeric() || "-_.:".contains(c))
        });
        self.heading_with_anchor(depth, &text, custom);
    }

    /// A heading with an anchor, in the table of contents and starting a search section.
    pub fn heading_text(&mut self, depth: u8, text: &str) {
        self.heading_with_anchor(depth, text, None);
    }

    pub(super) fn heading_with_anchor(&mut self, depth: u8, text: &str, anchor: Option<String>) {
        let text = text.to_string();
        let anchor = match anchor {
            Some(id) => {
                self.anchors.reserve(&id);
                id
            }
            None => self.anchors.next(&text),
        };
        let level = depth.clamp(1, 6);
        self.html.push_str(&format!(
            "<h{level} id=\"{anchor}\"><a class=\"anchor\" href=\"#{anchor}\" aria-hidden=\"true\">#</a>"
        ));
        escape::push_html(&mut self.html, &text);
        self.html.push_str(&format!("</h{level}>\n"));

        while self.heading_stack.last().is_some_and(|(l, _)| *l >= level) {
            self.heading_stack.pop();
        }
        self.heading_stack.push((level, text.clone()));
        let mut trail = vec![self.page_title.clone()];
        trail.extend(self.heading_stack.iter().map(|(_, t)| t.clone()));
        self.sections.push(Section {
            anchor: anchor.clone(),
            heading_trail: trail,
            text: String::new(),
        });
        self.headings.push(Heading {
            level,
            text,
            anchor,
        });
    }

    /// A formula as MathML; its TeX goes into the search text.
    pub fn math(&mut self, node: &Node, latex: &str, display: bool) {
        let (mathml, problem) = crate::math::mathml(latex, display);
        if let Some(problem) = problem {
            let problem = problem.lines().next().unwrap_or_default().to_string();
            self.warn(node, format!("math {latex:?}: {problem}"));
        }
        if display {
            self.html.push_str("<div class=\"math-block\">");
            self.html.push_str(&mathml);
            self.html.push_str("</div>\n");
        } else {
            self.html.push_str(&mathml);
        }
        self.search_text(latex);
    }

    /// A fenced code block, highlighted (see `code`).
    pub fn code_block(&mut self, lang: Option<&str>, meta: Option<&str>, code: &str) {
        self.has_diagram |= lang == Some("mermaid");
        let site = self.site;
        let root = crate::links::root_prefix(self.page_path);
        self.html
            .push_str(&crate::code::block_with_icons(lang, meta, code, &|name| {
                site.settings
                    .icon_html(IconRef::named(name), 14, Some(&root))
            }));
        if let Some(section) = self.sections.last_mut() {
            quire_sdk::sections::push_code(&mut section.text, lang.unwrap_or(""), code);
        }
    }

    pub(super) fn image(&mut self, node: &Node, url: &str, alt: &str) {
        let src = self.link_target(node, url).unwrap_or_default();
        self.html.push_str(&format!(
            "<img src=\"{}\" alt=\"{}\" loading=\"lazy\">",
            escape::html(&src),
            escape::html(alt)
        ));
    }

    pub(super) fn table(&mut self, node: &Node, align: &[AlignKind]) {
        self.html.push_str("<div class=\"table-wrap\"><table>\n");
        // In the search text each row is a sentence of its own, its cells labelled by their
        // column ("Memory: 0.5 GB"), so a row can be found and quoted on its own.
        let mut headers: Vec<String> = Vec::new();
        for (row_index, row) in node.children().into_iter().flatten().enumerate() {
            let mut cells: Vec<String> = Vec::new();
            let cell_tag = if row_index == 0 { "th" } else { "td" };
            if row_index == 0 {
                self.html.push_str("<thead>");
            } else if row_index == 1 {
                self.html.push_str("<tbody>");
            }
            self.html.push_str("<tr>");
            for (i, cell) in row.children().into_iter().flatten().enumerate() {
                let style = match align.get(i) {
                    Some(AlignKind::Left) => " style=\"text-align:left\"",
                    Some(AlignKind::Right) => " style=\"text-align:right\"",
                    Some(AlignKind::Center) => " style=\"text-align:center\"",
                    _ => "",
                };
                self.html.push_str(&format!("<{cell_tag}{style}>"));
                let mark = self.search_mark();
                self.children(cell);
                cells.push(self.take_search_text(mark));
                self.html.push_str(&format!("</{cell_tag}>"));
            }
            if row_index == 0 {
                headers = cells;
                let header_line = row_sentence(&[], &headers);
                self.search_line(&header_line);
            } else {
                let line = row_sentence(&headers, &cells);
                self.search_line(&line);
            }
            self.html.push_str("</tr>\n");
            if row_index == 0 {
                self.html.push_str("</thead>");
            }
        }
        if node.children().is_some_and(|rows| rows.len() > 1) {
            self.html.push_str("</tbody>");
        }
        self.html.push_str("</table></div>\n");
    }
}

/// A table row as one sentence: each cell after its column's header (`Memory: 0.5 GB`), cells
/// joined by semicolons, ending with a full stop unless the last cell ends a sentence already.
fn row_sentence(headers: &[String], cells: &[String]) -> String {
    let parts: Vec<String> = cells
        .iter()
        .enumerate()
        .filter(|(_, cell)| !cell.is_empty())
        .map(|(i, cell)| match headers.get(i).filter(|h| !h.is_empty()) {
            Some(header) => format!("{header}: {cell}"),
            None => cell.clone(),
        })
        .collect();
    let mut sentence = parts.join("; ");
    if !sentence.is_empty() && !sentence.ends_with(['.', '!', '?']) {
        sentence.push('.');
    }
    sentence
}
