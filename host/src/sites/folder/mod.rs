//! Reading a site folder: its files (checked to stay inside it), its navigation file, and the
//! titles of its pages.

mod kept_reads;

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path};

use quire_core::config::{ConfigWarning, SiteConfig};
use quire_core::variables::Variables;
use serde_json::Value;
use walkdir::WalkDir;

use super::navigation::{flatten, resolve_refs};
use super::page_facts::{PageFacts, page_meta};
use super::searchable::Searchable;
use super::snippet_files::SnippetFiles;
use super::{FileEntry, NavKind, PageEntry, SiteError, SiteManifest};

/// Limits on what a site may hold.
#[derive(Debug, Clone, Copy)]
pub struct SiteLimits {
    pub max_files: usize,
    pub max_bytes: u64,
}

impl SiteLimits {
    /// The limits the configuration sets (`publish.max_files`, `publish.max_site_mib`).
    pub fn of(config: &crate::config::PublishConfig) -> Self {
        Self {
            max_files: config.max_files,
            max_bytes: config.max_site_mib << 20,
        }
    }

    /// Checks a running count of files and bytes against the limits.
    pub fn check(&self, files: usize, bytes: u64) -> Result<(), SiteError> {
        if files > self.max_files {
            return Err(SiteError::TooLarge(format!(
                "more than {} files",
                self.max_files
            )));
        }
        if bytes > self.max_bytes {
            return Err(SiteError::TooLarge(format!(
                "more than {} MiB",
                self.max_bytes >> 20
            )));
        }
        Ok(())
    }
}

/// Reads the site folder at `root` into a manifest, refusing broken input with the file at
/// fault: no navigation file, invalid JSON, a navigation page that does not exist, a link
/// that leads out of the folder.
pub fn load_site(root: &Path, limits: SiteLimits) -> Result<SiteManifest, SiteError> {
    load_site_hashed(root, limits, None)
}

/// [`load_site`] for a folder whose files' SHA-256 (hex, by path) the caller knows already, as
/// an upload does: a page read by an earlier load from the same contents is not read again
/// (`kept_reads`).
pub fn load_site_hashed(
    root: &Path,
    limits: SiteLimits,
    hashes: Option<&HashMap<String, String>>,
) -> Result<SiteManifest, SiteError> {
    let (ignored, ignore_warnings) = super::mintignore::Ignored::read(root);
    let files = list_files(root, limits, &ignored)?;
    let config_file = ["docs.json", "mint.json"]
        .into_iter()
        .find(|name| files.iter().any(|f| f.path == *name))
        .ok_or(SiteError::NoConfig)?;
    let raw = read_json(root, config_file)?;
    let mut config = resolve_refs(raw, root, config_file, 0)?;
    if config_file == "mint.json" {
        quire_core::config::mint::upgrade(&mut config);
    }
    let (settings, settings_warnings) = SiteConfig::read(&config);
    let name = settings
        .name
        .as_deref()
        .filter(|n| !n.trim().is_empty())
        .ok_or_else(|| SiteError::Invalid {
            file: config_file.to_string(),
            message: "the required field name (a non-empty string) is missing".into(),
        })?
        .to_string();

    // Pages: .mdx wins over .md for the same path.
    let mut page_files: HashMap<String, String> = HashMap::new();
    for file in &files {
        for ext in [".md", ".mdx"] {
            if let Some(path) = file.path.strip_suffix(ext) {
                let keep_existing = page_files.get(path).is_some_and(|f| f.ends_with(".mdx"));
                if !keep_existing {
                    page_files.insert(path.to_string(), file.path.clone());
                }
            }
        }
    }
    let mut metas = HashMap::new();
    let mut api_documents = super::api_references(&config.to_string());
    let (mut snippets, snippet_warnings) = SnippetFiles::new(
        &settings,
        config_file,
        files.iter().map(|f| f.path.as_str()),
    );
    // Titles in frontmatter may hold docs.json `variables` too ("About {{product}}").
    let variables = Variables::of(&settings);
    let canonical_root = root.canonicalize().ok();
    let listed: Vec<(&String, &String)> = page_files.iter().collect();
    let read = read_pages(
        root,
        canonical_root.as_deref(),
        &listed,
        (&variables, hashes),
    )?;
    for ((path, file), page) in listed.into_iter().zip(read) {
        snippets.take_imports(file, page.imports);
        if let Some(document) = &page.facts.api_file {
            api_documents.insert(document.clone());
        }
        metas.insert(path.clone(), page.facts.navigation);
    }
    for file in &files {
        let name = file.path.rsplit('/').next().unwrap_or(&file.path);
        if matches!(name, "openapi.json" | "openapi.yaml" | "openapi.yml") {
            api_documents.insert(file.path.clone());
        }
    }
    // Pages name documents as files, or without the extension (`v3-openapi GET /runs`).
    let file_paths: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut api_documents: Vec<String> = api_documents
        .into_iter()
        .filter_map(|name| {
            ["", ".json", ".yaml", ".yml"]
                .iter()
                .map(|ext| format!("{name}{ext}"))
                .find(|candidate| file_paths.contains(candidate.as_str()))
        })
        .collect();
    api_documents.sort();
    api_documents.dedup();

    // Snippets import snippets too; one that cannot be read is the renderer's to report.
    while let Some(file) = snippets.next_unread() {
        if let Ok(source) = read_text_within(root, canonical_root.as_deref(), &file) {
            snippets.read_imports(&file, &source);
        }
    }

    let navigation = flatten(&config, config_file, &metas, root)?;
    let generated: HashMap<&str, &str> = navigation
        .generated
        .iter()
        .map(|g| (g.path.as_str(), g.source.as_str()))
        .collect();
    let modified: HashMap<&str, u64> = files
        .iter()
        .filter_map(|f| Some((f.path.as_str(), f.modified?)))
        .collect();
    let searchable = Searchable::new(&settings, &navigation.nodes, &metas);
    let mut pages = Vec::new();
    let mut seen = HashSet::new();
    // Pages in navigation order (group root pages included), hidden ones too: they are
    // exported, with the version and language of their place.
    for node in &navigation.nodes {
        let is_page = node.kind == NavKind::Page || node.kind == NavKind::Group;
        let Some(path) = node.target.as_ref().filter(|_| is_page) else {
            continue;
        };
        if !seen.insert(path.clone()) {
            continue;
        }
        let (file, source) = match (page_files.get(path), generated.get(path.as_str())) {
            (Some(file), _) => (file.clone(), None),
            (None, Some(source)) => (format!("{path}.mdx"), Some(source.to_string())),
            (None, None) => continue, // the walk warned about it
        };
        let file_modified = modified.get(file.as_str()).copied();
        pages.push(PageEntry {
            path: path.clone(),
            file,
            title: metas
                .get(path)
                .map(|m| m.label.clone())
                .unwrap_or_else(|| node.label.clone()),
            version: node.version.clone(),
            language: node.language.clone(),
            modified: file_modified.filter(|_| source.is_none()),
            generated: source,
            searchable: searchable.page(path),
        });
    }
    let mut others: Vec<_> = page_files
        .iter()
        .filter(|(path, file)| {
            !seen.contains(*path) && !path.starts_with("snippets/") && !snippets.contains(file)
        })
        .collect();
    others.sort();
    for (path, file) in others {
        pages.push(PageEntry {
            path: path.clone(),
            file: file.clone(),
            title: metas.get(path).map(|m| m.label.clone()).unwrap_or_default(),
            version: None,
            language: None,
            generated: None,
            modified: modified.get(file.as_str()).copied(),
            searchable: searchable.page(path),
        });
    }

    Ok(SiteManifest {
        name,
        config_file: config_file.to_string(),
        config_json: config.to_string(),
        navigation: navigation.nodes,
        pages,
        files,
        warnings: ignore_warnings
            .into_iter()
            .chain(config_warnings(config_file, settings_warnings))
            .chain(snippet_warnings)
            .chain(navigation.warnings)
            .collect(),
        api_documents,
        snippet_files: snippets
            .into_sorted()
            .into_iter()
            .filter(|file| !super::snippet_files::in_snippets_folder(file))
            .collect(),
    })
}

/// The settings that did not fit docs.json's model, as the site's warnings. A mint.json file
/// keeps its own keys beside the docs.json ones it was given, so only values of the wrong shape
/// are reported for it.
fn config_warnings(config_file: &str, warnings: Vec<ConfigWarning>) -> Vec<super::SiteWarning> {
    warnings
        .into_iter()
        .filter(|w| config_file == "docs.json" || !w.unknown_key)
        .map(|w| super::SiteWarning {
            file: config_file.to_string(),
            message: w.to_string(),
        })
        .collect()
}

/// Every regular file under `root` that the site publishes (hidden entries, `node_modules` and
/// what `.mintignore` names are left out). Symbolic links are followed only when they stay
/// inside the folder.
fn list_files(
    root: &Path,
    limits: SiteLimits,
    ignored: &super::mintignore::Ignored,
) -> Result<Vec<FileEntry>, SiteError> {
    let canonical_root = root.canonicalize().map_err(|e| SiteError::Io {
        file: root.display().to_string(),
        message: e.to_string(),
    })?;
    let mut files = Vec::new();
    let mut total: u64 = 0;
    let walker = WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let relative = e.path().strip_prefix(root).unwrap_or(e.path());
            let relative = relative.to_string_lossy().replace('\\', "/");
            e.depth() == 0 || !ignored.excludes(&relative, e.file_type().is_dir())
        });
    for entry in walker {
        let entry = entry.map_err(|e| SiteError::Io {
            file: e
                .path()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            message: e.to_string(),
        })?;
        let relative = entry.path().strip_prefix(root).unwrap_or(entry.path());
        let rel = relative
            .to_str()
            .ok_or_else(|| SiteError::Invalid {
                file: relative.display().to_string(),
                message: "file names must be UTF-8".into(),
            })?
            .replace('\\', "/");
        let file_type = entry.file_type();
        let metadata = if file_type.is_symlink() {
            let target = entry
                .path()
                .canonicalize()
                .map_err(|_| SiteError::Escapes { file: rel.clone() })?;
            if !target.starts_with(&canonical_root) {
                return Err(SiteError::Escapes { file: rel });
            }
            std::fs::metadata(&target)
        } else {
            entry.metadata().map_err(std::io::Error::from)
        }
        .map_err(|e| SiteError::Io {
            file: rel.clone(),
            message: e.to_string(),
        })?;
        if !metadata.is_file() {
            continue;
        }
        total += metadata.len();
        limits.check(files.len() + 1, total)?;
        files.push(FileEntry {
            path: rel,
            size: metadata.len(),
            modified: unix_seconds(metadata.modified().ok()),
            sha256: None,
        });
    }
    Ok(files)
}

/// A modification time as seconds since the Unix epoch; `None` when unknown or not after it
/// (an archive entry without a time reads as the epoch).
fn unix_seconds(time: Option<std::time::SystemTime>) -> Option<u64> {
    let seconds = time?.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    (seconds > 0).then_some(seconds)
}

/// `reference` (relative to `dir`, or to the root if it starts with `/`) as a root-relative
/// path, or `None` if it leads outside the root.
pub fn inside(_root: &Path, dir: &Path, reference: &str) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let base = if reference.starts_with('/') {
        Path::new("")
    } else {
        dir
    };
    for component in base.join(reference.trim_start_matches('/')).components() {
        match component {
            Component::Normal(p) => parts.push(p.to_str()?.to_string()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

/// Parses a JSON file of the site, naming the file, line and column on error.
pub fn read_json(root: &Path, file: &str) -> Result<Value, SiteError> {
    let text = read_text(root, file)?;
    serde_json::from_str(&text).map_err(|e| SiteError::Invalid {
        file: file.to_string(),
        message: format!(
            "invalid JSON at line {} column {}: {e}",
            e.line(),
            e.column()
        ),
    })
}

fn read_text(root: &Path, file: &str) -> Result<String, SiteError> {
    read_text_within(root, root.canonicalize().ok().as_deref(), file)
}

/// What reading one page gives the site's loading: the files it may import, and what its
/// frontmatter tells the navigation.
#[derive(Clone)]
struct PageRead {
    imports: Vec<String>,
    facts: PageFacts,
}

/// Reads the `pages` (path, file) on every core, in their order: reading and looking at each
/// page's source needs nothing of the others, and is most of the time a large site takes to
/// load. A page whose file's SHA-256 `hashes` holds, and whose read this process keeps under
/// it, is not read again; the others are kept once read.
fn read_pages(
    root: &Path,
    canonical_root: Option<&Path>,
    pages: &[(&String, &String)],
    (variables, hashes): (&Variables, Option<&HashMap<String, String>>),
) -> Result<Vec<PageRead>, SiteError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_thread = pages.len().div_ceil(threads).max(1);
    let context = hashes.map(|_| kept_reads::ReadContext::of(variables));
    let read_part = |part: &[(&String, &String)]| {
        let (mut fresh, mut read_now) = (Vec::new(), 0);
        let read = part
            .iter()
            .map(|(path, file)| {
                let key = context.and_then(|context| {
                    let sha256 = hashes?.get(file.as_str())?;
                    Some(context.key(sha256, file, path))
                });
                if let Some(kept) = key.as_ref().and_then(kept_reads::get) {
                    return Ok(kept);
                }
                read_now += 1;
                let source = read_text_within(root, canonical_root, file)?;
                let read = PageRead {
                    imports: SnippetFiles::imports_of(file, &source),
                    facts: page_meta(&variables.substitute(&source), path),
                };
                if let Some(key) = key {
                    fresh.push((key, read.clone()));
                }
                Ok(read)
            })
            .collect::<Result<Vec<_>, SiteError>>();
        kept_reads::put(fresh);
        (read, read_now)
    };
    let (read, read_now) = std::thread::scope(|scope| {
        let parts: Vec<_> = pages
            .chunks(per_thread)
            .map(|part| scope.spawn(move || read_part(part)))
            .collect();
        let (mut read, mut read_now) = (Vec::with_capacity(pages.len()), 0);
        for part in parts {
            let (part, part_read_now) = part
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            read.extend(part?);
            read_now += part_read_now;
        }
        Ok::<_, SiteError>((read, read_now))
    })?;
    tracing::debug!(
        pages = pages.len(),
        read = read_now,
        kept = pages.len() - read_now,
        "site pages looked at"
    );
    Ok(read)
}

/// [`read_text`] with the root's canonical path found once, for a site's every page.
fn read_text_within(
    root: &Path,
    canonical_root: Option<&Path>,
    file: &str,
) -> Result<String, SiteError> {
    let path = root.join(file);
    // The folders on the way are the listing's, which does not go through links; only a file
    // that is a link can lead out, and only it costs a walk of its target.
    let is_link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link
        && let (Ok(target), Some(r)) = (path.canonicalize(), canonical_root)
        && !target.starts_with(r)
    {
        return Err(SiteError::Escapes {
            file: file.to_string(),
        });
    }
    std::fs::read_to_string(&path).map_err(|e| SiteError::Io {
        file: file.to_string(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
