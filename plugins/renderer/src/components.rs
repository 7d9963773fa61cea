//! MDX components (`<Note>`, `<Card>`, `<Steps>`, ...) and lowercase HTML elements written as
//! JSX. Components become plain HTML and CSS that work without JavaScript; a component this
//! renderer does not know renders its children and leaves a warning.

use markdown::mdast::{AttributeContent, AttributeValue, Node};

use crate::escape::{escaped, push_escaped};
use crate::icons;
use crate::markup::Markup;

/// Renders one JSX element. `flow` is true for block-level elements.
pub fn render(
    m: &mut Markup<'_>,
    node: &Node,
    name: Option<&str>,
    attributes: &[AttributeContent],
    flow: bool,
) {
    let attrs = Attrs(attributes);
    let Some(name) = name else {
        // A fragment: `<>...</>`.
        m.children(node);
        return;
    };
    match name {
        "Note" | "Info" | "Tip" | "Warning" | "Check" | "Danger" | "Callout" => {
            let kind = if name == "Callout" { "Info" } else { name };
            let class = kind.to_lowercase();
            let icon = attrs.string("icon").unwrap_or_else(|| {
                match kind {
                    "Tip" => "lightbulb",
                    "Warning" => "triangle-alert",
                    "Check" => "circle-check",
                    "Danger" => "octagon-alert",
                    _ => "info",
                }
                .to_string()
            });
            let icon = icons::svg(&icon, 16).unwrap_or_default();
            m.html.push_str(&format!(
                "<div class=\"callout callout-{class}\" role=\"note\"><div class=\"callout-label\">{icon}{kind}</div><div class=\"callout-body\">"
            ));
            m.children(node);
            m.html.push_str("</div></div>\n");
        }
        "Card" | "Tile" => {
            let title = attrs.string("title");
            let icon = attrs.string("icon").and_then(|i| icon_or_warn(m, node, &i));
            let title = match (icon, title) {
                (Some(icon), Some(title)) => Some((icon, title)),
                (None, Some(title)) => Some((String::new(), title)),
                (Some(icon), None) => Some((icon, String::new())),
                (None, None) => None,
            };
            let class = if name == "Tile" { "card tile" } else { "card" };
            match attrs
                .string("href")
                .and_then(|href| m.link_target(node, &href))
            {
                Some(href) => {
                    m.html.push_str(&format!(
                        "<a class=\"{class}\" href=\"{}\">",
                        escaped(&href)
                    ));
                    card_body(m, node, title.as_ref(), attrs.string("description"));
                    m.html.push_str("</a>\n");
                }
                None => {
                    m.html.push_str(&format!("<div class=\"{class}\">"));
                    card_body(m, node, title.as_ref(), attrs.string("description"));
                    m.html.push_str("</div>\n");
                }
            }
        }
        "CardGroup" | "Columns" => {
            let cols = attrs
                .string("cols")
                .and_then(|c| c.parse::<u8>().ok())
                .unwrap_or(2)
                .clamp(1, 4);
            wrap(
                m,
                node,
                &format!("<div class=\"card-group cols-{cols}\">"),
                "</div>\n",
            );
        }
        "Steps" => wrap(m, node, "<ol class=\"steps\">", "</ol>\n"),
        "Step" => titled(
            m,
            node,
            &attrs,
            "<li class=\"step\">",
            "step-title",
            "</li>\n",
        ),
        "Accordion" | "Expandable" => {
            let open = if attrs.flag("defaultOpen") {
                " open"
            } else {
                ""
            };
            let class = name.to_lowercase();
            m.html
                .push_str(&format!("<details class=\"{class}\"{open}><summary>"));
            if let Some(icon) = attrs.string("icon").and_then(|i| icon_or_warn(m, node, &i)) {
                m.html.push_str(&icon);
            }
            let title = attrs.string("title").unwrap_or_else(|| name.to_string());
            m.label(&title);
            m.html.push_str("</summary><div class=\"details-body\">");
            m.children(node);
            m.html.push_str("</div></details>\n");
        }
        "AccordionGroup" => wrap(m, node, "<div class=\"accordion-group\">", "</div>\n"),
        "Tabs" => wrap(m, node, "<div class=\"tabs\">", "</div>\n"),
        "Tab" => titled(
            m,
            node,
            &attrs,
            "<section class=\"tab\">",
            "tab-title",
            "</section>\n",
        ),
        "CodeGroup" => wrap(m, node, "<div class=\"code-group\">", "</div>\n"),
        "RequestExample" => wrap(
            m,
            node,
            "<div class=\"example example-request\">",
            "</div>\n",
        ),
        "ResponseExample" => wrap(
            m,
            node,
            "<div class=\"example example-response\">",
            "</div>\n",
        ),
        "Frame" => {
            m.html.push_str("<figure class=\"frame\">");
            m.children(node);
            if let Some(caption) = attrs.string("caption") {
                m.html.push_str("<figcaption>");
                m.label(&caption);
                m.html.push_str("</figcaption>");
            }
            m.html.push_str("</figure>\n");
        }
        "ParamField" | "ResponseField" => field(m, node, &attrs, name == "ParamField"),
        "Badge" => wrap(m, node, "<span class=\"badge\">", "</span>"),
        "Tooltip" => {
            let tip = attrs.string("tip").unwrap_or_default();
            wrap(
                m,
                node,
                &format!("<span class=\"tooltip\" title=\"{}\">", escaped(&tip)),
                "</span>",
            );
        }
        "Icon" => {
            let icon = attrs.string("icon").unwrap_or_default();
            let size = attrs
                .string("size")
                .and_then(|s| s.parse::<u32>().ok())
                .unwrap_or(16)
                .clamp(8, 128);
            if let Some(svg) = icons::svg(&icon, size) {
                match attrs.string("color").filter(|c| is_css_color(c)) {
                    Some(color) => m.html.push_str(&format!(
                        "<span class=\"icon-wrap\" style=\"color:{color}\">{svg}</span>"
                    )),
                    None => m.html.push_str(&svg),
                }
            } else {
                m.warn(node, format!("unknown icon {icon:?}"));
            }
        }
        "Panel" => wrap(m, node, "<aside class=\"panel\">", "</aside>\n"),
        "Tree" => wrap(m, node, "<ul class=\"tree\">", "</ul>\n"),
        "Tree.Folder" => {
            let folder = attrs.string("name").unwrap_or_default();
            let open = if attrs.flag("defaultOpen") {
                " open"
            } else {
                ""
            };
            m.html.push_str(&format!(
                "<li class=\"tree-folder\"><details{open}><summary>{}",
                icons::svg("folder", 14).unwrap_or_default()
            ));
            m.label(&folder);
            m.html.push_str("</summary><ul>");
            m.children(node);
            m.html.push_str("</ul></details></li>\n");
        }
        "Tree.File" => {
            let file = attrs.string("name").unwrap_or_default();
            m.html.push_str(&format!(
                "<li class=\"tree-file\">{}",
                icons::svg("file", 14).unwrap_or_default()
            ));
            m.label(&file);
            m.html.push_str("</li>\n");
        }
        "Update" => {
            let label = attrs.string("label").unwrap_or_default();
            m.html
                .push_str("<section class=\"update\"><div class=\"update-label\">");
            m.label(&label);
            m.html.push_str("</div><div class=\"update-body\">");
            m.children(node);
            m.html.push_str("</div></section>\n");
        }
        _ if is_html_element(name) => html_element(m, node, name, &attrs),
        _ if m.snippet(node, name, attrs.all()) => {}
        _ => {
            m.warn(
                node,
                format!("unknown component <{name}> is rendered as its children"),
            );
            let tag = if flow { "div" } else { "span" };
            m.html.push_str(&format!(
                "<{tag} class=\"component\" data-component=\"{}\">",
                escaped(name)
            ));
            m.children(node);
            m.html.push_str(&format!("</{tag}>"));
        }
    }
}

/// The string attributes of a JSX element.
struct Attrs<'a>(&'a [AttributeContent]);

impl Attrs<'_> {
    /// A literal string attribute (`title="x"`), or a simple literal in braces (`cols={3}`).
    fn string(&self, key: &str) -> Option<String> {
        self.0.iter().find_map(|a| match a {
            AttributeContent::Property(p) if p.name == key => match &p.value {
                Some(AttributeValue::Literal(s)) => Some(s.clone()),
                Some(AttributeValue::Expression(e)) => {
                    let v = e.value.trim().trim_matches(['"', '\'', '`']);
                    Some(v.to_string())
                }
                None => Some(String::new()),
            },
            _ => None,
        })
    }

    /// Every attribute with a string value, for a snippet's variables.
    fn all(&self) -> std::collections::HashMap<String, String> {
        self.0
            .iter()
            .filter_map(|a| match a {
                AttributeContent::Property(p) => Some((p.name.clone(), self.string(&p.name)?)),
                _ => None,
            })
            .collect()
    }

    /// A boolean attribute: present without a value, or `={true}`.
    fn flag(&self, key: &str) -> bool {
        self.string(key)
            .is_some_and(|v| v.is_empty() || v == "true")
    }
}

fn wrap(m: &mut Markup<'_>, node: &Node, open: &str, close: &str) {
    m.html.push_str(open);
    m.children(node);
    m.html.push_str(close);
}

fn titled(
    m: &mut Markup<'_>,
    node: &Node,
    attrs: &Attrs<'_>,
    open: &str,
    title_class: &str,
    close: &str,
) {
    m.html.push_str(open);
    if let Some(title) = attrs.string("title") {
        m.html.push_str(&format!("<div class=\"{title_class}\">"));
        m.label(&title);
        m.html.push_str("</div>");
    }
    m.children(node);
    m.html.push_str(close);
}

/// An icon's SVG, or a warning naming the unknown icon.
fn icon_or_warn(m: &mut Markup<'_>, node: &Node, name: &str) -> Option<String> {
    let svg = icons::svg(name, 18);
    if svg.is_none() {
        m.warn(node, format!("unknown icon {name:?}"));
    }
    svg
}

/// `#abc`, `#aabbcc` or a plain colour name: nothing that could leave a `style` attribute.
fn is_css_color(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => matches!(hex.len(), 3 | 6 | 8) && hex.chars().all(|ch| ch.is_ascii_hexdigit()),
        None => !c.is_empty() && c.chars().all(|ch| ch.is_ascii_alphabetic()),
    }
}

fn card_body(
    m: &mut Markup<'_>,
    node: &Node,
    title: Option<&(String, String)>,
    description: Option<String>,
) {
    if let Some((icon, title)) = title {
        m.html.push_str("<div class=\"card-title\">");
        m.html.push_str(icon);
        m.label(title);
        m.html.push_str("</div>");
    }
    if let Some(description) = description {
        m.html.push_str("<p class=\"card-description\">");
        m.label(&description);
        m.html.push_str("</p>");
    }
    m.html.push_str("<div class=\"card-body\">");
    m.children(node);
    m.html.push_str("</div>");
}

/// `<ParamField query="limit" type="integer" required>` and `<ResponseField name="id" ...>`.
fn field(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>, is_param: bool) {
    let (location, name) = if is_param {
        ["path", "query", "body", "header"]
            .iter()
            .find_map(|loc| attrs.string(loc).map(|n| (Some(*loc), n)))
            .unwrap_or((None, String::new()))
    } else {
        (None, attrs.string("name").unwrap_or_default())
    };
    m.html
        .push_str("<div class=\"field\"><div class=\"field-head\"><code class=\"field-name\">");
    m.label(&name);
    m.html.push_str("</code>");
    if let Some(location) = location {
        m.html.push_str(&format!(
            " <span class=\"field-location\">{location}</span>"
        ));
    }
    if let Some(kind) = attrs.string("type") {
        m.html.push_str(" <span class=\"field-type\">");
        m.label(&kind);
        m.html.push_str("</span>");
    }
    if attrs.flag("required") {
        m.html
            .push_str(" <span class=\"field-required\">required</span>");
    }
    if let Some(default) = attrs.string("default") {
        m.html.push_str(" <span class=\"field-default\">default: ");
        m.label(&default);
        m.html.push_str("</span>");
    }
    m.html.push_str("</div><div class=\"field-body\">");
    m.children(node);
    m.html.push_str("</div></div>\n");
}

const HTML_ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "caption",
    "code",
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
    "img",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "pre",
    "s",
    "small",
    "span",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "u",
    "ul",
    "video",
    "source",
    "picture",
];
const VOID_ELEMENTS: &[&str] = &["br", "hr", "img", "source"];
const SAFE_ATTRIBUTES: &[&str] = &[
    "id", "title", "alt", "width", "height", "colspan", "rowspan", "align", "target", "rel",
    "controls", "loop", "muted", "autoplay", "type", "open",
];

fn is_html_element(name: &str) -> bool {
    HTML_ELEMENTS.contains(&name)
}

/// A lowercase JSX element written as HTML. Only inert attributes pass: no event handlers, no
/// inline styles (JSX styles are objects anyway); `href`/`src` are rewritten like page links.
fn html_element(m: &mut Markup<'_>, node: &Node, name: &str, attrs: &Attrs<'_>) {
    m.html.push('<');
    m.html.push_str(name);
    for content in attrs.0 {
        let AttributeContent::Property(p) = content else {
            continue;
        };
        let key = if p.name == "className" {
            "class"
        } else {
            p.name.as_str()
        };
        let value = attrs.string(&p.name).unwrap_or_default();
        let value = match key {
            "href" | "src" => {
                if value.trim_start().to_lowercase().starts_with("javascript:") {
                    continue;
                }
                match m.link_target(node, &value) {
                    Some(target) => target,
                    None => continue, // a page the site does not have: no link to it
                }
            }
            "class" => value,
            k if SAFE_ATTRIBUTES.contains(&k)
                || k.starts_with("data-")
                || k.starts_with("aria-") =>
            {
                value
            }
            _ => continue,
        };
        m.html.push(' ');
        m.html.push_str(key);
        m.html.push_str("=\"");
        push_escaped(&mut m.html, &value);
        m.html.push('"');
    }
    m.html.push('>');
    if VOID_ELEMENTS.contains(&name) {
        return;
    }
    m.children(node);
    m.html.push_str(&format!("</{name}>"));
}
