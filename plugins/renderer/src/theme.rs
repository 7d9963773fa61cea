//! Files every page shares: stylesheets, scripts, one navigation script per navigation context,
//! the feature switches, and the site's entry and not-found pages.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use crate::escape::{escaped, script_json};
use crate::icons;
use crate::navigation::Site;

const STYLESHEET: &str = include_str!("../assets/quire.css");
const SCRIPT: &str = include_str!("../assets/quire.js");
const SEARCH_SCRIPT: &str = include_str!("../assets/search.js");
const PLAYGROUND_SCRIPT: &str = include_str!("../assets/playground.js");
const ASSISTANT_SCRIPT: &str = include_str!("../assets/assistant.js");

/// The feature switches a bundle starts with: the offline search box and the playground on,
/// the assistant and analytics off, so the bundle makes no request to any other host. A docs
/// server replaces this file to match its deployment type.
pub const DEFAULT_FEATURES: &str = r#"{"search":true,"playground":true,"assistant":{"enabled":false,"endpoint":"","key":""},"analytics":{"enabled":false,"endpoint":"","key":""}}"#;

/// The path of the feature file in the bundle.
pub const FEATURES_FILE: &str = "quire-features.js";

/// The theme's files, named by their content (`assets/quire.0123abcdef.css`) so servers can let
/// browsers keep them for a year: a changed file gets a new name, and the pages that use it
/// change with it. Built once per site, when it is opened.
#[derive(Debug, Clone)]
pub struct ThemeFiles {
    pub stylesheet: String,
    pub highlight: String,
    pub script: String,
    pub search: String,
    pub playground: String,
    pub assistant: String,
    /// The script naming fonts and analytics on other hosts, if the site has any.
    pub external: Option<String>,
    /// One navigation script per navigation context.
    pub navigation: Vec<String>,
    files: Vec<(String, Vec<u8>)>,
}

impl ThemeFiles {
    /// The files for `site`'s settings and navigation contexts.
    pub fn build(
        settings: &crate::settings::Settings,
        contexts: &[crate::navigation::NavContext],
    ) -> Self {
        let css = STYLESHEET
            .replace(
                "--quire-primary: #2563eb",
                &format!("--quire-primary: {}", settings.primary),
            )
            .replace(
                "--quire-primary-dark: #60a5fa",
                &format!("--quire-primary-dark: {}", settings.light),
            )
            .replace(
                "--quire-button: #2563eb",
                &format!("--quire-button: {}", settings.dark),
            )
            + &settings.chrome.font_css()
            + &crate::tailwind::stylesheet()
            + &settings.appearance.css();
        let mut files = Vec::new();
        let mut add = |stem: &str, ext: &str, contents: Vec<u8>| -> String {
            let hash = hex::encode(&Sha256::digest(&contents)[..5]);
            let path = format!("assets/{stem}.{hash}.{ext}");
            files.push((path.clone(), contents));
            path
        };
        let stylesheet = add("quire", "css", css.into_bytes());
        let highlight = add("highlight", "css", crate::code::stylesheet().into_bytes());
        let script = add("quire", "js", SCRIPT.as_bytes().to_vec());
        let search = add("search", "js", SEARCH_SCRIPT.as_bytes().to_vec());
        let playground = add("playground", "js", PLAYGROUND_SCRIPT.as_bytes().to_vec());
        let assistant = add("assistant", "js", ASSISTANT_SCRIPT.as_bytes().to_vec());
        let external = settings
            .external
            .script()
            .map(|script| add("external", "js", script.into_bytes()));
        let navigation = contexts
            .iter()
            .enumerate()
            .map(|(i, context)| {
                let icons: BTreeMap<&str, String> = context
                    .items
                    .iter()
                    .filter_map(|item| {
                        let name = item.icon.as_deref()?;
                        let html = settings.icon_html(icons::IconRef::named(name), 16, None)?;
                        Some((name, html))
                    })
                    .collect();
                let navigation = serde_json::json!({ "items": context.items, "icons": icons });
                let script = format!(
                    "// The navigation of one version and language, drawn into the sidebar by quire.js.\nwindow.QUIRE_NAV = {};\n",
                    script_json(&navigation.to_string())
                );
                add(&format!("nav/{i}"), "js", script.into_bytes())
            })
            .collect();
        Self {
            stylesheet,
            highlight,
            script,
            search,
            playground,
            assistant,
            external,
            navigation,
            files,
        }
    }
}

/// The shared files as (path, contents): the theme's files, the feature file, the not-found
/// page and, when the site has no `index` page, an entry page. Each navigation context's tree is
/// written once, not into every page, so the export grows linearly with the number of pages.
pub fn assets(site: &Site) -> Vec<(String, Vec<u8>)> {
    let mut files = site.theme.files.clone();
    files.push((
        FEATURES_FILE.to_string(),
        features_script(DEFAULT_FEATURES).into_bytes(),
    ));
    files.push(("404.html".to_string(), not_found(site).into_bytes()));
    if !site.pages.contains("index")
        && let Some(home) = site.home()
    {
        files.push(("index.html".to_string(), redirect(site, home).into_bytes()));
    }
    files
}

/// The feature file for the switches in `json`: a script, so it loads from `file://` too.
pub fn features_script(json: &str) -> String {
    format!(
        "// Feature switches of this copy of the site; a docs server rewrites this file.\nwindow.QUIRE_FEATURES = {};\n",
        script_json(json)
    )
}

/// The entry page when the site has no `index` page: a link to the first navigation page that
/// browsers follow at once (a meta refresh works from `file://` too).
fn redirect(site: &Site, home: &str) -> String {
    let target = format!("{}.html", escaped(home));
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"refresh\" content=\"0; url={target}\"><title>{}</title>\
         <link rel=\"stylesheet\" href=\"{}\"></head>\
         <body><main class=\"content\"><p><a href=\"{target}\">Go to the documentation</a></p></main></body></html>\n",
        escaped(&site.name),
        escaped(&site.theme.stylesheet)
    )
}

/// The not-found page. Servers show it for any missing path, so it cannot know its depth: it
/// carries its own styling and finds the site's root from where it is served (the bundle's
/// own `404.html` location), falling back to a plain link.
fn not_found(site: &Site) -> String {
    let home = site.home().unwrap_or("index");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>Page not found · {name}</title>\
         <style>:root{{color-scheme:light dark}}body{{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.6}}\
         h1{{font-size:2rem}}a{{color:{color}}}</style>\
         </head><body><p>404</p><h1>{title}</h1><p>{description}</p>\
         <p><a href=\"{home}.html\" id=\"home\">Back to the documentation</a></p></body></html>\n",
        name = escaped(&site.name),
        title = escaped(
            site.settings
                .appearance
                .not_found_title
                .as_deref()
                .unwrap_or("Page not found")
        ),
        description = match &site.settings.appearance.not_found_description {
            Some(description) => escaped(description),
            None => format!("This page does not exist in {}.", escaped(&site.name)),
        },
        color = site.settings.primary,
        home = escaped(home),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigation::{NavItem, NavItemKind};

    #[test]
    fn shared_files_carry_the_theme_and_navigation() {
        let mut item = NavItem::new(NavItemKind::Page, 0, "Intro</script>", Some("intro"));
        item.icon = Some("rocket".into());
        let site = Site::new(
            "Acme".into(),
            "v1".into(),
            vec![item],
            r##"{"colors":{"primary":"#112233"}}"##,
            vec![],
        )
        .unwrap();
        let files = assets(&site);
        let get = |p: &str| {
            String::from_utf8(files.iter().find(|(path, _)| path == p).unwrap().1.clone()).unwrap()
        };
        let css = &site.theme.stylesheet;
        assert!(
            css.starts_with("assets/quire.")
                && css.ends_with(".css")
                && css.len() == "assets/quire.0123456789.css".len(),
            "{css}"
        );
        assert!(get(css).contains("--quire-primary: #112233"));
        let nav = get(&site.theme.navigation[0]);
        assert!(nav.contains("\\u003c/script>"));
        assert!(nav.contains("\"rocket\":\"\\u003csvg"), "{nav}");
        assert!(get("index.html").contains("url=intro.html"));
        assert!(get("404.html").contains("Page not found"));
        assert!(get(FEATURES_FILE).contains("\"assistant\":{\"enabled\":false"));
    }
}
