//! Props written as JSX elements (`<Card icon={<svg>...</svg>}>`, `title={<>A <b>B</b></>}`):
//! rendered like page content (raw elements sanitised), placed where the component puts that
//! prop, and read as their text by everything that wants a string.

use std::collections::HashMap;

use markdown::mdast::{AttributeContent, AttributeValue, Node};

use crate::markup::Markup;

/// The attributes with each prop written as a JSX element (`icon={<svg>...</svg>}`,
/// `title={<>A <b>B</b></>}`) replaced by its text, and those props rendered, by name.
pub(super) fn render<'a>(
    m: &mut Markup<'_>,
    node: &Node,
    attributes: &'a [AttributeContent],
) -> (
    std::borrow::Cow<'a, [AttributeContent]>,
    HashMap<String, String>,
) {
    let is_element = |a: &AttributeContent| match a {
        AttributeContent::Property(p) => match &p.value {
            Some(AttributeValue::Expression(e)) => e.value.trim_start().starts_with('<'),
            _ => false,
        },
        _ => false,
    };
    if !attributes.iter().any(is_element) {
        return (std::borrow::Cow::Borrowed(attributes), HashMap::new());
    }
    let mut rendered = HashMap::new();
    let attributes = attributes
        .iter()
        .map(|a| match a {
            AttributeContent::Property(p) if is_element(a) => {
                let source = match &p.value {
                    Some(AttributeValue::Expression(e)) => e.value.as_str(),
                    _ => "",
                };
                let mut p = p.clone();
                match m.render_element_source(node, &p.name, source) {
                    Some((html, text)) => {
                        rendered.insert(p.name.clone(), html);
                        p.value = Some(AttributeValue::Literal(text));
                    }
                    None => p.value = Some(AttributeValue::Literal(String::new())),
                }
                AttributeContent::Property(p)
            }
            other => other.clone(),
        })
        .collect();
    (std::borrow::Cow::Owned(attributes), rendered)
}

impl Markup<'_> {
    /// The rendered element given as prop `key` of the component being rendered.
    pub(crate) fn element_prop(&self, key: &str) -> Option<String> {
        self.element_props.last()?.get(key).cloned()
    }

    /// A component's label from prop `key`: the element given for it, or `text`.
    pub(crate) fn prop_label(&mut self, key: &str, text: &str) {
        match self.element_prop(key) {
            // In a span: a flex title would take the element's text runs apart, and their
            // spaces with them.
            Some(html) => {
                self.html.push_str("<span class=\"prop-element\">");
                self.html.push_str(&html);
                self.html.push_str("</span>");
                self.search_text(text);
                self.block_break();
            }
            None => self.label(text),
        }
    }

    /// The HTML and the text of a JSX element given as a prop (`source` is the expression
    /// between the braces); a syntax error is a warning naming the prop.
    fn render_element_source(
        &mut self,
        node: &Node,
        key: &str,
        source: &str,
    ) -> Option<(String, String)> {
        let tree = match crate::mdx::parse(source) {
            Ok(tree) => tree,
            Err(error) => {
                self.warn(
                    node,
                    format!("the prop {key} is not a valid JSX element: {error}"),
                );
                return None;
            }
        };
        let mark = self.search_mark();
        let outer = std::mem::take(&mut self.html);
        match tree.children().map(Vec::as_slice) {
            // Inline content parses as a paragraph; the prop is its content, not a paragraph.
            Some([paragraph @ Node::Paragraph(_)]) => self.children(paragraph),
            _ => self.children(&tree),
        }
        let html = std::mem::replace(&mut self.html, outer);
        let text = self.take_search_text(mark);
        Some((html.trim().to_string(), text))
    }
}
