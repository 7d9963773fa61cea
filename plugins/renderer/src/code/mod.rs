//! Code blocks: syntax highlighting at build time (`highlight.rs`: one-letter classes, so light
//! and dark themes are just stylesheets), the options of the fence's meta string and notation comments
//! (`meta.rs`), and Mermaid diagrams kept as code for a script to draw.

mod highlight;
mod meta;

pub use highlight::stylesheet;
pub use meta::{FenceMeta, LineMark};

use std::collections::HashSet;

use quire_sdk::escape;

/// Longest code block that is highlighted; longer ones are shown plain (highlighting is the
/// slowest part of rendering, and a generated dump gains nothing from colours).
const MAX_HIGHLIGHTED_BYTES: usize = 64 * 1024;

/// `code` highlighted as `lang` (a fence's language name) with this renderer's token classes,
/// lines joined by newlines, or `None` for a language it has no grammar for. For benchmarks
/// and tools; pages use [`block`].
pub fn highlight_code(lang: &str, code: &str) -> Option<String> {
    highlight::lines(lang, code.strip_suffix('\n').unwrap_or(code)).map(|lines| lines.join("\n"))
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
    let highlighted = lang
        .filter(|_| code.len() <= MAX_HIGHLIGHTED_BYTES)
        .and_then(|lang| highlight::lines(lang, code));
    let lines = highlighted.unwrap_or_else(|| code.split('\n').map(escape::html).collect());
    let mut out = String::with_capacity(code.len() * 2 + 32 * lines.len());
    for (i, line) in lines.iter().enumerate() {
        out.push_str("<span class=\"");
        out.push_str(&marks.classes(i + 1));
        out.push_str("\">");
        out.push_str(line);
        out.push_str("</span>\n");
    }
    out
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
        escape::push_html(&mut html, title);
        html.push_str("</div>");
    }
    match lang {
        Some(lang) => html.push_str(&format!(
            "<pre><code class=\"language-{}\">",
            escape::html(lang)
        )),
        None => html.push_str("<pre><code>"),
    }
    html.push_str(&highlight_marked(lang, &code, &marks));
    html.push_str("</code></pre></div>\n");
    html
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
        assert!(html.contains("<span class=\"c\">/* a</span>"), "{html}");
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
        assert!(css.contains(":root.dark pre code .k {"), "{css}");
        assert!(css.contains(":root:not(.dark):not(.code-dark) pre code .k {"));
        assert!(
            css.contains(":root.code-dark pre code .k {"),
            "styling.codeblocks: dark"
        );
    }
}
