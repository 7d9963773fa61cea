//! `.mintignore`: the files a site's author keeps out of publishing, in gitignore syntax, read
//! with the `ignore` crate's matcher. Ignored files are not published, exported or searched; a
//! navigation entry or link naming one is a warning like any missing page. Hidden files and
//! `node_modules` are always left out, with or without the file.

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::SiteWarning;

/// The file's name, at the site's root.
pub const FILE: &str = ".mintignore";

/// What the site leaves out.
pub struct Ignored {
    matcher: Option<Gitignore>,
}

impl Ignored {
    /// Reads `root/.mintignore`, if there is one; a pattern that cannot be read is a warning
    /// naming its line, and the others still apply.
    pub fn read(root: &Path) -> (Self, Vec<SiteWarning>) {
        let Ok(text) = std::fs::read_to_string(root.join(FILE)) else {
            return (Self { matcher: None }, Vec::new());
        };
        let mut builder = GitignoreBuilder::new(root);
        let mut warnings = Vec::new();
        for (number, line) in text.lines().enumerate() {
            if let Err(e) = builder.add_line(None, line) {
                warnings.push(SiteWarning {
                    file: FILE.into(),
                    message: format!("line {}: {e}; the pattern is left out", number + 1),
                });
            }
        }
        match builder.build() {
            Ok(matcher) => (
                Self {
                    matcher: Some(matcher),
                },
                warnings,
            ),
            Err(e) => {
                warnings.push(SiteWarning {
                    file: FILE.into(),
                    message: format!("cannot be used: {e}; nothing is left out by it"),
                });
                (Self { matcher: None }, warnings)
            }
        }
    }

    /// Whether the entry at `relative` (a path from the site root, `/`-separated) is left out:
    /// hidden, `node_modules`, or matched by `.mintignore` (itself or a folder above it).
    pub fn excludes(&self, relative: &str, is_dir: bool) -> bool {
        if relative
            .split('/')
            .any(|part| part.starts_with('.') || part == "node_modules")
        {
            return true;
        }
        let relative = relative.trim_start_matches('/');
        !relative.is_empty()
            && self
                .matcher
                .as_ref()
                .is_some_and(|m| m.matched_path_or_any_parents(relative, is_dir).is_ignore())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignored(patterns: &str) -> (Ignored, Vec<SiteWarning>) {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(FILE), patterns).expect("write");
        Ignored::read(dir.path())
    }

    #[test]
    fn gitignore_patterns_folders_and_negation() {
        let (rules, warnings) = ignored(
            "# drafts\ndrafts/\n*.draft.mdx\nsecret/*\n!secret/public.mdx\n**/internal/**\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(rules.excludes("drafts", true));
        assert!(rules.excludes("drafts/a.mdx", false));
        assert!(rules.excludes("guides/x.draft.mdx", false));
        assert!(rules.excludes("secret/plans.mdx", false));
        assert!(!rules.excludes("secret/public.mdx", false));
        assert!(rules.excludes("a/internal/b.mdx", false));
        assert!(!rules.excludes("guides/x.mdx", false));
        assert!(rules.excludes(".github/workflow.yml", false));
        assert!(rules.excludes("node_modules", true));
    }

    #[test]
    fn without_the_file_only_hidden_entries_and_node_modules_are_left_out() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (rules, warnings) = Ignored::read(dir.path());
        assert!(warnings.is_empty());
        assert!(!rules.excludes("drafts/a.mdx", false));
        assert!(rules.excludes("a/.hidden.mdx", false));
    }

    #[test]
    fn a_bad_pattern_is_a_warning_naming_its_line() {
        let (rules, warnings) = ignored("drafts/\n[z-a]\n");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].message.starts_with("line 2:"), "{warnings:?}");
        assert!(
            rules.excludes("drafts/a.mdx", false),
            "the good line still applies"
        );
    }

    proptest::proptest! {
        /// Whatever an author writes in `.mintignore`, and whatever path is asked about, reading
        /// and matching never panic, and hidden entries stay left out.
        #[test]
        fn any_file_and_any_path_are_answered(
            patterns in "[a-z*?!#/\\[\\]{}.\n -]{0,80}",
            path in "[a-z./_-]{0,30}",
            is_dir: bool,
        ) {
            let (rules, _) = ignored(&patterns);
            let _ = rules.excludes(&path, is_dir);
            let hidden = format!("docs/.{path}");
            proptest::prop_assert!(rules.excludes(&hidden, is_dir));
        }
    }
}
