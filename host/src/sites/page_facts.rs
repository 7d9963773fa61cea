//! What a page's frontmatter tells the navigation before any renderer runs: its label, icon,
//! `tag`, `hidden`/`noindex`, a `url` that makes its entry a link, and the API document its `openapi`
//! or `asyncapi` field names by file. Read by `quire_core::frontmatter`, as the renderer reads
//! it; what cannot be read is left for the renderer to report.

use super::navigation::PageMeta;

/// What reading a page's frontmatter gives: its navigation entry, and the API document its
/// `openapi` or `asyncapi` field names, if it names one by file (`/spec.yaml GET /users`,
/// `/events.yaml chat`).
#[derive(Clone)]
pub(super) struct PageFacts {
    pub navigation: PageMeta,
    pub api_file: Option<String>,
}

/// What navigation shows of a page: the label (frontmatter `sidebarTitle`, else `title`, else
/// the first `# heading`, else its file name), its icon, and whether it is hidden. Bad
/// frontmatter is left for the renderer to report.
pub(super) fn page_meta(source: &str, path: &str) -> PageFacts {
    let (fields, _) = quire_core::frontmatter::of_page(source);
    let api_file = fields.api_file();
    let label = fields
        .sidebar_title
        .or(fields.title)
        .or_else(|| {
            source
                .lines()
                .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_string()))
        })
        .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_string());
    PageFacts {
        navigation: PageMeta {
            label,
            icon: fields.icon,
            hidden: fields.hidden,
            noindex: fields.noindex,
            // Only a link to another site: a page's own path is where it already leads.
            url: fields
                .url
                .map(|u| u.trim().to_string())
                .filter(|u| u.contains("://") || u.starts_with("mailto:")),
            tag: fields.tag.filter(|t| !t.trim().is_empty()),
        },
        api_file,
    }
}
