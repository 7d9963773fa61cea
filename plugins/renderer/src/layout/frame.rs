//! The frame around every page: the top bar (logo, navbar links, version, language and
//! product switchers, search, theme toggle), the section tabs, the sidebar's section links and
//! the footer. The page tree inside the sidebar comes from the context's navigation script.

use crate::icons;
use crate::navigation::{Destination, NavContext, NavKind, language_name};
use crate::settings::Settings;
use crate::site::{Site, SwitchChoice};
use quire_sdk::escape;

/// The footer: the link columns and social links of docs.json `footer`, the site and version.
pub(super) fn footer(html: &mut String, site: &Site, path: &str, root: &str) {
    let (_, chrome) = site.frame(path);
    html.push_str("<footer class=\"footer\">");
    if !chrome.footer_columns.is_empty() {
        html.push_str("<div class=\"footer-columns\">");
        for (header, items) in &chrome.footer_columns {
            html.push_str("<div class=\"footer-column\">");
            if !header.is_empty() {
                html.push_str(&format!("<strong>{}</strong>", escape::html(header)));
            }
            for (label, href) in items {
                html.push_str(&format!(
                    "<a href=\"{}\">{}</a>",
                    escape::html(&crate::links::navigation_href(href, root)),
                    escape::html(label)
                ));
            }
            html.push_str("</div>");
        }
        html.push_str("</div>");
    }
    html.push_str(&format!("<span>{}</span>", escape::html(&site.name)));
    if !chrome.socials.is_empty() {
        html.push_str("<span class=\"footer-socials\">");
        for (network, url) in &chrome.socials {
            let icon = icons::draw(
                icons::Library::FontAwesome,
                icons::IconRef {
                    name: network,
                    style: Some("brands"),
                },
                16,
            )
            .and_then(|drawn| match drawn {
                icons::Drawn::Svg(svg) => Some(svg),
                icons::Drawn::Image(_) => None,
            })
            .unwrap_or_default();
            html.push_str(&format!(
                "<a href=\"{}\" aria-label=\"{}\" rel=\"noopener\">{icon}{}</a>",
                escape::html(url),
                escape::html(network),
                if icon.is_empty() {
                    escape::html(network)
                } else {
                    String::new()
                }
            ));
        }
        html.push_str("</span>");
    }
    // No content version label here: a page's output must not depend on it, so that an
    // unchanged page is reused from one version to the next (the contract's `site-info`).
    html.push_str("</footer>\n");
}

/// The top bar.
pub(super) fn topbar(html: &mut String, site: &Site, path: &str, root: &str) {
    let home = site.home().unwrap_or("index");
    let (navbar_links, chrome) = site.frame(path);
    let logo_href = match &chrome.logo_href {
        Some(href) => crate::links::navigation_href(href, root),
        None => format!("{root}{home}.html"),
    };
    html.push_str(&format!(
        "<header class=\"topbar\"><a class=\"site-name\" href=\"{}\">",
        escape::html(&logo_href)
    ));
    let settings = &site.settings;
    if let Some(light) = &settings.logo_light {
        let dark = settings.logo_dark.as_deref().unwrap_or(light);
        html.push_str(&format!(
            "<img class=\"logo logo-light\" src=\"{root}{}\" alt=\"\"><img class=\"logo logo-dark\" src=\"{root}{}\" alt=\"\">",
            escape::html(light),
            escape::html(dark)
        ));
    }
    html.push_str(&format!("<span>{}</span></a>", escape::html(&site.name)));
    switcher(html, "version", &site.version_choices(path), root, |l| {
        l.to_string()
    });
    switcher(html, "language", &site.language_choices(path), root, |l| {
        language_name(l).to_string()
    });
    html.push_str("<div class=\"topbar-spacer\"></div>");
    let prompt = settings
        .appearance
        .search_prompt
        .as_deref()
        .unwrap_or("Search");
    html.push_str(&format!(
        "<button type=\"button\" class=\"search-button\" hidden aria-label=\"Search\">{}<span>{}</span><kbd>/</kbd></button>",
        icons::ui("search", 16),
        escape::html(prompt)
    ));
    for (label, href) in navbar_links {
        let href = crate::links::navigation_href(href, root);
        html.push_str(&format!(
            "<a class=\"navbar-link\" href=\"{}\">{}</a>",
            escape::html(&href),
            escape::html(label)
        ));
    }
    if let Some((label, href)) = &chrome.primary_button {
        html.push_str(&format!(
            "<a class=\"navbar-button\" href=\"{}\">{}</a>",
            escape::html(&crate::links::navigation_href(href, root)),
            escape::html(label)
        ));
    }
    // `appearance.strict`: the site's mode stays, with nothing to switch it.
    if !settings.appearance.strict {
        html.push_str(&format!(
            "<button type=\"button\" class=\"theme-toggle\" hidden aria-label=\"Switch between light and dark mode\">{}{}</button>",
            icons::ui("sun", 18),
            icons::ui("moon", 18)
        ));
    }
    html.push_str("</header>\n");
}

/// A version or language menu: a `<details>` list of links, so it works without JavaScript.
fn switcher(
    html: &mut String,
    kind: &str,
    choices: &[SwitchChoice],
    root: &str,
    name: impl Fn(&str) -> String,
) {
    let Some(current) = choices.iter().find(|c| c.current) else {
        return;
    };
    if choices.len() < 2 {
        return;
    }
    html.push_str(&format!(
        "<details class=\"switcher switcher-{kind}\"><summary aria-label=\"Choose a {kind}\">{}</summary><ul>",
        escape::html(&name(&current.label))
    ));
    for choice in choices {
        let active = if choice.current {
            " aria-current=\"true\""
        } else {
            ""
        };
        html.push_str(&format!(
            "<li><a href=\"{root}{}.html\" data-{kind}=\"{}\"{active}>{}</a></li>",
            escape::html(&choice.target),
            escape::html(&choice.label),
            escape::html(&name(&choice.label))
        ));
    }
    html.push_str("</ul></details>");
}

/// The tabs a reader on `path` chooses between, each leading to its first page (or its link).
pub(super) fn tabs_bar(
    html: &mut String,
    settings: &Settings,
    context: &NavContext,
    path: &str,
    root: &str,
) {
    let tabs: Vec<usize> = context.sections_of_kind(path, &[NavKind::Tab]).collect();
    if tabs.is_empty() {
        return;
    }
    html.push_str("<nav class=\"tabs-bar\" aria-label=\"Sections\">");
    for i in tabs {
        section_link(html, settings, context, i, path, root);
    }
    html.push_str("</nav>\n");
}

/// A link to the section at `index`, marked current when it holds `path`.
fn section_link(
    html: &mut String,
    settings: &Settings,
    context: &NavContext,
    index: usize,
    path: &str,
    root: &str,
) {
    let item = &context.items[index];
    let href = match context.destination(index) {
        Some(Destination::Page(first)) => format!("{root}{first}.html"),
        Some(Destination::Link(link)) => crate::links::navigation_href(link, root),
        None => return,
    };
    let current = context
        .section_of(path)
        .is_some_and(|s| holds(context, index, s));
    let active = if current {
        " class=\"active\" aria-current=\"true\""
    } else {
        ""
    };
    let icon = item
        .icon
        .as_deref()
        .and_then(|i| settings.icon_html(icons::IconRef::named(i), 16, Some(root)))
        .unwrap_or_default();
    html.push_str(&format!(
        "<a href=\"{}\"{active}>{icon}{}</a>",
        escape::html(&href),
        escape::html(&item.label)
    ));
}

/// Whether the entry at `outer` is, or contains, the entry at `inner`.
fn holds(context: &NavContext, outer: usize, inner: usize) -> bool {
    let depth = context.items[outer].depth;
    outer == inner
        || (inner > outer
            && context.items[outer + 1..=inner]
                .iter()
                .all(|i| i.depth > depth))
}

/// The sidebar: anchors and dropdown sections as plain links, and a place for the page tree.
pub(super) fn sidebar(
    html: &mut String,
    settings: &Settings,
    context: Option<&NavContext>,
    path: &str,
    root: &str,
) {
    html.push_str("<nav class=\"sidebar\" id=\"sidebar\" aria-label=\"Site navigation\">");
    if let Some(context) = context {
        let anchors: Vec<usize> = context.sections_of_kind(path, &[NavKind::Anchor]).collect();
        if !anchors.is_empty() {
            html.push_str("<div class=\"sidebar-anchors\">");
            for i in anchors {
                section_link(html, settings, context, i, path, root);
            }
            html.push_str("</div>");
        }
        let menus: Vec<usize> = context
            .sections_of_kind(path, &[NavKind::Dropdown, NavKind::Product])
            .collect();
        if !menus.is_empty() {
            let section = context.section_of(path);
            let current = menus
                .iter()
                .find(|&&m| section.is_some_and(|s| holds(context, m, s)))
                .map(|&m| context.items[m].label.as_str())
                .unwrap_or("Choose a section");
            html.push_str(&format!(
                "<details class=\"sidebar-dropdown\"><summary>{}</summary><div>",
                escape::html(current)
            ));
            for i in menus {
                section_link(html, settings, context, i, path, root);
            }
            html.push_str("</div></details>");
        }
    }
    // `interaction.drilldown`: quire.js opens a group's first page when the group is opened.
    html.push_str(if settings.appearance.drilldown {
        "<div id=\"sidebar-tree\" data-drilldown></div></nav>\n"
    } else {
        "<div id=\"sidebar-tree\"></div></nav>\n"
    });
}
