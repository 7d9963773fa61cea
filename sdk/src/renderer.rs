//! Writing a renderer: implement [`Renderer`] and export it with
//! [`export_renderer!`](crate::export_renderer). The host opens one renderer per export (with
//! the site's navigation and settings), asks it once for the shared assets, then for each page,
//! then once for what belongs to the whole site (`site_output`).

use crate::navigation::Navigation;
use crate::sections::{Heading, Section};
use crate::warnings::Warning;
use crate::{OutputFile, Result};

/// A text file of the site that pages draw on (a snippet, an OpenAPI document).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    pub path: String,
    pub contents: String,
}

/// Everything about the site that every page shares.
#[derive(Debug, Clone)]
pub struct Site {
    /// The site's name (docs.json `name`).
    pub name: String,
    /// The content version being rendered.
    pub version: String,
    /// The navigation as a tree.
    pub navigation: Navigation,
    /// Every page of the site (path without extension), in the navigation or not.
    pub pages: Vec<String>,
    /// The navigation file (docs.json or mint.json), parsed (`Null` when the host sent none; a
    /// file that is not JSON is refused before [`Renderer::open`]).
    pub config: serde_json::Value,
    /// Files under `snippets/`.
    pub snippets: Vec<SiteFile>,
    /// The OpenAPI documents the site refers to.
    pub api_documents: Vec<SiteFile>,
    /// The site's own `.css` files (paths from the site root), applied to every page.
    pub stylesheets: Vec<String>,
    /// The site's own `.js` files outside `snippets/` (paths from the site root), run on every
    /// page where the deployment allows it.
    pub scripts: Vec<String>,
    /// Every other file the bundle carries beside the pages (paths from the site root), so
    /// links to files can be checked.
    pub files: Vec<String>,
}

impl Site {
    /// The navigation file's settings, typed (`settings().colors.primary`). What does not fit
    /// docs.json's model is left out; the host has warned about it when the site was published.
    pub fn settings(&self) -> crate::config::SiteConfig {
        crate::config::SiteConfig::of(&self.config)
    }
}

/// One page's source.
#[derive(Debug, Clone)]
pub struct Page {
    /// Path without extension (`guides/quickstart`), unique in the site.
    pub path: String,
    /// Source file relative to the site root (`guides/quickstart.mdx`).
    pub file: String,
    /// MDX or Markdown, frontmatter included.
    pub source: String,
    /// When the source file was last changed (seconds since the Unix epoch), if the host knows.
    pub modified: Option<u64>,
}

/// What rendering one page produced.
#[derive(Debug, Clone, Default)]
pub struct RenderedPage {
    pub title: String,
    pub description: Option<String>,
    /// False keeps the page out of the sitemap and the bundle's search index.
    pub indexable: bool,
    /// At least the page's own `PATH.html`.
    pub files: Vec<OutputFile>,
    pub headings: Vec<Heading>,
    pub sections: Vec<Section>,
    pub warnings: Vec<Warning>,
    /// Site-wide files this page needs, by names of your choosing (`diagrams`): the host
    /// gathers them over every page and asks [`Renderer::site_output`] for them once.
    pub needs: Vec<String>,
}

/// What belongs to the whole site rather than to any page.
#[derive(Debug, Clone, Default)]
pub struct SiteOutput {
    /// The site-wide files the pages' `needs` named.
    pub files: Vec<OutputFile>,
    /// Problems in the site's settings, each reported once.
    pub warnings: Vec<Warning>,
}

/// A renderer prepared for one site.
pub trait Renderer: Sized + 'static {
    /// Prepares for `site`; fails if its settings cannot be used.
    fn open(site: Site) -> Result<Self>;
    /// Files every page shares (stylesheets, scripts). None by default.
    fn assets(&self) -> Result<Vec<OutputFile>> {
        Ok(Vec::new())
    }
    /// Renders one page. A problem in the page's markup is a warning, not an error.
    fn render_page(&self, page: Page) -> Result<RenderedPage>;
    /// What belongs to the whole site: the files named by the pages' `needs` (each name once)
    /// and the problems in the site's settings. Asked once per site after its pages, possibly
    /// of another instance than the one that rendered them. Nothing by default.
    fn site_output(&self, needs: &[String]) -> Result<SiteOutput> {
        let _ = needs;
        Ok(SiteOutput::default())
    }
}

/// Exports a [`Renderer`] as the component's `renderer` world:
/// `quire_sdk::export_renderer!(MyRenderer);`
#[macro_export]
macro_rules! export_renderer {
    ($renderer:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[doc(hidden)]
        pub struct QuireRendererExport;
        #[cfg(target_arch = "wasm32")]
        impl $crate::bindings::renderer::exports::quire::plugins::render::Guest
            for QuireRendererExport
        {
            type SiteRenderer = $crate::renderer::adapter::SiteRendererAdapter<$renderer>;
        }
        #[cfg(target_arch = "wasm32")]
        $crate::bindings::renderer::export_renderer_world!(
            QuireRendererExport with_types_in $crate::bindings::renderer
        );
    };
}

/// The glue between [`Renderer`] and the generated bindings.
#[cfg(feature = "renderer")]
#[doc(hidden)]
pub mod adapter {
    use super::{Page, Renderer, Site, SiteFile};
    use crate::bindings::renderer::exports::quire::plugins::render as wit;
    use crate::bindings::renderer::quire::plugins::types as wit_types;
    use crate::navigation::{NavEntry, NavKind, Navigation};

    /// Holds the author's renderer as the `site-renderer` resource.
    pub struct SiteRendererAdapter<R>(R);

    impl<R: Renderer> wit::GuestSiteRenderer for SiteRendererAdapter<R> {
        fn open(info: wit::SiteInfo) -> Result<wit::SiteRenderer, wit_types::Error> {
            let files = |files: Vec<wit::SiteFile>| {
                files
                    .into_iter()
                    .map(|f| SiteFile {
                        path: f.path,
                        contents: f.contents,
                    })
                    .collect()
            };
            let config = match info.config_json.trim() {
                "" => serde_json::Value::Null,
                text => serde_json::from_str(text).map_err(|e| {
                    crate::Error::invalid_input(format!(
                        "site configuration is not valid JSON: {e}"
                    ))
                })?,
            };
            let site = Site {
                name: info.name,
                version: info.version,
                navigation: Navigation::from_entries(info.navigation.into_iter().map(nav_entry)),
                pages: info.pages,
                config,
                snippets: files(info.snippets),
                api_documents: files(info.api_documents),
                stylesheets: info.stylesheets,
                scripts: info.scripts,
                files: info.files,
            };
            let renderer = R::open(site)?;
            Ok(wit::SiteRenderer::new(Self(renderer)))
        }

        fn assets(&self) -> Result<Vec<wit_types::OutputFile>, wit_types::Error> {
            Ok(self.0.assets()?.into_iter().map(output_file).collect())
        }

        fn render_page(&self, page: wit::PageInput) -> Result<wit::RenderedPage, wit_types::Error> {
            let out = self.0.render_page(Page {
                path: page.path,
                file: page.file,
                source: page.source,
                modified: page.modified,
            })?;
            Ok(wit::RenderedPage {
                title: out.title,
                description: out.description,
                indexable: out.indexable,
                files: out.files.into_iter().map(output_file).collect(),
                headings: out
                    .headings
                    .into_iter()
                    .map(|h| wit::Heading {
                        level: h.level,
                        text: h.text,
                        anchor: h.anchor,
                    })
                    .collect(),
                sections: out
                    .sections
                    .into_iter()
                    .map(|s| wit::Section {
                        anchor: s.anchor,
                        heading_trail: s.heading_trail,
                        text: s.text,
                    })
                    .collect(),
                warnings: out.warnings.into_iter().map(warning).collect(),
                needs: out.needs,
            })
        }

        fn site_output(&self, needs: Vec<String>) -> Result<wit::SiteOutput, wit_types::Error> {
            let out = self.0.site_output(&needs)?;
            Ok(wit::SiteOutput {
                files: out.files.into_iter().map(output_file).collect(),
                warnings: out.warnings.into_iter().map(warning).collect(),
            })
        }
    }

    fn warning(w: crate::warnings::Warning) -> wit_types::Warning {
        wit_types::Warning {
            file: w.file,
            line: w.line,
            message: w.message,
        }
    }

    fn output_file(file: crate::OutputFile) -> wit_types::OutputFile {
        wit_types::OutputFile {
            path: file.path,
            contents: file.contents,
        }
    }

    fn nav_entry(entry: wit::NavEntry) -> NavEntry {
        NavEntry {
            kind: match entry.kind {
                wit::NavKind::Group => NavKind::Group,
                wit::NavKind::Page => NavKind::Page,
                wit::NavKind::Tab => NavKind::Tab,
                wit::NavKind::Link => NavKind::Link,
                wit::NavKind::Anchor => NavKind::Anchor,
                wit::NavKind::Dropdown => NavKind::Dropdown,
                wit::NavKind::Product => NavKind::Product,
                wit::NavKind::Version => NavKind::Version,
                wit::NavKind::Language => NavKind::Language,
            },
            depth: entry.depth,
            label: entry.label,
            target: entry.target,
            icon: entry.icon,
            tag: entry.tag,
            directory: entry.directory,
            expanded: entry.expanded,
            // Placement is the host's: the contract does not carry it.
            version: None,
            language: None,
            hidden: false,
            searchable: false,
        }
    }
}
