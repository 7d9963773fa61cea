//! Snippets: reusable MDX, under `/snippets/` or anywhere a page imports it from (a path from
//! the root, or relative to the importing file: `quire_sdk::imports`). A page imports a snippet
//! as a component (`import Intro from '/snippets/intro.mdx'`, then `<Intro word="x" />`, where the snippet reads
//! `{word}`) or imports the snippet's `export const` values (`import { version } from
//! '/snippets/vars.mdx'`, then `{version}`). Nothing is evaluated: imports and exports are read
//! as text, and only string and number constants are supported.

use std::collections::HashMap;

use markdown::mdast::Node;

/// A snippet, read once per site: its parsed content and its constants.
#[derive(Debug)]
pub struct Snippet {
    /// The content without its `export const` lines, or why it is not valid MDX.
    pub tree: Result<Node, String>,
    pub constants: HashMap<String, String>,
    /// The components it exports (`export const Name = (props) => (...)`).
    pub components: HashMap<String, crate::jsx::JsxComponent>,
    /// Its text, for evaluating the values a page's computing component imports from it.
    pub source: std::sync::Arc<str>,
}

impl Snippet {
    /// Reads the snippet at `path`: MDX content, or a JavaScript file that only exports.
    pub fn parse(path: &str, source: &str) -> Self {
        let tree = if is_script(path) {
            Err("it is a JavaScript file, not content".to_string())
        } else {
            crate::mdx::parse(&content(source)).map_err(|e| e.reason.to_string())
        };
        Self {
            tree,
            constants: constants(source),
            components: crate::jsx::components(source),
            source: std::sync::Arc::from(source),
        }
    }
}

fn is_script(path: &str) -> bool {
    [".jsx", ".js", ".tsx", ".ts"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

/// What a name a page imported stands for.
#[derive(Debug, Clone, PartialEq)]
pub enum Import {
    /// The default import: the snippet at this path, rendered as a component.
    Snippet(String),
    /// A named import: the constant `name` exported by the snippet at `path`.
    Constant { path: String, name: String },
}

/// The imports of an ESM block of the file `importer` (a page's path, or a snippet's file:
/// relative imports start from its folder), by local name. Imports of anything but a site
/// file (a package) are returned in the second list, for a warning.
pub fn parse_imports(esm: &str, importer: &str) -> (HashMap<String, Import>, Vec<String>) {
    let mut imports = HashMap::new();
    let mut foreign = Vec::new();
    for statement in quire_sdk::imports::import_statements(esm) {
        let Some(path) = quire_sdk::imports::snippet_file(statement.source, importer) else {
            foreign.push(statement.source.to_string());
            continue;
        };
        let names = statement.names;
        let (default, named) = match names.find('{') {
            Some(i) => (names[..i].trim().trim_end_matches(','), &names[i..]),
            None => (names, ""),
        };
        if !default.is_empty() {
            imports.insert(default.trim().to_string(), Import::Snippet(path.clone()));
        }
        for name in named.trim_matches(['{', '}', ' ']).split(',') {
            let name = name.trim();
            if name.is_empty() {
                continue;
            }
            let (exported, local) = match name.split_once(" as ") {
                Some((e, l)) => (e.trim(), l.trim()),
                None => (name, name),
            };
            imports.insert(
                local.to_string(),
                Import::Constant {
                    path: path.clone(),
                    name: exported.to_string(),
                },
            );
        }
    }
    (imports, foreign)
}

/// The `export const NAME = VALUE` constants of a snippet whose value is a string (single,
/// double or backtick quotes, no interpolation) or a number.
pub fn constants(source: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for line in source.lines() {
        let Some(rest) = line.trim().strip_prefix("export const ") else {
            continue;
        };
        let Some((name, value)) = rest.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_end_matches(';').trim();
        let unquoted = ['"', '\'', '`'].iter().find_map(|q| {
            value
                .strip_prefix(*q)
                .and_then(|v| v.strip_suffix(*q))
                .filter(|v| !(*q == '`' && v.contains("${")))
        });
        let parsed = match unquoted {
            Some(text) => Some(text.to_string()),
            None => value.parse::<f64>().ok().map(|_| value.to_string()),
        };
        if let Some(parsed) = parsed {
            out.insert(name.trim().to_string(), parsed);
        }
    }
    out
}

/// The snippet's source without its `export` statements (definitions, not content). A
/// statement runs from its `export` line until its brackets close (a component's markup spans
/// many lines), or to a blank line.
fn content(source: &str) -> String {
    let mut depth: i32 = 0;
    let mut in_export = false;
    source
        .lines()
        .map(|l| {
            if l.starts_with("export ") {
                in_export = true;
                depth = 0;
            } else if l.trim().is_empty() {
                in_export = false;
            }
            if !in_export {
                return l;
            }
            for c in l.chars() {
                match c {
                    '(' | '{' | '[' => depth += 1,
                    ')' | '}' | ']' => depth -= 1,
                    _ => {}
                }
            }
            let open = l.trim_end().ends_with("=>") || l.trim_end().ends_with('=');
            if depth <= 0 && !open {
                in_export = false;
            }
            ""
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_and_named_imports() {
        let (imports, foreign) = parse_imports(
            "import Intro from '/snippets/intro.mdx';\nimport { version, name as product } from \"/snippets/vars.mdx\"\nimport Chart from './chart.jsx'\nimport Up from '../shared/up.mdx'\nimport React from 'react'",
            "guides/setup",
        );
        assert_eq!(
            imports["Intro"],
            Import::Snippet("snippets/intro.mdx".into())
        );
        assert_eq!(
            imports["product"],
            Import::Constant {
                path: "snippets/vars.mdx".into(),
                name: "name".into()
            }
        );
        assert!(imports.contains_key("version"));
        // Relative imports start from the importing file's folder.
        assert_eq!(imports["Chart"], Import::Snippet("guides/chart.jsx".into()));
        assert_eq!(imports["Up"], Import::Snippet("shared/up.mdx".into()));
        assert_eq!(foreign, ["react"]);
    }

    #[test]
    fn string_and_number_constants() {
        let c = constants(
            "export const a = 'x';\nexport const b = \"y\"\nexport const n = 3\nexport const t = `v${x}`\nexport const o = { a: 1 }\n",
        );
        assert_eq!(c["a"], "x");
        assert_eq!(c["b"], "y");
        assert_eq!(c["n"], "3");
        assert!(!c.contains_key("t") && !c.contains_key("o"));
        assert_eq!(content("export const a = 1\nHi"), "\nHi");
        assert_eq!(
            content("export const C = ({ a }) => (\n  <b>{a}</b>\n);\nHi"),
            "\n\n\nHi"
        );
    }
}
