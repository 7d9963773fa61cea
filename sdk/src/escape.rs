//! Escaping text for HTML, so page titles and labels can never inject markup.

/// `text` safe between tags.
pub fn html(text: &str) -> String {
    html_escape::encode_text(text).into_owned()
}

/// `text` safe inside a double-quoted attribute value.
pub fn attribute(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}

/// JSON text safe inside an inline `<script>`: `</script>` cannot end it early.
pub fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_is_neutralised() {
        assert_eq!(super::html("<b>&</b>"), "&lt;b&gt;&amp;&lt;/b&gt;");
        assert_eq!(super::attribute("a\"b"), "a&quot;b");
        assert_eq!(
            super::script_json(r#"{"a":"</script>"}"#),
            r#"{"a":"\u003c/script>"}"#
        );
    }
}
