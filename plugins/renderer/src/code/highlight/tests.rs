//! Highlighting: every common language has a grammar, and runs get the classes of their kind.

use super::*;

/// Languages docs sites fence code in most (Shiki's names), each of which must have a
/// grammar.
const COMMON: &[&str] = &[
    "javascript",
    "js",
    "jsx",
    "typescript",
    "ts",
    "tsx",
    "json",
    "jsonc",
    "json5",
    "html",
    "css",
    "scss",
    "less",
    "markdown",
    "md",
    "mdx",
    "yaml",
    "yml",
    "toml",
    "xml",
    "bash",
    "sh",
    "shell",
    "zsh",
    "console",
    "powershell",
    "ps1",
    "bat",
    "python",
    "py",
    "java",
    "kotlin",
    "swift",
    "go",
    "rust",
    "c",
    "cpp",
    "csharp",
    "cs",
    "fsharp",
    "php",
    "ruby",
    "sql",
    "graphql",
    "dockerfile",
    "makefile",
    "hcl",
    "terraform",
    "lua",
    "perl",
    "r",
    "scala",
    "dart",
    "elixir",
    "erlang",
    "haskell",
    "clojure",
    "ocaml",
    "julia",
    "groovy",
    "objective-c",
    "latex",
    "diff",
    "ini",
    "nginx",
    "proto",
    "solidity",
    "svelte",
    "vue",
    "zig",
    "nix",
    "prisma",
    "env",
    "http",
    "csv",
    "asm",
    "cmake",
    "regex",
    "properties",
];

#[test]
fn the_common_languages_have_grammars() {
    let missing: Vec<&&str> = COMMON.iter().filter(|l| syntax_for(l).is_none()).collect();
    assert!(missing.is_empty(), "no grammar for {missing:?}");
    assert!(syntax_for("output").is_none() && syntax_for("text").is_none());
    let name = |lang: &str| syntax_for(lang).map(|(_, s)| s.name.as_str());
    assert_eq!(name("ts"), Some("JavaScript"));
    assert_eq!(name("kotlin"), Some("Kotlin"));
}

#[test]
fn tokens_get_one_letter_classes_by_kind() {
    let classes = classes_in("python", "def greet(name):\n    return \"hi\\n\"  # done\n");
    let has = |class: &str, text: &str| classes.iter().any(|(c, t)| c == class && t == text);
    assert!(has("k", "def"), "{classes:?}");
    assert!(has("f", "greet"), "{classes:?}");
    assert!(has("k", "return"), "{classes:?}");
    assert!(has("e", "\\n"), "{classes:?}");
    assert!(
        classes.iter().any(|(c, t)| c == "c" && t.contains("done")),
        "{classes:?}"
    );
    let json = classes_in("json", "{\"key\": 1}\n");
    assert!(
        json.iter().any(|(c, t)| c == "p" && t.contains("key")),
        "{json:?}"
    );
    assert!(json.iter().any(|(c, t)| c == "n" && t == "1"), "{json:?}");
}

#[test]
fn the_added_grammars_classify_their_languages() {
    let ps = classes_in("powershell", "Get-ChildItem -Path $env:HOME # list\n");
    assert!(
        ps.iter().any(|(c, t)| c == "f" && t == "Get-ChildItem"),
        "{ps:?}"
    );
    assert!(ps.iter().any(|(c, _)| c == "v"), "{ps:?}");
    assert!(ps.iter().any(|(c, _)| c == "c"), "{ps:?}");
    let prisma = classes_in("prisma", "model User {\n  id Int @id // key\n}\n");
    assert!(
        prisma.iter().any(|(c, t)| c == "k" && t == "model"),
        "{prisma:?}"
    );
    assert!(
        prisma.iter().any(|(c, t)| c == "t" && t == "Int"),
        "{prisma:?}"
    );
    assert!(
        prisma.iter().any(|(c, t)| c == "f" && t == "@id"),
        "{prisma:?}"
    );
}

#[test]
fn a_run_of_one_kind_is_one_span_and_text_is_escaped() {
    let syntax = syntax_for("bash").unwrap();
    let lines = highlight_lines(syntax, "echo \"<a & b>\"\n").unwrap();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].contains("&lt;a &amp; b&gt;"), "{}", lines[0]);
    assert_eq!(
        lines[0].matches("<span class=\"s\">").count(),
        1,
        "{}",
        lines[0]
    );
}

#[test]
fn the_stylesheet_colours_classes_for_light_and_dark() {
    let css = stylesheet();
    for class in ["c", "s", "k", "f"] {
        assert!(
            css.contains(&format!(
                ":root:not(.dark):not(.code-dark) pre code .{class} {{"
            )),
            "{class}: {css}"
        );
        assert!(
            css.contains(&format!(":root.dark pre code .{class} {{")),
            "{css}"
        );
    }
}
