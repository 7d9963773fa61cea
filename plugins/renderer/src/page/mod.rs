//! One page: parse its source, render its body, and wrap it in the site's page layout.

use markdown::mdast::Node;

use crate::api::PlaygroundDisplay;
use crate::layout::{self, PageView};
use crate::markup::{Heading, Markup, PageWarning, Section};
use crate::site::Site;
use quire_sdk::frontmatter::{self, Frontmatter};

/// Everything rendering one page produced.
#[derive(Debug)]
pub struct PageOutput {
    pub title: String,
    pub description: Option<String>,
    /// False for `hidden` or `noindex` pages.
    pub indexable: bool,
    pub html: String,
    pub headings: Vec<Heading>,
    pub sections: Vec<Section>,
    pub warnings: Vec<PageWarning>,
    /// The site-wide files the page needs (`site_files::DIAGRAMS`), given once for the whole
    /// site by `site_files::site_output`.
    pub needs: Vec<String>,
}

/// One page's source, as the host gives it.
pub struct PageSource<'a> {
    /// The page path without extension.
    pub path: &'a str,
    /// The source file, for warnings.
    pub file: &'a str,
    pub source: &'a str,
    /// When the source was last changed (seconds since the Unix epoch), if known.
    pub modified: Option<u64>,
}

/// Renders the page at `path` (no extension) from `source` (read from `file`), with no
/// modification time.
pub fn render_page(site: &Site, path: &str, file: &str, source: &str) -> PageOutput {
    render(
        site,
        &PageSource {
            path,
            file,
            source,
            modified: None,
        },
    )
}

/// Renders one page. Never fails: a page with broken markup renders as well as it can, with
/// warnings.
pub fn render(site: &Site, page: &PageSource<'_>) -> PageOutput {
    let PageSource {
        path, file, source, ..
    } = *page;
    let mut warnings = Vec::new();
    let source = site.variables.substitute(source);
    let tree = parse(file, &source, &mut warnings);
    let frontmatter = match frontmatter_block(&tree) {
        Some(yaml) => {
            let (frontmatter, problems) = frontmatter::read(yaml);
            warnings.extend(problems.into_iter().map(|message| PageWarning {
                file: None,
                line: Some(1),
                message,
            }));
            frontmatter
        }
        None => Frontmatter::default(),
    };
    let operation = frontmatter.openapi.as_deref().map(|r| site.api.find(r));
    let operation = match operation {
        Some(Ok(op)) => Some(op),
        Some(Err(mut message)) => {
            for problem in &site.api_problems {
                message.push_str("; ");
                message.push_str(problem);
            }
            warnings.push(PageWarning {
                file: None,
                line: Some(1),
                message,
            });
            None
        }
        None => None,
    };
    let channel = match frontmatter
        .asyncapi
        .as_deref()
        .map(|r| site.api.find_channel(r))
    {
        Some(Ok(channel)) => Some(channel),
        Some(Err(message)) => {
            warnings.push(PageWarning {
                file: None,
                line: Some(1),
                message,
            });
            None
        }
        None => None,
    };
    let title = frontmatter
        .title
        .clone()
        .or_else(|| {
            operation
                .as_ref()
                .and_then(|op| op.summary())
                .or_else(|| channel.as_ref().and_then(|c| c.title()))
                .map(String::from)
        })
        .or_else(|| first_heading(&tree))
        .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_string());

    let mut markup = Markup::new(site, path, title.clone());
    let display = frontmatter
        .playground
        .as_deref()
        .and_then(PlaygroundDisplay::parse)
        .unwrap_or(site.settings.api.playground);
    if let Some(op) = &operation {
        crate::api_pages::render_operation(&mut markup, op, display);
    } else {
        let (endpoint, problems) =
            crate::api_pages::manual_endpoint(&site.settings.api, &frontmatter);
        warnings.extend(problems.into_iter().map(|message| PageWarning {
            file: None,
            line: Some(1),
            message,
        }));
        if let Some((endpoint, credential)) = endpoint {
            crate::api_pages::render_manual_endpoint(
                &mut markup,
                &endpoint,
                &tree,
                credential.as_ref(),
                display,
            );
        }
    }
    if let Some(channel) = &channel {
        crate::api_pages::render_channel(&mut markup, channel);
    }
    markup.render_root(&tree);
    let mut body = std::mem::take(&mut markup.html);
    // A group's root page lists the group's entries (docs.json `directory`); navigation, not
    // the page's text, so it stays out of the search sections.
    body.push_str(&crate::directory::listing(site, path));
    let side = std::mem::take(&mut markup.side);
    let headings = std::mem::take(&mut markup.headings);
    warnings.append(&mut markup.warnings);
    let has_diagram = markup.has_diagram;
    let sections = markup.into_sections();
    let needs = if has_diagram {
        vec![crate::site_files::DIAGRAMS.to_string()]
    } else {
        Vec::new()
    };

    let html = layout::page(
        site,
        &PageView {
            path,
            title: &title,
            frontmatter: &frontmatter,
            body: &body,
            headings: &headings,
            has_diagram,
            side: &side,
            modified: page.modified,
        },
    );
    PageOutput {
        title,
        description: frontmatter.description.clone(),
        indexable: !(frontmatter.hidden || frontmatter.noindex),
        html,
        headings,
        sections,
        warnings,
        needs,
    }
}

/// `.mdx` pages parse as MDX, and so do `.md` pages that use components (docs.json sites put
/// them in either); if that fails (a JSX syntax error), the page is rendered as plain Markdown
/// and the error becomes a warning with its line, so one bad page never stops an export.
fn parse(file: &str, source: &str, warnings: &mut Vec<PageWarning>) -> Node {
    let uses_components = source
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'<' && w[1].is_ascii_uppercase());
    if file.ends_with(".mdx") || uses_components {
        match crate::mdx::parse(source) {
            Ok(tree) => return tree,
            Err(message) => {
                let line = message.place.as_deref().map(|place| match place {
                    markdown::message::Place::Position(p) => p.start.line,
                    markdown::message::Place::Point(p) => p.line,
                });
                warnings.push(PageWarning {
                    file: None,
                    line: line.and_then(|l| u32::try_from(l).ok()),
                    message: format!(
                        "MDX syntax error: {}; the page is rendered as plain Markdown",
                        message.reason
                    ),
                });
            }
        }
    }
    crate::mdx::parse_markdown(source)
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

#[cfg(test)]
mod tests;
