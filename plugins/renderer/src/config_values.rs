//! Reading values from the navigation file (docs.json) safely: strings trimmed and non-empty,
//! colours that cannot break out of their place in CSS. Shared by the settings' readers.

use serde_json::Value;

/// The trimmed, non-empty string at `pointer` in the navigation file, if any.
pub fn text_at(config: &Value, pointer: &str) -> Option<String> {
    config
        .pointer(pointer)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
}

/// `#rgb`, `#rrggbb` or `#rrggbbaa`: a colour that cannot leave its place in the CSS.
pub fn is_hex_color(c: &str) -> bool {
    let hex = c.strip_prefix('#').unwrap_or("");
    matches!(hex.len(), 3 | 6 | 8) && hex.chars().all(|ch| ch.is_ascii_hexdigit())
}
