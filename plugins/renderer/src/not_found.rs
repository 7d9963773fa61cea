//! The bundle's `404.html`, which servers show for any missing path. It carries its own styling
//! and script since it cannot know how deep it is served; the script finds the bundle's root and
//! sends the reader home (docs.json `errors.404.redirect`, on unless set to `false`) or suggests
//! pages. `errors.404.title` and `.description` (inline Markdown) replace the default text.

use crate::site::Site;
use quire_sdk::escape;

const SCRIPT: &str = include_str!("../assets/not-found.js");

/// The not-found page's HTML.
pub fn page(site: &Site) -> String {
    let appearance = &site.settings.appearance;
    let home = site.home().unwrap_or("index");
    let description = match &appearance.not_found_description {
        Some(description) => crate::inline_markdown::html(description, ""),
        None => format!("This page does not exist in {}.", escape::html(&site.name)),
    };
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>Page not found · {name}</title>\
         <style>:root{{color-scheme:light dark}}body{{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.6}}\
         h1{{font-size:2rem}}a{{color:{color}}}</style>\
         </head><body><main><p>404</p><h1>{title}</h1><p>{description}</p>\
         <section hidden><p>Maybe you were looking for:</p><ul id=\"suggestions\"></ul></section>\
         <p><a href=\"{home}.html\" id=\"home\">Back to the documentation</a></p></main>\
         <script data-home=\"{home}\" data-redirect=\"{redirect}\">{SCRIPT}</script></body></html>\n",
        name = escape::html(&site.name),
        title = escape::html(
            appearance
                .not_found_title
                .as_deref()
                .unwrap_or("Page not found")
        ),
        color = site.settings.primary,
        home = escape::html(home),
        redirect = !appearance.not_found_shown,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigation::{NavEntry, NavKind};

    fn site(config: &str) -> Site {
        let items = vec![NavEntry::new(NavKind::Page, 0, "Intro", Some("intro"))];
        Site::new("Acme".into(), "v1".into(), items, config, vec![]).unwrap()
    }

    #[test]
    fn the_page_redirects_home_unless_the_site_turns_it_off() {
        let default = page(&site("{}"));
        assert!(default.contains("<h1>Page not found</h1>"));
        assert!(default.contains("data-home=\"intro\" data-redirect=\"true\""));
        assert!(
            default.contains("manifest.json"),
            "the script finds the root"
        );

        let config = r#"{"errors": {"404": {"redirect": false, "title": "Lost <again>?",
            "description": "What **happened**? See [the intro](/intro)."}}}"#;
        let custom = page(&site(config));
        assert!(custom.contains("data-redirect=\"false\""));
        assert!(custom.contains("<h1>Lost &lt;again&gt;?</h1>"));
        assert!(
            custom.contains(
                "What <strong>happened</strong>? See <a href=\"intro.html\">the intro</a>."
            ),
            "{custom}"
        );
    }
}
