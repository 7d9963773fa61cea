//! Using values of the navigation file (docs.json) safely: strings trimmed and non-empty,
//! colours that cannot break out of their place in CSS. Shared by the settings' readers.

/// A text setting, trimmed, if it is not blank (the model's rule, as an owned string).
pub fn trimmed(text: &Option<String>) -> Option<String> {
    quire_sdk::config::trimmed(text).map(String::from)
}

/// `#rgb`, `#rrggbb` or `#rrggbbaa`: a colour that cannot leave its place in the CSS.
pub fn is_hex_color(c: &str) -> bool {
    let hex = c.strip_prefix('#').unwrap_or("");
    matches!(hex.len(), 3 | 6 | 8) && hex.chars().all(|ch| ch.is_ascii_hexdigit())
}
