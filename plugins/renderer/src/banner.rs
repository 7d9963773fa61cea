//! The site banner (docs.json `banner`): one line of text above every page, whose inline
//! Markdown (links, bold, italic, code) is drawn as HTML, and which readers may close when it
//! is `dismissible` (quire.js remembers that, per banner text, so a new banner shows again).

use markdown::mdast::Node;

use crate::escape::{escaped, push_escaped};

/// The banner's HTML for a page whose way back to the site's root is `root`.
pub fn html(content: &str, dismissible: bool, root: &str) -> String {
    let mut out = String::from("<div class=\"banner\" role=\"note\"");
    if dismissible {
        out.push_str(&format!(" data-dismissible=\"{}\"", escaped(&key(content))));
    }
    out.push_str("><span class=\"banner-text\">");
    let tree = crate::mdx::parse_markdown(content);
    inline(&tree, root, &mut out);
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

/// The inline content of `node`: paragraphs run together, blocks other than text are left
/// out (a banner is one line).
fn inline(node: &Node, root: &str, out: &mut String) {
    match node {
        Node::Text(t) => push_escaped(out, &t.value),
        Node::InlineCode(c) => {
            out.push_str("<code>");
            push_escaped(out, &c.value);
            out.push_str("</code>");
        }
        Node::Strong(_) | Node::Emphasis(_) | Node::Delete(_) => {
            let tag = match node {
                Node::Strong(_) => "strong",
                Node::Emphasis(_) => "em",
                _ => "del",
            };
            out.push_str(&format!("<{tag}>"));
            children(node, root, out);
            out.push_str(&format!("</{tag}>"));
        }
        Node::Link(link) => {
            out.push_str(&format!(
                "<a href=\"{}\">",
                escaped(&crate::links::navigation_href(&link.url, root))
            ));
            children(node, root, out);
            out.push_str("</a>");
        }
        Node::Break(_) => out.push(' '),
        Node::Root(_) | Node::Paragraph(_) => children(node, root, out),
        _ => {}
    }
}

fn children(node: &Node, root: &str, out: &mut String) {
    for child in node.children().into_iter().flatten() {
        inline(child, root, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_markdown_is_drawn_and_links_lead_from_the_page() {
        let html = html(
            "New: **v2** is _out_, see `cli` and [the guide](/guides/v2) or [more](https://x.example).",
            false,
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
        let first = html("Sale <b>now</b>", true, "");
        assert!(first.contains("banner-close") && first.contains("data-dismissible=\""));
        assert!(
            first.contains("Sale now") && !first.contains("<b>"),
            "{first}"
        );
        assert_ne!(key("Sale"), key("Sale!"));
        assert_eq!(key("Sale"), key("Sale"));
    }
}
