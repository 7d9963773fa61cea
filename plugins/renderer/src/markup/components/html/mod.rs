//! Lowercase JSX elements: HTML, SVG and MathML written as themselves (`<div className>`,
//! `<svg viewBox>`, `<math>`), with JSX's attribute names made the vocabulary's, `style={{...}}`
//! objects made CSS, links rewritten like page links, and frames and media from other sites
//! left for quire.js to load where the deployment allows it. Each outermost raw element is
//! written whole, then sanitised (`crate::raw_html::sanitize`), with the components and Markdown inside it
//! kept out of the sanitiser as slots.

use markdown::mdast::{AttributeContent, AttributeValue, Node};

use super::Attrs;
use crate::markup::Markup;
use quire_sdk::escape;

mod style;

use crate::raw_html::sanitize;
use crate::raw_html::vocabulary::{self, Vocabulary};
pub(crate) use style::style_object;

/// Attributes that are present or absent (`={false}` leaves them out).
const BOOLEAN_ATTRIBUTES: &[&str] = &[
    "allowfullscreen",
    "autoplay",
    "checked",
    "controls",
    "default",
    "disabled",
    "hidden",
    "loop",
    "multiple",
    "muted",
    "open",
    "playsinline",
    "readonly",
    "required",
    "reversed",
    "selected",
];

/// A raw element being written: the components and Markdown met inside it (rendered apart,
/// put back after sanitising) and the vocabulary of the element being written.
#[derive(Default)]
pub(crate) struct RawCapture {
    slots: Vec<String>,
    vocabulary: Option<Vocabulary>,
}

/// Whether `node` is written into the raw element around it as it is (text and elements of
/// the vocabularies); anything else is rendered apart, as a slot.
pub(crate) fn passes_through(node: &Node) -> bool {
    match node {
        Node::Text(_) | Node::Html(_) => true,
        Node::MdxJsxFlowElement(e) => e.name.as_deref().is_some_and(vocabulary::is_element),
        Node::MdxJsxTextElement(e) => e.name.as_deref().is_some_and(vocabulary::is_element),
        _ => false,
    }
}

impl Markup<'_> {
    /// Renders `node` apart from the raw element being written and leaves a slot marker.
    pub(crate) fn raw_slot(&mut self, node: &Node) {
        let capture = self.raw.take();
        let outer = std::mem::take(&mut self.html);
        self.render(node);
        let markup = std::mem::replace(&mut self.html, outer);
        self.raw = capture;
        if let Some(capture) = self.raw.as_mut() {
            self.html
                .push_str(&sanitize::slot_marker(capture.slots.len()));
            capture.slots.push(markup);
        } else {
            self.html.push_str(&markup);
        }
    }
}

impl Markup<'_> {
    /// Renders `children`, some of them raw HTML of a Markdown page (`Node::Html`: a whole
    /// block, or one tag whose element closes in a later node): the raw HTML and the text
    /// around it are written as one fragment and sanitised together, the rest rendered apart as
    /// slots.
    pub(crate) fn children_with_raw_html(&mut self, children: &[Node]) {
        let outer = std::mem::take(&mut self.html);
        self.raw = Some(RawCapture::default());
        for child in children {
            if let Node::Html(h) = child {
                self.warn_left_out(child, &h.value);
            }
            self.render(child);
        }
        let capture = self.raw.take().unwrap_or_default();
        let written = std::mem::replace(&mut self.html, outer);
        sanitize::fill_slots(&sanitize::clean(&written), &capture.slots, &mut self.html);
    }

    /// A warning for each element of raw HTML that the sanitiser leaves out.
    fn warn_left_out(&mut self, node: &Node, html: &str) {
        let lower = html.to_ascii_lowercase();
        for name in vocabulary::LEFT_OUT {
            let tag = format!("<{}", name.to_ascii_lowercase());
            let opens = lower.match_indices(&tag).any(|(at, _)| {
                lower[at + tag.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_whitespace() || c == '>' || c == '/')
            });
            if opens {
                self.warn(node, left_out_message(name));
            }
        }
    }
}

/// Why a left-out element is not in the page.
fn left_out_message(name: &str) -> String {
    format!(
        "the <{name}> element is left out: exported pages run no code of their own and load no other documents"
    )
}

/// Renders a lowercase element. An element that runs code or loads another document is a
/// warning and is left out with its content.
pub fn element(m: &mut Markup<'_>, node: &Node, name: &str, attrs: &Attrs<'_>) {
    if vocabulary::LEFT_OUT.contains(&name) {
        m.warn(node, left_out_message(name));
        return;
    }
    if m.raw.is_some() {
        write(m, node, name, attrs);
        return;
    }
    let outer = std::mem::take(&mut m.html);
    m.raw = Some(RawCapture::default());
    write(m, node, name, attrs);
    let capture = m.raw.take().unwrap_or_default();
    let written = std::mem::replace(&mut m.html, outer);
    sanitize::fill_slots(&sanitize::clean(&written), &capture.slots, &mut m.html);
}

/// Writes the element, its attributes and its content. Frames, and media that come from other
/// sites, carry their address in `data-quire-embed` instead of `src`: quire.js loads them
/// lazily where the deployment allows requests off the bundle and shows a link card otherwise
/// (air-gapped).
fn write(m: &mut Markup<'_>, node: &Node, name: &str, attrs: &Attrs<'_>) {
    let around = m
        .raw
        .as_ref()
        .and_then(|c| c.vocabulary)
        .unwrap_or(Vocabulary::Html);
    let vocabulary = vocabulary::of(name, around);
    m.html.push('<');
    m.html.push_str(name);
    let mut titled = false;
    let mut lazy = false;
    let mut embedded = None;
    for content in attrs.0 {
        let AttributeContent::Property(p) = content else {
            continue;
        };
        let Some(key) = vocabulary::attribute_name(&p.name, vocabulary) else {
            continue;
        };
        let expression = match &p.value {
            Some(AttributeValue::Expression(e)) => Some(e.value.trim()),
            _ => None,
        };
        let value = match (key.as_str(), expression) {
            // JSX leaves out an attribute that is `false` (aria and data ones say "false").
            (k, Some("false")) if !k.starts_with("aria-") && !k.starts_with("data-") => continue,
            ("style", _) => match style_object(&p.value) {
                Some(css) => css,
                None => continue,
            },
            // An element or an object as a value has no text to write.
            (_, Some(e)) if e.starts_with(['<', '{']) => continue,
            (k, Some("true")) if BOOLEAN_ATTRIBUTES.contains(&k) => String::new(),
            _ => attrs.string(&p.name).unwrap_or_default(),
        };
        let value = match key.as_str() {
            "href" | "src" | "xlink:href" if links_to_pages(name, vocabulary) => {
                // A page the site does not have: no link to it.
                let Some(target) = m.link_target(node, &value) else {
                    continue;
                };
                let external = target.starts_with("//") || target.contains("://");
                if key == "src"
                    && external
                    && matches!(name, "iframe" | "video" | "audio" | "source")
                {
                    embedded = Some(target);
                    continue;
                }
                target
            }
            "title" => {
                titled = true;
                value
            }
            "loading" => {
                lazy = true;
                value
            }
            _ => value,
        };
        m.html.push(' ');
        m.html.push_str(&key);
        m.html.push_str("=\"");
        escape::push_html(&mut m.html, &value);
        m.html.push('"');
    }
    if let Some(url) = embedded {
        m.html.push_str(" data-quire-embed=\"");
        escape::push_html(&mut m.html, &url);
        m.html.push('"');
        if !titled {
            // Frames need a name for screen readers, and the air-gapped link card needs text.
            let host = url
                .split("//")
                .nth(1)
                .and_then(|r| r.split('/').next())
                .unwrap_or(&url);
            m.html.push_str(" title=\"Embedded content from ");
            escape::push_html(&mut m.html, host);
            m.html.push('"');
        }
    }
    if name == "img" && !lazy {
        m.html.push_str(" loading=\"lazy\"");
    }
    m.html.push('>');
    if vocabulary == Vocabulary::Html && vocabulary::VOID.contains(&name) {
        return;
    }
    let capture = m.raw.as_mut();
    let saved = capture.map(|c| c.vocabulary.replace(vocabulary));
    m.children(node);
    if let (Some(capture), Some(saved)) = (m.raw.as_mut(), saved) {
        capture.vocabulary = saved;
    }
    m.html.push_str("</");
    m.html.push_str(name);
    m.html.push('>');
}

/// Whether the element's `href`/`src` names a page or file of the site (made relative and
/// checked) rather than a part of a drawing (`<use href="#shape">`).
fn links_to_pages(name: &str, vocabulary: Vocabulary) -> bool {
    match vocabulary {
        Vocabulary::Html => true,
        Vocabulary::Svg => matches!(name, "a" | "image"),
        Vocabulary::MathMl => false,
    }
}
