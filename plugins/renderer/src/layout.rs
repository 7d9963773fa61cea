//! The page layout around a rendered body: head, top bar (logo, version and language switchers,
//! search, theme toggle), section tabs, sidebar, breadcrumbs, feedback prompt, previous/next
//! links, table of contents and footer. Everything here is plain HTML; the sidebar's page tree
//! comes from the context's shared navigation script.

use crate::escape::{escaped, push_escaped};
use crate::frontmatter::Frontmatter;
use crate::icons;
use crate::links::root_prefix;
use crate::markup::Heading;
use crate::navigation::{Destination, NavContext, NavKind, language_name};
use crate::settings::Settings;
use crate::site::{Site, SwitchChoice};

/// What the layout needs of a rendered page.
pub struct PageView<'a> {
    pub path: &'a str,
    pub title: &'a str,
    pub frontmatter: &'a Frontmatter,
    pub body: &'a str,
    pub headings: &'a [Heading],
    /// Whether the page loads the Mermaid script (it has a diagram).
    pub has_diagram: bool,
    /// The side column's HTML (API examples); empty for most pages.
    pub side: &'a str,
    /// When the page's source was last changed (seconds since the Unix epoch), if known.
    pub modified: Option<u64>,
}

/// Sets the colour mode before the page paints (no flash of the wrong theme): the reader's
/// choice if they made one, else the site's default, else the system preference.
const MODE_SCRIPT: &str = "(function(){var d=document.documentElement,m=null;if(!d.hasAttribute('data-strict'))try{m=localStorage.getItem('quire-mode')}catch(e){}m=m||d.getAttribute('data-mode');if(m==='dark'||(m!=='light'&&window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches))d.classList.add('dark')})();";

/// The whole page.
pub fn page(site: &Site, view: &PageView<'_>) -> String {
    let path = view.path;
    let root = root_prefix(path);
    let context_index = site.context_index(path);
    let context = site.context(path);
    let mode = view.frontmatter.mode();
    let mut html = String::with_capacity(view.body.len() + 4096);
    let lang = context.and_then(|c| c.language.as_deref()).unwrap_or("en");
    let direction = if is_right_to_left(lang) { "rtl" } else { "ltr" };
    html.push_str(&format!(
        "<!doctype html>\n<html lang=\"{}\" dir=\"{direction}\" data-mode=\"{}\"{}{}>\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        escaped(lang),
        site.settings.default_mode,
        // `appearance.strict`: the site's mode, not one a reader chose before.
        if site.settings.appearance.strict {
            " data-strict"
        } else {
            ""
        },
        if site.settings.appearance.dark_code_blocks {
            " class=\"code-dark\""
        } else {
            ""
        }
    ));
    html.push_str(&format!(
        "<title>{} · {}</title>\n",
        escaped(view.title),
        escaped(&site.name)
    ));
    if let Some(description) = &view.frontmatter.description {
        html.push_str(&format!(
            "<meta name=\"description\" content=\"{}\">\n",
            escaped(description)
        ));
    }
    let (_, chrome) = site.frame(path);
    if view.frontmatter.noindex || view.frontmatter.hidden || chrome.noindex {
        html.push_str("<meta name=\"robots\" content=\"noindex\">\n");
    }
    if !view.frontmatter.keywords.is_empty() {
        html.push_str(&format!(
            "<meta name=\"keywords\" content=\"{}\">\n",
            escaped(&view.frontmatter.keywords.join(", "))
        ));
    }
    // The page's own tags, then the site's that the page does not set.
    let own = &view.frontmatter.metatags;
    let site_tags = chrome
        .metatags
        .iter()
        .filter(|(name, _)| !own.iter().any(|(n, _)| n == name));
    for (name, content) in own.iter().chain(site_tags) {
        let attribute = if name.starts_with("og:") {
            "property"
        } else {
            "name"
        };
        html.push_str(&format!(
            "<meta {attribute}=\"{}\" content=\"{}\">\n",
            escaped(name),
            escaped(content)
        ));
    }
    if let Some(favicon) = &site.settings.favicon {
        html.push_str(&format!(
            "<link rel=\"icon\" href=\"{root}{}\">\n",
            escaped(favicon)
        ));
    }
    let theme = &site.theme;
    let navigation = theme
        .navigation
        .get(context_index)
        .map(String::as_str)
        .unwrap_or_default();
    // Deferred scripts run in order: Mermaid is there when quire.js draws the diagrams.
    let diagrams = if view.has_diagram {
        format!(
            "<script defer src=\"{root}{}\"></script>\n",
            crate::diagrams::MERMAID_PATH
        )
    } else {
        String::new()
    };
    let diagrams = match &theme.external {
        Some(external) => format!("{diagrams}<script defer src=\"{root}{external}\"></script>\n"),
        None => diagrams,
    };
    html.push_str(&format!(
        "<link rel=\"stylesheet\" href=\"{root}{}\">\n\
         <link rel=\"stylesheet\" href=\"{root}{}\">\n\
         <script>{MODE_SCRIPT}</script>\n\
         <script defer src=\"{root}quire-features.js\"></script>\n\
         <script defer src=\"{root}{navigation}\"></script>\n\
         {diagrams}<script defer src=\"{root}{}\" data-search=\"{}\" data-playground=\"{}\" data-assistant=\"{}\"></script>\n</head>\n",
        theme.stylesheet, theme.highlight, theme.script, theme.search, theme.playground, theme.assistant
    ));
    let section = context.and_then(|c| c.section_of(path));
    // The version and language the page belongs to, as the search index records them.
    let scope = format!(
        "{}/{}",
        context.and_then(|c| c.version.as_deref()).unwrap_or(""),
        context.and_then(|c| c.language.as_deref()).unwrap_or("")
    );
    html.push_str(&format!(
        "<body class=\"mode-{mode}{}\" data-root=\"{root}\" data-page=\"{}\" data-section=\"{}\" data-scope=\"{}\">\n",
        site.settings.appearance.body_classes(),
        escaped(path),
        section.map(|s| s.to_string()).unwrap_or_default(),
        escaped(&scope)
    ));
    html.push_str("<a class=\"skip-link\" href=\"#content\">Skip to content</a>\n");
    topbar(&mut html, site, path, &root);
    if let Some(banner) = &chrome.banner {
        html.push_str(&crate::banner::html(
            banner,
            chrome.banner_dismissible,
            &root,
        ));
    }
    if let Some(context) = context
        && mode != "custom"
    {
        tabs_bar(&mut html, &site.settings, context, path, &root);
    }
    // A page with a side column shows it where the table of contents goes.
    let side_column = mode == "default" && !view.side.is_empty();
    html.push_str(if side_column {
        "<div class=\"layout has-side\">\n"
    } else {
        "<div class=\"layout\">\n"
    });
    if mode == "default" || mode == "wide" {
        sidebar(&mut html, &site.settings, context, path, &root);
    }
    html.push_str("<main class=\"content\" id=\"content\">\n");
    let trail = site.trail(path);
    // `styling.eyebrows: "section"`: only the section the page is in.
    let trail = if site.settings.appearance.section_eyebrow {
        &trail[trail.len().saturating_sub(1)..]
    } else {
        trail
    };
    breadcrumbs(&mut html, trail);
    html.push_str("<article>\n<h1 class=\"page-title\">");
    if let Some(svg) = view.frontmatter.icon.as_deref().and_then(|i| {
        let style = view.frontmatter.icon_type.as_deref();
        site.settings
            .icon_html(icons::IconRef { name: i, style }, 28, Some(&root))
    }) {
        html.push_str(&svg);
    }
    push_escaped(&mut html, view.title);
    html.push_str("</h1>\n");
    let page_name = path.rsplit('/').next().unwrap_or(path);
    html.push_str(
        &site
            .settings
            .appearance
            .contextual_menu(&format!("{page_name}.md"), &root),
    );
    if let Some(description) = &view.frontmatter.description {
        html.push_str("<p class=\"page-description\">");
        push_escaped(&mut html, description);
        html.push_str("</p>\n");
    }
    html.push_str(view.body);
    if !side_column && !view.side.is_empty() {
        html.push_str("<div class=\"api-side\">");
        html.push_str(view.side);
        html.push_str("</div>\n");
    }
    let show_date = view
        .frontmatter
        .timestamp
        .unwrap_or(site.settings.appearance.timestamps);
    if let Some(modified) = view.modified.filter(|_| show_date) {
        html.push_str(&last_modified(modified));
    }
    html.push_str("</article>\n");
    html.push_str(
        "<div class=\"feedback\" hidden><span>Was this page helpful?</span>\
         <button type=\"button\" data-feedback=\"yes\">Yes</button>\
         <button type=\"button\" data-feedback=\"no\">No</button></div>\n",
    );
    pager(&mut html, site, path, &root);
    html.push_str("</main>\n");
    if side_column {
        html.push_str("<aside class=\"api-side\" aria-label=\"Examples\">");
        html.push_str(view.side);
        html.push_str("</aside>\n");
    } else if mode == "default" {
        toc(&mut html, view.headings);
    }
    html.push_str("</div>\n");
    footer(&mut html, site, path, &root);
    html.push_str("</body>\n</html>\n");
    html
}

/// "Last modified on November 23, 2026", with the date in a `<time>` element; nothing for a
/// time the calendar cannot hold.
fn last_modified(seconds: u64) -> String {
    let Some(date) = i64::try_from(seconds)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
    else {
        return String::new();
    };
    format!(
        "<p class=\"last-modified\">Last modified on <time datetime=\"{:04}-{:02}-{:02}\">{} {}, {}</time></p>\n",
        date.year(),
        u8::from(date.month()),
        date.day(),
        date.month(),
        date.day(),
        date.year()
    )
}

/// The footer: the link columns and social links of docs.json `footer`, the site and version.
fn footer(html: &mut String, site: &Site, path: &str, root: &str) {
    let (_, chrome) = site.frame(path);
    html.push_str("<footer class=\"footer\">");
    if !chrome.footer_columns.is_empty() {
        html.push_str("<div class=\"footer-columns\">");
        for (header, items) in &chrome.footer_columns {
            html.push_str("<div class=\"footer-column\">");
            if !header.is_empty() {
                html.push_str(&format!("<strong>{}</strong>", escaped(header)));
            }
            for (label, href) in items {
                html.push_str(&format!(
                    "<a href=\"{}\">{}</a>",
                    escaped(&crate::links::navigation_href(href, root)),
                    escaped(label)
                ));
            }
            html.push_str("</div>");
        }
        html.push_str("</div>");
    }
    html.push_str(&format!("<span>{}</span>", escaped(&site.name)));
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
                escaped(url),
                escaped(network),
                if icon.is_empty() {
                    escaped(network)
                } else {
                    String::new()
                }
            ));
        }
        html.push_str("</span>");
    }
    html.push_str(&format!(
        "<span class=\"footer-version\">{}</span></footer>\n",
        escaped(&site.version)
    ));
}

/// Whether `lang` (a language code such as `ar` or `he-IL`) is written right to left.
fn is_right_to_left(lang: &str) -> bool {
    let primary = lang
        .split(['-', '_'])
        .next()
        .unwrap_or(lang)
        .to_ascii_lowercase();
    matches!(
        primary.as_str(),
        "ar" | "he" | "iw" | "fa" | "ur" | "ps" | "sd" | "ug" | "yi" | "dv" | "ckb"
    )
}

fn topbar(html: &mut String, site: &Site, path: &str, root: &str) {
    let home = site.home().unwrap_or("index");
    let (navbar_links, chrome) = site.frame(path);
    let logo_href = match &chrome.logo_href {
        Some(href) => crate::links::navigation_href(href, root),
        None => format!("{root}{home}.html"),
    };
    html.push_str(&format!(
        "<header class=\"topbar\"><a class=\"site-name\" href=\"{}\">",
        escaped(&logo_href)
    ));
    let settings = &site.settings;
    if let Some(light) = &settings.logo_light {
        let dark = settings.logo_dark.as_deref().unwrap_or(light);
        html.push_str(&format!(
            "<img class=\"logo logo-light\" src=\"{root}{}\" alt=\"\"><img class=\"logo logo-dark\" src=\"{root}{}\" alt=\"\">",
            escaped(light),
            escaped(dark)
        ));
    }
    html.push_str(&format!("<span>{}</span></a>", escaped(&site.name)));
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
        escaped(prompt)
    ));
    for (label, href) in navbar_links {
        let href = crate::links::navigation_href(href, root);
        html.push_str(&format!(
            "<a class=\"navbar-link\" href=\"{}\">{}</a>",
            escaped(&href),
            escaped(label)
        ));
    }
    if let Some((label, href)) = &chrome.primary_button {
        html.push_str(&format!(
            "<a class=\"navbar-button\" href=\"{}\">{}</a>",
            escaped(&crate::links::navigation_href(href, root)),
            escaped(label)
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
        escaped(&name(&current.label))
    ));
    for choice in choices {
        let active = if choice.current {
            " aria-current=\"true\""
        } else {
            ""
        };
        html.push_str(&format!(
            "<li><a href=\"{root}{}.html\" data-{kind}=\"{}\"{active}>{}</a></li>",
            escaped(&choice.target),
            escaped(&choice.label),
            escaped(&name(&choice.label))
        ));
    }
    html.push_str("</ul></details>");
}

/// The tabs a reader on `path` chooses between, each leading to its first page (or its link).
fn tabs_bar(html: &mut String, settings: &Settings, context: &NavContext, path: &str, root: &str) {
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
        escaped(&href),
        escaped(&item.label)
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
fn sidebar(
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
                escaped(current)
            ));
            for i in menus {
                section_link(html, settings, context, i, path, root);
            }
            html.push_str("</div></details>");
        }
    }
    html.push_str("<div id=\"sidebar-tree\"></div></nav>\n");
}

fn breadcrumbs(html: &mut String, trail: &[String]) {
    if trail.is_empty() {
        return;
    }
    html.push_str("<nav class=\"breadcrumbs\" aria-label=\"Breadcrumbs\">");
    for (i, label) in trail.iter().enumerate() {
        if i > 0 {
            html.push_str(" <span aria-hidden=\"true\">›</span> ");
        }
        html.push_str("<span>");
        push_escaped(html, label);
        html.push_str("</span>");
    }
    html.push_str("</nav>\n");
}

fn pager(html: &mut String, site: &Site, path: &str, root: &str) {
    let (prev, next) = site.neighbours(path);
    if prev.is_none() && next.is_none() {
        return;
    }
    html.push_str("<nav class=\"pager\" aria-label=\"Previous and next pages\">");
    if let Some((target, label)) = prev {
        html.push_str(&format!(
            "<a class=\"pager-prev\" rel=\"prev\" href=\"{root}{}.html\"><small>Previous</small>{}</a>",
            escaped(target),
            escaped(label)
        ));
    }
    if let Some((target, label)) = next {
        html.push_str(&format!(
            "<a class=\"pager-next\" rel=\"next\" href=\"{root}{}.html\"><small>Next</small>{}</a>",
            escaped(target),
            escaped(label)
        ));
    }
    html.push_str("</nav>\n");
}

/// The on-page table of contents: second- and third-level headings.
fn toc(html: &mut String, headings: &[Heading]) {
    let entries: Vec<_> = headings
        .iter()
        .filter(|h| (2..=3).contains(&h.level))
        .collect();
    if entries.is_empty() {
        return;
    }
    html.push_str(
        "<aside class=\"toc\" aria-label=\"On this page\"><div class=\"toc-title\">On this page</div><ul>",
    );
    for h in entries {
        html.push_str(&format!(
            "<li class=\"toc-level-{}\"><a href=\"#{}\">{}</a></li>",
            h.level,
            escaped(&h.anchor),
            escaped(&h.text)
        ));
    }
    html.push_str("</ul></aside>\n");
}
