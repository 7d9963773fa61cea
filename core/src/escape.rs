//! The one HTML escaping rule: `&`, `<`, `>`, `"` and `'` are replaced, so the result is safe
//! between tags and inside a quoted attribute value alike, and page titles, labels and URLs can
//! never inject markup. Every crate escapes through here.

/// Appends `text` to `out`, escaped.
pub fn push_html(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// `text` escaped, safe between tags.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_html(&mut out, text);
    out
}

/// `text` escaped, safe inside a quoted attribute value: the same rule as [`html`], named for
/// where it is used.
pub fn attribute(text: &str) -> String {
    html(text)
}

/// JSON text safe inside an inline `<script>`: `<` is escaped so `</script>` cannot end it, and
/// the two line separators JavaScript once refused in string literals are escaped too.
pub fn script_json(json: &str) -> String {
    // Copied a run at a time between the characters to escape: a large site's navigation
    // script is megabytes of JSON with none of them.
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    while let Some((at, special)) = rest
        .char_indices()
        .find(|&(_, c)| matches!(c, '<' | '\u{2028}' | '\u{2029}'))
    {
        out.push_str(&rest[..at]);
        out.push_str(match special {
            '<' => "\\u003c",
            '\u{2028}' => "\\u2028",
            _ => "\\u2029",
        });
        rest = &rest[at + special.len_utf8()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_quotes_are_neutralised() {
        assert_eq!(
            html(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(attribute("a\"b"), "a&quot;b");
        assert_eq!(html("plain é text"), "plain é text");
    }

    #[test]
    fn script_json_cannot_close_the_script() {
        assert_eq!(
            script_json(r#"{"a":"</script>"}"#),
            r#"{"a":"\u003c/script>"}"#
        );
        assert_eq!(script_json("\u{2028}"), "\\u2028");
    }

    proptest::proptest! {
        #[test]
        fn script_json_escapes_exactly_the_three_characters(text in "(.|<|\u{2028}|\u{2029})*") {
            let expected: String = text
                .chars()
                .map(|c| match c {
                    '<' => "\\u003c".to_string(),
                    '\u{2028}' => "\\u2028".to_string(),
                    '\u{2029}' => "\\u2029".to_string(),
                    other => other.to_string(),
                })
                .collect();
            proptest::prop_assert_eq!(script_json(&text), expected);
        }

        #[test]
        fn escaped_text_holds_no_markup_character(text in ".*") {
            let out = html(&text);
            proptest::prop_assert!(!out.contains(['<', '>', '"', '\'']));
        }
    }
}
