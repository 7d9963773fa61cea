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
use syntect::parsing::{ParseState, Scope, ScopeStack};
use syntect::util::LinesWithEndings;

use quire_sdk::escape;
use quire_sdk::highlighting::{TokenKind as HostKind, TokenRun};

mod grammars;

use grammars::PLAIN;
pub use grammars::{Grammar, syntax_for};

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
mod tests;
