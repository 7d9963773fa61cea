//! Code blocks: syntax highlighting at build time (syntect, with CSS classes so light and dark
//! themes are just stylesheets), the options of the fence's meta string and notation comments
//! (`meta.rs`), and Mermaid diagrams kept as code for a script to draw.

mod meta;

pub use meta::{FenceMeta, LineMark};

use std::collections::HashSet;
use std::sync::OnceLock;

use syntect::highlighting::ThemeSet;
use syntect::html::{ClassStyle, ClassedHTMLGenerator, css_for_theme_with_class_style};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

use crate::escape::{escaped, push_escaped};

/// Class prefix of highlighted tokens, so they cannot clash with the theme's own classes.
const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

/// Longest code block that is highlighted; longer ones are shown plain (highlighting is the
/// slowest part of rendering, and a generated dump gains nothing from colours).
const MAX_HIGHLIGHTED_BYTES: usize = 64 * 1024;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// The syntax for a fence's language name, or `None` for plain text.
fn syntax_for(lang: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    let lang = lang.to_ascii_lowercase();
    let token = match lang.as_str() {
        "ts" | "typescript" | "tsx" | "jsx" | "mjs" | "cjs" | "javascript" => "js",
        "shell" | "sh" | "zsh" | "console" | "terminal" => "bash",
        "yml" => "yaml",
        "golang" => "go",
        "py" => "python",
        "rs" => "rust",
        "text" | "txt" | "plain" | "plaintext" => return None,
        other => other,
    };
    set.find_syntax_by_token(token)
}

/// How each line of a block is marked, by 1-based line.
#[derive(Debug, Default)]
pub struct LineMarks {
    pub highlighted: HashSet<usize>,
    pub focused: HashSet<usize>,
    pub added: HashSet<usize>,
    pub removed: HashSet<usize>,
}

impl LineMarks {
    fn classes(&self, line: usize) -> String {
        let mut class = String::from("line");
        for (set, name) in [
            (&self.highlighted, " highlighted"),
            (&self.focused, " focused"),
            (&self.added, " diff-add"),
            (&self.removed, " diff-remove"),
        ] {
            if set.contains(&line) {
                class.push_str(name);
            }
        }
        class
    }
}

/// The code as HTML: one `<span class="line">` per line, highlighted where the language is
/// known, each line with the classes of its marks.
fn highlight_marked(lang: Option<&str>, code: &str, marks: &LineMarks) -> String {
    let code = code.strip_suffix('\n').unwrap_or(code);
    let html = match lang.and_then(syntax_for) {
        Some(syntax) if code.len() <= MAX_HIGHLIGHTED_BYTES => {
            let mut generator =
                ClassedHTMLGenerator::new_with_class_style(syntax, syntaxes(), CLASS_STYLE);
            let mut ok = true;
            for line in LinesWithEndings::from(code) {
                if generator
                    .parse_html_for_line_which_includes_newline(line)
                    .is_err()
                {
                    ok = false;
                    break;
                }
            }
            if ok {
                generator.finalize()
            } else {
                escaped(code)
            }
        }
        _ => escaped(code),
    };
    let mut out = String::with_capacity(html.len() + 32 * (marks.highlighted.len() + 1));
    for (i, line) in balanced_lines(&html).into_iter().enumerate() {
        out.push_str("<span class=\"");
        out.push_str(&marks.classes(i + 1));
        out.push_str("\">");
        out.push_str(&line);
        out.push_str("</span>\n");
    }
    out
}

/// Splits highlighted HTML into lines that each open and close their own spans, so a line can
/// be wrapped (a token such as a block comment may span lines).
fn balanced_lines(html: &str) -> Vec<String> {
    let mut open: Vec<&str> = Vec::new();
    let mut lines = Vec::new();
    let body = html.strip_suffix('\n').unwrap_or(html);
    for line in body.split('\n') {
        let mut out: String = open.concat();
        out.push_str(line);
        let mut rest = line;
        while let Some(i) = rest.find('<') {
            rest = &rest[i..];
            if let Some(stripped) = rest.strip_prefix("</span>") {
                open.pop();
                rest = stripped;
            } else if let Some(end) = rest.find('>') {
                open.push(&rest[..=end]);
                rest = &rest[end + 1..];
            } else {
                break;
            }
        }
        out.push_str(&"</span>".repeat(open.len()));
        lines.push(out);
    }
    lines
}

/// The block's HTML: a titled frame with the highlighted code. Mermaid diagrams are kept as
/// code (readable without JavaScript) and marked for the theme's script to draw.
pub fn block(lang: Option<&str>, meta: Option<&str>, code: &str) -> String {
    block_with_icons(lang, meta, code, &|_| None)
}

/// `block`, with `icon` drawing the meta string's `icon="..."` (the site's icon library).
pub fn block_with_icons(
    lang: Option<&str>,
    meta: Option<&str>,
    code: &str,
    icon: &dyn Fn(&str) -> Option<String>,
) -> String {
    let meta = FenceMeta::parse(meta);
    let (code, notes) = meta::notation(code);
    let mut marks = LineMarks {
        highlighted: meta.highlighted.clone(),
        focused: meta.focused.clone(),
        ..LineMarks::default()
    };
    for (line, mark) in notes {
        match mark {
            LineMark::Added => marks.added.insert(line),
            LineMark::Removed => marks.removed.insert(line),
            LineMark::Highlighted => marks.highlighted.insert(line),
            LineMark::Focused => marks.focused.insert(line),
        };
    }
    let mut html = String::with_capacity(code.len() * 2 + 128);
    let diagram = lang == Some("mermaid");
    let mut class = String::from(if diagram {
        "code-block mermaid-block"
    } else {
        "code-block"
    });
    for (on, name) in [
        (meta.line_numbers, " numbered"),
        (meta.wrap, " wrap"),
        (meta.expandable, " expandable"),
        (!marks.focused.is_empty(), " has-focus"),
    ] {
        if on {
            class.push_str(name);
        }
    }
    html.push_str(&format!("<div class=\"{class}\""));
    if diagram {
        html.push_str(" data-diagram=\"mermaid\"");
    }
    html.push('>');
    if let Some(title) = meta.title.as_deref().or(lang) {
        html.push_str("<div class=\"code-title\">");
        if let Some(svg) = meta.icon.as_deref().and_then(icon) {
            html.push_str(&svg);
        }
        push_escaped(&mut html, title);
        html.push_str("</div>");
    }
    match lang {
        Some(lang) => html.push_str(&format!("<pre><code class=\"language-{}\">", escaped(lang))),
        None => html.push_str("<pre><code>"),
    }
    html.push_str(&highlight_marked(lang, &code, &marks));
    html.push_str("</code></pre></div>\n");
    html
}

/// The stylesheet for highlighted tokens: a light theme, and a dark one under `.dark` and the
/// reader's dark preference.
pub fn stylesheet() -> String {
    let themes = ThemeSet::load_defaults();
    let css = |name: &str| {
        themes
            .themes
            .get(name)
            .and_then(|t| css_for_theme_with_class_style(t, CLASS_STYLE).ok())
            .unwrap_or_default()
    };
    let light = css("InspiredGitHub");
    let dark = css("base16-ocean.dark");
    let mut out = String::from("/* Syntax highlighting, generated from syntect's themes. */\n");
    // `code-dark` (docs.json `styling.codeblocks: "dark"`) keeps code dark in light mode.
    out.push_str(&scoped(&light, &[":root:not(.dark):not(.code-dark)"]));
    out.push_str(&scoped(&dark, &[":root.dark", ":root.code-dark"]));
    out
}

/// Prefixes every selector of `css` with each of `scopes`.
fn scoped(css: &str, scopes: &[&str]) -> String {
    let mut out = String::with_capacity(css.len() * 2);
    for rule in css.split('}') {
        let Some((selectors, body)) = rule.split_once('{') else {
            continue;
        };
        let selectors: Vec<String> = selectors
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty() && !s.starts_with("/*"))
            .flat_map(|s| scopes.iter().map(move |scope| format!("{scope} {s}")))
            .collect();
        if selectors.is_empty() {
            continue;
        }
        // Background colours stay the theme's own (code blocks have their own surface).
        let body: Vec<&str> = body
            .split(';')
            .map(str::trim)
            .filter(|d| !d.is_empty() && !d.starts_with("background"))
            .collect();
        if body.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "{} {{ {}; }}\n",
            selectors.join(", "),
            body.join("; ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_options_and_notation_shape_the_block() {
        let html = block_with_icons(
            Some("python"),
            Some("app.py lines wrap expandable icon=\"python\" focus={2}"),
            "a = 1  # [!code --]\nb = 2  # [!code ++]\n",
            &|name| Some(format!("<svg data-icon=\"{name}\"></svg>")),
        );
        assert!(
            html.starts_with("<div class=\"code-block numbered wrap expandable has-focus\">"),
            "{html}"
        );
        assert!(html.contains("<svg data-icon=\"python\"></svg>app.py</div>"));
        assert!(html.contains("<span class=\"line diff-remove\">"));
        assert!(html.contains("<span class=\"line focused diff-add\">"));
        assert!(!html.contains("[!code"), "{html}");
    }

    #[test]
    fn known_languages_are_highlighted_line_by_line() {
        let marks = LineMarks {
            highlighted: HashSet::from([3]),
            ..LineMarks::default()
        };
        let html = highlight_marked(Some("rust"), "/* a\nb */\nfn main() {}\n", &marks);
        assert_eq!(html.matches("<span class=\"line").count(), 3);
        assert!(html.contains("hl-comment"), "{html}");
        assert!(html.contains("<span class=\"line highlighted\">"));
        // Every line balances its spans.
        for line in html.lines() {
            assert_eq!(
                line.matches("<span").count(),
                line.matches("</span>").count(),
                "{line}"
            );
        }
    }

    #[test]
    fn unknown_languages_and_markup_are_escaped() {
        let html = block(Some("nolang"), None, "<script>x</script>");
        assert!(html.contains("&lt;script&gt;"));
        assert!(block(Some("mermaid"), None, "graph TD; A-->B").contains("data-diagram"));
    }

    #[test]
    fn the_stylesheet_covers_both_modes() {
        let css = stylesheet();
        assert!(
            css.contains(":root.dark .hl-"),
            "{}",
            &css[..200.min(css.len())]
        );
        assert!(css.contains(":root:not(.dark):not(.code-dark) .hl-"));
        assert!(
            css.contains(":root.code-dark .hl-"),
            "styling.codeblocks: dark"
        );
    }
}
