//! Lowercase JSX elements written as HTML (`<div className="...">`, `<img>`, `<iframe>`,
//! `<video>`): only inert attributes pass, JSX names become HTML ones, `style={{...}}` objects
//! become CSS, links are rewritten like page links, and frames and media from other sites are
//! left for quire.js to load where the deployment allows it.

use markdown::mdast::{AttributeContent, Node};

use super::Attrs;
use crate::markup::Markup;
use quire_sdk::escape;

const HTML_ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "dd",
    "del",
    "details",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "iframe",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "picture",
    "pre",
    "q",
    "s",
    "samp",
    "section",
    "small",
    "source",
    "span",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "u",
    "ul",
    "var",
    "video",
    "audio",
    "track",
    "wbr",
];
const VOID_ELEMENTS: &[&str] = &["br", "col", "hr", "img", "source", "track", "wbr"];
/// Attributes that pass as written (after JSX's camelCase names are made HTML's).
const SAFE_ATTRIBUTES: &[&str] = &[
    "id",
    "title",
    "alt",
    "width",
    "height",
    "colspan",
    "rowspan",
    "align",
    "target",
    "rel",
    "type",
    "open",
    "start",
    "reversed",
    "span",
    "scope",
    "headers",
    "loading",
    "decoding",
    "poster",
    "preload",
    "srcset",
    "sizes",
    "media",
    "allow",
    "referrerpolicy",
    "lang",
    "dir",
    "kind",
    "srclang",
    "label",
    "role",
    "tabindex",
    "cite",
    "datetime",
];
/// Boolean attributes: present, absent when written `={false}`.
const BOOLEAN_ATTRIBUTES: &[&str] = &[
    "controls",
    "loop",
    "muted",
    "autoplay",
    "playsinline",
    "allowfullscreen",
    "default",
    "hidden",
];

pub fn is_html_element(name: &str) -> bool {
    HTML_ELEMENTS.contains(&name)
}

/// JSX's attribute name as HTML spells it.
fn html_name(jsx: &str) -> String {
    match jsx {
        "className" => "class".into(),
        "htmlFor" => "for".into(),
        _ if jsx.starts_with("data-") || jsx.starts_with("aria-") => jsx.into(),
        _ => jsx.to_ascii_lowercase(),
    }
}

/// Renders the element. Frames, and media that come from other sites, carry their address in
/// `data-quire-embed` instead of `src`: quire.js loads them lazily where the deployment allows
/// requests off the bundle and shows a link card otherwise (air-gapped).
pub fn element(m: &mut Markup<'_>, node: &Node, name: &str, attrs: &Attrs<'_>) {
    m.html.push('<');
    m.html.push_str(name);
    let mut titled = false;
    let mut embedded = None;
    for content in attrs.0 {
        let AttributeContent::Property(p) = content else {
            continue;
        };
        let key = html_name(&p.name);
        let value = attrs.string(&p.name).unwrap_or_default();
        let value = match key.as_str() {
            "href" | "src" => {
                if value.trim_start().to_lowercase().starts_with("javascript:") {
                    continue;
                }
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
            "class" => value,
            "style" => match style_object(&p.value) {
                Some(css) => css,
                None => continue,
            },
            k if BOOLEAN_ATTRIBUTES.contains(&k) => {
                if value == "false" {
                    continue;
                }
                String::new()
            }
            k if SAFE_ATTRIBUTES.contains(&k)
                || k.starts_with("data-")
                || k.starts_with("aria-") =>
            {
                titled |= k == "title";
                value
            }
            _ => continue,
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
    if name == "img" {
        m.html.push_str(" loading=\"lazy\"");
    }
    m.html.push('>');
    if VOID_ELEMENTS.contains(&name) {
        return;
    }
    m.children(node);
    m.html.push_str(&format!("</{name}>"));
}

/// CSS properties whose bare numbers are not pixels.
const UNITLESS: &[&str] = &[
    "opacity",
    "z-index",
    "font-weight",
    "line-height",
    "flex",
    "flex-grow",
    "flex-shrink",
    "order",
    "zoom",
    "aspect-ratio",
];

/// A JSX style object (`style={{ marginLeft: '8px', maxWidth: 600 }}`) as CSS
/// (`margin-left:8px;max-width:600px`). Only literal strings and numbers are taken; a value that
/// could leave its declaration (`;`, braces, `url(`, `expression(`) drops that property.
pub fn style_object(value: &Option<markdown::mdast::AttributeValue>) -> Option<String> {
    let Some(markdown::mdast::AttributeValue::Expression(expression)) = value else {
        return None;
    };
    let inner = expression.value.trim();
    let inner = inner.strip_prefix('{')?.strip_suffix('}')?;
    let mut css = Vec::new();
    for declaration in split_top_level(inner) {
        let Some((key, value)) = declaration.split_once(':') else {
            continue;
        };
        let key = key.trim().trim_matches(['"', '\'']);
        let property = kebab(key);
        let value = value.trim();
        let value = if let Some(text) = value
            .strip_prefix(['"', '\''])
            .and_then(|v| v.strip_suffix(['"', '\'']))
        {
            text.to_string()
        } else if value.parse::<f64>().is_ok() {
            if UNITLESS.contains(&property.as_str()) || value == "0" {
                value.to_string()
            } else {
                format!("{value}px")
            }
        } else {
            continue; // a variable or a computation: nothing to evaluate it with
        };
        let lower = value.to_ascii_lowercase();
        let unsafe_value = value.contains([';', '{', '}', '<', '>', '\\'])
            || lower.contains("url(")
            || lower.contains("expression(");
        if property.is_empty()
            || unsafe_value
            || !property.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            continue;
        }
        css.push(format!("{property}:{value}"));
    }
    (!css.is_empty()).then(|| css.join(";"))
}

/// `marginLeft` → `margin-left`, `WebkitMask` → `-webkit-mask`.
fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            // A leading capital is a vendor prefix (`WebkitMask`), which CSS writes with a dash.
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The comma-separated parts of an object literal's body, ignoring commas inside strings and
/// brackets (`fontFamily: "a, b"`, `transform: 'translate(1px, 2px)'`).
fn split_top_level(body: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    for (i, c) in body.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use markdown::mdast::{AttributeValue, AttributeValueExpression};

    fn css(source: &str) -> Option<String> {
        style_object(&Some(AttributeValue::Expression(
            AttributeValueExpression {
                value: source.into(),
                stops: vec![],
            },
        )))
    }

    #[test]
    fn style_objects_become_css() {
        assert_eq!(
            css("{marginLeft: '8px'}").as_deref(),
            Some("margin-left:8px")
        );
        assert_eq!(
            css("{ maxWidth: 600, opacity: 0.5, fontFamily: \"A, B\" }").as_deref(),
            Some("max-width:600px;opacity:0.5;font-family:A, B")
        );
        assert_eq!(
            css("{WebkitMask: 'none'}").as_deref(),
            Some("-webkit-mask:none")
        );
    }

    #[test]
    fn styles_that_could_escape_are_dropped() {
        assert_eq!(css("{color: 'red;} body{display:none'}"), None);
        assert_eq!(css("{background: 'url(javascript:x)'}"), None);
        assert_eq!(css("{width: someVariable}"), None);
        assert_eq!(css("not an object"), None);
    }
}
