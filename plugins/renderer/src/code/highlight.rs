//! Syntax highlighting at build time, compact: each run of tokens of one kind is one
//! `<span class="k">` with a one-letter class, and the colours of those classes are a
//! stylesheet written once per bundle for light and dark.
//!
//! The host highlights first (`quire_sdk::highlighting`: tree-sitter grammars in native code,
//! several times faster than anything compiled into this component). For a language it has no
//! grammar for, syntect does it here: its own grammars where it has one, then bat's collection
//! (two-face: about 200 languages), plus the few docs sites use that neither has (`syntaxes/`).
//! There a scope stack is turned into a class by a theme whose "colours" are class numbers, so
//! syntect's own selector matching decides which kind a token is; the stylesheet asks real
//! themes what colour each kind has.

use std::str::FromStr;
use std::sync::OnceLock;

use syntect::highlighting::{
    Color, FontStyle, HighlightIterator, HighlightState, Highlighter, ScopeSelectors, Style,
    StyleModifier, Theme, ThemeItem, ThemeSettings,
};
use syntect::parsing::{
    ParseState, Scope, ScopeStack, SyntaxDefinition, SyntaxReference, SyntaxSet,
};
use syntect::util::LinesWithEndings;

use quire_sdk::escape;
use quire_sdk::highlighting::{TokenKind as HostKind, TokenRun};

/// A kind of token, with its class, the scopes that select it and a scope a real theme
/// colours the way it colours that kind.
struct TokenKind {
    class: &'static str,
    selector: &'static str,
    sample: &'static str,
}

/// The kinds, in the order their classes are numbered (1-based; 0 is plain text). Where two
/// selectors match a token, syntect takes the more specific one (an escape inside a string is
/// an escape).
const KINDS: &[TokenKind] = &[
    TokenKind {
        class: "c",
        selector: "comment, punctuation.definition.comment",
        sample: "comment.line",
    },
    TokenKind {
        class: "s",
        selector: "string, punctuation.definition.string, markup.raw",
        sample: "string.quoted.double",
    },
    TokenKind {
        class: "e",
        selector: "constant.character.escape, string.regexp",
        sample: "constant.character.escape",
    },
    TokenKind {
        class: "n",
        selector: "constant.numeric, constant.language, constant.character, constant.other, support.constant",
        sample: "constant.numeric",
    },
    TokenKind {
        class: "k",
        selector: "keyword, storage.type, storage.modifier",
        sample: "keyword.control",
    },
    TokenKind {
        class: "o",
        selector: "keyword.operator",
        sample: "keyword.operator",
    },
    TokenKind {
        class: "f",
        selector: "entity.name.function, support.function, variable.function, meta.annotation, entity.name.decorator",
        sample: "entity.name.function",
    },
    TokenKind {
        class: "t",
        selector: "entity.name.type, entity.name.class, entity.other.inherited-class, support.type, support.class, entity.name.namespace",
        sample: "entity.name.type",
    },
    TokenKind {
        class: "v",
        selector: "variable.language, variable.parameter, variable.other.readwrite.shell, variable.other.normal",
        sample: "variable.parameter",
    },
    TokenKind {
        class: "g",
        selector: "entity.name.tag",
        sample: "entity.name.tag",
    },
    TokenKind {
        class: "a",
        selector: "entity.other.attribute-name",
        sample: "entity.other.attribute-name",
    },
    TokenKind {
        class: "p",
        selector: "support.type.property-name, meta.mapping.key string, meta.structure.dictionary.key string, entity.name.tag.yaml, variable.other.property, variable.other.member, meta.object-literal.key",
        sample: "support.type.property-name",
    },
    TokenKind {
        class: "h",
        selector: "markup.heading, entity.name.section, markup.bold, markup.italic",
        sample: "markup.heading",
    },
    TokenKind {
        class: "i",
        selector: "markup.inserted",
        sample: "markup.inserted",
    },
    TokenKind {
        class: "d",
        selector: "markup.deleted",
        sample: "markup.deleted",
    },
];

/// Grammars bat's collection lacks that docs sites use, written for this renderer.
const EXTRA_SYNTAXES: &[&str] = &[
    include_str!("syntaxes/powershell.sublime-syntax"),
    include_str!("syntaxes/prisma.sublime-syntax"),
];

/// Fence names (lower case) that are another name of a grammar: Shiki's names and aliases
/// where they differ from the grammar's own, and what each is highlighted as.
const ALIASES: &[(&str, &str)] = &[
    ("javascript", "js"),
    ("mjs", "js"),
    ("cjs", "js"),
    ("node", "js"),
    // TypeScript is highlighted with the JavaScript grammar: bat's TypeScript grammar took
    // three times as long on a TypeScript-heavy site, for colours that differ only on types.
    ("jsx", "js"),
    ("typescript", "js"),
    ("ts", "js"),
    ("mts", "js"),
    ("cts", "js"),
    ("tsx", "js"),
    ("shell", "bash"),
    ("shellscript", "bash"),
    ("sh", "bash"),
    ("zsh", "bash"),
    ("console", "bash"),
    ("shellsession", "bash"),
    ("terminal", "bash"),
    ("curl", "bash"),
    ("fish", "fish"),
    ("ps", "PowerShell"),
    ("ps1", "PowerShell"),
    ("pwsh", "PowerShell"),
    ("powershell", "PowerShell"),
    ("bat", "Batch File"),
    ("batch", "Batch File"),
    ("cmd", "Batch File"),
    ("py", "python"),
    ("python3", "python"),
    ("py3", "python"),
    ("pycon", "python"),
    ("ipython", "python"),
    ("rs", "rust"),
    ("golang", "go"),
    ("kt", "Kotlin"),
    ("kts", "Kotlin"),
    ("kotlin", "Kotlin"),
    ("cs", "C#"),
    ("csharp", "C#"),
    ("c#", "C#"),
    ("fsharp", "F#"),
    ("f#", "F#"),
    ("c++", "C++"),
    ("cpp", "C++"),
    ("objc", "Objective-C"),
    ("objective-c", "Objective-C"),
    ("yml", "yaml"),
    ("jsonc", "json"),
    ("json5", "json"),
    ("jsonl", "json"),
    ("mdx", "md"),
    ("markdown", "md"),
    ("docker", "Dockerfile"),
    ("dockerfile", "Dockerfile"),
    ("env", "DotENV"),
    ("dotenv", "DotENV"),
    ("hcl", "Terraform"),
    ("terraform", "Terraform"),
    ("tf", "Terraform"),
    ("proto", "Protocol Buffer"),
    ("protobuf", "Protocol Buffer"),
    ("gql", "graphql"),
    ("graphql", "graphql"),
    ("prisma", "Prisma"),
    ("rb", "ruby"),
    ("toml", "toml"),
    ("tex", "latex"),
    ("make", "Makefile"),
    ("makefile", "Makefile"),
    ("vue", "vue"),
    ("svelte", "svelte"),
    ("sol", "Solidity"),
    ("solidity", "Solidity"),
    ("patch", "diff"),
    ("elixir", "ex"),
    ("erlang", "erl"),
    ("haskell", "hs"),
    ("hs", "hs"),
    ("clojure", "clj"),
    ("ocaml", "ml"),
    ("julia", "jl"),
    ("perl", "pl"),
    ("scheme", "scm"),
    ("lisp", "lisp"),
    ("groovy", "groovy"),
    ("gradle", "groovy"),
    ("properties", "properties"),
    ("ini", "ini"),
    ("conf", "ini"),
    ("nginx", "nginx"),
    ("xml", "xml"),
    ("svg", "xml"),
    ("html", "html"),
    ("http", "http"),
    ("jinja", "jinja"),
    ("twig", "twig"),
    ("regex", "re"),
    ("asm", "asm"),
    ("nasm", "asm"),
    ("cmake", "cmake"),
    ("r", "r"),
    ("matlab", "matlab"),
    ("dart", "dart"),
    ("swift", "swift"),
    ("scala", "scala"),
    ("lua", "lua"),
    ("php", "php"),
    ("sql", "sql"),
    ("zig", "zig"),
    ("nix", "nix"),
    ("crystal", "cr"),
    ("elm", "elm"),
    ("verilog", "v"),
    ("systemverilog", "sv"),
    ("glsl", "glsl"),
    ("wgsl", "wgsl"),
    ("nim", "nim"),
    ("racket", "rkt"),
    ("purescript", "purs"),
    ("d", "d"),
    ("pascal", "pas"),
    ("fortran", "f90"),
    ("csv", "csv"),
    ("less", "less"),
    ("scss", "scss"),
    ("sass", "sass"),
    ("stylus", "styl"),
    ("coffee", "coffee"),
    ("coffeescript", "coffee"),
    ("jq", "jq"),
    ("rego", "rego"),
    ("puppet", "pp"),
    ("robot", "robot"),
    ("diff", "diff"),
];

/// Fence names that mean plain text.
const PLAIN: &[&str] = &["text", "txt", "plain", "plaintext", "output", "log", "ansi"];

/// syntect's own grammars: older and simpler than bat's, and measured 1.5 to 3 times faster on
/// real sites' code (BENCHMARKS.md, "Highlighting"), so they are used for every language they
/// cover. Loaded from syntect's dump as is: rebuilding the set to add grammars to it costs more
/// than a small page takes to render.
fn fast_grammars() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// This renderer's own grammars, in a set of their own.
fn own_grammars() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut builder = syntect::parsing::SyntaxSetBuilder::new();
        for source in EXTRA_SYNTAXES {
            // The grammars are this crate's own; a broken one is left out, not a failed page.
            if let Ok(syntax) = SyntaxDefinition::load_from_str(source, true, None) {
                builder.add(syntax);
            }
        }
        builder.build()
    })
}

/// bat's collection, for the languages syntect's own set lacks; loaded on first use.
fn wide_grammars() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(two_face::syntax::extra_newlines)
}

/// A grammar and the set it belongs to (a grammar refers to others in its own set).
pub type Grammar = (&'static SyntaxSet, &'static SyntaxReference);

/// The grammar for a fence's language name, or `None` for plain text.
pub fn syntax_for(lang: &str) -> Option<Grammar> {
    let lang = lang.trim().to_ascii_lowercase();
    if lang.is_empty() || PLAIN.contains(&lang.as_str()) {
        return None;
    }
    let token = ALIASES
        .iter()
        .find(|(alias, _)| *alias == lang)
        .map_or(lang.as_str(), |(_, to)| to);
    // Cheapest first: the wide set is only loaded for a language the others lack.
    [fast_grammars(), own_grammars(), wide_grammars()]
        .into_iter()
        .find_map(|set| {
            set.find_syntax_by_token(token)
                .or_else(|| set.find_syntax_by_name(token))
                .filter(|s| s.name != "Plain Text")
                .map(|syntax| (set, syntax))
        })
}

/// The theme that "colours" each token with its kind's number in the red channel.
fn classifier_theme() -> &'static Theme {
    static THEME: OnceLock<Theme> = OnceLock::new();
    THEME.get_or_init(|| Theme {
        name: None,
        author: None,
        settings: ThemeSettings {
            foreground: Some(class_color(0)),
            ..ThemeSettings::default()
        },
        scopes: KINDS
            .iter()
            .enumerate()
            .filter_map(|(i, kind)| {
                Some(ThemeItem {
                    scope: ScopeSelectors::from_str(kind.selector).ok()?,
                    style: StyleModifier {
                        foreground: Some(class_color(i + 1)),
                        background: None,
                        font_style: None,
                    },
                })
            })
            .collect(),
    })
}

/// The classifier, prepared once: syntect sorts a theme's selectors each time a highlighter is
/// made, which is wasted work per code block.
fn classifier() -> &'static Highlighter<'static> {
    static HIGHLIGHTER: OnceLock<Highlighter<'static>> = OnceLock::new();
    HIGHLIGHTER.get_or_init(|| Highlighter::new(classifier_theme()))
}

fn class_color(index: usize) -> Color {
    Color {
        r: u8::try_from(index).unwrap_or(0),
        g: 0,
        b: 0,
        a: 0xff,
    }
}

fn class_of(style: Style) -> Option<&'static str> {
    let index = usize::from(style.foreground.r);
    index
        .checked_sub(1)
        .and_then(|i| KINDS.get(i))
        .map(|k| k.class)
}

/// The code's lines as HTML (escaped, with one span per run of one kind), highlighted by the
/// host where it knows `lang`, else by this renderer's grammars; `None` for plain text and
/// languages neither knows (the caller shows the code plain).
pub fn lines(lang: &str, code: &str) -> Option<Vec<String>> {
    let lang = lang.trim();
    if lang.is_empty() || PLAIN.contains(&lang.to_ascii_lowercase().as_str()) {
        return None;
    }
    if let Some(runs) = quire_sdk::highlighting::highlight(lang, code) {
        return Some(lines_from_runs(code, &runs));
    }
    highlight_lines(syntax_for(lang)?, code)
}

/// The class of a kind of token the host tells apart (the letters of [`KINDS`]).
fn class_of_host_kind(kind: HostKind) -> &'static str {
    match kind {
        HostKind::Comment => "c",
        HostKind::String => "s",
        HostKind::Escape => "e",
        HostKind::Number => "n",
        HostKind::Keyword => "k",
        HostKind::Operator => "o",
        HostKind::Function => "f",
        HostKind::Type => "t",
        HostKind::Variable => "v",
        HostKind::Tag => "g",
        HostKind::Attribute => "a",
        HostKind::Property => "p",
        HostKind::Heading => "h",
        HostKind::Inserted => "i",
        HostKind::Deleted => "d",
    }
}

/// The code's lines as HTML from the host's runs (ordered, disjoint, on character
/// boundaries: the SDK checks), one span per run of one kind within a line.
fn lines_from_runs(code: &str, runs: &[TokenRun]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut runs = runs.iter().peekable();
    let mut line_start = 0;
    for line in code.split('\n') {
        let line_end = line_start + line.len();
        let mut html = String::with_capacity(line.len() + 16);
        let mut run: (Option<&str>, String) = (None, String::new());
        let mut position = line_start;
        let mut segment =
            |from: usize, to: usize, class: Option<&'static str>, html: &mut String| {
                let Some(text) = code.get(from..to).filter(|t| !t.is_empty()) else {
                    return;
                };
                // Whitespace takes the class of the run it sits in: fewer spans.
                if class != run.0 && !text.trim().is_empty() {
                    flush(html, &mut run);
                    run.0 = class;
                }
                run.1.push_str(text);
            };
        while let Some(next) = runs.peek() {
            let (start, end) = (next.start as usize, next.end as usize);
            if start >= line_end {
                break;
            }
            let from = start.max(line_start);
            segment(position, from.max(position), None, &mut html);
            let to = end.min(line_end);
            segment(
                from.max(position),
                to,
                Some(class_of_host_kind(next.kind)),
                &mut html,
            );
            position = position.max(to);
            if end > line_end {
                break; // the run goes on into the next line
            }
            runs.next();
        }
        segment(position, line_end, None, &mut html);
        flush(&mut html, &mut run);
        lines.push(html);
        line_start = line_end + 1;
    }
    lines
}

/// The code's lines as HTML (escaped, with one span per run of one kind) by this renderer's
/// own grammars, or `None` when the grammar fails on it (the caller shows it plain).
pub fn highlight_lines((set, syntax): Grammar, code: &str) -> Option<Vec<String>> {
    let highlighter = classifier();
    let mut parse = ParseState::new(syntax);
    let mut state = HighlightState::new(highlighter, ScopeStack::new());
    let mut lines = Vec::new();
    let mut run: (Option<&str>, String) = (None, String::new());
    for line in LinesWithEndings::from(code) {
        let ops = parse.parse_line(line, set).ok()?;
        let mut html = String::with_capacity(line.len() + 16);
        for (style, text) in HighlightIterator::new(&mut state, &ops, line, highlighter) {
            let text = text.strip_suffix('\n').unwrap_or(text);
            let class = class_of(style);
            // Whitespace takes the class of the run it sits in: fewer spans.
            if class != run.0 && !text.trim().is_empty() {
                flush(&mut html, &mut run);
                run.0 = class;
            }
            run.1.push_str(text);
        }
        flush(&mut html, &mut run);
        run.0 = None;
        lines.push(html);
    }
    Some(lines)
}

/// Writes the pending run and empties it (its buffer is reused for the next run).
fn flush(html: &mut String, (class, text): &mut (Option<&str>, String)) {
    if text.is_empty() {
        return;
    }
    match class {
        Some(class) => {
            html.push_str("<span class=\"");
            html.push_str(class);
            html.push_str("\">");
            escape::push_html(html, text);
            html.push_str("</span>");
        }
        None => escape::push_html(html, text),
    }
    text.clear();
}

/// The stylesheet for the token classes: GitHub's colours in light mode, One Half Dark's
/// in dark mode (and for `styling.codeblocks: "dark"`).
pub fn stylesheet() -> String {
    use two_face::theme::EmbeddedThemeName;
    let themes = two_face::theme::extra();
    let mut out = String::from("/* Syntax highlighting: token classes and their colours. */\n");
    out.push_str(&theme_css(
        themes.get(EmbeddedThemeName::Github),
        ":root:not(.dark):not(.code-dark)",
    ));
    let dark = themes.get(EmbeddedThemeName::OneHalfDark);
    out.push_str(&theme_css(dark, ":root.dark"));
    out.push_str(&theme_css(dark, ":root.code-dark"));
    out
}

/// One rule per token class whose colour or style differs from the theme's plain text.
fn theme_css(theme: &Theme, scope: &str) -> String {
    let highlighter = Highlighter::new(theme);
    let plain = highlighter.get_default();
    let mut css = String::new();
    if let Some(fg) = theme.settings.foreground {
        css.push_str(&format!("{scope} pre code {{ color: {}; }}\n", hex(fg)));
    }
    for kind in KINDS {
        let stack: Vec<Scope> = kind
            .sample
            .split(' ')
            .filter_map(|s| Scope::new(s).ok())
            .collect();
        let style = highlighter.style_for_stack(&stack);
        let mut body = Vec::new();
        if style.foreground != plain.foreground {
            body.push(format!("color: {}", hex(style.foreground)));
        }
        if style.font_style.contains(FontStyle::ITALIC) {
            body.push("font-style: italic".to_string());
        }
        if style.font_style.contains(FontStyle::BOLD) {
            body.push("font-weight: 600".to_string());
        }
        if !body.is_empty() {
            css.push_str(&format!(
                "{scope} pre code .{} {{ {}; }}\n",
                kind.class,
                body.join("; ")
            ));
        }
    }
    css
}

fn hex(color: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", color.r, color.g, color.b)
}

/// The (class, text) runs of `code`'s highlighted HTML, texts trimmed: for tests that check how
/// a grammar classifies something.
#[cfg(test)]
pub fn classes_in(lang: &str, code: &str) -> Vec<(String, String)> {
    let html = lines(lang, code.strip_suffix('\n').unwrap_or(code))
        .expect("highlighted")
        .join("\n");
    html.split("<span class=\"")
        .skip(1)
        .filter_map(|run| {
            let (class, rest) = run.split_once("\">")?;
            let text = rest.split("</span>").next()?;
            let text = text
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&");
            Some((class.to_string(), text.trim().to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
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
}
