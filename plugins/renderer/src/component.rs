//! The WIT glue: the generated bindings and the `site-renderer` resource over the plain-Rust
//! renderer. Compiled only for WebAssembly.

use std::cell::RefCell;

wit_bindgen::generate!({
    world: "renderer",
    path: "../../wit",
});

use exports::quire::plugins::render::{
    Guest, GuestSiteRenderer, Heading, NavEntry, NavKind, OutputFile, PageInput, RenderedPage,
    Section, SiteInfo, SiteRenderer,
};
use quire::plugins::types::{Error, Warning};

use crate::{NavItem, NavItemKind, PageSource, Site, assets, render};

struct Renderer;

/// The WIT resource: the prepared site, shared by every page of one job.
struct SiteRendererResource {
    site: RefCell<Site>,
}

impl Guest for Renderer {
    type SiteRenderer = SiteRendererResource;
}

impl GuestSiteRenderer for SiteRendererResource {
    fn open(info: SiteInfo) -> Result<SiteRenderer, Error> {
        let items = info.navigation.into_iter().map(nav_item).collect();
        let site = Site::new(
            info.name,
            info.version,
            items,
            &info.config_json,
            info.pages,
        )
        .map_err(Error::InvalidInput)?
        .with_files(
            info.snippets
                .into_iter()
                .map(|f| (f.path, f.contents))
                .collect(),
            info.api_documents
                .into_iter()
                .map(|f| (f.path, f.contents))
                .collect(),
        );
        Ok(SiteRenderer::new(SiteRendererResource {
            site: RefCell::new(site),
        }))
    }

    fn assets(&self) -> Result<Vec<OutputFile>, Error> {
        let site = self.site.borrow();
        Ok(assets(&site)
            .into_iter()
            .map(|(path, contents)| OutputFile { path, contents })
            .collect())
    }

    fn render_page(&self, input: PageInput) -> Result<RenderedPage, Error> {
        let site = self.site.borrow();
        let out = render(
            &site,
            &PageSource {
                path: &input.path,
                file: &input.file,
                source: &input.source,
                modified: input.modified,
            },
        );
        Ok(RenderedPage {
            title: out.title,
            description: out.description,
            indexable: out.indexable,
            files: std::iter::once(OutputFile {
                path: format!("{}.html", input.path),
                contents: out.html.into_bytes(),
            })
            .chain(
                out.files
                    .into_iter()
                    .map(|(path, contents)| OutputFile { path, contents }),
            )
            .collect(),
            headings: out
                .headings
                .into_iter()
                .map(|h| Heading {
                    level: h.level,
                    text: h.text,
                    anchor: h.anchor,
                })
                .collect(),
            sections: out
                .sections
                .into_iter()
                .map(|s| Section {
                    anchor: s.anchor,
                    heading_trail: s.heading_trail,
                    text: s.text,
                })
                .collect(),
            warnings: out
                .warnings
                .into_iter()
                .map(|w| Warning {
                    file: w.file.unwrap_or_else(|| input.file.clone()),
                    line: w.line,
                    message: w.message,
                })
                .collect(),
        })
    }
}

fn nav_item(entry: NavEntry) -> NavItem {
    NavItem {
        kind: match entry.kind {
            NavKind::Group => NavItemKind::Group,
            NavKind::Page => NavItemKind::Page,
            NavKind::Tab => NavItemKind::Tab,
            NavKind::Link => NavItemKind::Link,
            NavKind::Anchor => NavItemKind::Anchor,
            NavKind::Dropdown => NavItemKind::Dropdown,
            NavKind::Product => NavItemKind::Product,
            NavKind::Version => NavItemKind::Version,
            NavKind::Language => NavItemKind::Language,
        },
        depth: entry.depth,
        label: entry.label,
        target: entry.target,
        icon: entry.icon,
        tag: entry.tag,
        expanded: entry.expanded,
    }
}

export!(Renderer);
