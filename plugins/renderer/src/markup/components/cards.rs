//! Cards and tiles: `<Card>` with its title, icon, image, horizontal layout and call to action,
//! and `<Tile>`, a preview (its children, usually an image) above a title.

use markdown::mdast::Node;

use super::{Attrs, icon_or_warn, is_css_color};
use crate::markup::Markup;
use quire_sdk::escape;

/// `<Card title icon iconType color href horizontal img cta arrow>`.
pub fn card(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let icon = attrs
        .string("icon")
        .and_then(|i| icon_or_warn(m, node, attrs, &i, 20));
    let icon = match (icon, attrs.string("color").filter(|c| is_css_color(c))) {
        (Some(icon), Some(color)) => {
            format!("<span class=\"card-icon\" style=\"color:{color}\">{icon}</span>")
        }
        (Some(icon), None) => format!("<span class=\"card-icon\">{icon}</span>"),
        (None, _) => String::new(),
    };
    let mut class = String::from("card");
    if attrs.flag("horizontal") {
        class.push_str(" card-horizontal");
    }
    let href = attrs
        .string("href")
        .and_then(|href| m.link_target(node, &href));
    let external = href.as_deref().is_some_and(|h| h.contains("://"));
    match &href {
        Some(href) => m.html.push_str(&format!(
            "<a class=\"{class}\" href=\"{}\"{}>",
            escape::html(href),
            if external { " rel=\"noopener\"" } else { "" }
        )),
        None => m.html.push_str(&format!("<div class=\"{class}\">")),
    }
    if let Some(image) = m.element_prop("img") {
        // `img={<img src="..." />}` (or any drawing): the element, where the image goes.
        m.html.push_str("<div class=\"card-image\">");
        m.html.push_str(&image);
        m.html.push_str("</div>");
    } else if let Some(img) = attrs.string("img") {
        let src = m.link_target(node, &img).unwrap_or_default();
        m.html.push_str(&format!(
            "<img class=\"card-image\" src=\"{}\" alt=\"\" loading=\"lazy\">",
            escape::html(&src)
        ));
    }
    m.html.push_str("<div class=\"card-content\">");
    if !icon.is_empty() || attrs.string("title").is_some() {
        m.html.push_str("<div class=\"card-title\">");
        m.html.push_str(&icon);
        if let Some(title) = attrs.string("title") {
            m.prop_label("title", &title);
        }
        m.html.push_str("</div>");
    }
    if let Some(description) = attrs.string("description") {
        m.labelled("<p class=\"card-description\">", &description, "</p>");
    }
    m.html.push_str("<div class=\"card-body\">");
    m.children(node);
    m.html.push_str("</div>");
    let arrow = attrs.string("arrow").map_or(external, |a| a != "false");
    match attrs.string("cta") {
        Some(cta) => {
            m.labelled("<span class=\"card-cta\">", &cta, " →</span>");
        }
        None if arrow && href.is_some() => m
            .html
            .push_str("<span class=\"card-arrow\" aria-hidden=\"true\">↗</span>"),
        None => {}
    }
    m.html.push_str("</div>");
    m.html
        .push_str(if href.is_some() { "</a>\n" } else { "</div>\n" });
}

/// `<Tile href title description>preview</Tile>`.
pub fn tile(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let href = attrs
        .string("href")
        .and_then(|href| m.link_target(node, &href));
    match &href {
        Some(href) => m.html.push_str(&format!(
            "<a class=\"tile\" href=\"{}\">",
            escape::html(href)
        )),
        None => m.html.push_str("<div class=\"tile\">"),
    }
    m.html.push_str("<div class=\"tile-preview\">");
    m.children(node);
    m.html.push_str("</div>");
    if let Some(title) = attrs.string("title") {
        m.labelled("<div class=\"tile-title\">", &title, "</div>");
    }
    if let Some(description) = attrs.string("description") {
        m.labelled("<p class=\"tile-description\">", &description, "</p>");
    }
    m.html
        .push_str(if href.is_some() { "</a>\n" } else { "</div>\n" });
}
