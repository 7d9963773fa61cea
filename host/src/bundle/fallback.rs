//! The page an export carries where the renderer could not render one (it trapped, ran out of
//! time or memory, or reported an error): the page's title, a note saying why, and its source
//! as escaped text, so no page of the navigation is missing and readers still find its words.

use crate::plugins::{OutputFile, RenderedPage, Section};

/// A self-contained page for `path` (no extension) with `title`, showing `source` (the page's
/// Markdown or MDX, frontmatter removed) and why it could not be rendered.
pub fn fallback_page(path: &str, title: &str, source: &str, reason: &str) -> RenderedPage {
    let body = super::llms::strip_frontmatter(source);
    let depth = path.matches('/').count();
    let home = format!("{}index.html", "../".repeat(depth));
    let html = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\
         body{{font:16px/1.6 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}}\
         pre{{white-space:pre-wrap;background:#f5f5f5;padding:1rem;border-radius:6px}}\
         .note{{border-left:4px solid #d97706;padding:.5rem 1rem;background:#fffbeb}}\
         @media (prefers-color-scheme:dark){{body{{background:#111;color:#eee}}pre{{background:#222}}.note{{background:#2a2110}}}}\
         </style>\n</head>\n<body>\n<p><a href=\"{home}\">Home</a></p>\n<h1>{title}</h1>\n\
         <p class=\"note\" data-quire-fallback>This page could not be rendered ({reason}). \
         Its text is shown as written.</p>\n<pre>{text}</pre>\n</body>\n</html>\n",
        title = quire_core::escape::html(title),
        reason = quire_core::escape::html(reason),
        text = quire_core::escape::html(body),
    );
    RenderedPage {
        title: title.to_string(),
        description: None,
        indexable: true,
        files: vec![OutputFile {
            path: format!("{path}.html"),
            contents: html.into_bytes(),
        }],
        headings: Vec::new(),
        sections: vec![Section {
            anchor: String::new(),
            heading_trail: vec![title.to_string()],
            text: body.to_string(),
        }],
        warnings: Vec::new(),
        needs: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_the_text_escaped_with_the_reason() {
        let page = fallback_page(
            "guides/setup",
            "Set <up>",
            "---\ntitle: x\n---\n<Card title=\"A&B\">Text.</Card>\n",
            "plugin trapped",
        );
        let html = String::from_utf8(page.files[0].contents.clone()).unwrap();
        assert_eq!(page.files[0].path, "guides/setup.html");
        assert!(html.contains("<h1>Set &lt;up&gt;</h1>"), "{html}");
        assert!(
            html.contains("&lt;Card title=&quot;A&amp;B&quot;&gt;Text.&lt;/Card&gt;"),
            "{html}"
        );
        assert!(!html.contains("title: x"), "frontmatter is left out");
        assert!(html.contains("href=\"../index.html\""));
        assert!(html.contains("plugin trapped"));
        assert_eq!(page.sections[0].text, "<Card title=\"A&B\">Text.</Card>\n");
    }
}
