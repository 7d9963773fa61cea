//! Which files of a site are snippets. docs.json sites take as snippets every file under
//! `snippets/`, the files their docs.json `snippets` patterns name (globs), and any `.mdx`,
//! `.md` or component file a page or another snippet imports, wherever it lives (`import Intro
//! from '../shared/intro.mdx'`). A snippet shows where it is imported and is not a page of its
//! own, so the host hands snippets to the renderer and publishes none of them as a page unless
//! the navigation names it.

use std::collections::{BTreeSet, HashSet};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use quire_core::config::SiteConfig;
use quire_core::imports::{SNIPPET_EXTENSIONS, import_statements, snippet_file};
use serde_json::Value;

use super::SiteWarning;

/// The site's snippet files, found from its pages' imports.
pub struct SnippetFiles {
    /// Every file of the site, to tell an import of a file it has.
    existing: HashSet<String>,
    found: BTreeSet<String>,
    /// Files whose imports are still to be read.
    unread: Vec<String>,
    /// Files whose imports were read (pages are read before the snippets they import).
    read: HashSet<String>,
}

impl SnippetFiles {
    /// Starts from the site's `files` and its docs.json `config`: the files under `snippets/`
    /// and those its `snippets` patterns name. A pattern that cannot be read is a warning
    /// naming it.
    pub fn new<'a>(
        config: &SiteConfig,
        config_file: &str,
        files: impl IntoIterator<Item = &'a str>,
    ) -> (Self, Vec<SiteWarning>) {
        let mut warnings = Vec::new();
        let mut builder = GlobSetBuilder::new();
        let patterns = match &config.snippets {
            Some(Value::Array(patterns)) => patterns.iter().collect(),
            Some(one @ Value::String(_)) => vec![one],
            Some(other) if !other.is_null() => {
                warnings.push(SiteWarning {
                    file: config_file.to_string(),
                    message: "snippets: expected a list of glob patterns; it is ignored".into(),
                });
                Vec::new()
            }
            _ => Vec::new(),
        };
        for (i, pattern) in patterns.into_iter().enumerate() {
            let glob = pattern
                .as_str()
                .ok_or_else(|| "not a string".to_string())
                .and_then(|p| {
                    // `*` stays within a folder; `**` crosses folders.
                    GlobBuilder::new(p.trim_start_matches('/'))
                        .literal_separator(true)
                        .build()
                        .map_err(|e| e.to_string())
                });
            match glob {
                Ok(glob) => {
                    builder.add(glob);
                }
                Err(reason) => warnings.push(SiteWarning {
                    file: config_file.to_string(),
                    message: format!("snippets[{i}]: {reason}; the pattern is ignored"),
                }),
            }
        }
        let patterns = builder.build().unwrap_or_else(|_| GlobSet::empty());
        let existing: HashSet<String> = files.into_iter().map(str::to_string).collect();
        let mut found = BTreeSet::new();
        for file in &existing {
            if is_snippet_kind(file) && (file.starts_with("snippets/") || patterns.is_match(file)) {
                found.insert(file.clone());
            }
        }
        let unread = found.iter().cloned().collect();
        let snippets = Self {
            existing,
            found,
            unread,
            read: HashSet::new(),
        };
        (snippets, warnings)
    }

    /// Takes note of the files that `source`, the text of the site file `file`, imports.
    pub fn read_imports(&mut self, file: &str, source: &str) {
        self.take_imports(file, Self::imports_of(file, source));
    }

    /// The files that `source`, the text of the site file `file`, may import as snippets: what
    /// [`SnippetFiles::take_imports`] is given, worked out on any thread.
    pub fn imports_of(file: &str, source: &str) -> Vec<String> {
        import_statements(source)
            .filter_map(|statement| snippet_file(statement.source, file))
            .collect()
    }

    /// Takes note of `imported`, what [`SnippetFiles::imports_of`] found the site file `file`
    /// imports; those the site has are its snippets.
    pub fn take_imports(&mut self, file: &str, imported: Vec<String>) {
        self.read.insert(file.to_string());
        for imported in imported {
            if self.existing.contains(&imported) && self.found.insert(imported.clone()) {
                self.unread.push(imported);
            }
        }
    }

    /// A snippet whose own imports are still to be read, if any.
    pub fn next_unread(&mut self) -> Option<String> {
        while let Some(file) = self.unread.pop() {
            if !self.read.contains(&file) {
                return Some(file);
            }
        }
        None
    }

    /// Whether the site file `file` is a snippet.
    pub fn contains(&self, file: &str) -> bool {
        self.found.contains(file)
    }

    /// Every snippet file, in path order.
    pub fn into_sorted(self) -> Vec<String> {
        self.found.into_iter().collect()
    }
}

/// Whether `file` is a content or component file under `snippets/`: a snippet, imported or not.
pub fn in_snippets_folder(file: &str) -> bool {
    file.starts_with("snippets/") && is_snippet_kind(file)
}

fn is_snippet_kind(file: &str) -> bool {
    SNIPPET_EXTENSIONS.iter().any(|ext| file.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn files() -> Vec<&'static str> {
        vec![
            "index.mdx",
            "guides/setup.mdx",
            "guides/parts/step.mdx",
            "shared/intro.mdx",
            "shared/deep.mdx",
            "components/card.jsx",
            "snippets/note.mdx",
            "snippets/logo.png",
        ]
    }

    #[test]
    fn the_folder_patterns_and_imports_make_the_snippets() {
        let config = json!({"snippets": ["components/**"]});
        let (mut snippets, warnings) =
            SnippetFiles::new(&SiteConfig::of(&config), "docs.json", files());
        assert!(warnings.is_empty());
        snippets.read_imports(
            "guides/setup.mdx",
            "import Step from './parts/step.mdx'\nimport Intro from '../shared/intro.mdx'\nimport React from 'react'\nimport Gone from './missing.mdx'",
        );
        // A page read before is not handed out again for its imports.
        snippets.read_imports("shared/deep.mdx", "");
        let mut handed_out = Vec::new();
        while let Some(file) = snippets.next_unread() {
            if file == "shared/intro.mdx" {
                snippets.read_imports(&file, "import Deep from './deep.mdx'");
            }
            handed_out.push(file);
        }
        assert!(!handed_out.contains(&"shared/deep.mdx".to_string()));
        assert_eq!(
            snippets.into_sorted(),
            [
                "components/card.jsx",
                "guides/parts/step.mdx",
                "shared/deep.mdx",
                "shared/intro.mdx",
                "snippets/note.mdx"
            ]
        );
    }

    #[test]
    fn patterns_that_cannot_be_read_are_warnings() {
        let config = json!({"snippets": ["a/[", 3]});
        let (_, warnings) = SnippetFiles::new(&SiteConfig::of(&config), "docs.json", files());
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].message.starts_with("snippets[0]: "));
        assert!(warnings[1].message.contains("snippets[1]: not a string"));
        let (_, warnings) = SnippetFiles::new(
            &SiteConfig::of(&json!({"snippets": 3})),
            "docs.json",
            files(),
        );
        assert!(warnings[0].message.contains("a list of glob patterns"));
    }
}
