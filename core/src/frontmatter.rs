//! A page's YAML frontmatter (`---` fenced, at the top): where it is, and what it says. The one
//! reader for the host (navigation labels, API documents a page names), the default renderer
//! and every SDK renderer.
//!
//! Bad input is the author's problem to fix, not a reason to lose the page: YAML that does not
//! parse gives the default frontmatter and a message; a field of an unexpected type is left out
//! with a message naming it, and the others are kept. Values are read as authors write them: a
//! title may be a number (`title: 2024`), a flag a quoted `"true"`, an icon `{name, style}`.

use serde_yaml_ng::Value as Yaml;

/// A page's frontmatter.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frontmatter {
    pub title: Option<String>,
    /// `sidebarTitle`: the page's label in the navigation, where it differs from its title.
    pub sidebar_title: Option<String>,
    pub description: Option<String>,
    /// An icon shown before the title (a name, a URL or a file of the site).
    pub icon: Option<String>,
    /// The Font Awesome style of `icon` (`solid`, `regular`, `brands`, ...): `iconType`, or the
    /// `style` of an `icon: {name, style}`.
    pub icon_type: Option<String>,
    /// Left out of navigation, search and the sitemap (still rendered and linkable).
    pub hidden: bool,
    /// Left out of search and the sitemap, and marked for crawlers.
    pub noindex: bool,
    /// Page layout: "default", "wide", "center" or "custom" (see [`Frontmatter::mode`]).
    pub mode: Option<String>,
    /// The API operation the page documents (`"GET /widgets"`, `"/spec.yaml GET /widgets"`).
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
    /// `url`: the page's navigation entry leads there instead of to the page.
    pub url: Option<String>,
    /// `tag`: a short label shown beside the page's navigation entry.
    pub tag: Option<String>,
    /// `keywords`: words a search engine may match the page by.
    pub keywords: Vec<String>,
    /// The page's own social and search meta tags (`"og:image"`, `"twitter:title"`), which
    /// override the site's `seo.metatags` of the same name.
    pub metatags: Vec<(String, String)>,
    /// Every field with a text key, as JSON, for settings this type does not name.
    pub fields: serde_json::Map<String, serde_json::Value>,
}

impl Frontmatter {
    /// The layout mode, with unknown values taken as the default: "wide" (no table of
    /// contents), "center" (no sidebar or table of contents), "custom" (content only).
    pub fn mode(&self) -> &str {
        match self.mode.as_deref() {
            Some(m @ ("wide" | "center" | "custom")) => m,
            _ => "default",
        }
    }

    /// Kept out of search and the sitemap: `hidden: true` or `noindex: true`.
    pub fn unlisted(&self) -> bool {
        self.hidden || self.noindex
    }

    /// The file of the OpenAPI or AsyncAPI document the page names by file, without a leading
    /// `/` (`/spec.yaml GET /users`, `/events.yaml chat`); `None` for a reference to the
    /// site's default document or to a URL.
    pub fn api_file(&self) -> Option<String> {
        let named = |reference: &str, words: usize| {
            let parts: Vec<&str> = reference.split_whitespace().collect();
            match parts.first() {
                Some(file) if parts.len() == words && !file.contains("://") => {
                    Some(file.trim_start_matches('/').to_string())
                }
                _ => None,
            }
        };
        self.openapi
            .as_deref()
            .and_then(|r| named(r, 3))
            .or_else(|| self.asyncapi.as_deref().and_then(|r| named(r, 2)))
    }
}

/// A page split into its frontmatter block and its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block<'a> {
    /// The YAML between the fences.
    pub yaml: &'a str,
    pub body: &'a str,
    /// Lines of the file before the body (give it to `Warnings::with_line_offset`).
    pub body_line_offset: u32,
}

/// Finds the frontmatter block: `---` on the first line, up to the next line that starts with
/// `---`. A page without one has none.
pub fn block(source: &str) -> Option<Block<'_>> {
    let rest = source
        .strip_prefix("---\n")
        .or_else(|| source.strip_prefix("---\r\n"))?;
    let end = rest.find("\n---")?;
    let after = &rest[end + 4..];
    let body = after
        .strip_prefix("\r\n")
        .or_else(|| after.strip_prefix('\n'))
        .unwrap_or(after);
    let body_line_offset = u32::try_from(source[..source.len() - body.len()].matches('\n').count())
        .unwrap_or(u32::MAX);
    Some(Block {
        yaml: &rest[..end],
        body,
        body_line_offset,
    })
}

/// `source` without its frontmatter block.
pub fn body(source: &str) -> &str {
    block(source).map_or(source, |b| b.body)
}

/// Reads a page's frontmatter: the fields, and what could not be read (messages for the
/// author). A page without frontmatter has the default, and no messages.
pub fn of_page(source: &str) -> (Frontmatter, Vec<String>) {
    block(source).map_or_else(|| (Frontmatter::default(), Vec::new()), |b| read(b.yaml))
}

/// A page split into frontmatter and body, for renderers that want both at once.
#[derive(Debug, Clone)]
pub struct Split<'a> {
    pub frontmatter: Frontmatter,
    pub body: &'a str,
    /// Lines of the file before the body (give it to `Warnings::with_line_offset`).
    pub body_line_offset: u32,
}

/// Splits `source`. YAML that does not parse, or is not `key: value` lines, is an error naming
/// the problem; a field of the wrong type is only left out. A page without frontmatter is all
/// body.
pub fn split(source: &str) -> Result<Split<'_>, String> {
    let Some(block) = block(source) else {
        return Ok(Split {
            frontmatter: Frontmatter::default(),
            body: source,
            body_line_offset: 0,
        });
    };
    let fields = mapping(block.yaml)?;
    Ok(Split {
        frontmatter: from_fields(&fields, &mut Vec::new()),
        body: block.body,
        body_line_offset: block.body_line_offset,
    })
}

/// Reads a YAML frontmatter block (without its fences), never failing: see the module's
/// comment.
pub fn read(yaml: &str) -> (Frontmatter, Vec<String>) {
    match mapping(yaml) {
        Ok(fields) => {
            let mut problems = Vec::new();
            let frontmatter = from_fields(&fields, &mut problems);
            (frontmatter, problems)
        }
        Err(problem) => (Frontmatter::default(), vec![problem]),
    }
}

/// The block's fields; empty for an empty block.
fn mapping(yaml: &str) -> Result<serde_yaml_ng::Mapping, String> {
    if yaml.trim().is_empty() {
        return Ok(serde_yaml_ng::Mapping::new());
    }
    match serde_yaml_ng::from_str::<Yaml>(yaml) {
        Ok(Yaml::Mapping(fields)) => Ok(fields),
        Ok(Yaml::Null) => Ok(serde_yaml_ng::Mapping::new()),
        Ok(_) => Err("frontmatter is not a list of fields (`name: value` lines)".into()),
        Err(e) => Err(format!("frontmatter is not valid YAML: {e}")),
    }
}

fn from_fields(fields: &serde_yaml_ng::Mapping, problems: &mut Vec<String>) -> Frontmatter {
    let mut text = |name: &str| -> Option<String> {
        match fields.get(name)? {
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
        sidebar_title: text("sidebarTitle"),
        description: text("description"),
        icon,
        icon_type: text("iconType").or(icon_style),
        mode: text("mode"),
        openapi: text("openapi"),
        asyncapi: text("asyncapi"),
        api: text("api"),
        auth_method: text("authMethod"),
        playground: text("playground"),
        url: text("url"),
        tag: text("tag"),
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
    // A field whose key is not text, or whose value JSON cannot hold, is of no use to a
    // setting read by name.
    frontmatter.fields = fields
        .iter()
        .filter_map(|(name, value)| {
            Some((
                name.as_str()?.to_string(),
                serde_json::to_value(value).ok()?,
            ))
        })
        .collect();
    frontmatter
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_title_and_description() {
        let (fm, problems) = read("title: Quickstart\ndescription: Start here\nicon: rocket");
        assert!(problems.is_empty());
        assert_eq!(fm.title.as_deref(), Some("Quickstart"));
        assert_eq!(fm.description.as_deref(), Some("Start here"));
        assert_eq!(fm.icon.as_deref(), Some("rocket"));
        assert_eq!(fm.fields["icon"], "rocket");
    }

    #[test]
    fn bad_yaml_is_a_message_and_the_default() {
        let (fm, problems) = read("title: [unclosed");
        assert!(fm.title.is_none());
        assert!(problems[0].contains("not valid YAML"), "{problems:?}");
        assert_eq!(read("- a list").1.len(), 1);
    }

    #[test]
    fn values_are_read_as_authors_write_them_and_a_bad_field_costs_only_itself() {
        let (fm, problems) = read(
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
            read("keywords: [alpha, 2]\n\"og:image\": /og.png\n\"twitter:card\": summary\nog: x");
        assert_eq!(fm.keywords, ["alpha", "2"]);
        assert_eq!(
            fm.metatags,
            [
                ("og:image".to_string(), "/og.png".to_string()),
                ("twitter:card".to_string(), "summary".to_string())
            ]
        );
        let (fm, problems) = read("title: {a: 1}\nsidebarTitle: S");
        assert_eq!((fm.title, problems.len()), (None, 1));
        assert_eq!(fm.sidebar_title.as_deref(), Some("S"));
    }

    #[test]
    fn the_block_and_the_body_are_found() {
        let page = split("---\ntitle: Hi\nhidden: true\n---\n# Body\n").unwrap();
        assert_eq!(page.frontmatter.title.as_deref(), Some("Hi"));
        assert!(page.frontmatter.unlisted());
        assert_eq!(page.body, "# Body\n");
        assert_eq!(page.body_line_offset, 4);
        assert!(split("---\n: : :\n---\n").is_err());
        assert_eq!(split("plain").unwrap().body, "plain");
        assert_eq!(body("---\r\na: 1\r\n---\r\ntext"), "text");
        assert_eq!(block("---\nunclosed"), None);
        assert_eq!(of_page("no frontmatter").0, Frontmatter::default());
    }

    #[test]
    fn an_api_page_names_its_document_by_file() {
        let file = |yaml: &str| read(yaml).0.api_file();
        assert_eq!(
            file("openapi: /spec.yaml GET /users").as_deref(),
            Some("spec.yaml")
        );
        assert_eq!(file("openapi: GET /users"), None);
        assert_eq!(file("openapi: https://x.dev/a.json GET /users"), None);
        assert_eq!(
            file("asyncapi: events.yaml chat").as_deref(),
            Some("events.yaml")
        );
    }

    proptest::proptest! {
        /// Whatever an author writes, reading never panics and a page keeps its body.
        #[test]
        fn any_page_is_read_without_a_panic(source in "(---\n)?[ -~\n]{0,200}(\n---\n)?[ -~\n]{0,40}") {
            let (_, _) = of_page(&source);
            let body = body(&source);
            proptest::prop_assert!(source.ends_with(body));
        }
    }
}
