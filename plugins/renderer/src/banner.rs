//! The site banner (docs.json `banner`): one line of text above every page, whose inline
//! Markdown is drawn as HTML (`inline_markdown`), and which readers may close when it is
//! `dismissible` (quire.js remembers that, per banner text, so a new banner shows again). How
//! it looks is `settings/banner.rs`'s.

use crate::settings::banner::Look;
use quire_sdk::escape;

/// The banner's HTML for a page whose way back to the site's root is `root`.
pub fn html(content: &str, dismissible: bool, look: &Look, root: &str) -> String {
    let mut out = String::from("<div class=\"banner");
    if let Some(kind) = look.kind {
        out.push_str(&format!(" banner-{kind}"));
    }
    out.push_str("\" role=\"note\"");
    if let Some((light, dark)) = &look.color {
        out.push_str(&format!(
            " style=\"--banner-bg:{};--banner-bg-dark:{}\"",
            escape::html(light),
            escape::html(dark)
        ));
    }
    if dismissible {
        out.push_str(&format!(
            " data-dismissible=\"{}\"",
            escape::html(&key(content))
        ));
    }
    out.push_str("><span class=\"banner-text\">");
    out.push_str(&crate::inline_markdown::html(content, root));
    out.push_str("</span>");
    if dismissible {
        out.push_str(
            "<button type=\"button\" class=\"banner-close\" aria-label=\"Dismiss\" hidden>×</button>",
        );
    }
    out.push_str("</div>\n");
    out
}

/// A short name for the banner's text, under which a dismissal is remembered.
fn key(content: &str) -> String {
    // FNV-1a: stable across builds, and enough to tell one banner text from the next.
    let hash = content.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_markdown_is_drawn_and_links_lead_from_the_page() {
        let html = html(
            "New: **v2** is _out_, see `cli` and [the guide](/guides/v2) or [more](https://x.example).",
            false,
            &Look::default(),
            "../",
        );
        assert!(html.contains("<strong>v2</strong>"), "{html}");
        assert!(html.contains("<em>out</em>") && html.contains("<code>cli</code>"));
        assert!(
            html.contains(r#"<a href="../guides/v2.html">the guide</a>"#),
            "{html}"
        );
        assert!(html.contains(r#"<a href="https://x.example">more</a>"#));
        assert!(!html.contains("banner-close") && !html.contains("**"));
    }

    #[test]
    fn a_dismissible_banner_is_remembered_by_its_text() {
        let first = html("Sale <b>now</b>", true, &Look::default(), "");
        assert!(first.contains("banner-close") && first.contains("data-dismissible=\""));
        assert!(
            first.contains("Sale now") && !first.contains("<b>"),
            "{first}"
        );
        assert_ne!(key("Sale"), key("Sale!"));
        assert!(first.starts_with("<div class=\"banner\" role=\"note\""));
    }

    #[test]
    fn its_type_and_colour_set_its_look() {
        let look = |banner: serde_json::Value| {
            let config =
                quire_sdk::config::SiteConfig::of(&serde_json::json!({ "banner": banner }));
            Look::from_config(config.banner.as_ref())
        };
        let critical = look(
            serde_json::json!({"type": "critical", "color": {"light": "#7C3AED", "dark": "#5B21B6"}}),
        );
        let out = html("Rotate your keys", false, &critical, "");
        assert!(
            out.starts_with("<div class=\"banner banner-critical\" role=\"note\" style=\"--banner-bg:#7C3AED;--banner-bg-dark:#5B21B6\""),
            "{out}"
        );
        assert_eq!(
            look(serde_json::json!({"color": "#fff"})).color,
            Some(("#fff".into(), "#fff".into()))
        );
        // What cannot be a colour or a type is the default look.
        assert_eq!(
            look(serde_json::json!({"type": "loud", "color": "red;x:y"})),
            Look::default()
        );
        assert_eq!(key("Sale"), key("Sale"));
    }
}
