//! The default renderer as a plugin: the SDK's `Renderer` over the plain-Rust site and page
//! rendering, exported as the `renderer` world (the SDK holds the WIT glue).

use quire_sdk::renderer::{self as sdk, Page, RenderedPage};
use quire_sdk::warnings::Warning;
use quire_sdk::{OutputFile, Result};

use crate::{PageSource, Site, assets, render, site_output};

/// The prepared site, shared by every page of one export.
pub struct DefaultRenderer {
    site: Site,
}

impl sdk::Renderer for DefaultRenderer {
    fn open(info: sdk::Site) -> Result<Self> {
        let files = |files: Vec<sdk::SiteFile>| {
            files
                .into_iter()
                .map(|f| (f.path, f.contents))
                .collect::<Vec<_>>()
        };
        let site = Site::from_config(
            info.name,
            info.version,
            info.navigation.entries(),
            &info.config,
            info.pages,
        )
        .with_files(files(info.snippets), files(info.api_documents))
        .with_own_assets(info.stylesheets, info.scripts)
        .with_site_files(info.files);
        Ok(Self { site })
    }

    fn assets(&self) -> Result<Vec<OutputFile>> {
        Ok(assets(&self.site)
            .into_iter()
            .map(|(path, contents)| OutputFile { path, contents })
            .collect())
    }

    fn render_page(&self, page: Page) -> Result<RenderedPage> {
        let out = render(
            &self.site,
            &PageSource {
                path: &page.path,
                file: &page.file,
                source: &page.source,
                modified: page.modified,
            },
        );
        let html = OutputFile {
            path: format!("{}.html", page.path),
            contents: out.html.into_bytes(),
        };
        Ok(RenderedPage {
            title: out.title,
            description: out.description,
            indexable: out.indexable,
            files: vec![html],
            needs: out.needs,
            headings: out.headings,
            sections: out.sections,
            warnings: out
                .warnings
                .into_iter()
                .map(|w| Warning {
                    // A problem inside a snippet is the snippet's, not the page's.
                    file: w.file.unwrap_or_else(|| page.file.clone()),
                    line: w.line,
                    message: w.message,
                })
                .collect(),
        })
    }

    fn site_output(&self, needs: &[String]) -> Result<sdk::SiteOutput> {
        let output = site_output(&self.site, needs);
        Ok(sdk::SiteOutput {
            files: output
                .files
                .into_iter()
                .map(|(path, contents)| OutputFile { path, contents })
                .collect(),
            warnings: output
                .problems
                .into_iter()
                .map(|message| Warning {
                    file: output.settings_file.to_string(),
                    line: None,
                    message,
                })
                .collect(),
        })
    }
}

quire_sdk::export_renderer!(DefaultRenderer);
