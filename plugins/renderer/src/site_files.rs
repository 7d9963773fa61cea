//! The site-wide files of a bundle besides its pages: the theme's files, the feature file, the
//! not-found page and, when the site has no `index` page, an entry page (the shared assets);
//! and what the pages need once for the whole site (the diagram script) with the problems in
//! the site's settings (the site output).

use crate::site::Site;
use crate::theme::{DEFAULT_FEATURES, FEATURES_FILE, features_script};
use quire_sdk::escape;

/// The shared files as (path, contents): the theme's files, the feature file, the not-found
/// page and, when the site has no `index` page, an entry page. Each navigation context's tree is
/// written once, not into every page, so the export grows linearly with the number of pages.
pub fn assets(site: &Site) -> Vec<(String, Vec<u8>)> {
    let mut files = site.theme.files.clone();
    files.push((
        FEATURES_FILE.to_string(),
        features_script(DEFAULT_FEATURES).into_bytes(),
    ));
    files.push((
        "404.html".to_string(),
        crate::not_found::page(site).into_bytes(),
    ));
    if !site.pages.contains("index")
        && let Some(home) = site.home()
    {
        files.push(("index.html".to_string(), redirect(site, home).into_bytes()));
    }
    files
}

/// What a page with a diagram needs: the Mermaid script.
pub const DIAGRAMS: &str = "diagrams";

/// What belongs to the whole site rather than to any page.
pub struct SiteOutput {
    /// The files the pages' `needs` named, as (path, contents).
    pub files: Vec<(String, Vec<u8>)>,
    /// Problems in the site's settings, against `settings_file`.
    pub problems: Vec<String>,
    /// The navigation file as authors know it (`docs.json`, `mint.json`).
    pub settings_file: &'static str,
}

/// What belongs to the whole site: the files `needs` names (each name once) and the problems
/// in the site's settings.
pub fn site_output(site: &Site, needs: &[String]) -> SiteOutput {
    let files = needs
        .iter()
        .filter(|need| need.as_str() == DIAGRAMS)
        .take(1)
        .map(|_| {
            (
                crate::diagrams::MERMAID_PATH.to_string(),
                crate::diagrams::MERMAID_SCRIPT.to_vec(),
            )
        })
        .collect();
    SiteOutput {
        files,
        problems: site.settings.external.problems.clone(),
        settings_file: site.settings.config_file,
    }
}

/// The entry page when the site has no `index` page: a link to the first navigation page that
/// browsers follow at once (a meta refresh works from `file://` too).
fn redirect(site: &Site, home: &str) -> String {
    let target = format!("{}.html", escape::html(home));
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"refresh\" content=\"0; url={target}\"><title>{}</title>\
         <link rel=\"stylesheet\" href=\"{}\"></head>\
         <body><main class=\"content\"><p><a href=\"{target}\">Go to the documentation</a></p></main></body></html>\n",
        escape::html(&site.name),
        escape::html(&site.theme.stylesheet)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigation::{NavEntry, NavKind};
    use crate::theme::FEATURES_FILE;

    #[test]
    fn shared_files_carry_the_theme_and_navigation() {
        let mut item = NavEntry::new(NavKind::Page, 0, "Intro</script>", Some("intro"));
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

    #[test]
    fn the_site_output_gives_what_pages_need_once_and_the_settings_problems() {
        let config = r#"{"background": {"image": {"dark": "https://cdn.example/d.png"}}}"#;
        let site = Site::new("Acme".into(), "v1".into(), vec![], config, vec![]).unwrap();
        let page = crate::render_page(
            &site,
            "a",
            "a.mdx",
            "```mermaid\ngraph LR\n  A --> B\n```\n",
        );
        assert_eq!(page.needs, [DIAGRAMS]);
        let plain = crate::render_page(&site, "b", "b.mdx", "# B\n");
        assert!(plain.needs.is_empty());
        assert!(
            plain
                .warnings
                .iter()
                .all(|w| !w.message.contains("background")),
            "settings problems are the site's, not each page's"
        );
        let output = site_output(&site, &[DIAGRAMS.to_string()]);
        assert_eq!(output.files.len(), 1);
        assert_eq!(output.files[0].0, crate::diagrams::MERMAID_PATH);
        assert_eq!(output.problems.len(), 1, "{:?}", output.problems);
        assert!(output.problems[0].starts_with("background.image.dark"));
        assert_eq!(output.settings_file, "docs.json");
        assert!(site_output(&site, &[]).files.is_empty());
    }
}
