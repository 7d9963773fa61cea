//! The `import` statements of MDX pages and snippets, read one way by the host (which files a
//! site imports, so it hands them to the renderer as snippets and does not publish them as
//! pages of their own) and by the renderer (what an imported name stands for).
//!
//! docs.json sites import a snippet from anywhere in the site, by a path from the site's root
//! (`/snippets/intro.mdx`) or relative to the importing file (`./intro.mdx`,
//! `../shared/intro.mdx`). Anything else (`react`, `@acme/ui`) is a package, which a static
//! export cannot run.

/// Extensions of files a page can import as a snippet: content, or components.
pub const SNIPPET_EXTENSIONS: &[&str] = &[".mdx", ".md", ".jsx", ".js", ".tsx", ".ts"];

/// One `import NAMES from 'SOURCE'` statement: the names part as written and the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportStatement<'a> {
    pub names: &'a str,
    pub source: &'a str,
}

/// The import statements of an ESM block (or of a whole source: lines that are not imports are
/// skipped), in order.
///
/// A statement runs from a line start or a `;` to the next of either. Only one whose text
/// (leading whitespace aside) begins with `import ` can be an import, so statements are found
/// by searching for that word rather than by cutting and trimming every line: the host reads
/// every page of a site this way on every release.
pub fn import_statements(esm: &str) -> impl Iterator<Item = ImportStatement<'_>> {
    const WORD: &str = "import ";
    let finder = memchr::memmem::Finder::new(WORD);
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(found) = finder.find(&esm.as_bytes()[from..]) {
            let start = from + found;
            from = start + WORD.len();
            let statement_start = esm[..start].rfind([';', '\n']).map_or(0, |at| at + 1);
            if !esm[statement_start..start].chars().all(char::is_whitespace) {
                continue; // the word inside a statement, not its start
            }
            let end = esm[start..]
                .find([';', '\n'])
                .map_or(esm.len(), |at| start + at);
            from = end;
            if let Some(statement) = import_statement(esm[start..end].trim_end()) {
                return Some(statement);
            }
        }
        None
    })
}

/// The statement `text` (trimmed, starting `import `), if it imports from a source.
fn import_statement(text: &str) -> Option<ImportStatement<'_>> {
    let rest = text.strip_prefix("import ")?;
    let (names, source) = rest.rsplit_once(" from ")?;
    let source = source.trim().trim_matches(['"', '\'']);
    Some(ImportStatement {
        names: names.trim(),
        source,
    })
}

/// The site file an import `source` names, from the file `importer` (a path from the site
/// root, such as `guides/setup.mdx`): a path from the root, or relative to the importer's
/// folder (`..` at the root stays there), ending in one of [`SNIPPET_EXTENSIONS`]. `None` for
/// a package (`react`) or a file that is no snippet (`./data.json`). A bare `snippets/...`
/// path is taken from the root, as sites write it.
pub fn snippet_file(source: &str, importer: &str) -> Option<String> {
    let source = source.trim();
    let relative = source.starts_with("./") || source.starts_with("../");
    let resolved = if source.starts_with('/') || relative {
        crate::paths::resolve(source, importer)
    } else if source.starts_with("snippets/") {
        crate::paths::resolve(source, "")
    } else {
        return None;
    };
    SNIPPET_EXTENSIONS
        .iter()
        .any(|ext| resolved.ends_with(ext))
        .then_some(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_read_with_either_quote_and_with_or_without_semicolons() {
        let esm = "import Intro from '/snippets/intro.mdx';\nimport { a, b as c } from \"./vars.mdx\"\nconst x = 1;\nimport React from 'react'";
        let statements: Vec<_> = import_statements(esm).collect();
        assert_eq!(statements.len(), 3);
        assert_eq!(statements[1].names, "{ a, b as c }");
        assert_eq!(statements[1].source, "./vars.mdx");
        assert_eq!(statements[2].source, "react");
    }

    #[test]
    fn snippets_resolve_from_the_root_or_the_importing_file() {
        let from = "guides/setup/intro.mdx";
        assert_eq!(
            snippet_file("/snippets/a.mdx", from).as_deref(),
            Some("snippets/a.mdx")
        );
        assert_eq!(
            snippet_file("./parts/b.md", from).as_deref(),
            Some("guides/setup/parts/b.md")
        );
        assert_eq!(
            snippet_file("../../snippets/c.jsx", from).as_deref(),
            Some("snippets/c.jsx")
        );
        assert_eq!(
            snippet_file("../../../../d.mdx", from).as_deref(),
            Some("d.mdx")
        );
        assert_eq!(
            snippet_file("snippets/e.mdx", from).as_deref(),
            Some("snippets/e.mdx")
        );
        assert_eq!(
            snippet_file("./x.mdx", "page.mdx").as_deref(),
            Some("x.mdx")
        );
        for package in ["react", "@acme/ui", "./data.json", "/images/a.png", ""] {
            assert_eq!(snippet_file(package, from), None, "{package:?}");
        }
    }

    /// Every statement cut out and trimmed, then read: what `import_statements` finds faster.
    fn every_statement_read(esm: &str) -> Vec<ImportStatement<'_>> {
        esm.split(';')
            .flat_map(|s| s.split('\n'))
            .map(str::trim)
            .filter_map(import_statement)
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn statements_are_those_of_every_statement_read(
            esm in "(import |from | |\u{a0}|\t|\r|;|\n|'|\"|/snippets/a.mdx|\\{ x \\}|A|import)*"
        ) {
            proptest::prop_assert_eq!(import_statements(&esm).collect::<Vec<_>>(), every_statement_read(&esm));
        }

        #[test]
        fn any_text_is_read_without_a_panic(esm in "\\PC{0,200}", importer in "[a-z/.]{0,20}") {
            for statement in import_statements(&esm) {
                if let Some(file) = snippet_file(statement.source, &importer) {
                    proptest::prop_assert!(!file.split('/').any(|s| s == ".." || s == "."));
                }
            }
        }
    }
}
