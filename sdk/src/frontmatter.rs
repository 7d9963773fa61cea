//! A page's YAML frontmatter (`---` fenced, at the top): the fields every renderer wants, the
//! rest as JSON, and where the body starts so warnings can name the right line.

/// A page's frontmatter.
#[derive(Debug, Clone, Default)]
pub struct Frontmatter {
    pub title: Option<String>,
    pub description: Option<String>,
    /// `hidden: true` or `noindex: true`: kept out of search and the sitemap.
    pub unlisted: bool,
    /// Every field, for settings this type does not name.
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// A page split into frontmatter and body.
#[derive(Debug, Clone)]
pub struct Split<'a> {
    pub frontmatter: Frontmatter,
    pub body: &'a str,
    /// Lines of the file before the body (give it to `Warnings::with_line_offset`).
    pub body_line_offset: u32,
}

/// Splits `source`. Unreadable YAML is an error naming the problem; a page without frontmatter
/// is all body.
pub fn split(source: &str) -> Result<Split<'_>, String> {
    let no_frontmatter = Split {
        frontmatter: Frontmatter::default(),
        body: source,
        body_line_offset: 0,
    };
    let Some(rest) = source
        .strip_prefix("---\n")
        .or_else(|| source.strip_prefix("---\r\n"))
    else {
        return Ok(no_frontmatter);
    };
    let Some(end) = rest.find("\n---") else {
        return Ok(no_frontmatter);
    };
    let yaml = &rest[..end];
    let after = &rest[end + 4..];
    let body = after
        .strip_prefix("\r\n")
        .or_else(|| after.strip_prefix('\n'))
        .unwrap_or(after);
    let value: serde_json::Value = if yaml.trim().is_empty() {
        serde_json::Value::Object(Default::default())
    } else {
        serde_yaml_ng::from_str(yaml).map_err(|e| format!("frontmatter: {e}"))?
    };
    let fields = match value {
        serde_json::Value::Object(map) => map,
        _ => return Err("frontmatter: expected `key: value` lines".into()),
    };
    let text = |key: &str| fields.get(key).and_then(|v| v.as_str()).map(String::from);
    let flag = |key: &str| fields.get(key).and_then(|v| v.as_bool()).unwrap_or(false);
    let frontmatter = Frontmatter {
        title: text("title"),
        description: text("description"),
        unlisted: flag("hidden") || flag("noindex"),
        fields: fields.clone(),
    };
    let body_line_offset = u32::try_from(source[..source.len() - body.len()].matches('\n').count())
        .unwrap_or(u32::MAX);
    Ok(Split {
        frontmatter,
        body,
        body_line_offset,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn frontmatter_and_body_are_split() {
        let page = super::split("---\ntitle: Hi\nhidden: true\n---\n# Body\n").unwrap();
        assert_eq!(page.frontmatter.title.as_deref(), Some("Hi"));
        assert!(page.frontmatter.unlisted);
        assert_eq!(page.body, "# Body\n");
        assert_eq!(page.body_line_offset, 4);
        assert!(super::split("---\n: : :\n---\n").is_err());
        assert_eq!(super::split("plain").unwrap().body, "plain");
    }
}
