//! Files every page shares: the stylesheet, the script that draws the sidebar, the navigation
//! data, and the site's entry and not-found pages.

use crate::escape::{escaped, script_json};
use crate::navigation::Site;

const STYLESHEET: &str = include_str!("../assets/quire.css");
const SCRIPT: &str = include_str!("../assets/quire.js");

/// The shared files as (path, contents). The navigation is written once here, not into every
/// page, so the export grows linearly with the number of pages.
pub fn assets(site: &Site) -> Vec<(String, Vec<u8>)> {
    let css = STYLESHEET.replace(
        "--quire-primary: #2563eb",
        &format!("--quire-primary: {}", site.primary_color),
    );
    let navigation = serde_json::json!({ "items": site.items });
    let navigation_js = format!(
        "// The site's navigation, drawn into every page's sidebar by quire.js.\nwindow.QUIRE_NAV = {};\n",
        script_json(&navigation.to_string())
    );
    let mut files = vec![
        ("assets/quire.css".to_string(), css.into_bytes()),
        ("assets/quire.js".to_string(), SCRIPT.as_bytes().to_vec()),
        (
            "assets/navigation.js".to_string(),
            navigation_js.into_bytes(),
        ),
        ("404.html".to_string(), not_found(site).into_bytes()),
    ];
    if !site.pages.contains("index")
        && let Some(home) = site.home()
    {
        files.push(("index.html".to_string(), redirect(site, home).into_bytes()));
    }
    files
}

/// The entry page when the site has no `index` page: a link to the first navigation page that
/// browsers follow at once (a meta refresh works from `file://` too).
fn redirect(site: &Site, home: &str) -> String {
    let target = format!("{}.html", escaped(home));
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"refresh\" content=\"0; url={target}\"><title>{}</title>\
         <link rel=\"stylesheet\" href=\"assets/quire.css\"></head>\
         <body><main class=\"content\"><p><a href=\"{target}\">Go to the documentation</a></p></main></body></html>\n",
        escaped(&site.name)
    )
}

/// The not-found page. Servers show it from any path, so its links are root-relative to the
/// site's own root as configured by the server (`/`), and it carries its own minimal styling.
fn not_found(site: &Site) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Page not found · {}</title>\
         <style>body{{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}}</style>\
         </head><body><h1>Page not found</h1><p>This page does not exist in {}.</p>\
         <p><a href=\"index.html\">Back to the documentation</a></p></body></html>\n",
        escaped(&site.name),
        escaped(&site.name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigation::{NavItem, NavItemKind};

    #[test]
    fn shared_files_carry_the_theme_and_navigation() {
        let items = vec![NavItem {
            kind: NavItemKind::Page,
            depth: 0,
            label: "Intro</script>".into(),
            target: Some("intro".into()),
            icon: None,
        }];
        let site = Site::new(
            "Acme".into(),
            "v1".into(),
            items,
            r##"{"colors":{"primary":"#112233"}}"##,
            vec![],
        )
        .unwrap();
        let files = assets(&site);
        let get = |p: &str| {
            String::from_utf8(files.iter().find(|(path, _)| path == p).unwrap().1.clone()).unwrap()
        };
        assert!(get("assets/quire.css").contains("--quire-primary: #112233"));
        assert!(get("assets/navigation.js").contains("\\u003c/script>"));
        assert!(get("index.html").contains("url=intro.html"));
        assert!(get("404.html").contains("Page not found"));
    }
}
