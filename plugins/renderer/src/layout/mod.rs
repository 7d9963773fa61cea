//! The page layout around a rendered body: head, breadcrumbs, title and contextual options,
//! feedback prompt, previous/next links and table of contents, inside the frame (`frame`: top
//! bar, section tabs, sidebar, footer). Everything here is plain HTML.

mod frame;

use frame::{footer, sidebar, tabs_bar, topbar};

use crate::icons;
use crate::links::root_prefix;
use crate::markup::Heading;
use crate::site::Site;
use quire_sdk::escape;
use quire_sdk::frontmatter::Frontmatter;

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
        escape::html(lang),
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
        escape::html(view.title),
        escape::html(&site.name)
    ));
    let description = view
        .frontmatter
        .description
        .as_ref()
        .or(site.settings.description.as_ref());
    if let Some(description) = description {
        html.push_str(&format!(
            "<meta name=\"description\" content=\"{}\">\n",
            escape::html(description)
        ));
    }
    let (_, chrome) = site.frame(path);
    if view.frontmatter.noindex || view.frontmatter.hidden || chrome.noindex {
        html.push_str("<meta name=\"robots\" content=\"noindex\">\n");
    }
    if !view.frontmatter.keywords.is_empty() {
        html.push_str(&format!(
            "<meta name=\"keywords\" content=\"{}\">\n",
            escape::html(&view.frontmatter.keywords.join(", "))
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
            escape::html(name),
            escape::html(content)
        ));
    }
    if let Some(favicon) = &site.settings.favicon {
        html.push_str(&format!(
            "<link rel=\"icon\" href=\"{root}{}\">\n",
            escape::html(favicon)
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
    // The site's own stylesheets come after the theme's, so their rules win; its own scripts
    // are inert here, and quire.js starts them where the deployment allows.
    let mut own = String::new();
    for sheet in &site.own_stylesheets {
        own.push_str(&format!(
            "<link rel=\"stylesheet\" href=\"{root}{}\">\n",
            escape::html(sheet)
        ));
    }
    for script in &site.own_scripts {
        own.push_str(&format!(
            "<script type=\"text/x-quire-site-script\" data-src=\"{root}{}\"></script>\n",
            escape::html(script)
        ));
    }
    html.push_str(&format!(
        "<link rel=\"stylesheet\" href=\"{root}{}\">\n\
         <link rel=\"stylesheet\" href=\"{root}{}\">\n\
         {own}<script>{MODE_SCRIPT}</script>\n\
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
        escape::html(path),
        section.map(|s| s.to_string()).unwrap_or_default(),
        escape::html(&scope)
    ));
    html.push_str("<a class=\"skip-link\" href=\"#content\">Skip to content</a>\n");
    topbar(&mut html, site, path, &root);
    if let Some(banner) = &chrome.banner {
        html.push_str(&crate::banner::html(
            banner,
            chrome.banner_dismissible,
            &chrome.banner_look,
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
    escape::push_html(&mut html, view.title);
    html.push_str("</h1>\n");
    let page_name = path.rsplit('/').next().unwrap_or(path);
    let menu = site
        .settings
        .appearance
        .contextual_menu(&format!("{page_name}.md"), &root);
    let has_toc = !side_column && mode == "default";
    let menu_in_toc = has_toc && site.settings.appearance.contextual_in_toc;
    if !menu_in_toc {
        html.push_str(&menu);
    }
    if let Some(description) = &view.frontmatter.description {
        html.push_str("<p class=\"page-description\">");
        escape::push_html(&mut html, description);
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
    } else if has_toc {
        toc(
            &mut html,
            view.headings,
            if menu_in_toc { &menu } else { "" },
        );
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
        escape::push_html(html, label);
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
            escape::html(target),
            escape::html(label)
        ));
    }
    if let Some((target, label)) = next {
        html.push_str(&format!(
            "<a class=\"pager-next\" rel=\"next\" href=\"{root}{}.html\"><small>Next</small>{}</a>",
            escape::html(target),
            escape::html(label)
        ));
    }
    html.push_str("</nav>\n");
}

/// The on-page table of contents: second- and third-level headings, then `menu` (the
/// contextual options, with `contextual.display: "toc"`).
fn toc(html: &mut String, headings: &[Heading], menu: &str) {
    let entries: Vec<_> = headings
        .iter()
        .filter(|h| (2..=3).contains(&h.level))
        .collect();
    if entries.is_empty() && menu.is_empty() {
        return;
    }
    html.push_str("<aside class=\"toc\" aria-label=\"On this page\">");
    if !entries.is_empty() {
        html.push_str("<div class=\"toc-title\">On this page</div><ul>");
        for h in entries {
            html.push_str(&format!(
                "<li class=\"toc-level-{}\"><a href=\"#{}\">{}</a></li>",
                h.level,
                escape::html(&h.anchor),
                escape::html(&h.text)
            ));
        }
        html.push_str("</ul>");
    }
    html.push_str(menu);
    html.push_str("</aside>\n");
}

#[cfg(test)]
mod tests {
    use crate::page::render_page;
    use crate::site::Site;

    const PAGE: &str = "---\ntitle: A\n---\n\n## First\n\nText.\n";

    fn site(display: &str) -> Site {
        let config = format!(r#"{{"contextual": {{"options": ["copy", "view"]{display}}}}}"#);
        Site::new("Acme".into(), "v1".into(), vec![], &config, vec![]).unwrap()
    }

    #[test]
    fn the_sites_own_stylesheets_are_linked_and_its_scripts_left_to_quire_js() {
        let site = Site::new("Acme".into(), "v1".into(), vec![], "{}", vec![])
            .unwrap()
            .with_own_assets(
                vec![
                    "style.css".into(),
                    "/themes/dark.css".into(),
                    "../up.css".into(),
                ],
                vec!["status.js".into()],
            );
        let html = render_page(&site, "guides/a", "guides/a.mdx", "Text.\n").html;
        let head = html.split_once("</head>").unwrap().0;
        let theme = head.find("assets/quire.").unwrap();
        let own = head
            .find("<link rel=\"stylesheet\" href=\"../style.css\">")
            .unwrap();
        assert!(theme < own, "the site's rules come after the theme's");
        assert!(head.contains("href=\"../themes/dark.css\""));
        assert!(
            !head.contains("up.css"),
            "a path leaving the site is dropped"
        );
        assert!(head.contains(
            "<script type=\"text/x-quire-site-script\" data-src=\"../status.js\"></script>"
        ));
    }

    #[test]
    fn pages_without_a_description_take_the_sites() {
        let config = r#"{"description": "Widgets, documented."}"#;
        let site = Site::new("Acme".into(), "v1".into(), vec![], config, vec![]).unwrap();
        let plain = render_page(&site, "a", "a.mdx", "Text.\n").html;
        assert!(plain.contains("<meta name=\"description\" content=\"Widgets, documented.\">"));
        assert!(
            !plain.contains("page-description"),
            "the site's description is not shown as the page's"
        );
        let own = render_page(&site, "a", "a.mdx", "---\ndescription: Mine\n---\n").html;
        assert!(own.contains("<meta name=\"description\" content=\"Mine\">"));
        assert!(!own.contains("Widgets, documented."));
    }

    #[test]
    fn contextual_options_sit_under_the_title_or_in_the_table_of_contents() {
        let header = render_page(&site(""), "a", "a.mdx", PAGE).html;
        let (article, _) = header.split_once("</article>").unwrap();
        assert!(article.contains("<div class=\"contextual\""), "{header}");

        let toc = render_page(&site(r#", "display": "toc""#), "a", "a.mdx", PAGE).html;
        let (article, rest) = toc.split_once("</article>").unwrap();
        assert!(!article.contains("class=\"contextual\""));
        let aside = rest.split_once("<aside class=\"toc\"").unwrap().1;
        assert!(
            aside.find("href=\"#first\"") < aside.find("<div class=\"contextual\""),
            "{aside}"
        );
        // A page without headings still has the aside for its options.
        let bare = render_page(&site(r#", "display": "toc""#), "a", "a.mdx", "Text.\n").html;
        assert!(bare.contains(
            "<aside class=\"toc\" aria-label=\"On this page\"><div class=\"contextual\""
        ));
        // A wide page has no table of contents: the options stay under the title.
        let wide = "---\nmode: wide\n---\n\n## First\n";
        let wide = render_page(&site(r#", "display": "toc""#), "a", "a.mdx", wide).html;
        let (article, _) = wide.split_once("</article>").unwrap();
        assert!(article.contains("<div class=\"contextual\""));
    }
}
