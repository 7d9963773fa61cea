//! docs.json's `navigation`, typed: the tree of products, versions, languages, dropdowns,
//! anchors, tabs, menus and groups, each element with its label, its own settings and the
//! elements, pages and API documents it holds; and mint.json's flat list of groups with the
//! tabs, anchors and versions that sort them.
//!
//! Unlike the site's settings, the navigation is read strictly: an element of the wrong shape
//! (a `tabs` that is not a list, a group with no name) refuses the site, with its place in the
//! file, because a navigation read around a hole would publish pages in the wrong place. What
//! an element may leave out (an icon of the wrong shape, `hidden: "yes"`) is taken as not set,
//! as it always was.

use serde_json::{Map, Value};

use crate::navigation::NavKind;

/// The containers of a navigation element, in the order they are walked: the key holding the
/// list, the key naming each of its elements, and the entry kind they become. A tab's `menu`
/// items are sections chosen from a menu, as dropdowns are.
pub const CONTAINERS: &[(&str, &str, NavKind)] = &[
    ("products", "product", NavKind::Product),
    ("versions", "version", NavKind::Version),
    ("languages", "language", NavKind::Language),
    ("dropdowns", "dropdown", NavKind::Dropdown),
    ("anchors", "anchor", NavKind::Anchor),
    ("tabs", "tab", NavKind::Tab),
    ("menu", "item", NavKind::Dropdown),
    ("groups", "group", NavKind::Group),
];

/// The navigation a file gives: docs.json's tree, or mint.json's list of groups.
#[derive(Debug, Clone, PartialEq)]
pub enum SiteNavigation {
    Tree(NavigationNode),
    Mint(MintNavigation),
}

/// A navigation object (the root, an element's inside, or `global`): what it holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NavigationNode {
    /// Each container present, in [`CONTAINERS`] order, with its elements in file order.
    pub containers: Vec<Container>,
    /// `pages`, when present (an empty list still counts as holding pages).
    pub pages: Option<Vec<PageEntry>>,
    /// `global`: entries site-wide at the top, or per version or language below it.
    pub global: Option<Box<NavigationNode>>,
    /// How a group's root page lists its entries, passed down to the groups inside.
    pub directory: Option<String>,
    /// The OpenAPI document it names, if its `openapi` field names one.
    pub openapi: Option<ApiSource>,
    /// The AsyncAPI document it names.
    pub asyncapi: Option<ApiSource>,
    /// Whether an `openapi` or `asyncapi` key is present at all (of any shape).
    pub names_api: bool,
}

/// One container of a node: its key's entry kind and its elements.
#[derive(Debug, Clone, PartialEq)]
pub struct Container {
    /// The key the list is under (`tabs`), for places in messages.
    pub key: &'static str,
    pub kind: NavKind,
    pub elements: Vec<Element>,
}

/// A tab, group, anchor, version ...: its name and settings, and what it holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Element {
    /// The value of its naming key (`tab`, `group`, `version`, ...).
    pub label: String,
    pub icon: Option<String>,
    pub hidden: bool,
    pub searchable: bool,
    /// `default: true`: the version or language the site opens in.
    pub default: bool,
    /// A link instead of (or beside) children.
    pub href: Option<String>,
    /// A group's own page.
    pub root: Option<String>,
    pub tag: Option<String>,
    pub expanded: bool,
    /// mint.json: the version a group belongs to.
    pub version: Option<String>,
    /// What it holds, with its own `directory`, `openapi` and `global`.
    pub inside: NavigationNode,
}

impl NavigationNode {
    /// Whether it lists entries of its own (containers or pages), rather than standing for a
    /// whole API document.
    pub fn lists_entries(&self) -> bool {
        !self.containers.is_empty() || self.pages.is_some()
    }

    /// Whether it holds anything at all: an element with nothing inside and an `href` is a link.
    pub fn holds_anything(&self) -> bool {
        self.lists_entries() || self.global.is_some() || self.names_api
    }
}

/// An entry of a `pages` list.
#[derive(Debug, Clone, PartialEq)]
pub enum PageEntry {
    /// A page path, or an API operation (`GET /users`).
    Path(String),
    /// A nested group.
    Group(Box<Element>),
}

/// An OpenAPI or AsyncAPI document an element names: a string, `{source, directory}`, or a list
/// (whose first entry is taken).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiSource {
    /// The document's file in the site, or its URL, as written.
    pub source: String,
    /// The folder its generated pages go in, as written.
    pub directory: Option<String>,
}

impl ApiSource {
    /// The document `value` names, if it names one.
    pub fn read(value: &Value) -> Option<Self> {
        match value {
            Value::String(source) => Some(Self {
                source: source.clone(),
                directory: None,
            }),
            Value::Object(map) => Some(Self {
                source: map.get("source")?.as_str()?.to_string(),
                directory: text(map, "directory"),
            }),
            Value::Array(items) => items.first().and_then(Self::read),
            _ => None,
        }
    }
}

/// mint.json's navigation: groups, and what sorts them into versions, tabs and anchors.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MintNavigation {
    pub groups: Vec<PageEntry>,
    /// `versions`: the version names, in order (the first is where groups naming none go).
    pub versions: Vec<String>,
    pub tabs: Vec<MintSection>,
    pub anchors: Vec<MintSection>,
    /// `primaryTab.name`: the first tab, holding the groups no folder tab takes.
    pub primary_tab: Option<String>,
    /// `topAnchor.name`: likewise for anchors.
    pub top_anchor: Option<String>,
}

/// A mint.json tab or anchor: `{name, url, icon?}` (entries without both are skipped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MintSection {
    pub name: String,
    pub url: String,
    pub icon: Option<String>,
}

/// Why the navigation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NavigationError {
    #[error("the required field navigation is missing")]
    Missing,
    #[error("navigation must be an object (docs.json) or an array (mint.json)")]
    WrongShape,
    /// An element of the wrong shape, at its place (`navigation.tabs[0].groups`).
    #[error("{at}: {message}")]
    Invalid { at: String, message: String },
}

impl SiteNavigation {
    /// Reads the navigation of a whole docs.json or mint.json document.
    pub fn read(document: &Value) -> Result<Self, NavigationError> {
        match document.get("navigation") {
            None => Err(NavigationError::Missing),
            Some(Value::Object(node)) => Ok(Self::Tree(read_node(node, "navigation")?)),
            Some(Value::Array(groups)) => Ok(Self::Mint(MintNavigation {
                groups: read_pages(groups, "navigation")?,
                versions: document
                    .get("versions")
                    .and_then(Value::as_array)
                    .map(|v| {
                        v.iter()
                            .filter_map(Value::as_str)
                            .map(String::from)
                            .collect()
                    })
                    .unwrap_or_default(),
                tabs: mint_sections(document, "tabs"),
                anchors: mint_sections(document, "anchors"),
                primary_tab: name_of(document, "primaryTab"),
                top_anchor: name_of(document, "topAnchor"),
            })),
            Some(_) => Err(NavigationError::WrongShape),
        }
    }
}

fn invalid(at: impl Into<String>, message: impl Into<String>) -> NavigationError {
    NavigationError::Invalid {
        at: at.into(),
        message: message.into(),
    }
}

fn text(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(Value::as_str).map(String::from)
}

fn flag(map: &Map<String, Value>, key: &str) -> bool {
    map.get(key).and_then(Value::as_bool) == Some(true)
}

/// An icon as docs.json gives it: a name, or `{name, style}`.
fn icon(map: &Map<String, Value>) -> Option<String> {
    let value = map.get("icon")?;
    value
        .as_str()
        .or_else(|| value.get("name").and_then(Value::as_str))
        .map(String::from)
}

fn read_node(node: &Map<String, Value>, at: &str) -> Result<NavigationNode, NavigationError> {
    let mut containers = Vec::new();
    for &(key, label_key, kind) in CONTAINERS {
        let Some(value) = node.get(key) else {
            continue;
        };
        let Value::Array(items) = value else {
            return Err(invalid(format!("{at}.{key}"), "must be an array"));
        };
        let elements = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let here = format!("{at}.{key}[{i}]");
                let Value::Object(item) = item else {
                    return Err(invalid(here, "must be an object"));
                };
                read_element(item, label_key, &here)
            })
            .collect::<Result<_, _>>()?;
        containers.push(Container {
            key,
            kind,
            elements,
        });
    }
    let pages = match node.get("pages") {
        None => None,
        Some(Value::Array(pages)) => Some(read_pages(pages, &format!("{at}.pages"))?),
        Some(_) => return Err(invalid(format!("{at}.pages"), "must be an array")),
    };
    let global = match node.get("global") {
        None => None,
        Some(Value::Object(global)) => Some(Box::new(read_node(global, &format!("{at}.global"))?)),
        Some(_) => return Err(invalid(format!("{at}.global"), "must be an object")),
    };
    Ok(NavigationNode {
        containers,
        pages,
        global,
        directory: text(node, "directory"),
        openapi: node.get("openapi").and_then(ApiSource::read),
        asyncapi: node.get("asyncapi").and_then(ApiSource::read),
        names_api: node.contains_key("openapi") || node.contains_key("asyncapi"),
    })
}

fn read_element(
    item: &Map<String, Value>,
    label_key: &str,
    at: &str,
) -> Result<Element, NavigationError> {
    let label = text(item, label_key)
        .ok_or_else(|| invalid(at, format!("the field {label_key} (a string) is required")))?;
    Ok(Element {
        label,
        icon: icon(item),
        hidden: flag(item, "hidden"),
        searchable: flag(item, "searchable"),
        default: flag(item, "default"),
        href: text(item, "href"),
        root: text(item, "root"),
        tag: text(item, "tag"),
        expanded: flag(item, "expanded"),
        version: text(item, "version"),
        inside: read_node(item, at)?,
    })
}

fn read_pages(pages: &[Value], at: &str) -> Result<Vec<PageEntry>, NavigationError> {
    pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let here = format!("{at}[{i}]");
            match page {
                Value::String(entry) => Ok(PageEntry::Path(entry.clone())),
                Value::Object(group) => Ok(PageEntry::Group(Box::new(read_element(
                    group, "group", &here,
                )?))),
                _ => Err(invalid(here, "must be a page path or a group object")),
            }
        })
        .collect()
}

/// mint.json's tabs or anchors under `key`; entries without a name and a URL are skipped.
fn mint_sections(document: &Value, key: &str) -> Vec<MintSection> {
    let Some(items) = document.get(key).and_then(Value::as_array) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(Value::as_object)
        .filter_map(|item| {
            Some(MintSection {
                name: text(item, "name")?,
                url: item.get("url")?.as_str()?.trim().to_string(),
                icon: item.get("icon").and_then(Value::as_str).map(String::from),
            })
        })
        .collect()
}

fn name_of(document: &Value, key: &str) -> Option<String> {
    document.get(key)?.get("name")?.as_str().map(String::from)
}

#[cfg(test)]
mod tests;
