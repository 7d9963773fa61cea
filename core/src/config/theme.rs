//! How a site looks: colors, logo, favicon, light and dark mode, background, fonts, the icon
//! library and styling switches.

use serde::Deserialize;

/// `colors`: accents as `#rgb`/`#rrggbb` text (renderers check them before use).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Colors {
    /// The accent in light mode.
    pub primary: Option<String>,
    /// The accent in dark mode: a lighter shade that reads on dark backgrounds.
    pub light: Option<String>,
    /// Buttons and hover states.
    pub dark: Option<String>,
}

/// `logo`: one image, or one per mode with where it leads.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "a path, or {light, dark, href}")]
pub enum Logo {
    Path(String),
    Modes(LogoModes),
}

/// `logo` as `{light, dark, href}`. Other keys are let through: in one shape of several, a
/// stray key would otherwise cost the whole logo.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct LogoModes {
    pub light: Option<String>,
    pub dark: Option<String>,
    /// Where the logo leads, instead of the home page.
    pub href: Option<String>,
}

impl Logo {
    /// The images for light and dark mode, as paths from the site root (dark falls back to
    /// light).
    pub fn images(&self) -> (Option<String>, Option<String>) {
        let path = |p: &Option<String>| p.as_deref().map(|p| p.trim_start_matches('/').to_string());
        match self {
            Self::Path(p) => {
                let one = p.trim_start_matches('/').to_string();
                (Some(one.clone()), Some(one))
            }
            Self::Modes(modes) => {
                let light = path(&modes.light);
                (light.clone(), path(&modes.dark).or(light))
            }
        }
    }

    /// `logo.href`, trimmed and not blank.
    pub fn href(&self) -> Option<&str> {
        match self {
            Self::Path(_) => None,
            Self::Modes(modes) => super::trimmed(&modes.href),
        }
    }
}

/// `favicon`: one path, or `{light, dark}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "a path, or {light, dark}")]
pub enum Favicon {
    Path(String),
    Modes(Modes),
}

impl Favicon {
    /// The icon's path from the site root: one icon serves both modes, the light one first.
    pub fn path(&self) -> Option<String> {
        let path = match self {
            Self::Path(p) => Some(p),
            Self::Modes(m) => m.light.as_ref().or(m.dark.as_ref()),
        };
        path.map(|p| p.trim_start_matches('/').to_string())
    }
}

/// A value per mode: `{light, dark}` (other keys let through, as in [`LogoModes`]).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Modes {
    pub light: Option<String>,
    pub dark: Option<String>,
}

/// `appearance`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Appearance {
    /// `light`, `dark` or `system` (the default).
    pub default: Option<String>,
    /// The site keeps its default mode, with no light/dark toggle.
    pub strict: Option<bool>,
}

impl Appearance {
    /// The mode pages open in: `light`, `dark` or `system` (for anything else too).
    pub fn default_mode(&self) -> &str {
        match self.default.as_deref() {
            Some(mode @ ("light" | "dark" | "system")) => mode,
            _ => "system",
        }
    }
}

/// `background`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Background {
    /// An image behind the pages.
    pub image: Option<Image>,
    /// Page background colors per mode.
    pub color: Option<Modes>,
    /// `gradient`, `grid` or `windows`.
    pub decoration: Option<String>,
}

/// An image: one path, or one per mode.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "a path, or {light, dark}")]
pub enum Image {
    Path(String),
    Modes(Modes),
}

impl Image {
    /// Each image with its place in the file (`background.image.light`), for warnings.
    pub fn sources(&self) -> Vec<(&'static str, &str)> {
        match self {
            Self::Path(p) => vec![("background.image", p.as_str())],
            Self::Modes(m) => [
                ("background.image.light", &m.light),
                ("background.image.dark", &m.dark),
            ]
            .into_iter()
            .filter_map(|(at, p)| Some((at, p.as_deref()?)))
            .collect(),
        }
    }
}

/// `fonts`: one font for the whole site, with `heading` and `body` overriding it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Fonts {
    pub family: Option<String>,
    pub weight: Option<u64>,
    pub source: Option<String>,
    pub format: Option<String>,
    pub heading: Option<Font>,
    pub body: Option<Font>,
}

/// One font: a family, and where its file is when the browser does not have it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Font {
    pub family: Option<String>,
    pub weight: Option<u64>,
    /// A file of the site, or a URL.
    pub source: Option<String>,
    /// `woff`, `woff2`, `truetype` or `opentype`.
    pub format: Option<String>,
}

impl Fonts {
    /// `fonts`, `fonts.heading` and `fonts.body`, each with its place in the file.
    pub fn each(&self) -> Vec<(&'static str, Font)> {
        let site = Font {
            family: self.family.clone(),
            weight: self.weight,
            source: self.source.clone(),
            format: self.format.clone(),
        };
        let mut fonts = vec![("fonts", site)];
        fonts.extend(self.heading.clone().map(|f| ("fonts.heading", f)));
        fonts.extend(self.body.clone().map(|f| ("fonts.body", f)));
        fonts
    }

    /// The family of body text: `fonts.family`, or `fonts.body.family`.
    pub fn body_family(&self) -> Option<&str> {
        super::trimmed(&self.family)
            .or_else(|| self.body.as_ref().and_then(|b| super::trimmed(&b.family)))
    }

    /// The family of headings: `fonts.heading.family`.
    pub fn heading_family(&self) -> Option<&str> {
        self.heading
            .as_ref()
            .and_then(|h| super::trimmed(&h.family))
    }
}

/// `icons`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Icons {
    /// The library icon names are looked up in first (`fontawesome`, `lucide`).
    pub library: Option<String>,
}

/// `styling`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Styling {
    /// `section`: above a page's title, only its section rather than the trail.
    pub eyebrows: Option<String>,
    /// `dark`: code blocks stay dark in light mode too; `system`; or a theme object, which a
    /// static site does not act on.
    pub codeblocks: Option<serde_json::Value>,
    /// `false` leaves `$...$` as text, `true` always reads it as a formula.
    pub latex: Option<bool>,
}

impl Styling {
    /// Whether code blocks stay dark in light mode.
    pub fn dark_code_blocks(&self) -> bool {
        self.codeblocks
            .as_ref()
            .and_then(|c| c.as_str())
            .map(str::trim)
            == Some("dark")
    }
}

/// A color for both modes, or one per mode (`banner.color`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "a color, or {light, dark}")]
pub enum ModeColor {
    One(String),
    Modes(Modes),
}
