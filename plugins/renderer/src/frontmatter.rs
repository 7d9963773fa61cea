//! Page frontmatter: the YAML block at the top of a page.

use serde::Deserialize;

/// The frontmatter fields this renderer uses; others are ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Frontmatter {
    pub title: Option<String>,
    pub description: Option<String>,
    /// An icon shown before the title.
    pub icon: Option<String>,
    /// The Font Awesome style of `icon` (`solid`, `regular`, `brands`, ...).
    pub icon_type: Option<String>,
    /// Left out of navigation, search and the sitemap (still rendered and linkable).
    #[serde(default)]
    pub hidden: bool,
    /// Left out of search and the sitemap, and marked for crawlers.
    #[serde(default)]
    pub noindex: bool,
    /// Page layout: "default", "wide" (no table of contents), "center" (no sidebar or table of
    /// contents), "custom" (content only).
    pub mode: Option<String>,
    /// The API operation the page documents (`"GET /widgets"`).
    pub openapi: Option<String>,
    /// The AsyncAPI channel the page documents (`"websockets.yaml chat"`).
    pub asyncapi: Option<String>,
    /// How this page offers "Try it": overrides docs.json `api.playground.display`.
    pub playground: Option<String>,
    /// Whether the page shows its "last modified" date: overrides docs.json
    /// `metadata.timestamp`.
    pub timestamp: Option<bool>,
}

impl Frontmatter {
    /// The layout mode, with unknown values taken as the default.
    pub fn mode(&self) -> &str {
        match self.mode.as_deref() {
            Some(m @ ("wide" | "center" | "custom")) => m,
            _ => "default",
        }
    }
}

/// Parses a YAML frontmatter block. Bad YAML is the author's problem to fix, not a reason to
/// lose the page: the error comes back as a message and the page renders without frontmatter.
pub fn parse(yaml: &str) -> Result<Frontmatter, String> {
    if yaml.trim().is_empty() {
        return Ok(Frontmatter::default());
    }
    serde_yaml_ng::from_str(yaml).map_err(|e| format!("frontmatter is not valid YAML: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_title_and_description() {
        let fm = parse("title: Quickstart\ndescription: Start here\nicon: rocket").unwrap();
        assert_eq!(fm.title.as_deref(), Some("Quickstart"));
        assert_eq!(fm.description.as_deref(), Some("Start here"));
    }

    #[test]
    fn bad_yaml_is_an_error_message() {
        assert!(parse("title: [unclosed").is_err());
    }
}
