//! One page rendered whole: frontmatter, title, body, warnings and what the page needs.

use super::*;
use crate::navigation::{NavEntry, NavKind};

mod api_pages;
mod raw_elements;

fn site() -> Site {
    let page = |label: &str, target: &str| NavEntry::new(NavKind::Page, 1, label, Some(target));
    let items = vec![
        NavEntry::new(NavKind::Group, 0, "Start", None),
        page("Intro", "index"),
        page("Quickstart", "quickstart"),
        page("Auth", "guides/auth"),
    ];
    Site::new("Acme".into(), "v1".into(), items, "{}", vec![]).unwrap()
}

const PAGE: &str = "---\ntitle: Quickstart\ndescription: Get going\n---\n\nIntro text with a [link](/guides/auth).\n\n## Install it\n\n<Note>Use **cargo**.</Note>\n\n```bash install.sh\ncargo install x\n```\n\n## Use it\n\n<Steps><Step title=\"One\">Run it.</Step></Steps>\n";

#[test]
fn metadata_timestamp_dates_pages_unless_the_page_opts_out() {
    let items = vec![NavEntry::new(NavKind::Page, 0, "A", Some("a"))];
    let config = r#"{"metadata": {"timestamp": true}}"#;
    let site = Site::new("Acme".into(), "v1".into(), items, config, vec![]).unwrap();
    let page = |source: &str, modified: Option<u64>| {
        render(
            &site,
            &PageSource {
                path: "a",
                file: "a.mdx",
                source,
                modified,
            },
        )
        .html
    };
    // 2024-02-29 23:59:59 UTC.
    let dated = page("# A\n", Some(1_709_251_199));
    assert!(
        dated.contains("Last modified on <time datetime=\"2024-02-29\">February 29, 2024</time>"),
        "{dated}"
    );
    assert!(
        !page("---\ntimestamp: false\n---\n# A\n", Some(1_709_251_199)).contains("last-modified")
    );
    assert!(!page("# A\n", None).contains("last-modified"));
    // Without the setting, a page can still ask for its date.
    let plain = Site::new("Acme".into(), "v1".into(), vec![], "{}", vec![]).unwrap();
    let asked = render(
        &plain,
        &PageSource {
            path: "a",
            file: "a.mdx",
            source: "---\ntimestamp: true\n---\n# A\n",
            modified: Some(0),
        },
    );
    assert!(asked.html.contains("January 1, 1970"), "{}", asked.html);
}

/// A table's rows reach the search text as sentences, each cell after its column's header.
#[test]
fn table_rows_are_search_sentences_with_their_headers() {
    let source = "# Machines\n\n| Preset | vCPU | Memory |\n|---|---|---|\n| `small-1x` | 0.5 | 0.5 GB |\n| large | 4 | |\n\nThe end.\n";
    let out = render_page(&site(), "machines", "machines.mdx", source);
    let text = &out.sections[0].text;
    assert!(
        text.contains("Preset; vCPU; Memory.\nPreset: small-1x; vCPU: 0.5; Memory: 0.5 GB.\nPreset: large; vCPU: 4.\nThe end."),
        "{text:?}"
    );
    assert!(out.html.contains("<td>0.5 GB</td>"), "{}", out.html);
}

#[test]
fn renders_a_page_with_layout_sections_and_links() {
    let out = render_page(&site(), "quickstart", "quickstart.mdx", PAGE);
    assert_eq!(out.title, "Quickstart");
    assert!(
        out.html.contains("href=\"guides/auth.html\""),
        "{}",
        out.html
    );
    assert!(out.html.contains("callout callout-note"));
    assert!(
        !out.html.contains("<p><div"),
        "components must not be wrapped in <p>"
    );
    assert!(
        out.html
            .contains("<div class=\"code-title\">install.sh</div>")
    );
    assert!(out.html.contains("<h2 id=\"install-it\">"));
    assert!(out.html.contains("rel=\"prev\" href=\"index.html\""));
    assert!(out.html.contains("rel=\"next\" href=\"guides/auth.html\""));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let anchors: Vec<_> = out.sections.iter().map(|s| s.anchor.as_str()).collect();
    assert_eq!(anchors, ["", "install-it", "use-it"]);
    assert_eq!(out.sections[1].heading_trail, ["Quickstart", "Install it"]);
    assert!(out.sections[1].text.contains("Use cargo."));
    assert!(
        // A step's title is a block of its own, not the start of its first sentence.
        out.sections[2].text.starts_with("One\nRun it."),
        "{:?}",
        out.sections[2].text
    );
}

#[test]
fn nested_pages_link_back_to_the_root() {
    let out = render_page(
        &site(),
        "guides/auth",
        "guides/auth.md",
        "# Auth\n\n[home](/)\n",
    );
    assert!(out.html.contains("href=\"../assets/quire."), "{}", out.html);
    assert!(out.html.contains("href=\"../index.html\">home</a>"));
    assert_eq!(out.title, "Auth");
}

#[test]
fn unknown_components_render_children_and_warn() {
    let out = render_page(
        &site(),
        "quickstart",
        "quickstart.mdx",
        "Hi\n\n<Fancy>inside</Fancy>\n",
    );
    assert!(out.html.contains("inside"));
    assert_eq!(out.warnings.len(), 1);
    assert_eq!(out.warnings[0].line, Some(3));
    assert!(out.warnings[0].message.contains("<Fancy>"));
}

#[test]
fn bad_mdx_falls_back_to_markdown_with_a_warning() {
    let out = render_page(
        &site(),
        "quickstart",
        "quickstart.mdx",
        "# Title\n\n<Note>unclosed\n\ntext {\n",
    );
    assert!(out.html.contains("Title"));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.message.contains("MDX syntax error")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn broken_links_and_bad_frontmatter_are_warnings() {
    let out = render_page(
        &site(),
        "quickstart",
        "quickstart.md",
        "---\ntitle: [x\n---\n\n[gone](/missing)\n",
    );
    assert_eq!(out.warnings.len(), 2, "{:?}", out.warnings);
}

#[test]
fn docs_json_variables_are_replaced_in_pages_and_snippets() {
    let items = vec![NavEntry::new(NavKind::Page, 0, "A", Some("a"))];
    let config = r#"{"variables": {"product": "Acme Cloud", "version": "2.4.0"}}"#;
    let site = Site::new("Acme".into(), "v1".into(), items, config, vec![])
        .unwrap()
        .with_files(
            vec![("snippets/install.mdx".into(), "Get {{ product }}.".into())],
            vec![],
        );
    let source = "---\ntitle: About {{product}}\n---\n\nimport Install from '/snippets/install.mdx';\n\nVersion {{version}} of [{{product}}](/a).\n\n<Install />\n\n```bash\nnpm i acme@{{version}}\n```\n\n{{unknown}}\n";
    let out = render_page(&site, "a", "a.mdx", source);
    assert_eq!(out.title, "About Acme Cloud");
    assert!(out.html.contains("Version 2.4.0 of"), "{}", out.html);
    assert!(out.html.contains("Get Acme Cloud."), "{}", out.html);
    assert!(out.html.contains("2.4.0"));
    assert!(!out.html.contains("{{version}}"));
    // A placeholder naming no variable is what MDX makes of it: an expression, reported.
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(out.warnings[0].message.contains("{{unknown}}"));
}

#[test]
fn snippets_render_with_props_and_constants() {
    let site = site().with_files(
        vec![
            (
                "snippets/hello.mdx".into(),
                "Hello, **{name}**! <Note>From {product}.</Note>".into(),
            ),
            (
                "snippets/vars.mdx".into(),
                "export const product = \"Acme\";\n".into(),
            ),
        ],
        vec![],
    );
    let source = "import Hello from '/snippets/hello.mdx';\nimport { product } from '/snippets/vars.mdx';\n\n# Hi\n\nWelcome to {product}.\n\n<Hello name=\"Ada\" />\n\n<Hello name=\"Bob\" />\n";
    let out = render_page(&site, "quickstart", "quickstart.mdx", source);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert!(out.html.contains("Welcome to Acme."), "{}", out.html);
    assert!(out.html.contains("Hello, <strong>Ada</strong>!"));
    assert!(out.html.contains("Hello, <strong>Bob</strong>!"));
    assert!(out.html.contains("callout-note"));
    assert!(!out.html.contains("import Hello"));
    let missing = render_page(
        &site,
        "quickstart",
        "quickstart.mdx",
        "import X from '/snippets/none.mdx'\n\n<X />\n",
    );
    assert!(
        missing.warnings[0]
            .message
            .contains("snippets/none.mdx does not exist")
    );
    // An imported snippet named like a built-in component is the snippet, as in MDX; the
    // built-in is still itself where nothing of that name is imported.
    let own = super::tests::site().with_files(
        vec![(
            "guides/note.mdx".into(),
            "A note of the page itself.".into(),
        )],
        vec![],
    );
    let shadowing = "import Note from './note.mdx'\n\n<Note />\n";
    let out = render_page(&own, "guides/setup", "guides/setup.mdx", shadowing);
    assert!(
        out.html.contains("A note of the page itself."),
        "{}",
        out.html
    );
    assert!(!out.html.contains("callout-note"));
    let builtin = render_page(&own, "guides/a", "guides/a.mdx", "<Note>Hi.</Note>\n");
    assert!(builtin.html.contains("callout-note"));
}

#[test]
fn components_exported_by_snippets_and_pages_render_with_their_props() {
    let site = site().with_files(
        vec![
            (
                "snippets/maintained.mdx".into(),
                "export const Maintained = ({ who, url, note = \"thanks\" }) => (\n  <Note>\n    By{\" \"}\n    <a href={url}>{who}</a>, {note}.\n  </Note>\n);\n".into(),
            ),
            (
                "snippets/table.jsx".into(),
                "export const Table = ({ rows }) => (\n  <table>{rows.map((r) => <tr><td>{r}</td></tr>)}</table>\n);\n\nexport const Live = () => {\n  const data = useSWR('/status');\n  return <p>{data}</p>;\n};\n".into(),
            ),
        ],
        vec![],
    );
    let source = "import { Maintained } from '/snippets/maintained.mdx';\nimport { Table, Live } from '/snippets/table.jsx';\n\nexport const Box = ({ title, children }) => (\n  <div className=\"box\"><strong>{title}</strong>{children}</div>\n);\n\n<Maintained who=\"Ada\" url=\"https://example.com/ada\" />\n\n<Box title=\"T\">Inside *the* box.</Box>\n\n<Table rows={[1, 2]} />\n\n<Live>Fallback</Live>\n";
    let out = render_page(&site, "quickstart", "quickstart.mdx", source);
    assert!(
        out.html
            .contains("<a href=\"https://example.com/ada\">Ada</a>, thanks."),
        "{}",
        out.html
    );
    assert!(out.html.contains("callout-note"));
    assert!(
        out.html.contains("<div class=\"box\"><strong>T</strong>"),
        "{}",
        out.html
    );
    assert!(out.html.contains("Inside <em>the</em> box."));
    // A component that computes is evaluated with its props.
    assert!(
        out.html
            .contains("<table><tbody><tr><td>1</td></tr><tr><td>2</td></tr></tbody></table>"),
        "{}",
        out.html
    );
    // One that needs more than the page has renders its children.
    assert!(
        out.html.contains("Fallback"),
        "a component that cannot be evaluated renders its children"
    );
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(
        out.warnings[0]
            .message
            .contains("<Live> needs a JavaScript runtime (useSWR is not known statically)"),
        "{:?}",
        out.warnings
    );
    // The problem is the snippet's: reported against it, not the page.
    assert_eq!(out.warnings[0].file.as_deref(), Some("snippets/table.jsx"));
}

#[test]
fn styling_latex_decides_what_is_a_formula() {
    let source = "Energy: $E = mc^2$, for $5 and $10.\n";
    let with = |config: &str| {
        let site = Site::new("Acme".into(), "v1".into(), vec![], config, vec![]).unwrap();
        render_page(&site, "a", "a.mdx", source).html
    };
    // Unset: a formula where it reads as one, dollars in prose stay dollars.
    let auto = with("{}");
    assert!(
        auto.contains("<math") && auto.contains("for $5 and $10."),
        "{auto}"
    );
    let off = with(r#"{"styling": {"latex": false}}"#);
    assert!(
        !off.contains("<math") && off.contains("$E = mc^2$"),
        "{off}"
    );
    let on = with(r#"{"styling": {"latex": true}}"#);
    assert_eq!(on.matches("<math").count(), 2, "{on}");
}

#[test]
fn a_pages_keywords_and_meta_tags_join_the_sites() {
    let items = vec![NavEntry::new(NavKind::Page, 0, "A", Some("a"))];
    let config = r#"{"seo": {"metatags": {"og:image": "/site.png", "og:site_name": "Acme"}}}"#;
    let site = Site::new("Acme".into(), "v1".into(), items, config, vec![]).unwrap();
    let source =
        "---\ntitle: A\nkeywords: [billing, invoices]\n\"og:image\": /page.png\n---\n\nText.\n";
    let out = render_page(&site, "a", "a.mdx", source);
    assert!(
        out.html
            .contains(r#"<meta name="keywords" content="billing, invoices">"#)
    );
    assert!(
        out.html
            .contains(r#"<meta property="og:image" content="/page.png">"#)
    );
    assert!(!out.html.contains("/site.png"), "the page's own tag wins");
    assert!(
        out.html
            .contains(r#"<meta property="og:site_name" content="Acme">"#)
    );
}

#[test]
fn frontmatter_modes_and_noindex() {
    let out = render_page(
        &site(),
        "quickstart",
        "quickstart.md",
        "---\nmode: wide\nnoindex: true\nicon: rocket\n---\n\n## A\n",
    );
    assert!(out.html.contains("class=\"mode-wide\""));
    assert!(
        !out.html.contains("class=\"toc\""),
        "wide pages have no table of contents"
    );
    assert!(
        out.html
            .contains("<meta name=\"robots\" content=\"noindex\">")
    );
    assert!(out.html.contains("data-icon=\"rocket\""));
    assert!(!out.indexable);
}

#[test]
fn text_is_escaped() {
    let out = render_page(&site(), "quickstart", "quickstart.md", "a \\<i> `<b>`\n");
    assert!(out.html.contains("&lt;b&gt;"));
}

#[test]
fn links_in_raw_html_are_rewritten_and_checked() {
    let source = "Read <a href=\"/guides/auth\" target=\"_blank\">auth</a>, <img src='/images/x.png'> and <a href=\"Not a page\">text</a>.\n";
    let out = render_page(&site(), "quickstart", "quickstart.md", source);
    assert!(
        out.html
            .contains("<a href=\"guides/auth.html\" target=\"_blank\">auth</a>"),
        "{}",
        out.html
    );
    assert!(
        out.html.contains("<img src=\"images/x.png\">"),
        "{}",
        out.html
    );
    assert!(out.html.contains("<a>text</a>"), "{}", out.html);
    assert!(
        out.warnings
            .iter()
            .any(|w| w.message.contains("Not a page"))
    );
}
