//! What the renderer's examples (and bench/highlighters) share: a docs folder read into a `Site` and its page files, as
//! the host would give them (no navigation).

use std::path::{Path, PathBuf};

/// A page file of the folder: its path on disk, relative to the folder, and its page path.
pub struct PageFile {
    pub disk: PathBuf,
    pub relative: String,
    pub page: String,
}

/// The site in `root` (its docs.json or mint.json, snippets and page list) and its page files.
pub fn load(root: &Path) -> (quire_renderer::Site, Vec<PageFile>) {
    let config = ["docs.json", "mint.json"]
        .iter()
        .find_map(|name| std::fs::read_to_string(root.join(name)).ok())
        .unwrap_or_default();
    let files: Vec<PageFile> = markdown_files(root)
        .into_iter()
        .map(|disk| {
            let relative = disk
                .strip_prefix(root)
                .unwrap_or(&disk)
                .to_string_lossy()
                .to_string();
            let page = relative
                .trim_end_matches(".mdx")
                .trim_end_matches(".md")
                .to_string();
            PageFile {
                disk,
                relative,
                page,
            }
        })
        .collect();
    let pages = files.iter().map(|f| f.page.clone()).collect();
    let snippets = files
        .iter()
        .filter(|f| f.relative.starts_with("snippets"))
        .filter_map(|f| Some((f.relative.clone(), std::fs::read_to_string(&f.disk).ok()?)))
        .collect();
    let site = quire_renderer::Site::new("site".into(), "latest".into(), vec![], &config, pages)
        .unwrap_or_else(|e| panic!("the site's settings: {e}"))
        .with_files(snippets, Vec::new());
    (site, files)
}

/// The `.md` and `.mdx` files under `root`, in name order, skipping hidden folders and
/// `node_modules`.
pub fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    walk(root, &mut files);
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            walk(&path, out);
        } else if name.ends_with(".mdx") || name.ends_with(".md") {
            out.push(path);
        }
    }
}
