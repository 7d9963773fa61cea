//! JSX style objects (`style={{ marginLeft: 8 }}`) as CSS declarations, keeping only literal
//! values that cannot leave their declaration.

/// CSS properties whose bare numbers are not pixels.
const UNITLESS: &[&str] = &[
    "opacity",
    "z-index",
    "font-weight",
    "line-height",
    "flex",
    "flex-grow",
    "flex-shrink",
    "order",
    "zoom",
    "aspect-ratio",
];

/// A JSX style object (`style={{ marginLeft: '8px', maxWidth: 600 }}`) as CSS
/// (`margin-left:8px;max-width:600px`). Only literal strings and numbers are taken; a value that
/// could leave its declaration (`;`, braces, `url(`, `expression(`) drops that property.
pub(crate) fn style_object(value: &Option<markdown::mdast::AttributeValue>) -> Option<String> {
    let Some(markdown::mdast::AttributeValue::Expression(expression)) = value else {
        return None;
    };
    let inner = expression.value.trim();
    let inner = inner.strip_prefix('{')?.strip_suffix('}')?;
    let mut css = Vec::new();
    for declaration in split_top_level(inner) {
        let Some((key, value)) = declaration.split_once(':') else {
            continue;
        };
        let key = key.trim().trim_matches(['"', '\'']);
        let property = crate::raw_html::vocabulary::hyphenated(key);
        let value = value.trim();
        let value = if let Some(text) = value
            .strip_prefix(['"', '\''])
            .and_then(|v| v.strip_suffix(['"', '\'']))
        {
            text.to_string()
        } else if value.parse::<f64>().is_ok() {
            if UNITLESS.contains(&property.as_str()) || value == "0" {
                value.to_string()
            } else {
                format!("{value}px")
            }
        } else {
            continue; // a variable or a computation: nothing to evaluate it with
        };
        let lower = value.to_ascii_lowercase();
        let unsafe_value = value.contains([';', '{', '}', '<', '>', '\\'])
            || lower.contains("url(")
            || lower.contains("expression(");
        if property.is_empty()
            || unsafe_value
            || !property.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        {
            continue;
        }
        css.push(format!("{property}:{value}"));
    }
    (!css.is_empty()).then(|| css.join(";"))
}

/// The comma-separated parts of an object literal's body, ignoring commas inside strings and
/// brackets (`fontFamily: "a, b"`, `transform: 'translate(1px, 2px)'`).
fn split_top_level(body: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    for (i, c) in body.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use markdown::mdast::{AttributeValue, AttributeValueExpression};

    fn css(source: &str) -> Option<String> {
        style_object(&Some(AttributeValue::Expression(
            AttributeValueExpression {
                value: source.into(),
                stops: vec![],
            },
        )))
    }

    #[test]
    fn style_objects_become_css() {
        assert_eq!(
            css("{marginLeft: '8px'}").as_deref(),
            Some("margin-left:8px")
        );
        assert_eq!(
            css("{ maxWidth: 600, opacity: 0.5, fontFamily: \"A, B\" }").as_deref(),
            Some("max-width:600px;opacity:0.5;font-family:A, B")
        );
        assert_eq!(
            css("{WebkitMask: 'none'}").as_deref(),
            Some("-webkit-mask:none")
        );
    }

    #[test]
    fn styles_that_could_escape_are_dropped() {
        assert_eq!(css("{color: 'red;} body{display:none'}"), None);
        assert_eq!(css("{background: 'url(javascript:x)'}"), None);
        assert_eq!(css("{width: someVariable}"), None);
        assert_eq!(css("not an object"), None);
    }
}
