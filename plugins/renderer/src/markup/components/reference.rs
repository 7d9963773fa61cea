//! Components of the docs.json component reference that are more than a wrapper: badges,
//! tooltips, steps, changelog updates, multi-view content, prompts and colour palettes.

use markdown::mdast::Node;

use super::{Attrs, icon_or_warn, wrap};
use crate::markup::Markup;
use quire_sdk::escape;

const BADGE_COLORS: &[&str] = &[
    "gray",
    "blue",
    "green",
    "yellow",
    "orange",
    "red",
    "purple",
    "white",
    "surface",
    "white-destructive",
    "surface-destructive",
];

/// `<Badge color size shape icon iconType stroke disabled>`.
pub fn badge(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let color = attrs
        .string("color")
        .filter(|c| BADGE_COLORS.contains(&c.as_str()))
        .unwrap_or_else(|| "gray".into());
    let size = attrs
        .string("size")
        .filter(|s| matches!(s.as_str(), "xs" | "sm" | "md" | "lg"))
        .unwrap_or_else(|| "md".into());
    let shape = if attrs.string("shape").as_deref() == Some("pill") {
        "pill"
    } else {
        "rounded"
    };
    let mut class = format!(
        "badge badge-{color} badge-{size} badge-{shape}{}",
        attrs.class_names()
    );
    if attrs.flag("stroke") {
        class.push_str(" badge-stroke");
    }
    if attrs.flag("disabled") {
        class.push_str(" badge-disabled");
    }
    m.html.push_str(&format!("<span class=\"{class}\">"));
    if let Some(icon) = attrs
        .string("icon")
        .and_then(|i| icon_or_warn(m, node, attrs, &i, 12))
    {
        m.html.push_str(&icon);
    }
    m.children(node);
    m.html.push_str("</span>");
}

/// `<Tooltip tip headline cta href>`: the tip in a hover card, shown on focus too.
pub fn tooltip(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let tip = attrs.string("tip").unwrap_or_default();
    m.html.push_str(&format!(
        "<span class=\"tooltip\" tabindex=\"0\" title=\"{}\">",
        escape::html(&tip)
    ));
    m.children(node);
    m.html
        .push_str("<span class=\"tooltip-card\" role=\"tooltip\">");
    if let Some(headline) = attrs.string("headline") {
        m.html.push_str("<strong>");
        m.text(&headline);
        m.html.push_str("</strong> ");
    }
    m.text(&tip);
    if let (Some(cta), Some(href)) = (
        attrs.string("cta"),
        attrs.string("href").and_then(|h| m.link_target(node, &h)),
    ) {
        m.html
            .push_str(&format!(" <a href=\"{}\">", escape::html(&href)));
        m.text(&cta);
        m.html.push_str("</a>");
    }
    m.html.push_str("</span></span>");
}

/// `<Step title icon iconType stepNumber titleSize>`.
pub fn step(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let number = attrs
        .string("stepNumber")
        .and_then(|n| n.parse::<u32>().ok())
        .map(|n| format!(" value=\"{n}\""))
        .unwrap_or_default();
    let icon = attrs
        .string("icon")
        .and_then(|i| icon_or_warn(m, node, attrs, &i, 16));
    let class = if icon.is_some() {
        "step step-icon"
    } else {
        "step"
    };
    m.html.push_str(&format!("<li class=\"{class}\"{number}>"));
    if let Some(icon) = icon {
        m.html
            .push_str(&format!("<span class=\"step-marker\">{icon}</span>"));
    }
    if let Some(title) = attrs.string("title") {
        let size = match attrs.string("titleSize").as_deref() {
            Some("h2") => " step-title-h2",
            Some("h3") => " step-title-h3",
            _ => "",
        };
        m.html
            .push_str(&format!("<div class=\"step-title{size}\">"));
        m.prop_label("title", &title);
        m.html.push_str("</div>");
    }
    m.children(node);
    m.html.push_str("</li>\n");
}

/// `<Update label description tags>`: one entry of a changelog.
pub fn update(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let label = attrs.string("label").unwrap_or_default();
    m.html.push_str(
        "<section class=\"update\"><div class=\"update-meta\"><div class=\"update-label\">",
    );
    m.prop_label("label", &label);
    m.html.push_str("</div>");
    if let Some(description) = attrs.string("description") {
        m.html.push_str("<div class=\"update-description\">");
        m.prop_label("description", &description);
        m.html.push_str("</div>");
    }
    let tags = attrs.list("tags");
    if !tags.is_empty() {
        m.html.push_str("<div class=\"update-tags\">");
        for tag in tags {
            m.html
                .push_str("<span class=\"badge badge-gray badge-sm badge-rounded\">");
            m.text(&tag);
            m.html.push_str("</span>");
        }
        m.html.push_str("</div>");
    }
    m.html.push_str("</div><div class=\"update-body\">");
    m.children(node);
    m.html.push_str("</div></section>\n");
}

/// `<View title icon iconType>`: one of the page's alternative views; quire.js shows one at a
/// time with a selector, and without JavaScript every view shows under its title.
pub fn view(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let title = attrs.string("title").unwrap_or_else(|| "View".into());
    let icon = attrs
        .string("icon")
        .and_then(|i| icon_or_warn(m, node, attrs, &i, 16))
        .unwrap_or_default();
    m.html.push_str(&format!(
        "<section class=\"view\" data-view=\"{}\"><div class=\"view-title\">{icon}",
        escape::html(&title)
    ));
    m.label(&title);
    m.html.push_str("</div>");
    m.children(node);
    m.html.push_str("</section>\n");
}

/// `<Prompt description icon iconType actions>`: a prompt readers copy, or open in Cursor.
pub fn prompt(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let actions = if attrs.string("actions").is_some() {
        attrs.list("actions")
    } else {
        vec!["copy".to_string()]
    };
    m.html
        .push_str("<div class=\"prompt\"><div class=\"prompt-head\">");
    let icon = attrs.string("icon").unwrap_or_else(|| "sparkles".into());
    if let Some(icon) = icon_or_warn(m, node, attrs, &icon, 16) {
        m.html.push_str(&icon);
    }
    if let Some(description) = attrs.string("description") {
        m.labelled(
            "<span class=\"prompt-description\">",
            &description,
            "</span>",
        );
    }
    m.html.push_str("<span class=\"prompt-actions\">");
    for action in actions {
        match action.as_str() {
            "copy" => m
                .html
                .push_str("<button type=\"button\" class=\"prompt-copy\">Copy prompt</button>"),
            "cursor" => m
                .html
                .push_str("<a class=\"prompt-cursor\" rel=\"noopener\">Open in Cursor</a>"),
            _ => {}
        }
    }
    m.html.push_str("</span></div>");
    wrap(m, node, "<div class=\"prompt-body\">", "</div></div>\n");
}

/// `<Color variant="compact|table">`.
pub fn colors(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    let variant = if attrs.string("variant").as_deref() == Some("table") {
        "table"
    } else {
        "compact"
    };
    wrap(
        m,
        node,
        &format!("<div class=\"colors colors-{variant}\">"),
        "</div>\n",
    );
}

/// `<Color.Row title>`: a labelled row of a palette.
pub fn color_row(m: &mut Markup<'_>, node: &Node, attrs: &Attrs<'_>) {
    m.html
        .push_str("<div class=\"color-row\"><div class=\"color-row-title\">");
    m.label(&attrs.string("title").unwrap_or_default());
    m.html.push_str("</div>");
    wrap(m, node, "<div class=\"color-row-items\">", "</div></div>\n");
}

/// `<Color.Item name value>`: a swatch; the value is any CSS colour (hex, rgb, hsl, oklch).
pub fn color_item(m: &mut Markup<'_>, attrs: &Attrs<'_>) {
    let value = attrs.string("value").unwrap_or_default();
    let safe = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " #(),.%/-".contains(c));
    m.html.push_str("<div class=\"color-item\">");
    if safe {
        m.html.push_str(&format!(
            "<span class=\"swatch\" style=\"background:{value}\"></span>"
        ));
    }
    if let Some(name) = attrs.string("name") {
        m.labelled("<span class=\"color-name\">", &name, "</span>");
    }
    m.html.push_str("<code class=\"color-value\">");
    m.text(&value);
    m.html.push_str("</code></div>");
}
