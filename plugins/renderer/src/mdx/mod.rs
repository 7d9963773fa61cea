//! Parsing pages (MDX or plain Markdown) into a syntax tree, guarded against inputs the parser
//! crate (`markdown` 1.0.0) cannot take: on some inputs it panics, and a panic in a WebAssembly
//! component is a trap that loses the page. `guards` rewrites those inputs into ones that mean
//! the same; `restore` puts the original text back where the rewrite landed in code or other
//! raw text. Every guard comes from a crash the fuzz target (`tests/fuzz_render.rs`) found.

mod guards;
mod restore;

use markdown::mdast::Node;
use markdown::{Constructs, ParseOptions};

pub use guards::guard;

/// MDX with frontmatter and the GitHub extensions (tables, task lists, footnotes, ...).
/// `import`/`export` blocks are accepted as they are: nothing is evaluated (snippets read them
/// as text), but without an ESM callback the parser would take them for paragraphs.
pub fn options() -> ParseOptions {
    ParseOptions {
        mdx_esm_parse: Some(Box::new(|_| markdown::MdxSignal::Ok)),
        constructs: Constructs {
            frontmatter: true,
            gfm_autolink_literal: true,
            gfm_footnote_definition: true,
            gfm_label_start_footnote: true,
            gfm_strikethrough: true,
            gfm_table: true,
            math_flow: true,
            math_text: true,
            gfm_task_list_item: true,
            ..Constructs::mdx()
        },
        ..ParseOptions::mdx()
    }
}

/// Parses `source` as MDX. An `Err` is a syntax error with its place.
pub fn parse(source: &str) -> Result<Node, markdown::message::Message> {
    let guarded = guard(source, true);
    if let Some(probe) = guards::setext_probe(&guarded.text) {
        markdown::to_mdast(&probe, &options())?;
    }
    let mut tree = markdown::to_mdast(&guarded.text, &options())?;
    restore::restore(&mut tree, &guarded);
    Ok(tree)
}

/// Parses `source` as Markdown with frontmatter and the GitHub extensions. Never fails: the
/// parser has no syntax errors without MDX, and the fallback is an empty page.
pub fn parse_markdown(source: &str) -> Node {
    let options = ParseOptions {
        constructs: Constructs {
            frontmatter: true,
            math_flow: true,
            math_text: true,
            ..Constructs::gfm()
        },
        ..ParseOptions::gfm()
    };
    let guarded = guard(source, false);
    match markdown::to_mdast(&guarded.text, &options) {
        Ok(mut tree) => {
            restore::restore(&mut tree, &guarded);
            tree
        }
        Err(_) => Node::Root(markdown::mdast::Root {
            children: Vec::new(),
            position: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(tree: &Node) -> String {
        format!("{tree:?}")
    }

    #[test]
    fn bare_ampersands_in_attributes_parse_to_the_same_value() {
        for (source, title) in [
            ("<Card title=\"A&B\">Text.</Card>\n", "A&B"),
            (
                "<Step title=\"Crie uma conta no W&B\">x</Step>\n",
                "Crie uma conta no W&B",
            ),
            (
                "<Card title='R&D &amp; more &#38; &'>x</Card>\n",
                "R&D & more & &",
            ),
            ("<Card title=\"&#x41\" />\n", "&#x41"),
        ] {
            let tree = parse(source).unwrap_or_else(|e| panic!("{source}: {e}"));
            assert!(
                text_of(&tree).contains(&format!("Literal({title:?})")),
                "{source} gave {tree:?}"
            );
        }
    }

    #[test]
    fn code_keeps_its_text() {
        let source = "```jsx title=\"A&B\"\n<Card title=\"A&B\" x=\"&amp;C\" />\na\n---\n--\n```\n\nUse `<Card title=\"A&B\">` and {\"x&y\"}.\n";
        let tree = parse(source).expect("parses");
        let text = text_of(&tree);
        assert!(
            text.contains("value: \"<Card title=\\\"A&B\\\" x=\\\"&amp;C\\\" />\\na\\n---\\n--\""),
            "{text}"
        );
        assert!(text.contains("meta: Some(\"title=\\\"A&B\\\"\")"), "{text}");
        assert!(
            text.contains("ThematicBreak") || !text.contains("\\\\--"),
            "{text}"
        );
        assert!(
            text.contains("value: \"<Card title=\\\"A&B\\\">\""),
            "{text}"
        );
        assert!(text.contains("value: \"\\\"x&y\\\"\""), "{text}");
        let markdown = parse_markdown("```\na\n---\n--\nb\n---\n```\n");
        assert!(text_of(&markdown).contains("value: \"a\\n---\\n--\\nb\\n---\""));
    }

    #[test]
    fn setext_headings_with_an_open_tag_are_syntax_errors() {
        for source in [
            "Hi <>\n---\n",
            "> Hi <Card>\n> ===\n",
            "Hi <>\nthere\n---\n",
        ] {
            assert!(parse(source).is_err(), "{source:?}");
        }
        let fine = parse("Hi <b>there</b>\n---\n").expect("closed tags parse");
        assert!(text_of(&fine).contains("Heading"), "{fine:?}");
        assert!(parse("---\ndescription: use <Card>\n---\n\nText\n").is_ok());
    }

    #[test]
    fn underline_runs_after_a_setext_heading_parse_the_same() {
        for source in [
            "t\n-\n--\nt\n-",
            "a\n===\n==\nb\n===",
            "a\n---\n---\nb\n---",
            "a\n-\n=\nt\n-",
            "a\n---\n  -- \nb\n---",
            "---\n    a\n- b",
            "--- \n\ta\n-",
        ] {
            parse(source).expect("parses as MDX");
            parse_markdown(source);
        }
        let tree = parse_markdown("a\n---\n---\nb\n---\n");
        assert!(text_of(&tree).contains("ThematicBreak"), "{tree:?}");
    }
}
