//! The site's frame around every page, from docs.json: the navbar's primary button, the
//! footer's social links and link columns, the banner, `seo.metatags` and `seo.indexing`, the
//! logo's link and the font families. Only what a static bundle can honour without requests
//! off the bundle: a font is named for the browser to use, never fetched.

use quire_sdk::config::{Fonts, Link, SiteConfig};

use crate::settings::values::trimmed;

/// The frame settings of a site.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chrome {
    /// `navbar.primary`: a button (`{type: "button", label, href}`) or a GitHub link
    /// (`{type: "github", href}`), as (label, href).
    pub primary_button: Option<(String, String)>,
    /// `footer.socials`: (network, URL), in the file's order.
    pub socials: Vec<(String, String)>,
    /// `footer.links`: columns of (header, [(label, href)]).
    pub footer_columns: Vec<(String, Vec<(String, String)>)>,
    /// `banner.content`, shown above every page as text.
    pub banner: Option<String>,
    /// `banner.dismissible`: readers may close the banner.
    pub banner_dismissible: bool,
    /// `banner.type` and `banner.color`.
    pub banner_look: super::banner::Look,
    /// `seo.metatags`: (name, content) for every page's head.
    pub metatags: Vec<(String, String)>,
    /// `seo.indexing: "none"`: every page asks search engines not to index it.
    pub noindex: bool,
    /// `logo.href`: where the logo leads, instead of the home page.
    pub logo_href: Option<String>,
    /// `fonts.family` (or `fonts.body.family`) and `fonts.heading.family`.
    pub body_font: Option<String>,
    pub heading_font: Option<String>,
    /// Font files in the site (a `source` that is a path), as (family, path, format, weight);
    /// fonts on other hosts are `external.rs`'s.
    pub local_fonts: Vec<(String, String, Option<String>, Option<u64>)>,
}

impl Chrome {
    /// Reads the frame settings of the site's settings.
    pub fn from_config(config: &SiteConfig) -> Self {
        let footer_columns = config
            .footer
            .links
            .iter()
            .map(|column| {
                let header = column.header.clone().unwrap_or_default();
                let items: Vec<_> = column.items.iter().filter_map(labelled_link).collect();
                (header, items)
            })
            .filter(|(_, items)| !items.is_empty())
            .collect();
        let fonts = config.fonts.as_ref();
        let local_fonts = fonts
            .map(Fonts::each)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(_, font)| {
                let source = font.source?;
                if crate::settings::external::is_remote(&source) {
                    return None;
                }
                let path: String = source
                    .trim_start_matches('/')
                    .chars()
                    .filter(|c| !matches!(c, '"' | '\\' | '(' | ')' | '\n'))
                    .collect();
                Some((
                    crate::settings::external::font_family(&font.family?),
                    path,
                    font.format,
                    font.weight,
                ))
            })
            .collect();
        let banner = config.banner.as_ref();
        Self {
            primary_button: config.navbar.primary_button(),
            socials: config.footer.social_links(),
            footer_columns,
            banner: banner.and_then(|b| trimmed(&b.content)),
            banner_dismissible: banner.and_then(|b| b.dismissible).unwrap_or(false),
            banner_look: super::banner::Look::from_config(banner),
            metatags: config.seo.tags(),
            noindex: trimmed(&config.seo.indexing).as_deref() == Some("none"),
            logo_href: config
                .logo
                .as_ref()
                .and_then(|l| l.href())
                .map(String::from),
            body_font: fonts.and_then(Fonts::body_family).map(String::from),
            heading_font: fonts.and_then(Fonts::heading_family).map(String::from),
            local_fonts,
        }
    }

    /// CSS that loads the site's own font files (the stylesheet sits in `assets/`) and applies
    /// the font families (quoted, with the theme's fonts as fallback).
    pub fn font_css(&self) -> String {
        let quoted =
            |family: &str| format!("\"{}\"", crate::settings::external::font_family(family));
        let mut css = String::new();
        for (family, path, format, weight) in &self.local_fonts {
            let format = match format.as_deref() {
                Some(f @ ("woff" | "woff2" | "truetype" | "opentype")) => {
                    format!(" format(\"{f}\")")
                }
                _ => String::new(),
            };
            let weight = weight
                .filter(|w| (1..=1000).contains(w))
                .map(|w| format!(" font-weight: {w};"))
                .unwrap_or_default();
            css.push_str(&format!(
                "@font-face {{ font-family: \"{family}\"; src: url(\"../{path}\"){format};{weight} font-display: swap; }}\n"
            ));
        }
        if let Some(body) = &self.body_font {
            css.push_str(&format!(
                "body {{ font-family: {}, var(--quire-font, system-ui, sans-serif); }}\n",
                quoted(body)
            ));
        }
        if let Some(heading) = &self.heading_font {
            css.push_str(&format!(
                "h1, h2, h3, h4, .page-title {{ font-family: {}, inherit; }}\n",
                quoted(heading)
            ));
        }
        css
    }
}

/// A `{label, href}` link: a footer link has both.
fn labelled_link(item: &Link) -> Option<(String, String)> {
    Some((item.label.clone()?, item.href.clone()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_frame_settings() {
        let config = serde_json::json!({
            "navbar": {"primary": {"type": "button", "label": "Sign up", "href": "https://app.example"}},
            "footer": {
                "socials": {"github": "https://github.com/x", "x": "https://x.com/y"},
                "links": [{"header": "Company", "items": [{"label": "Blog", "href": "/blog"}]}, {"header": "Empty", "items": []}]
            },
            "banner": {"content": "New: **v2** is out"},
            "seo": {"metatags": {"og:site_name": "Acme"}, "indexing": "none"},
            "logo": {"light": "/l.svg", "href": "https://acme.example"},
            "fonts": {"family": "Inter\"; }", "heading": {"family": "Lora", "source": "/fonts/lora.woff2\")", "format": "woff2"}}
        });
        let chrome = Chrome::from_config(&SiteConfig::of(&config));
        assert_eq!(
            chrome.primary_button,
            Some(("Sign up".into(), "https://app.example".into()))
        );
        assert_eq!(chrome.socials.len(), 2);
        assert_eq!(chrome.footer_columns.len(), 1, "empty columns are left out");
        assert_eq!(chrome.banner.as_deref(), Some("New: **v2** is out"));
        assert_eq!(
            chrome.metatags,
            vec![("og:site_name".into(), "Acme".into())]
        );
        assert!(chrome.noindex);
        assert_eq!(chrome.logo_href.as_deref(), Some("https://acme.example"));
        let css = chrome.font_css();
        assert!(
            css.contains("\"Inter \"") && css.contains("\"Lora\""),
            "{css}"
        );
        assert!(!css.contains("; }\""), "no way out of the string: {css}");
        assert!(
            css.contains("src: url(\"../fonts/lora.woff2\") format(\"woff2\")"),
            "{css}"
        );
        let github = Chrome::from_config(&SiteConfig::of(
            &serde_json::json!({"navbar": {"primary": {"type": "github", "href": "https://github.com/x"}}}),
        ));
        assert_eq!(github.primary_button.unwrap().0, "GitHub");
    }
}
