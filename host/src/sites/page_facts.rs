//! What a page's frontmatter tells the navigation before any renderer runs: its label, icon,
//! `tag`, `hidden`/`noindex`, a `url` that makes its entry a link, and the API document its `openapi`
//! or `asyncapi` field names by file. Values are read as authors write them; what cannot be
//! read is left for the renderer to report.

use serde::Deserialize;

use super::navigation::PageMeta;

/// The frontmatter fields navigation reads. Each is read as authors write it (`title: 2024`,
/// `hidden: "true"`), and one of another type is left out without costing the others.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NavigationFields {
    #[serde(default, deserialize_with = "lenient_text")]
    title: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    sidebar_title: Option<String>,
    icon: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "lenient_flag")]
    hidden: bool,
    #[serde(default, deserialize_with = "lenient_flag")]
    noindex: bool,
    #[serde(default, deserialize_with = "lenient_text")]
    openapi: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    asyncapi: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    url: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    tag: Option<String>,
}

/// Text from any YAML scalar; nothing from a list or a map.
fn lenient_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match serde_yaml_ng::Value::deserialize(d)? {
        serde_yaml_ng::Value::String(s) => Some(s),
        serde_yaml_ng::Value::Number(n) => Some(n.to_string()),
        serde_yaml_ng::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    })
}

/// A flag from `true`/`false`, or the same words quoted; anything else is false.
fn lenient_flag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(match serde_yaml_ng::Value::deserialize(d)? {
        serde_yaml_ng::Value::Bool(b) => b,
        serde_yaml_ng::Value::String(s) => matches!(s.trim(), "true" | "yes"),
        _ => false,
    })
}

/// What reading a page's frontmatter gives: its navigation entry, and the API document its
/// `openapi` or `asyncapi` field names, if it names one by file (`/spec.yaml GET /users`,
/// `/events.yaml chat`).
pub(super) struct PageFacts {
    pub navigation: PageMeta,
    pub api_file: Option<String>,
}

/// What navigation shows of a page: the label (frontmatter `sidebarTitle`, else `title`, else
/// the first `# heading`, else its file name), its icon, and whether it is hidden. Bad
/// frontmatter is left for the renderer to report.
pub(super) fn page_meta(source: &str, path: &str) -> PageFacts {
    let fields: NavigationFields = frontmatter(source)
        .and_then(|yaml| serde_yaml_ng::from_str(yaml).ok())
        .unwrap_or_default();
    let label = fields
        .sidebar_title
        .or(fields.title)
        .or_else(|| {
            source
                .lines()
                .find_map(|l| l.strip_prefix("# ").map(|t| t.trim().to_string()))
        })
        .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path).to_string());
    let openapi_file = fields.openapi.as_deref().and_then(|reference| {
        let words: Vec<&str> = reference.split_whitespace().collect();
        match words.as_slice() {
            [file, _, _] if !file.contains("://") => Some(file.trim_start_matches('/').to_string()),
            _ => None,
        }
    });
    let asyncapi_file = fields.asyncapi.as_deref().and_then(|reference| {
        let words: Vec<&str> = reference.split_whitespace().collect();
        match words.as_slice() {
            [file, _] if !file.contains("://") => Some(file.trim_start_matches('/').to_string()),
            _ => None,
        }
    });
    let icon = fields.icon.as_ref().and_then(|i| {
        i.as_str()
            .or_else(|| i.get("name").and_then(serde_json::Value::as_str))
            .map(String::from)
    });
    PageFacts {
        navigation: PageMeta {
            label,
            icon,
            hidden: fields.hidden,
            noindex: fields.noindex,
            // Only a link to another site: a page's own path is where it already leads.
            url: fields
                .url
                .map(|u| u.trim().to_string())
                .filter(|u| u.contains("://") || u.starts_with("mailto:")),
            tag: fields.tag.filter(|t| !t.trim().is_empty()),
        },
        api_file: openapi_file.or(asyncapi_file),
    }
}

fn frontmatter(source: &str) -> Option<&str> {
    let rest = source
        .strip_prefix("---\n")
        .or_else(|| source.strip_prefix("---\r\n"))?;
    let end = rest.find("\n---")?;
    Some(&rest[..end])
}
