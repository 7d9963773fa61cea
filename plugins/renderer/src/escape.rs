//! HTML escaping for text and attribute values.

use std::fmt::Write;

/// Appends `text` to `out` with `&`, `<`, `>`, `"` and `'` escaped, safe in text and in quoted
/// attribute values alike.
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}

/// `text` escaped, as a new string.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

/// Text safe inside an inline `<script>` JSON literal: `<` is escaped so `</script>` cannot end it.
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => {
                let _ = out.write_char(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escaped(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn script_json_cannot_close_the_script() {
        assert_eq!(
            script_json(r#"{"a":"</script>"}"#),
            r#"{"a":"\u003c/script>"}"#
        );
    }
}
