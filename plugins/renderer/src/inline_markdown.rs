//! One line of Markdown drawn as inline HTML: links (made relative to the page), bold, italic,
//! strikethrough and code; paragraphs run together and other blocks are left out. For text
//! docs.json gives in Markdown: the banner, the not-found page's description.

use markdown::mdast::Node;

use quire_sdk::escape;

/// `content` as inline HTML, for a page whose way back to the site's root is `root`.
pub fn html(content: &str, root: &str) -> String {
    let tree = crate::mdx::parse_markdown(content);
    let mut out = String::new();
    inline(&tree, root, &mut out);
    out
}

/// The inline content of `node`: paragraphs run together, blocks other than text are left
/// out (a banner is one line).
fn inline(node: &Node, root: &str, out: &mut String) {
    match node {
        Node::Text(t) => escape::push_html(out, &t.value),
        Node::InlineCode(c) => {
            out.push_str("<code>");
            escape::push_html(out, &c.value);
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
                escape::html(&crate::links::navigation_href(&link.url, root))
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
    fn inline_markdown_is_drawn_and_blocks_are_left_out() {
        let html = html(
            "What **happened** to _this_ ~~page~~?\n\n- a list\n\n[Home](/index)",
            "",
        );
        assert_eq!(
            html,
            "What <strong>happened</strong> to <em>this</em> <del>page</del>?<a href=\"index.html\">Home</a>"
        );
        assert_eq!(super::html("<script>x</script>", ""), "");
    }
}
