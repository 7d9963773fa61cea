//! Page frontmatter: the YAML block at the top of a page.

use serde_yaml_ng::Value as Yaml;

/// The frontmatter fields this renderer uses; others are ignored.
#[derive(Debug, Default)]
pub struct Frontmatter {
    pub title: Option<String>,
    pub description: Option<String>,
    /// An icon shown before the title.
    pub icon: Option<String>,
    /// The Font Awesome style of `icon` (`solid`, `regular`, `brands`, ...).
    pub icon_type: Option<String>,
    /// Left out of navigation, search and the sitemap (still rendered and linkable).
    pub hidden: bool,
    /// Left out of search and the sitemap, and marked for crawlers.
    pub noindex: bool,
    /// Page layout: "default", "wide" (no table of contents), "center" (no sidebar or table of
    /// contents), "custom" (content only).
    pub mode: Option<String>,
    /// The API operation the page documents (`"GET /widgets"`).
    pub openapi: Option<String>,
    /// The AsyncAPI channel the page documents (`"websockets.yaml chat"`).
    pub asyncapi: Option<String>,
    /// The endpoint a hand-written API page documents (`"POST /v1/users"` or a full URL).
    pub api: Option<String>,
    /// `authMethod`: how that endpoint authenticates (`bearer`, `basic`, `key`, `none`),
    /// overriding docs.json `api.mdx.auth`.
    pub auth_method: Option<String>,
    /// How this page offers "Try it": overrides docs.json `api.playground.display`.
    pub playground: Option<String>,
    /// Whether the page shows its "last modified" date: overrides docs.json
    /// `metadata.timestamp`.
    pub timestamp: Option<bool>,
    /// `keywords`: words a search engine may match the page by.
    pub keywords: Vec<String>,
    /// The page's own social and search meta tags (`"og:image"`, `"twitter:title"`), which
    /// override the site's `seo.metatags` of the same name.
    pub metatags: Vec<(String, String)>,
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

/// Parses a YAML frontmatter block. Bad input is the author's problem to fix, not a reason to
/// lose the page: YAML that does not parse gives the default frontmatter and a message; a field
/// of an unexpected type is left out with a message naming it, and the others are kept. Values
/// are read as authors write them: a title may be a number (`title: 2024`), a flag a quoted
/// `"true"`, an icon `{name, style}`.
pub fn parse(yaml: &str) -> (Frontmatter, Vec<String>) {
    if yaml.trim().is_empty() {
        return (Frontmatter::default(), Vec::new());
    }
    let fields = match serde_yaml_ng::from_str::<Yaml>(yaml) {
        Ok(Yaml::Mapping(fields)) => fields,
        Ok(Yaml::Null) => return (Frontmatter::default(), Vec::new()),
        Ok(_) => {
            return (
                Frontmatter::default(),
                vec!["frontmatter is not a list of fields (`name: value` lines)".into()],
            );
        }
        Err(e) => {
            return (
                Frontmatter::default(),
                vec![format!("frontmatter is not valid YAML: {e}")],
            );
        }
    };
    let mut problems = Vec::new();
    let mut text = |name: &str| -> Option<String> {
        let value = fields.get(name)?;
        match value {
            Yaml::String(s) => Some(s.clone()),
            Yaml::Number(n) => Some(n.to_string()),
            Yaml::Bool(b) => Some(b.to_string()),
            Yaml::Null => None,
            _ => {
                problems.push(format!(
                    "frontmatter field {name} should be text; it is left out"
                ));
                None
            }
        }
    };
    let (icon, icon_style) = match fields.get("icon") {
        Some(Yaml::Mapping(icon)) => (
            icon.get("name").and_then(Yaml::as_str).map(String::from),
            icon.get("style").and_then(Yaml::as_str).map(String::from),
        ),
        _ => (text("icon"), None),
    };
    let mut frontmatter = Frontmatter {
        title: text("title"),
        description: text("description"),
        icon,
        icon_type: text("iconType").or(icon_style),
        mode: text("mode"),
        openapi: text("openapi"),
        asyncapi: text("asyncapi"),
        api: text("api"),
        auth_method: text("authMethod"),
        playground: text("playground"),
        ..Frontmatter::default()
    };
    let mut flag = |name: &str| -> Option<bool> {
        match fields.get(name)? {
            Yaml::Bool(b) => Some(*b),
            Yaml::String(s) if matches!(s.trim(), "true" | "yes") => Some(true),
            Yaml::String(s) if matches!(s.trim(), "false" | "no") => Some(false),
            Yaml::Null => None,
            _ => {
                problems.push(format!(
                    "frontmatter field {name} should be true or false; it is left out"
                ));
                None
            }
        }
    };
    frontmatter.hidden = flag("hidden").unwrap_or(false);
    frontmatter.noindex = flag("noindex").unwrap_or(false);
    frontmatter.timestamp = flag("timestamp");
    frontmatter.keywords = match fields.get("keywords") {
        Some(Yaml::Sequence(words)) => words
            .iter()
            .filter_map(|w| match w {
                Yaml::String(s) => Some(s.clone()),
                Yaml::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect(),
        Some(Yaml::String(words)) => words.split(',').map(|w| w.trim().to_string()).collect(),
        _ => Vec::new(),
    };
    frontmatter.metatags = fields
        .iter()
        .filter_map(|(name, value)| {
            let name = name.as_str()?;
            let tag = ["og:", "twitter:", "article:"]
                .iter()
                .any(|prefix| name.starts_with(prefix));
            let content = match value {
                Yaml::String(s) => s.clone(),
                Yaml::Number(n) => n.to_string(),
                _ => return None,
            };
            tag.then(|| (name.to_string(), content))
        })
        .collect();
    (frontmatter, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_title_and_description() {
        let (fm, problems) = parse("title: Quickstart\ndescription: Start here\nicon: rocket");
        assert!(problems.is_empty());
        assert_eq!(fm.title.as_deref(), Some("Quickstart"));
        assert_eq!(fm.description.as_deref(), Some("Start here"));
    }

    #[test]
    fn bad_yaml_is_an_error_message() {
        let (fm, problems) = parse("title: [unclosed");
        assert!(fm.title.is_none());
        assert!(problems[0].contains("not valid YAML"), "{problems:?}");
        assert_eq!(parse("- a list").1.len(), 1);
    }

    #[test]
    fn values_are_read_as_authors_write_them_and_a_bad_field_costs_only_itself() {
        let (fm, problems) = parse(
            "title: 2024\nicon: {name: star, style: solid}\nhidden: \"true\"\nnoindex: [x]\nkeywords: [a, b]\ndescription:\n",
        );
        assert_eq!(fm.title.as_deref(), Some("2024"));
        assert_eq!(fm.icon.as_deref(), Some("star"));
        assert_eq!(fm.icon_type.as_deref(), Some("solid"));
        assert!(fm.hidden);
        assert!(!fm.noindex);
        assert_eq!(fm.description, None);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("noindex"));
        let (fm, _) =
            parse("keywords: [alpha, 2]\n\"og:image\": /og.png\n\"twitter:card\": summary\nog: x");
        assert_eq!(fm.keywords, ["alpha", "2"]);
        assert_eq!(
            fm.metatags,
            [
                ("og:image".to_string(), "/og.png".to_string()),
                ("twitter:card".to_string(), "summary".to_string())
            ]
        );
        let (fm, problems) = parse("title: {a: 1}\nsidebarTitle: S");
        assert_eq!((fm.title, problems.len()), (None, 1));
    }
}
