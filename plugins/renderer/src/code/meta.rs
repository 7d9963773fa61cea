//! What a fence's meta string and its lines' notation comments ask of a code block, as
//! docs.json sites write them: ```` ```js app.js lines icon="node" {1,3-5} focus={2} wrap ````.
//! The title is the bare words (or a quoted string, or `title="..."`); `highlight={...}` or a
//! bare `{...}` marks lines, `focus={...}` dims the others; `lines` numbers them, `wrap` wraps
//! long ones, `expandable` folds a long block. Inside the code, Shiki's notation comments
//! (`// [!code ++]`, `# [!code --]`, `[!code highlight]`, `[!code focus]`) mark their line and
//! are removed. Options this renderer has no use for (`twoslash`, `theme={null}`) are ignored.

use std::collections::HashSet;

/// The options of one code block.
#[derive(Debug, Default, PartialEq)]
pub struct FenceMeta {
    pub title: Option<String>,
    pub icon: Option<String>,
    /// 1-based lines to highlight.
    pub highlighted: HashSet<usize>,
    /// 1-based lines in focus; when any are, the others are dimmed.
    pub focused: HashSet<usize>,
    pub line_numbers: bool,
    pub wrap: bool,
    pub expandable: bool,
}

/// How a notation comment marks its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineMark {
    Added,
    Removed,
    Highlighted,
    Focused,
}

impl FenceMeta {
    pub fn parse(meta: Option<&str>) -> Self {
        let mut out = Self::default();
        let Some(meta) = meta else { return out };
        let mut words = Vec::new();
        for token in tokens(meta) {
            match token {
                Token::Word(word) => match word {
                    "lines" | "showLineNumbers" => out.line_numbers = true,
                    "wrap" => out.wrap = true,
                    "expandable" => out.expandable = true,
                    "twoslash" => {}
                    _ => words.push(word.to_string()),
                },
                Token::Quoted(text) => words.push(text.to_string()),
                Token::Braces(ranges) => out.highlighted.extend(parse_ranges(ranges)),
                Token::Pair(key, value) => match key {
                    "title" => out.title = Some(value.to_string()),
                    "icon" => out.icon = Some(value.to_string()),
                    "highlight" => out.highlighted.extend(parse_ranges(value)),
                    "focus" => out.focused.extend(parse_ranges(value)),
                    "lines" => out.line_numbers = value != "false",
                    "wrap" => out.wrap = value != "false",
                    "expandable" => out.expandable = value != "false",
                    _ => {}
                },
            }
        }
        if out.title.is_none() && !words.is_empty() {
            out.title = Some(words.join(" "));
        }
        out
    }
}

enum Token<'a> {
    Word(&'a str),
    Quoted(&'a str),
    Braces(&'a str),
    /// `key=value`, the value unwrapped from its quotes or braces.
    Pair(&'a str, &'a str),
}

/// Splits a meta string into words, quoted strings, `{...}` and `key=value`, where values
/// may be quoted or braced and hold spaces.
fn tokens(meta: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = meta.trim_start();
    while !rest.is_empty() {
        let (token, after) = match rest.as_bytes()[0] {
            quote @ (b'"' | b'\'') => {
                let end = rest[1..].find(quote as char).map_or(rest.len(), |i| i + 1);
                (
                    Token::Quoted(&rest[1..end]),
                    rest.get(end + 1..).unwrap_or(""),
                )
            }
            b'{' => {
                let end = rest.find('}').unwrap_or(rest.len());
                (
                    Token::Braces(&rest[1..end]),
                    rest.get(end + 1..).unwrap_or(""),
                )
            }
            _ => {
                let word_end = rest
                    .find(|c: char| c.is_whitespace() || c == '=')
                    .unwrap_or(rest.len());
                let key = &rest[..word_end];
                match rest[word_end..].strip_prefix('=') {
                    Some(value) => {
                        let (value, after) = enclosed(value);
                        (Token::Pair(key, value), after)
                    }
                    None => (Token::Word(key), &rest[word_end..]),
                }
            }
        };
        out.push(token);
        rest = after.trim_start();
    }
    out
}

/// A value after `=`: quoted, braced, or up to the next space; and what follows it.
fn enclosed(value: &str) -> (&str, &str) {
    let close = match value.chars().next() {
        Some('"') => Some('"'),
        Some('\'') => Some('\''),
        Some('{') => Some('}'),
        _ => None,
    };
    match close {
        Some(close) => match value[1..].find(close) {
            Some(i) => (&value[1..=i], &value[i + 2..]),
            None => (&value[1..], ""),
        },
        None => {
            let end = value.find(char::is_whitespace).unwrap_or(value.len());
            (&value[..end], &value[end..])
        }
    }
}

/// `1,3-5` to {1, 3, 4, 5}; malformed parts are skipped, ranges are capped.
pub fn parse_ranges(ranges: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    for part in ranges.split(',') {
        let mut bounds = part
            .trim()
            .splitn(2, '-')
            .map(|n| n.trim().parse::<usize>());
        match (bounds.next(), bounds.next()) {
            (Some(Ok(a)), None) => lines.push(a),
            (Some(Ok(a)), Some(Ok(b))) if a <= b && b - a < 10_000 => lines.extend(a..=b),
            _ => {}
        }
    }
    lines
}

/// The code without its notation comments, and the marks they made, by 1-based line.
pub fn notation(code: &str) -> (String, Vec<(usize, LineMark)>) {
    if !code.contains("[!code") {
        return (code.to_string(), Vec::new());
    }
    let mut marks = Vec::new();
    let mut out = String::with_capacity(code.len());
    for (i, line) in code.split_inclusive('\n').enumerate() {
        let (text, newline) = match line.strip_suffix('\n') {
            Some(text) => (text, "\n"),
            None => (line, ""),
        };
        match strip_notation(text) {
            Some((kept, mark)) => {
                marks.push((i + 1, mark));
                out.push_str(kept);
            }
            None => out.push_str(text),
        }
        out.push_str(newline);
    }
    (out, marks)
}

/// `text` without a trailing `[!code ...]` comment, and its mark.
fn strip_notation(text: &str) -> Option<(&str, LineMark)> {
    let start = text.rfind("[!code ")?;
    let end = start + text[start..].find(']')?;
    let mark = match text[start + 7..end].split(':').next()?.trim() {
        "++" => LineMark::Added,
        "--" => LineMark::Removed,
        "highlight" | "hl" => LineMark::Highlighted,
        "focus" => LineMark::Focused,
        _ => return None,
    };
    if !text[end + 1..]
        .trim()
        .trim_end_matches("*/")
        .trim_end_matches("-->")
        .trim()
        .is_empty()
    {
        return None;
    }
    // The comment opener before the marker goes with it.
    let before = text[..start].trim_end();
    let kept = ["//", "#", "--", "/*", "<!--", ";", "%"]
        .iter()
        .find_map(|opener| before.strip_suffix(opener))
        .unwrap_or(before)
        .trim_end();
    Some((kept, mark))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_options_and_ranges() {
        let meta = FenceMeta::parse(Some("src/app.js {1,3-4} lines"));
        assert_eq!(meta.title.as_deref(), Some("src/app.js"));
        assert!(meta.line_numbers);
        assert_eq!(meta.highlighted, HashSet::from([1, 3, 4]));
        let meta = FenceMeta::parse(Some(
            "\"My file.ts\" icon=\"react\" highlight={2} focus={4-5} wrap expandable theme={null} twoslash",
        ));
        assert_eq!(meta.title.as_deref(), Some("My file.ts"));
        assert_eq!(meta.icon.as_deref(), Some("react"));
        assert_eq!(meta.highlighted, HashSet::from([2]));
        assert_eq!(meta.focused, HashSet::from([4, 5]));
        assert!(meta.wrap && meta.expandable && !meta.line_numbers);
        let meta = FenceMeta::parse(Some("title='Set up' icon=java lines=false"));
        assert_eq!(meta.title.as_deref(), Some("Set up"));
        assert_eq!(meta.icon.as_deref(), Some("java"));
        assert!(!meta.line_numbers);
        assert_eq!(FenceMeta::parse(Some("{9-1,x}")).highlighted.len(), 0);
        // Unclosed quotes and braces end the string, never panic.
        assert_eq!(
            FenceMeta::parse(Some("\"open")).title.as_deref(),
            Some("open")
        );
        assert!(FenceMeta::parse(Some("focus={1")).focused.contains(&1));
        assert!(FenceMeta::parse(Some("icon=")).icon.is_some());
    }

    #[test]
    fn notation_comments_mark_lines_and_go() {
        let code = "a = 1 # [!code --]\nb = 2 # [!code ++]\nc()  // [!code highlight]\nd /* [!code focus] */\ne [!code nonsense]\n";
        let (kept, marks) = notation(code);
        assert_eq!(kept, "a = 1\nb = 2\nc()\nd\ne [!code nonsense]\n");
        assert_eq!(
            marks,
            vec![
                (1, LineMark::Removed),
                (2, LineMark::Added),
                (3, LineMark::Highlighted),
                (4, LineMark::Focused)
            ]
        );
        assert_eq!(notation("plain\n").1, vec![]);
    }
}
