//! The OpenAPI extensions that shape an operation's generated page: `x-hidden` (the page is
//! made but left out of the navigation), `x-excluded` (no page when a whole document is
//! listed), and `x-mint`: `metadata` (frontmatter fields for the page: `title`, `description`,
//! `sidebarTitle`, ...), `content` (MDX shown before the generated reference) and `href` (the
//! page's path instead of one made from the method and path).

use serde_yaml_ng::{Mapping, Value as Yaml};

/// What an operation's extensions say about its page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageExtensions {
    pub hidden: bool,
    pub excluded: bool,
    /// `x-mint.href`, as a page path (no leading `/`, no extension).
    pub href: Option<String>,
    /// `x-mint.metadata`, but `openapi` (the page names its operation itself).
    pub metadata: Mapping,
    /// `x-mint.content`.
    pub content: Option<String>,
}

impl PageExtensions {
    /// The extensions of `operation` (an OpenAPI operation object).
    pub fn of(operation: &Yaml) -> Self {
        let flag = |key: &str| operation.get(key).and_then(Yaml::as_bool) == Some(true);
        let mint = operation.get("x-mint");
        let text = |key: &str| {
            mint.and_then(|m| m.get(key))
                .and_then(Yaml::as_str)
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(String::from)
        };
        let mut metadata = mint
            .and_then(|m| m.get("metadata"))
            .and_then(Yaml::as_mapping)
            .cloned()
            .unwrap_or_default();
        metadata.remove("openapi");
        Self {
            hidden: flag("x-hidden"),
            excluded: flag("x-excluded"),
            href: text("href").map(|href| {
                let path = href.trim_matches('/');
                quire_core::paths::page_key(path).to_string()
            }),
            metadata,
            content: text("content"),
        }
    }

    /// The navigation label the metadata gives (`sidebarTitle`, else `title`), if any.
    pub fn label(&self) -> Option<&str> {
        ["sidebarTitle", "title"]
            .iter()
            .find_map(|key| self.metadata.get(*key).and_then(Yaml::as_str))
    }

    /// The generated page's source: frontmatter naming `reference`, with the metadata, then
    /// the content.
    pub fn page_source(&self, field: &str, reference: &str) -> String {
        let mut source = format!(
            "---\n{field}: {}\n",
            serde_json::Value::String(reference.to_string())
        );
        if !self.metadata.is_empty()
            && let Ok(yaml) = serde_yaml_ng::to_string(&self.metadata)
        {
            source.push_str(&yaml);
            if !source.ends_with('\n') {
                source.push('\n');
            }
        }
        source.push_str("---\n");
        if let Some(content) = &self.content {
            source.push('\n');
            source.push_str(content);
            source.push('\n');
        }
        source
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_read_and_shape_the_source() {
        let operation: Yaml = serde_yaml_ng::from_str(
            "summary: List\nx-hidden: true\nx-mint:\n  href: /reference/users/list.mdx\n  content: \"<Note>Paginated.</Note>\"\n  metadata:\n    title: List users\n    openapi: ignored\n    keywords: [users]\n",
        )
        .unwrap();
        let ext = PageExtensions::of(&operation);
        assert!(ext.hidden && !ext.excluded);
        assert_eq!(ext.href.as_deref(), Some("reference/users/list"));
        assert_eq!(ext.label(), Some("List users"));
        let source = ext.page_source("openapi", "GET /users");
        assert!(
            source.starts_with("---\nopenapi: \"GET /users\"\ntitle: List users\n"),
            "{source}"
        );
        assert!(!source.contains("ignored"));
        assert!(
            source.ends_with("---\n\n<Note>Paginated.</Note>\n"),
            "{source}"
        );
        let plain = PageExtensions::of(&serde_yaml_ng::from_str("summary: x").unwrap());
        assert_eq!(plain, PageExtensions::default());
        assert_eq!(
            plain.page_source("openapi", "GET /a"),
            "---\nopenapi: \"GET /a\"\n---\n"
        );
    }
}
