//! docs.json settings about how pages look and what they offer readers, beyond the frame
//! (`chrome.rs`): `background` (colours and decoration), `styling.eyebrows`, `search.prompt`,
//! `errors.404` (drawn by `not_found`) and the `contextual` menu (copy the page, view it as
//! Markdown, ask an assistant about it, connect an agent to the site's MCP server: the
//! assistants only where the deployment lets pages reach other sites, the MCP options only
//! where it serves an MCP endpoint, both decided by quire.js from the bundle's feature file).

use quire_sdk::config::{ContextualOption, Image, OptionHref, SiteConfig};

use crate::settings::values::{is_hex_color, trimmed};

/// The options of the contextual menu this renderer offers, in docs.json's spelling.
const CONTEXTUAL: &[&str] = &[
    "copy",
    "view",
    "chatgpt",
    "claude",
    "perplexity",
    "mcp",
    "cursor",
    "vscode",
];

/// An option of the contextual menu.
#[derive(Debug, Clone, PartialEq)]
pub enum MenuOption {
    /// One of `CONTEXTUAL`, by its docs.json name.
    Builtin(String),
    /// A custom option: `{title, description, icon, href}`, where `href` is a link or
    /// `{base, query: [{key, value}]}`, and `$page` / `$path` in it stand for the page's address
    /// and path.
    Custom {
        title: String,
        description: Option<String>,
        base: String,
        query: Vec<(String, String)>,
    },
}

impl MenuOption {
    fn from_config(option: &ContextualOption) -> Option<Self> {
        Some(match option {
            ContextualOption::Builtin(name) => {
                return CONTEXTUAL
                    .contains(&name.as_str())
                    .then(|| Self::Builtin(name.clone()));
            }
            ContextualOption::Custom {
                title,
                description,
                href,
                ..
            } => {
                let (base, query) = match href {
                    OptionHref::Url(url) => (url.clone(), Vec::new()),
                    OptionHref::Built { base, query } => (
                        base.clone(),
                        query
                            .iter()
                            .map(|pair| (pair.key.clone(), pair.value.clone()))
                            .collect(),
                    ),
                };
                Self::Custom {
                    title: title.clone(),
                    description: description.clone(),
                    base,
                    query,
                }
            }
        })
    }
}

/// Page appearance settings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Appearance {
    /// `background.color.light` / `.dark`: page background colours.
    pub background_light: Option<String>,
    pub background_dark: Option<String>,
    /// `background.decoration`: `gradient`, `grid` or `windows`.
    pub decoration: Option<String>,
    /// `styling.eyebrows: "section"`: above the title, only the page's section, not the trail.
    pub section_eyebrow: bool,
    /// `styling.latex`: `Some(false)` leaves `$...$` as text, `Some(true)` always reads it as
    /// a formula; unset, an inline one is a formula when it reads as one (not "$5 and $10").
    pub latex: Option<bool>,
    /// `search.prompt`: the search box's placeholder.
    pub search_prompt: Option<String>,
    /// `errors.404.title` and `.description`.
    pub not_found_title: Option<String>,
    pub not_found_description: Option<String>,
    /// `errors.404.redirect: false`: a missing page shows the not-found page, rather than
    /// sending the reader to the home page (the default).
    pub not_found_shown: bool,
    /// `contextual.options` this renderer offers, in the file's order.
    pub contextual: Vec<MenuOption>,
    /// `contextual.display: "toc"`: the options sit under the table of contents rather than
    /// under the page title (where a page has no table of contents, they stay there).
    pub contextual_in_toc: bool,
    /// `interaction.drilldown: true`: opening a sidebar group opens its first page.
    pub drilldown: bool,
    /// `styling.codeblocks: "dark"`: code blocks stay dark in light mode too.
    pub dark_code_blocks: bool,
    /// `metadata.timestamp`: pages show when their source was last changed.
    pub timestamps: bool,
    /// `background.image` (a path, or `{light, dark}`): images of the site behind the pages;
    /// one on another host is `external.rs`'s to report, and left out.
    pub background_image_light: Option<String>,
    pub background_image_dark: Option<String>,
    /// `appearance.strict`: the site keeps `appearance.default`, with no light/dark toggle.
    pub strict: bool,
}

impl Appearance {
    /// Reads the appearance settings of the site's settings.
    pub fn from_config(config: &SiteConfig) -> Self {
        let color = |c: Option<&Option<String>>| c.and_then(trimmed).filter(|c| is_hex_color(c));
        let background_color = config.background.color.as_ref();
        let image = |path: Option<&String>| {
            path.map(String::as_str)
                .map(str::trim)
                .filter(|p| !p.is_empty() && !crate::settings::external::is_remote(p))
                .map(css_path)
        };
        let (image_light, image_dark) = match &config.background.image {
            Some(Image::Path(one)) => {
                let one = image(Some(one));
                (one.clone(), one)
            }
            Some(Image::Modes(modes)) => (image(modes.light.as_ref()), image(modes.dark.as_ref())),
            None => (None, None),
        };
        let not_found = &config.errors.not_found;
        Self {
            background_image_light: image_light.clone(),
            background_image_dark: image_dark.or(image_light),
            strict: config.appearance.strict.unwrap_or(false),
            background_light: color(background_color.map(|c| &c.light)),
            background_dark: color(background_color.map(|c| &c.dark)),
            decoration: trimmed(&config.background.decoration)
                .filter(|d| matches!(d.as_str(), "gradient" | "grid" | "windows")),
            section_eyebrow: trimmed(&config.styling.eyebrows).as_deref() == Some("section"),
            latex: config.styling.latex,
            search_prompt: trimmed(&config.search.prompt),
            not_found_title: trimmed(&not_found.title),
            not_found_description: trimmed(&not_found.description),
            not_found_shown: not_found.redirect == Some(false),
            contextual: config
                .contextual
                .options
                .iter()
                .filter_map(MenuOption::from_config)
                .collect(),
            contextual_in_toc: trimmed(&config.contextual.display).as_deref() == Some("toc"),
            drilldown: config.interaction.drilldown == Some(true),
            dark_code_blocks: config.styling.dark_code_blocks(),
            timestamps: config.metadata.timestamp.unwrap_or(false),
        }
    }

    /// CSS for the background settings, appended to the theme's stylesheet.
    pub fn css(&self) -> String {
        let mut css = String::new();
        if let Some(light) = &self.background_light {
            css.push_str(&format!(":root {{ --quire-background: {light}; }}\n"));
        }
        if let Some(dark) = &self.background_dark {
            css.push_str(&format!("html.dark {{ --quire-background: {dark}; }}\n"));
        }
        // The stylesheet sits in `assets/`, one folder below the site's files.
        let image = |selector: &str, path: &str| {
            format!(
                "{selector} {{ background-image: url(\"../{path}\"); background-size: cover; background-position: top center; background-repeat: no-repeat; background-attachment: fixed; }}\n"
            )
        };
        if let Some(light) = &self.background_image_light {
            css.push_str(&image("body", light));
        }
        if let Some(dark) = &self.background_image_dark
            && self.background_image_light.as_ref() != Some(dark)
        {
            css.push_str(&image("html.dark body", dark));
        }
        css
    }

    /// The `<body>` classes these settings add (a leading space included).
    pub fn body_classes(&self) -> String {
        self.decoration
            .as_deref()
            .map(|d| format!(" background-{d}"))
            .unwrap_or_default()
    }

    /// The contextual menu's markup: quire.js wires the buttons and drops the assistants
    /// where the deployment keeps pages on the bundle.
    pub fn contextual_menu(&self, markdown_href: &str, root: &str) -> String {
        if self.contextual.is_empty() {
            return String::new();
        }
        let mut html =
            String::from("<div class=\"contextual\" role=\"group\" aria-label=\"This page\">");
        for option in &self.contextual {
            html.push_str(&match option {
                MenuOption::Builtin(name) => builtin_option(name, markdown_href),
                MenuOption::Custom {
                    title,
                    description,
                    base,
                    query,
                } => custom_option(title, description.as_deref(), base, query, root),
            });
        }
        html.push_str("</div>\n");
        html
    }
}

/// A site file's path as it can stand in a CSS `url("...")`: no leading `/`, nothing that
/// ends the string or the call.
fn css_path(path: &str) -> String {
    path.trim_start_matches('/')
        .chars()
        .filter(|c| !matches!(c, '"' | '\\' | '(' | ')' | '\n'))
        .collect()
}

fn builtin_option(name: &str, markdown_href: &str) -> String {
    match name {
        "copy" => "<button type=\"button\" data-contextual=\"copy\">Copy page</button>".to_string(),
        "view" => format!(
            "<a data-contextual=\"view\" href=\"{}\">View as Markdown</a>",
            quire_sdk::escape::html(markdown_href)
        ),
        // The MCP options need the endpoint's address, which only the serving deployment
        // knows: quire.js fills them in from the feature file, or drops them.
        "mcp" => {
            "<button type=\"button\" data-contextual=\"mcp\" hidden>Copy MCP server URL</button>"
                .to_string()
        }
        "cursor" => "<a data-contextual=\"cursor\" hidden>Connect to Cursor</a>".to_string(),
        "vscode" => "<a data-contextual=\"vscode\" hidden>Connect to VS Code</a>".to_string(),
        assistant => format!(
            "<a data-contextual=\"{assistant}\" hidden rel=\"noopener\">Open in {}</a>",
            match assistant {
                "chatgpt" => "ChatGPT",
                "claude" => "Claude",
                _ => "Perplexity",
            }
        ),
    }
}

/// A custom option: a plain link (one to a file or page of the site made relative to the page,
/// whose way back to the site's root is `root`, so it works from files too); one that names
/// the page (`$page`, `$path`) is completed by quire.js, and offered only where the page has a
/// web address the deployment may send elsewhere, as the assistants are.
fn custom_option(
    title: &str,
    description: Option<&str>,
    base: &str,
    query: &[(String, String)],
    root: &str,
) -> String {
    use quire_sdk::escape;
    let hint = description
        .map(|d| format!(" title=\"{}\"", escape::html(d)))
        .unwrap_or_default();
    let names_page = base.contains('$') || query.iter().any(|(_, v)| v.contains('$'));
    if !names_page {
        let mut href = crate::links::navigation_href(base, root);
        for (i, (key, value)) in query.iter().enumerate() {
            href.push(if i == 0 && !base.contains('?') {
                '?'
            } else {
                '&'
            });
            href.push_str(&format!("{}={}", encode(key), encode(value)));
        }
        return format!(
            "<a data-contextual=\"link\" href=\"{}\"{hint} rel=\"noopener\">{}</a>",
            escape::html(&href),
            escape::html(title)
        );
    }
    let template = serde_json::json!({"base": base, "query": query});
    format!(
        "<a data-contextual=\"template\" data-template=\"{}\"{hint} hidden rel=\"noopener\">{}</a>",
        escape::html(&template.to_string()),
        escape::html(title)
    )
}

/// `text` as a URL query component.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn settings_are_read_and_checked() {
        let config: Value = serde_json::from_str(
            r##"{"background":{"color":{"light":"#fafafa","dark":"red;}"},"decoration":"grid"},
                "styling":{"eyebrows":"section"},"search":{"prompt":"Ask or search"},
                "errors":{"404":{"title":"Lost?","description":"Try the search."}},
                "contextual":{"options":["copy","view","chatgpt","windsurf"]}}"##,
        )
        .unwrap();
        let a = Appearance::from_config(&SiteConfig::of(&config));
        assert_eq!(a.background_light.as_deref(), Some("#fafafa"));
        assert_eq!(a.background_dark, None, "not a colour");
        assert_eq!(a.body_classes(), " background-grid");
        assert!(a.section_eyebrow);
        assert_eq!(a.search_prompt.as_deref(), Some("Ask or search"));
        assert_eq!(a.not_found_title.as_deref(), Some("Lost?"));
        assert_eq!(
            a.contextual,
            ["copy", "view", "chatgpt"].map(|o| MenuOption::Builtin(o.into())),
            "options it offers, in order"
        );
        let menu = a.contextual_menu("guides/a.md", "../");
        assert!(menu.contains("href=\"guides/a.md\"") && menu.contains("Open in ChatGPT"));
        assert!(a.css().contains("--quire-background: #fafafa"));
        assert_eq!(
            Appearance::from_config(&SiteConfig::of(&Value::Null)),
            Appearance::default()
        );
    }

    #[test]
    fn mcp_options_wait_hidden_for_the_deployment_to_name_its_endpoint() {
        let config: Value = serde_json::from_str(
            r#"{"contextual":{"options":["mcp","cursor","vscode","windsurf"]}}"#,
        )
        .unwrap();
        let a = Appearance::from_config(&SiteConfig::of(&config));
        assert_eq!(
            a.contextual.len(),
            3,
            "an option this renderer lacks is left out"
        );
        let menu = a.contextual_menu("p.md", "");
        for (option, label) in [
            ("mcp", "Copy MCP server URL"),
            ("cursor", "Connect to Cursor"),
            ("vscode", "Connect to VS Code"),
        ] {
            let tag = menu
                .split('<')
                .find(|t| t.contains(&format!("data-contextual=\"{option}\"")))
                .unwrap_or_else(|| panic!("{option} in {menu}"));
            assert!(tag.contains("hidden") && tag.ends_with(label), "{tag}");
        }
    }

    #[test]
    fn custom_contextual_options_are_links_or_templates_for_the_page() {
        let config: Value = serde_json::from_str(
            r#"{"contextual":{"options":["copy",
                {"title":"llms.txt","description":"The site for models","icon":"file","href":"https://docs.example/llms.txt"},
                {"title":"Share","icon":"x","href":{"base":"https://x.com/intent/tweet","query":[{"key":"text","value":"Read $page"}]}},
                {"title":"Fixed","href":{"base":"https://a.example/s","query":[{"key":"q","value":"a b&c"}]}},
                {"title":"Models","href":"/llms.txt"},
                {"title":"No link"}]}}"#,
        )
        .unwrap();
        let a = Appearance::from_config(&SiteConfig::of(&config));
        assert_eq!(a.contextual.len(), 5, "{:?}", a.contextual);
        let menu = a.contextual_menu("p.md", "../");
        assert!(menu.contains(
            r#"<a data-contextual="link" href="https://docs.example/llms.txt" title="The site for models" rel="noopener">llms.txt</a>"#
        ), "{menu}");
        assert!(
            menu.contains(r#"href="https://a.example/s?q=a%20b%26c""#),
            "{menu}"
        );
        assert!(menu.contains(r#"data-contextual="template""#) && menu.contains("Read $page"));
        assert!(menu.contains("hidden rel=\"noopener\">Share</a>"));
    }

    #[test]
    fn background_images_of_the_site_are_drawn_and_others_left_out() {
        let one: Value = serde_json::from_str(
            r#"{"background":{"image":"/images/bg\".png"},"appearance":{"strict":true}}"#,
        )
        .unwrap();
        let a = Appearance::from_config(&SiteConfig::of(&one));
        assert!(a.strict);
        let css = a.css();
        assert!(
            css.contains(r#"body { background-image: url("../images/bg.png")"#),
            "{css}"
        );
        assert!(
            !css.contains("html.dark body"),
            "one image serves both modes"
        );
        let pair: Value = serde_json::from_str(
            r#"{"background":{"image":{"light":"light.png","dark":"https://cdn.example/dark.png"}}}"#,
        )
        .unwrap();
        let a = Appearance::from_config(&SiteConfig::of(&pair));
        assert_eq!(a.background_image_light.as_deref(), Some("light.png"));
        assert_eq!(
            a.background_image_dark.as_deref(),
            Some("light.png"),
            "the remote one is left out"
        );
        assert!(!a.css().contains("cdn.example"));
    }
}
