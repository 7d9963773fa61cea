//! MDX components (`<Note>`, `<Card>`, `<Steps>`, ...) and lowercase HTML elements written as
//! JSX. Components become plain HTML and CSS that work without JavaScript; a component this
//! renderer does not know renders its children and leaves a warning.

use std::collections::HashMap;

use markdown::mdast::{AttributeContent, AttributeValue, Node};

mod attrs;
mod cards;
mod element_props;
pub(crate) mod html;
mod reference;

use crate::icons::{self, IconRef};
use crate::markup::Markup;
pub(crate) use attrs::Attrs;
use quire_sdk::escape;

/// The name and attributes of `node` when it is a JSX element (flow or inline).
pub(crate) fn element(node: &Node) -> Option<(&str, Attrs<'_>)> {
    match node {
        Node::MdxJsxFlowElement(e) => Some((e.name.as_deref()?, Attrs(&e.attributes))),
        Node::MdxJsxTextElement(e) => Some((e.name.as_deref()?, Attrs(&e.attributes))),
        _ => None,
    }
}

/// Renders one JSX element. `flow` is true for block-level elements.
pub fn render(
    m: &mut Markup<'_>,
    node: &Node,
    name: Option<&str>,
    attributes: &[AttributeContent],
    flow: bool,
) {
    // Inside a snippet or a component, `href={url}` takes the value of the prop `url`.
    let resolved;
    let attributes = if m.in_component() {
        resolved = resolve_props(m, attributes);
        &resolved[..]
    } else {
        attributes
    };
    let Some(name) = name else {
        // A fragment: `<>...</>`.
        m.children(node);
        return;
    };
    // Props given as elements are rendered for the component to place; its string readers
    // see their text.
    // A snippet or JavaScript component takes them as written, and passes them on.
    let (attributes, element_props) =
        if crate::raw_html::vocabulary::is_element(name) || m.own_component(name) {
            (std::borrow::Cow::Borrowed(attributes), HashMap::new())
        } else {
            element_props::render(m, node, attributes)
        };
    m.element_props.push(element_props);
    component(m, node, name, Attrs(&attributes), flow);
    m.element_props.pop();
}

/// Renders the component or element `name` with its attributes resolved.
fn component(m: &mut Markup<'_>, node: &Node, name: &str, attrs: Attrs<'_>, flow: bool) {
    // `import Step from './step.mdx'` makes `<Step />` that snippet, not the built-in step.
    if m.own_component(name) && m.snippet(node, name, &attrs) {
        return;
    }
    match name {
        "Note" | "Info" | "Tip" | "Warning" | "Check" | "Danger" | "Callout" => {
            let kind = if name == "Callout" { "Info" } else { name };
            let class = kind.to_lowercase();
            let icon = match attrs.string("icon") {
                Some(icon) => icon_or_warn(m, node, &attrs, &icon, 16).unwrap_or_default(),
                None => icons::ui(
                    match kind {
                        "Tip" => "lightbulb",
                        "Warning" => "triangle-alert",
                        "Check" => "circle-check",
                        "Danger" => "octagon-alert",
                        _ => "info",
                    },
                    16,
                ),
            };
            // A custom callout's colour tints its border, label and background (quire.css).
            let color = attrs
                .string("color")
                .filter(|c| is_css_color(c))
                .map(|c| format!(" style=\"--callout-color:{c}\""))
                .unwrap_or_default();
            m.html.push_str(&format!(
                "<div class=\"callout callout-{class}\" role=\"note\"{color}><div class=\"callout-label\">{icon}{kind}</div><div class=\"callout-body\">"
            ));
            m.children(node);
            m.html.push_str("</div></div>\n");
        }
        "Card" => cards::card(m, node, &attrs),
        "Tile" => cards::tile(m, node, &attrs),
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
        "Column" => wrap(m, node, "<div class=\"column\">", "</div>\n"),
        "Steps" => {
            let size = match attrs.string("titleSize").as_deref() {
                Some("h2") => " steps-title-h2",
                Some("h3") => " steps-title-h3",
                _ => "",
            };
            wrap(m, node, &format!("<ol class=\"steps{size}\">"), "</ol>\n");
        }
        "Step" => reference::step(m, node, &attrs),
        "Accordion" | "Expandable" => {
            let open = if attrs.flag("defaultOpen") {
                " open"
            } else {
                ""
            };
            let class = name.to_lowercase();
            m.html
                .push_str(&format!("<details class=\"{class}\"{open}><summary>"));
            if let Some(icon) = attrs
                .string("icon")
                .and_then(|i| icon_or_warn(m, node, &attrs, &i, 16))
            {
                m.html.push_str(&icon);
            }
            let title = attrs.string("title").unwrap_or_else(|| name.to_string());
            m.html.push_str("<span class=\"details-title\">");
            m.prop_label("title", &title);
            m.html.push_str("</span>");
            if let Some(description) = attrs.string("description") {
                m.labelled(
                    "<span class=\"details-description\">",
                    &description,
                    "</span>",
                );
            }
            m.html.push_str("</summary><div class=\"details-body\">");
            m.children(node);
            m.html.push_str("</div></details>\n");
        }
        "AccordionGroup" => wrap(m, node, "<div class=\"accordion-group\">", "</div>\n"),
        "Tabs" => wrap(m, node, "<div class=\"tabs\">", "</div>\n"),
        "Tab" => {
            m.html.push_str("<section class=\"tab\">");
            let icon = attrs
                .string("icon")
                .and_then(|i| icon_or_warn(m, node, &attrs, &i, 16))
                .unwrap_or_default();
            if let Some(title) = attrs.string("title") {
                m.html.push_str("<div class=\"tab-title\">");
                m.html.push_str(&icon);
                m.prop_label("title", &title);
                m.html.push_str("</div>");
            }
            m.children(node);
            m.html.push_str("</section>\n");
        }
        "CodeGroup" => wrap(m, node, "<div class=\"code-group\">", "</div>\n"),
        // Examples sit in the side column, as on an API page.
        "RequestExample" => m.aside(|m| {
            wrap(
                m,
                node,
                "<div class=\"example example-request\">",
                "</div>\n",
            )
        }),
        "ResponseExample" => m.aside(|m| {
            wrap(
                m,
                node,
                "<div class=\"example example-response\">",
                "</div>\n",
            )
        }),
        "Frame" => {
            if let Some(hint) = attrs.string("hint") {
                m.labelled("<p class=\"frame-hint\">", &hint, "</p>");
            }
            m.html.push_str("<figure class=\"frame\">");
            m.children(node);
            if let Some(caption) = attrs.string("caption") {
                m.labelled("<figcaption>", &caption, "</figcaption>");
            }
            m.html.push_str("</figure>\n");
        }
        "ParamField" | "ResponseField" => field(m, node, &attrs, name == "ParamField"),
        "Badge" => reference::badge(m, node, &attrs),
        "Tooltip" => reference::tooltip(m, node, &attrs),
        "Icon" => {
            let icon = attrs.string("icon").unwrap_or_default();
            let size = attrs
                .string("size")
                .and_then(|s| s.parse::<u32>().ok())
                .unwrap_or(16)
                .clamp(8, 128);
            if let Some(svg) = icon_or_warn(m, node, &attrs, &icon, size) {
                let style = attrs
                    .string("color")
                    .filter(|c| is_css_color(c))
                    .map(|c| format!(" style=\"color:{c}\""))
                    .unwrap_or_default();
                m.html.push_str(&format!(
                    "<span class=\"icon-wrap{}\"{style}>{svg}</span>",
                    attrs.class_names()
                ));
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
            let folder_icon = icons::ui("folder", 14);
            // `openable={false}`: shown open, with no control to close it.
            let (label_open, label_close, end) =
                if attrs.string("openable").as_deref() == Some("false") {
                    (
                        "<div class=\"tree-label\">".to_string(),
                        "</div>",
                        "</ul></li>\n",
                    )
                } else {
                    (
                        format!("<details{open}><summary>"),
                        "</summary>",
                        "</ul></details></li>\n",
                    )
                };
            m.html.push_str(&format!(
                "<li class=\"tree-folder\">{label_open}{folder_icon}"
            ));
            m.label(&folder);
            m.html.push_str(label_close);
            m.html.push_str("<ul>");
            m.children(node);
            m.html.push_str(end);
        }
        "Tree.File" => {
            let file = attrs.string("name").unwrap_or_default();
            m.html.push_str(&format!(
                "<li class=\"tree-file\">{}",
                icons::ui("file", 14)
            ));
            m.label(&file);
            m.html.push_str("</li>\n");
        }
        "Update" => reference::update(m, node, &attrs),
        "View" => reference::view(m, node, &attrs),
        "Visibility" => {
            // Agents read the page's Markdown; the HTML page is for people.
            if attrs.string("for").as_deref() != Some("agents") {
                m.children(node);
            }
        }
        "Prompt" => reference::prompt(m, node, &attrs),
        "Color" => reference::colors(m, node, &attrs),
        "Color.Row" => reference::color_row(m, node, &attrs),
        "Color.Item" => reference::color_item(m, &attrs),
        "Link" => {
            let href = attrs.string("href").unwrap_or_default();
            match m.link_target(node, &href) {
                Some(href) => wrap(
                    m,
                    node,
                    &format!("<a href=\"{}\">", escape::html(&href)),
                    "</a>",
                ),
                None => m.children(node),
            }
        }
        "Latex" => {
            let tex = latex_source(node);
            m.math(node, &tex, flow);
        }
        "Snippet" if attrs.string("file").is_some() => {
            let file = attrs.string("file").unwrap_or_default();
            m.legacy_snippet(node, &file, attrs.all());
        }
        _ if crate::raw_html::vocabulary::is_element(name) => html::element(m, node, name, &attrs),
        _ if m.snippet(node, name, &attrs) => {}
        _ => {
            m.warn(
                node,
                format!("unknown component <{name}> is rendered as its children"),
            );
            let tag = if flow { "div" } else { "span" };
            m.html.push_str(&format!(
                "<{tag} class=\"component\" data-component=\"{}\">",
                escape::html(name)
            ));
            m.children(node);
            m.html.push_str(&format!("</{tag}>"));
        }
    }
}

/// The TeX inside `<Latex>`: MDX reads its braces as expressions, so they are put back
/// (`\\frac{1}{2}`), and a string expression (`{'\\frac{1}{2}'}`) is taken as written.
fn latex_source(node: &Node) -> String {
    let mut tex = String::new();
    for child in node.children().into_iter().flatten() {
        let expression = match child {
            Node::MdxTextExpression(e) => Some(e.value.trim()),
            Node::MdxFlowExpression(e) => Some(e.value.trim()),
            _ => None,
        };
        match (child, expression) {
            (Node::Text(t), _) => tex.push_str(&t.value),
            (_, Some(v)) if crate::jsx::is_string_literal(v) => {
                tex.push_str(&v[1..v.len() - 1].replace("\\\\", "\\"));
            }
            (_, Some(v)) => {
                tex.push('{');
                tex.push_str(v);
                tex.push('}');
            }
            (other, None) => tex.push_str(&latex_source(other)),
        }
    }
    tex
}

/// The attributes with every `{name}` that names a prop in scope replaced by its value.
fn resolve_props(m: &Markup<'_>, attributes: &[AttributeContent]) -> Vec<AttributeContent> {
    attributes
        .iter()
        .map(|a| match a {
            AttributeContent::Property(p) => match &p.value {
                Some(AttributeValue::Expression(e)) => {
                    match m.variable(e.value.trim()).or_else(|| m.template(&e.value)) {
                        Some(value) => {
                            let mut p = p.clone();
                            p.value = Some(AttributeValue::Literal(value));
                            AttributeContent::Property(p)
                        }
                        None => a.clone(),
                    }
                }
                _ => a.clone(),
            },
            _ => a.clone(),
        })
        .collect()
}

pub(crate) fn wrap(m: &mut Markup<'_>, node: &Node, open: &str, close: &str) {
    m.html.push_str(open);
    m.children(node);
    m.html.push_str(close);
}

/// An icon named by a component (with its `iconType`), or a warning naming the unknown icon.
pub(crate) fn icon_or_warn(
    m: &mut Markup<'_>,
    node: &Node,
    attrs: &Attrs<'_>,
    name: &str,
    size: u32,
) -> Option<String> {
    if let Some(html) = m.element_prop("icon") {
        return Some(icons::sized(&html, size));
    }
    let style = attrs.string("iconType");
    m.icon(
        node,
        IconRef {
            name,
            style: style.as_deref(),
        },
        size,
    )
}

/// `#abc`, `#aabbcc` or a plain colour name: nothing that could leave a `style` attribute.
pub(crate) fn is_css_color(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => matches!(hex.len(), 3 | 6 | 8) && hex.chars().all(|ch| ch.is_ascii_hexdigit()),
        None => !c.is_empty() && c.chars().all(|ch| ch.is_ascii_alphabetic()),
    }
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
    for label in attrs.list("pre") {
        m.labelled(" <span class=\"field-pre\">", &label, "</span>");
    }
    if let Some(kind) = attrs.string("type") {
        m.labelled(" <span class=\"field-type\">", &kind, "</span>");
    }
    if attrs.flag("required") {
        m.html
            .push_str(" <span class=\"field-required\">required</span>");
    }
    if attrs.flag("deprecated") {
        m.html
            .push_str(" <span class=\"field-deprecated\">deprecated</span>");
    }
    for label in attrs.list("post") {
        m.labelled(" <span class=\"field-post\">", &label, "</span>");
    }
    if let Some(default) = attrs.string("default") {
        m.labelled(
            " <span class=\"field-default\">default: ",
            &default,
            "</span>",
        );
    }
    m.html.push_str("</div><div class=\"field-body\">");
    m.children(node);
    m.html.push_str("</div></div>\n");
}
