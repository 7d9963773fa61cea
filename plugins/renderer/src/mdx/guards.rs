//! The rewrites that keep the parser from panicking, each recorded as an edit so that `restore`
//! can undo it in raw text. They apply to every line but frontmatter: no guess about where code
//! is can go wrong, and where a rewrite lands in code, the parser's own positions lead
//! `restore` to it.
//!
//! - An attribute value ending in an unterminated character reference (`title="A&B"`) is read
//!   one byte past its end. Every `&` whose reference characters run up to a quote is written
//!   `&amp;`, which the parser decodes back to `&` in attribute values and in text alike.
//! - A setext heading followed at once by a line of only `=`, or of two `-`, that starts a
//!   paragraph which is itself underlined (`a\n-\n--\nb\n-`). Such a line gets a leading
//!   backslash (the same text), and a run of three or more `-` there (a thematic break) is
//!   written `***` (the same break).
//! - The same after a link reference definition on its own line (`[//]: # (comment)` followed
//!   by `-`, then an underlined paragraph): `-` is written `*` (the same empty list item).
//! - A first line of `---` that no later `---` closes, with the page ending in certain blocks
//!   and no final newline (`---\n    a\n- b`): the parser's frontmatter attempt panics. An
//!   unclosed opener is a thematic break, so it is written `***`, the same break.
//! - A setext heading whose text leaves a JSX tag open: `setext_probe` gives the text with
//!   those underlines blanked, to parse first; its syntax error is then the page's, as for the
//!   same text in an ATX heading, and the original is never parsed.
//!
//! No rewrite adds or removes a line, so line numbers in warnings stay right.

/// One rewrite: at byte `at` of the guarded text, `inserted` stands for `original`.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub at: usize,
    pub inserted: String,
    pub original: String,
}

/// A page's source after the rewrites, with the edits made.
#[derive(Debug, Clone, PartialEq)]
pub struct Guarded {
    pub text: String,
    pub edits: Vec<Edit>,
}

/// `source` rewritten; `references` turns on the attribute-reference rewrite (MDX only: in
/// plain Markdown, attributes are HTML the parser does not decode).
pub fn guard(source: &str, references: bool) -> Guarded {
    let lines: Vec<&str> = source.split('\n').collect();
    let body = frontmatter_lines(&lines);
    let mut text = String::with_capacity(source.len() + 16);
    let mut edits = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        if n > 0 {
            text.push('\n');
        }
        if n < body {
            text.push_str(line);
            continue;
        }
        if n == 0 && line.trim_end() == "---" {
            edits.push(Edit {
                at: 0,
                inserted: "***".into(),
                original: "---".into(),
            });
            text.push_str("***");
            text.push_str(&line[3..]);
            continue;
        }
        let after_setext = n >= body + 2 && follows_setext_underline(&lines, n);
        let after_definition = n > body && follows_definition(&lines, n, body);
        if (after_setext || after_definition)
            && let Some((run, prefix)) = underline(line)
        {
            let replacement = match (run.as_bytes()[0], run.len()) {
                // After a heading, an empty list item, which the parser takes well; after a
                // definition, the same item with another bullet.
                (b'-', 1) if after_setext => None,
                (b'-', 1) => Some(("*".to_string(), run.to_string())),
                (b'-', n) if n >= 3 => Some(("*".repeat(n), run.to_string())),
                _ => Some((format!("\\{run}"), run.to_string())),
            };
            if let Some((inserted, original)) = replacement {
                text.push_str(&line[..prefix]);
                edits.push(Edit {
                    at: text.len(),
                    inserted: inserted.clone(),
                    original,
                });
                text.push_str(&inserted);
                text.push_str(&line[prefix + run.len()..]);
                continue;
            }
        }
        if !references || !line.contains('&') {
            text.push_str(line);
            continue;
        }
        let bytes = line.as_bytes();
        let mut copied = 0;
        for i in 0..bytes.len() {
            if bytes[i] == b'&' && reference_overruns(&bytes[i..]) {
                text.push_str(&line[copied..i]);
                edits.push(Edit {
                    at: text.len(),
                    inserted: "&amp;".into(),
                    original: "&".into(),
                });
                text.push_str("&amp;");
                copied = i + 1;
            }
        }
        text.push_str(&line[copied..]);
    }
    Guarded { text, edits }
}

/// How many leading lines are frontmatter: the parser takes a first line of `---` and
/// everything up to the next line of `---` as YAML, left as written.
fn frontmatter_lines(lines: &[&str]) -> usize {
    if lines.first().is_none_or(|l| l.trim_end() != "---") {
        return 0;
    }
    lines
        .iter()
        .skip(1)
        .position(|l| l.trim_end() == "---")
        .map_or(0, |p| p + 2)
}

/// Whether line `n` comes right after a setext underline: a run line below a text line.
fn follows_setext_underline(lines: &[&str], n: usize) -> bool {
    underline(lines[n - 1]).is_some() && !lines[n - 2].trim().is_empty()
}

/// Whether line `n` comes right after a link reference definition on a line of its own
/// (`[//]: # (a comment)`), which the parser takes for a heading's text when a run line
/// follows. In CommonMark nothing underlines a definition: `===` there is text, `---` a
/// thematic break and `-` an empty list item, which the rewrites keep.
fn follows_definition(lines: &[&str], n: usize, body: usize) -> bool {
    let is_definition = |line: &str| {
        let line = line.trim_start();
        line.starts_with('[')
            && line
                .find("]:")
                .is_some_and(|end| end > 1 && !line[end + 2..].trim().is_empty())
    };
    is_definition(lines[n - 1])
        && (n - 1 == body || lines[n - 2].trim().is_empty() || is_definition(lines[n - 2]))
}

/// The underline a line would be (only `=` or only `-`, container markers and spaces around
/// it left out), with the length of what precedes it.
fn underline(line: &str) -> Option<(&str, usize)> {
    let content = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
    let run = content.trim_end();
    let is_run =
        !run.is_empty() && (run.bytes().all(|b| b == b'=') || run.bytes().all(|b| b == b'-'));
    is_run.then_some((run, line.len() - content.len()))
}

/// `text` with every setext underline under a paragraph holding a `<` blanked out (its
/// container markers kept), or `None` when there is no such underline.
pub fn setext_probe(text: &str) -> Option<String> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let body = frontmatter_lines(&lines);
    // Whether the paragraph ending on line `i` (back to a blank line) has a `<`.
    let paragraph_has_tag = |i: usize| {
        lines[body..=i]
            .iter()
            .rev()
            .take_while(|line| !line.trim().is_empty())
            .any(|line| line.contains('<'))
    };
    let blanked: Vec<(usize, usize)> = (body + 1..lines.len())
        .filter(|&i| paragraph_has_tag(i - 1))
        .filter_map(|i| underline(lines[i]).map(|(_, prefix)| (i, prefix)))
        .collect();
    if blanked.is_empty() {
        return None;
    }
    for (i, prefix) in blanked {
        lines[i] = &lines[i][..prefix];
    }
    Some(lines.join("\n"))
}

/// Whether `rest` (starting at `&`) holds a character reference whose characters run up to a
/// quote (`&B"`, `&#12'`, `&#x1F"`): at the end of an attribute value, the parser reads past
/// the value's end there. A terminated one (`&amp;`) or a bare `&` is read well.
fn reference_overruns(rest: &[u8]) -> bool {
    let (skip, test, max): (usize, fn(&u8) -> bool, usize) = match rest.get(1) {
        Some(b'#') if matches!(rest.get(2), Some(b'x' | b'X')) => (3, u8::is_ascii_hexdigit, 6),
        Some(b'#') => (2, u8::is_ascii_digit, 7),
        _ => (1, u8::is_ascii_alphanumeric, 31),
    };
    let run = rest
        .iter()
        .skip(skip)
        .take(max)
        .take_while(|b| test(b))
        .count();
    run > 0 && matches!(rest.get(skip + run), Some(b'"' | b'\''))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_before_a_quote_are_escaped_outside_frontmatter() {
        let g = guard(
            "---\ntitle: \"R&D\"\n---\n<Card title=\"A&B\" x='&#1'>R&D</Card>\n",
            true,
        );
        assert_eq!(
            g.text,
            "---\ntitle: \"R&D\"\n---\n<Card title=\"A&amp;B\" x='&amp;#1'>R&D</Card>\n"
        );
        assert_eq!(g.edits.len(), 2);
        assert_eq!(&g.text[g.edits[0].at..g.edits[0].at + 5], "&amp;");
        assert_eq!(guard("<Card title=\"A&B\">", false).edits, vec![]);
    }

    #[test]
    fn underline_runs_are_rewritten_in_place() {
        let g = guard("t\n-\n--\nt\n-\n\na\n---\n----\n", false);
        assert_eq!(g.text, "t\n-\n\\--\nt\n-\n\na\n---\n****\n");
        assert_eq!(g.edits.len(), 2);
        assert_eq!(g.edits[1].original, "----");
    }

    #[test]
    fn run_lines_after_a_definition_keep_their_meaning() {
        let g = guard(
            "[//]: # (comment)\n-\ns\n-\n\n[a]: /b\n---\n\n[c]: /d\n==\n",
            false,
        );
        assert_eq!(
            g.text,
            "[//]: # (comment)\n*\ns\n-\n\n[a]: /b\n***\n\n[c]: /d\n\\==\n"
        );
        let heading = "text [a]: /b\n-\n";
        assert_eq!(
            guard(heading, false).text,
            heading,
            "a real heading is left alone"
        );
    }

    #[test]
    fn an_unclosed_frontmatter_opener_is_a_thematic_break() {
        assert_eq!(guard("---\n    a\n- b", false).text, "***\n    a\n- b");
        assert_eq!(guard("---\na: 1\n---\nx", false).text, "---\na: 1\n---\nx");
    }

    #[test]
    fn references_are_recognised() {
        assert!(reference_overruns(b"&B\""));
        assert!(reference_overruns(b"&#12'"));
        assert!(reference_overruns(b"&#x1F\" />"));
        assert!(!reference_overruns(b"&amp;\""));
        assert!(!reference_overruns(b"&B C\""));
        assert!(!reference_overruns(b"&#\""));
        assert!(!reference_overruns(b"&\""));
        assert!(!reference_overruns(b"&B"));
    }

    #[test]
    fn the_probe_blanks_underlines_below_tags_only() {
        assert_eq!(setext_probe("a\n---\n").as_deref(), None);
        assert_eq!(
            setext_probe("Hi <>\nmore\n> ---\n").as_deref(),
            Some("Hi <>\nmore\n> \n")
        );
        assert_eq!(setext_probe("---\nx: <a>\n---\n"), None);
    }
}
