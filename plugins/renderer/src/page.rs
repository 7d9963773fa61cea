//! One page: parse its source, render its body, and wrap it in the site's page layout.

use markdown::mdast::Node;
use markdown::{Constructs, ParseOptions};

use crate::escape::{escaped, push_escaped};
use crate::frontmatter::{self, Frontmatter};
use crate::links::root_prefix;
use crate::markup::{Markup, PageHeading, PageSection, PageWarning};
use crate::navigation::Site;

/// Everything rendering one page produced.
#[derive(Debug)]
pub struct PageOutput {
    pub title: String,
    pub html: String,
    pub headings: Vec<PageHeading>,
    pub sections: Vec<PageSection>,
    pub warnings: Vec<PageWarning>,
}

/// Renders the page at `path` (no extension) from `source` (read from `file`).
/// Never fails: a page with broken markup renders as well as it can, with warnings.
pub fn render_page(site: &Site, path: &str, file: &str, source: &str) -> PageOutput {
    let mut warnings = Vec::new();
    let tree = parse(file, source, &mut warnings);
    let frontmatter = match frontmatter_block(&tree) {
        Some(yaml) => frontmatter::parse(yaml).unwrap_or_else(|message| {
            warnings.push(PageWarning {
                line: Some(1),
                message,
            });
            Frontmatter::default()
        }),
        None => Frontmatter::default(),
    };
    let title = frontmatter
        .title
        .clone()
        .or_else(|| first_heading(&tree))
        .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_string());

    let mut markup = Markup::new(site, path, title.clone());
    markup.render_root(&tree);
    let body = std::mem::take(&mut markup.html);
    let headings = std::mem::take(&mut markup.headings);
    warnings.append(&mut markup.warnings);
    let sections = markup.into_sections();

    let html = layout(site, path, &title, &frontmatter, &body, &headings);
    PageOutput {
        title,
        html,
        headings,
        sections,
        warnings,
    }
}

/// `.mdx` pages parse as MDX; if that fails (a JSX syntax error), the page is rendered as plain
/// Markdown and the error becomes a warning with its line, so one bad page never stops an export.
fn parse(file: &str, source: &str, warnings: &mut Vec<PageWarning>) -> Node {
    let markdown_options = ParseOptions {
        constructs: Constructs {
            frontmatter: true,
            ..Constructs::gfm()
        },
        ..ParseOptions::gfm()
    };
    if file.ends_with(".mdx") {
        let mdx_options = ParseOptions {
            constructs: Constructs {
                frontmatter: true,
                gfm_autolink_literal: true,
                gfm_footnote_definition: true,
                gfm_label_start_footnote: true,
                gfm_strikethrough: true,
                gfm_table: true,
                gfm_task_list_item: true,
                ..Constructs::mdx()
            },
            ..ParseOptions::mdx()
        };
        match markdown::to_mdast(source, &mdx_options) {
            Ok(tree) => return tree,
            Err(message) => {
                let line = message.place.as_deref().map(|place| match place {
                    markdown::message::Place::Position(p) => p.start.line,
                    markdown::message::Place::Point(p) => p.line,
                });
                warnings.push(PageWarning {
                    line: line.and_then(|l| u32::try_from(l).ok()),
                    message: format!(
                        "MDX syntax error: {}; the page is rendered as plain Markdown",
                        message.reason
                    ),
                });
            }
        }
    }
    // Plain Markdown parsing cannot fail; the fallback is an empty page, never a panic.
    markdown::to_mdast(source, &markdown_options).unwrap_or_else(|_| {
        Node::Root(markdown::mdast::Root {
            children: Vec::new(),
            position: None,
        })
    })
}

fn frontmatter_block(tree: &Node) -> Option<&str> {
    tree.children()?.iter().find_map(|n| match n {
        Node::Yaml(y) => Some(y.value.as_str()),
        _ => None,
    })
}

fn first_heading(tree: &Node) -> Option<String> {
    tree.children()?.iter().find_map(|n| match n {
        Node::Heading(h) if h.depth == 1 => Some(crate::markup::plain_text(n)),
        _ => None,
    })
}

fn layout(
    site: &Site,
    path: &str,
    title: &str,
    frontmatter: &Frontmatter,
    body: &str,
    headings: &[PageHeading],
) -> String {
    let root = root_prefix(path);
    let mut html = String::with_capacity(body.len() + 2048);
    html.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    html.push_str(&format!(
        "<title>{} · {}</title>\n",
        escaped(title),
        escaped(&site.name)
    ));
    if let Some(description) = &frontmatter.description {
        html.push_str(&format!(
            "<meta name=\"description\" content=\"{}\">\n",
            escaped(description)
        ));
    }
    html.push_str(&format!(
        "<link rel=\"stylesheet\" href=\"{root}assets/quire.css\">\n\
         <script defer src=\"{root}assets/navigation.js\"></script>\n\
         <script defer src=\"{root}assets/quire.js\"></script>\n</head>\n"
    ));
    html.push_str(&format!(
        "<body data-root=\"{root}\" data-page=\"{}\">\n",
        escaped(path)
    ));
    html.push_str(&format!(
        "<header class=\"topbar\"><a class=\"site-name\" href=\"{root}index.html\">{}</a>\
         <span class=\"site-version\">{}</span></header>\n",
        escaped(&site.name),
        escaped(&site.version)
    ));
    html.push_str("<div class=\"layout\">\n");
    html.push_str(&format!(
        "<nav class=\"sidebar\" id=\"sidebar\" aria-label=\"Site navigation\">\
         <a class=\"sidebar-home\" href=\"{root}index.html\">Home</a></nav>\n"
    ));
    html.push_str("<main class=\"content\">\n");
    let trail = site.trail(path);
    if !trail.is_empty() {
        html.push_str("<nav class=\"breadcrumbs\" aria-label=\"Breadcrumbs\">");
        for (i, label) in trail.iter().enumerate() {
            if i > 0 {
                html.push_str(" <span aria-hidden=\"true\">›</span> ");
            }
            html.push_str("<span>");
            push_escaped(&mut html, label);
            html.push_str("</span>");
        }
        html.push_str("</nav>\n");
    }
    html.push_str("<article>\n<h1 class=\"page-title\">");
    push_escaped(&mut html, title);
    html.push_str("</h1>\n");
    if let Some(description) = &frontmatter.description {
        html.push_str("<p class=\"page-description\">");
        push_escaped(&mut html, description);
        html.push_str("</p>\n");
    }
    html.push_str(body);
    html.push_str("</article>\n");
    pager(&mut html, site, path, &root);
    html.push_str("</main>\n");
    toc(&mut html, headings);
    html.push_str("</div>\n</body>\n</html>\n");
    html
}

fn pager(html: &mut String, site: &Site, path: &str, root: &str) {
    let (prev, next) = site.neighbours(path);
    if prev.is_none() && next.is_none() {
        return;
    }
    html.push_str("<nav class=\"pager\" aria-label=\"Previous and next pages\">");
    if let Some((target, label)) = prev {
        html.push_str(&format!(
            "<a class=\"pager-prev\" rel=\"prev\" href=\"{root}{}.html\">← {}</a>",
            escaped(target),
            escaped(label)
        ));
    }
    if let Some((target, label)) = next {
        html.push_str(&format!(
            "<a class=\"pager-next\" rel=\"next\" href=\"{root}{}.html\">{} →</a>",
            escaped(target),
            escaped(label)
        ));
    }
    html.push_str("</nav>\n");
}

/// The on-page table of contents: second- and third-level headings.
fn toc(html: &mut String, headings: &[PageHeading]) {
    let entries: Vec<_> = headings
        .iter()
        .filter(|h| (2..=3).contains(&h.level))
        .collect();
    if entries.is_empty() {
        return;
    }
    html.push_str("<aside class=\"toc\" aria-label=\"On this page\"><div class=\"toc-title\">On this page</div><ul>");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigation::{NavItem, NavItemKind};

    fn site() -> Site {
        let page = |label: &str, target: &str| NavItem {
            kind: NavItemKind::Page,
            depth: 1,
            label: label.into(),
            target: Some(target.into()),
            icon: None,
        };
        let items = vec![
            NavItem {
                kind: NavItemKind::Group,
                depth: 0,
                label: "Start".into(),
                target: None,
                icon: None,
            },
            page("Intro", "index"),
            page("Quickstart", "quickstart"),
            page("Auth", "guides/auth"),
        ];
        Site::new("Acme".into(), "v1".into(), items, "{}", vec![]).unwrap()
    }

    const PAGE: &str = "---\ntitle: Quickstart\ndescription: Get going\n---\n\nIntro text with a [link](/guides/auth).\n\n## Install it\n\n<Note>Use **cargo**.</Note>\n\n```bash install.sh\ncargo install x\n```\n\n## Use it\n\n<Steps><Step title=\"One\">Run it.</Step></Steps>\n";

    #[test]
    fn renders_a_page_with_layout_sections_and_links() {
        let out = render_page(&site(), "quickstart", "quickstart.mdx", PAGE);
        assert_eq!(out.title, "Quickstart");
        assert!(
            out.html.contains("href=\"guides/auth.html\""),
            "{}",
            out.html
        );
        assert!(out.html.contains("callout callout-note"));
        assert!(
            !out.html.contains("<p><div"),
            "components must not be wrapped in <p>"
        );
        assert!(
            out.html
                .contains("<div class=\"code-title\">install.sh</div>")
        );
        assert!(out.html.contains("<h2 id=\"install-it\">"));
        assert!(out.html.contains("rel=\"prev\" href=\"index.html\""));
        assert!(out.html.contains("rel=\"next\" href=\"guides/auth.html\""));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let anchors: Vec<_> = out.sections.iter().map(|s| s.anchor.as_str()).collect();
        assert_eq!(anchors, ["", "install-it", "use-it"]);
        assert_eq!(out.sections[1].heading_trail, ["Quickstart", "Install it"]);
        assert!(out.sections[1].text.contains("Use cargo."));
        assert!(
            out.sections[2].text.starts_with("One Run it."),
            "{:?}",
            out.sections[2].text
        );
    }

    #[test]
    fn nested_pages_link_back_to_the_root() {
        let out = render_page(
            &site(),
            "guides/auth",
            "guides/auth.md",
            "# Auth\n\n[home](/)\n",
        );
        assert!(out.html.contains("href=\"../assets/quire.css\""));
        assert!(out.html.contains("href=\"../index.html\">home</a>"));
        assert_eq!(out.title, "Auth");
    }

    #[test]
    fn unknown_components_render_children_and_warn() {
        let out = render_page(
            &site(),
            "quickstart",
            "quickstart.mdx",
            "Hi\n\n<Fancy>inside</Fancy>\n",
        );
        assert!(out.html.contains("inside"));
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(out.warnings[0].line, Some(3));
        assert!(out.warnings[0].message.contains("<Fancy>"));
    }

    #[test]
    fn bad_mdx_falls_back_to_markdown_with_a_warning() {
        let out = render_page(
            &site(),
            "quickstart",
            "quickstart.mdx",
            "# Title\n\n<Note>unclosed\n\ntext {\n",
        );
        assert!(out.html.contains("Title"));
        assert!(
            out.warnings
                .iter()
                .any(|w| w.message.contains("MDX syntax error")),
            "{:?}",
            out.warnings
        );
    }

    #[test]
    fn broken_links_and_bad_frontmatter_are_warnings() {
        let out = render_page(
            &site(),
            "quickstart",
            "quickstart.md",
            "---\ntitle: [x\n---\n\n[gone](/missing)\n",
        );
        assert_eq!(out.warnings.len(), 2, "{:?}", out.warnings);
    }

    #[test]
    fn text_is_escaped() {
        let out = render_page(&site(), "quickstart", "quickstart.md", "a \\<i> `<b>`\n");
        assert!(out.html.contains("&lt;b&gt;"));
    }
}
