//! How the site banner looks (docs.json `banner`): its `type` (`info`, `warning`, `critical`)
//! sets its colours, and `color` (one, or one per mode) its background.

use quire_sdk::config::{Banner, ModeColor};

use super::values::{is_hex_color, trimmed};

/// How the banner looks: docs.json `banner.type` and `banner.color`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Look {
    /// `warning` or `critical`; `None` for the default, `info`.
    pub kind: Option<&'static str>,
    /// The background in light mode and in dark mode.
    pub color: Option<(String, String)>,
}

impl Look {
    /// Reads `banner` of the site's settings (or of a language entry).
    pub fn from_config(banner: Option<&Banner>) -> Self {
        let Some(banner) = banner else {
            return Self::default();
        };
        let kind = match banner.kind.as_deref() {
            Some("warning") => Some("warning"),
            Some("critical") => Some("critical"),
            _ => None,
        };
        let colour = |c: &Option<String>| trimmed(c).filter(|c| is_hex_color(c));
        let color = match &banner.color {
            Some(ModeColor::One(one)) => colour(&Some(one.clone())).map(|c| (c.clone(), c)),
            Some(ModeColor::Modes(modes)) => match (colour(&modes.light), colour(&modes.dark)) {
                (Some(light), Some(dark)) => Some((light, dark)),
                (Some(one), None) | (None, Some(one)) => Some((one.clone(), one)),
                (None, None) => None,
            },
            None => None,
        };
        Self { kind, color }
    }
}
