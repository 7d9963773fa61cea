//! An example renderer: Markdown pages (MDX components are shown as their text) in a minimal
//! theme with a sidebar and previous/next links, written with the Quire plugin SDK.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};
use quire_sdk::links::{self, LinkTarget};
use quire_sdk::renderer::{Page, RenderedPage, Renderer, Site};
use quire_sdk::sections::SectionBuilder;
use quire_sdk::warnings::Warnings;
use quire_sdk::{OutputFile, Result, escape, frontmatter};

const STYLESHEET: &str = "body{font:16px/1.6 system-ui,sans-serif;margin:0;display:flex}\
nav{width:16rem;padding:1rem;background:#f4f4f5;min-height:100vh}nav a{display:block}\
main{padding:1rem 2rem;max-width:48rem}footer{display:flex;justify-content:space-between}";

/// The site, prepared once per export.
pub struct MinimalRenderer {
    site: Site,
}

impl Renderer for MinimalRenderer {
    fn open(site: Site) -> Result<Self> {
        quire_sdk::info!("opening {} ({} pages)", site.name, site.pages.len());
        Ok(Self { site })
    }

    fn assets(&self) -> Result<Vec<OutputFile>> {
        Ok(vec![OutputFile::new("assets/minimal.css", STYLESHEET)])
    }

    fn render_page(&self, page: Page) -> Result<RenderedPage> {
        let split = frontmatter::split(&page.source).map_err(quire_sdk::Error::invalid_input)?;
        let mut warnings = Warnings::new(&page.file).with_line_offset(split.body_line_offset);
        let title = split
            .frontmatter
            .title
            .clone()
            .unwrap_or_else(|| first_heading(split.body).unwrap_or_else(|| page.path.clone()));
        let mut sections = SectionBuilder::new(&title);
        let mut events = Vec::new();
        let mut heading: Option<(HeadingLevel, String)> = None;
        for (event, range) in Parser::new_ext(split.body, Options::ENABLE_TABLES).into_offset_iter()
        {
            match event {
                Event::Start(Tag::Heading { level, .. }) => heading = Some((level, String::new())),
                Event::End(TagEnd::Heading(level)) => {
                    let text = heading.take().map(|(_, t)| t).unwrap_or_default();
                    let anchor = sections.heading(level as u8, &text);
                    events.push(Event::Html(
                        format!(
                            "<{level} id=\"{}\">{}</{level}>",
                            escape::attribute(&anchor),
                            escape::html(&text)
                        )
                        .into(),
                    ));
                }
                Event::Text(text) | Event::Code(text) if heading.is_some() => {
                    if let Some((_, t)) = heading.as_mut() {
                        t.push_str(&text);
                    }
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => {
                    let href = match links::resolve(&page.path, &dest_url, &self.site.pages) {
                        LinkTarget::Page { path, anchor } => {
                            let href = links::page_href(&page.path, &path);
                            anchor.map_or(href.clone(), |a| format!("{href}#{a}"))
                        }
                        LinkTarget::Missing(target) => {
                            warnings.at_offset(
                                split.body,
                                range.start,
                                format!("broken link to {target:?}"),
                            );
                            dest_url.to_string()
                        }
                        LinkTarget::Anchor(a) => format!("#{a}"),
                        LinkTarget::External(url) => url,
                    };
                    events.push(Event::Start(Tag::Link {
                        link_type,
                        dest_url: href.into(),
                        title,
                        id,
                    }));
                }
                Event::Text(text) | Event::Code(text) => {
                    sections.text(&text);
                    events.push(Event::Text(text));
                }
                // MDX components and raw HTML are shown as text: this theme runs no scripts.
                Event::Html(raw) | Event::InlineHtml(raw) => events.push(Event::Text(raw)),
                other => events.push(other),
            }
        }
        let mut body = String::new();
        html::push_html(&mut body, events.into_iter());
        let (headings, sections) = sections.finish();
        let html = self.layout(&page.path, &title, &body);
        Ok(RenderedPage {
            title,
            indexable: !split.frontmatter.unlisted(),
            description: split.frontmatter.description,
            files: vec![OutputFile::new(format!("{}.html", page.path), html)],
            headings,
            sections,
            warnings: warnings.into_vec(),
            needs: Vec::new(),
        })
    }
}

impl MinimalRenderer {
    /// The page inside the theme: sidebar from the navigation, previous/next at the bottom.
    fn layout(&self, path: &str, title: &str, body: &str) -> String {
        let nav = &self.site.navigation;
        let link = |to: &str| {
            format!(
                "<a href=\"{}\">{}</a>",
                escape::attribute(&links::page_href(path, to)),
                escape::html(to)
            )
        };
        let sidebar: String = nav.pages().into_iter().map(link).collect();
        let (previous, next) = nav.previous_next(path);
        format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>{} - {}</title>\
             <link rel=\"stylesheet\" href=\"{}\"></head><body><nav>{sidebar}</nav><main>{body}\
             <footer><span>{}</span><span>{}</span></footer></main></body></html>",
            escape::html(title),
            escape::html(&self.site.name),
            escape::attribute(&links::asset_href(path, "assets/minimal.css")),
            previous.map(link).unwrap_or_default(),
            next.map(link).unwrap_or_default(),
        )
    }
}

/// The text of the first `# ` heading.
fn first_heading(body: &str) -> Option<String> {
    body.lines()
        .find_map(|line| line.strip_prefix("# "))
        .map(|t| t.trim().to_string())
}

quire_sdk::export_renderer!(MinimalRenderer);
