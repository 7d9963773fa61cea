//! Fuzzing the renderer: pages put together from fragments of real docs pages, then mutated in
//! their attributes, entities, nesting, indentation and non-ASCII text, must render without a
//! panic (in the component a panic is a trap that loses the page). Bounded, so it runs in every
//! `scripts/test`; `PROPTEST_CASES=100000 cargo test -p quire-renderer --test fuzz_render`
//! runs longer. Inputs it found are kept in `regressions` below.

use proptest::prelude::*;
use quire_renderer::{NavEntry, NavKind, Site, render_page};

/// Fragments of the shapes real pages use: components with attributes, code, tables, lists,
/// entities, expressions, imports and frontmatter.
const SEEDS: &[&str] = &[
    "---\ntitle: \"Quick start\"\ndescription: Get going\nicon: rocket\n---\n",
    "---\nopenapi: \"GET /users\"\n---\n",
    "# Heading {#custom-id}\n\nSome *text* with `code` and a [link](/guides/a).\n",
    "<Card title=\"A&B\" icon=\"book\" href=\"/x\">Text.</Card>\n",
    "<Steps>\n  <Step title=\"Crie uma conta no W&B\">\n    Run `npm i`.\n  </Step>\n</Steps>\n",
    "<Tabs>\n<Tab title=\"Python\">\n\n```python\nprint('hi')\n```\n\n</Tab>\n</Tabs>\n",
    "<CodeGroup>\n```bash npm\nnpm install x\n```\n```bash yarn\nyarn add x\n```\n</CodeGroup>\n",
    "| a | b |\n|---|---|\n| 1 | &amp; |\n",
    "- item\n  - nested <Icon icon=\"check\" />\n- [x] done\n",
    "<Note>\n  Indented **note** &mdash; &#x2014; &#8212;\n</Note>\n",
    "import Snippet from '/snippets/support.mdx';\n\n<Snippet name=\"x\" />\n",
    "export const Name = 'value';\n\n{Name}\n",
    "<Accordion title=\"¿Qué?\">\n  مرحبا بالعالم 日本語 ü\n</Accordion>\n",
    "<ParamField path=\"id\" type=\"string\" required>\n  The id.\n</ParamField>\n",
    "<img src=\"/images/a.png\" alt=\"a\" className=\"dark:hidden\" style={{width: '50%'}} />\n",
    "> quote\n>\n> more\n\n---\n\nHi <>\n",
    "<ResponseField name=\"data\" type=\"object\">\n  <Expandable title=\"props\">\n    <ResponseField name=\"a\" type=\"int\" />\n  </Expandable>\n</ResponseField>\n",
    "$$x^2$$ and $y$ and {1 + 1}\n",
    "~~~\n<Card title=\"A&B\">\n~~~\n",
    "[//]: # (a comment)\n[ref]: /guides/a \"Title\"\n\nSee [the guide][ref].\n",
    "<Frame caption=\"A & B\">\n  <iframe src=\"https://example.com\" />\n</Frame>\n",
    "$$\n\\int_0^1 x^2 \\, dx = \\frac{1}{3}\n$$\n\nCosts $5 and $10, or $\\alpha_{i}$.\n",
    "<Latex>\\sum_{i=1}^{n} i</Latex> and <Latex>{'\\frac{1}{2}'}</Latex>\n",
    "export const Box = ({ title, children }) => (\n  <div className=\"p-4 rounded-xl\">\n    <strong>{title}</strong>\n    {children}\n  </div>\n);\n\n<Box title=\"T\">Body</Box>\n",
    "<Icon icon={<svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"/></svg>} iconType=\"solid\" />\n",
    "<View title=\"JS\" icon=\"js\">a</View>\n<Visibility for=\"agents\">b</Visibility>\n<Prompt actions={[\"copy\"]}>c</Prompt>\n",
    "<Color variant=\"table\">\n  <Color.Row title=\"P\">\n    <Color.Item name=\"a\" value=\"#fff\" />\n  </Color.Row>\n</Color>\n",
    "<p style={{ marginLeft: 8, fontFamily: \"A, B\" }}>x</p>\n\n```mermaid\ngraph LR\n  A --> B\n```\n",
    "<div className=\"s\"><svg viewBox=\"0 0 2 2\" onLoad=\"x()\"><use xlinkHref=\"#a\" /><foreignObject><img onError=\"x()\" /></foreignObject></svg><aside>a &#x7B; b</aside><button onClick=\"x()\">b</button></div>\n",
    "<math><mfrac><mi>a</mi><mn>2</mn></mfrac></math> <a href=\"javascript:x()\">j</a> <a href=\"data:text/html,x\">d</a>\n",
    "<Card title={<>A <b>B</b></>} icon={<><svg viewBox=\"0 0 1 1\"><path d=\"M0 0\" strokeWidth={2} /></svg></>}>c</Card>\n",
    "<Snippet file=\"support.mdx\" name=\"x\" />\n\n<Card icon=\"); background: url(x);/*\" title=\"t\" />\n",
    "export const List = ({ items = [\"a\", \"b\"], n = 2 }) => {\n  const [open] = useState(true);\n  return (<ul>{items.filter((i) => i !== \"x\").map((i, k) => <li key={k}>{`${i}-${n * k}`}{open ? \"!\" : \"\"}</li>)}</ul>);\n};\n\n<List n={3} />\n",
];

/// Characters the mutations insert: markup, entity and expression syntax, and other scripts.
const INSERTS: &[&str] = &[
    "&",
    "&amp;",
    "&#",
    "&#x",
    ";",
    "<",
    ">",
    "</",
    "/>",
    "{",
    "}",
    "\"",
    "'",
    "`",
    "```",
    "\n",
    "\n\n",
    "  ",
    "\t",
    "#",
    "=",
    "===",
    "---",
    "*",
    "_",
    "|",
    "[",
    "]",
    "(",
    ")",
    "\\",
    "é",
    "日",
    "ع",
    "\u{200f}",
    "🙂",
    "<Card title=\"",
    "<Steps>",
    "</Steps>",
    "<",
    "$",
];

#[derive(Debug, Clone)]
enum Mutation {
    Insert(usize, usize),
    Delete(usize, usize),
    Indent(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0..INSERTS.len()).prop_map(|(at, what)| Mutation::Insert(at, what)),
        (any::<usize>(), 1usize..12).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), 1usize..9).prop_map(|(line, width)| Mutation::Indent(line, width)),
    ]
}

/// The nearest char boundary at or before `at` (taken modulo the length).
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(mut page: String, mutations: &[Mutation]) -> String {
    for m in mutations {
        match *m {
            Mutation::Insert(at, what) => {
                let at = boundary(&page, at);
                page.insert_str(at, INSERTS[what]);
            }
            Mutation::Delete(at, len) => {
                let start = boundary(&page, at);
                let end = boundary(&page, (start + len).min(page.len()));
                if end > start {
                    page.replace_range(start..end, "");
                }
            }
            Mutation::Indent(line, width) => {
                let starts: Vec<usize> = std::iter::once(0)
                    .chain(page.match_indices('\n').map(|(i, _)| i + 1))
                    .filter(|&i| i <= page.len())
                    .collect();
                let at = starts[line % starts.len()];
                page.insert_str(at, &" ".repeat(width));
            }
        }
    }
    page
}

fn page() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(0..SEEDS.len(), 1..7),
        prop::collection::vec(mutation(), 0..10),
    )
        .prop_map(|(seeds, mutations)| {
            let page: String = seeds.iter().map(|&i| SEEDS[i]).collect();
            apply(page, &mutations)
        })
}

fn site() -> Site {
    let items = vec![
        NavEntry::new(NavKind::Group, 0, "Start", None),
        NavEntry::new(NavKind::Page, 1, "Page", Some("page")),
    ];
    let snippets = vec![(
        "snippets/support.mdx".to_string(),
        "Write to {name} & friends.".to_string(),
    )];
    Site::new("Fuzz".into(), "v1".into(), items, "{}", vec![])
        .expect("the site")
        .with_files(snippets, vec![])
}

/// `PROPTEST_CASES` (default 1,500) cases from the seed `QUIRE_FUZZ_SEED` (default fixed, so a
/// `scripts/test` run is repeatable; set another seed to explore further).
fn config() -> ProptestConfig {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    ProptestConfig {
        cases: var("PROPTEST_CASES").map_or(1500, |c: u64| c as u32),
        rng_seed: proptest::test_runner::RngSeed::Fixed(var("QUIRE_FUZZ_SEED").unwrap_or(13)),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_pages_render_without_panicking(source in page()) {
        let site = site();
        for file in ["page.mdx", "page.md"] {
            let out = render_page(&site, "page", file, &source);
            prop_assert!(out.html.contains("</html>"));
        }
    }
}

/// Inputs that crashed the renderer once, each now rendered as a page.
#[test]
fn regressions() {
    let site = site();
    for source in [
        "<Card title=\"A&B\">Text.</Card>\n",
        "<Step title=\"Crie uma conta no W&B\">x</Step>\n",
        "<Card title=\"&#12\">x</Card>\n",
        "<Card title=\"&#x1F\" />\n",
        "> quote\n>\n> more\n\n---\n\nHi <>\n---\ntitle: \"Quick start\"\n---\n",
        "Hi <>\n===\n",
        "Hi <>\n$$x^2$$ and {1 + 1}\n---\n",
        "t\n-\n--\nt\n-",
        "a\n===\n==\nb\n===",
        "<CodeGroup>\n&  ```bash npm\nnpm i\n```\n```bash yarn\nyarn add x\n```\n</CodeGroup>\n<Card title=\"A&B\">x</Card>\n",
        "---\n    openapi: \"GET /users\"\n-",
        "[/]:# ()\n-\ns\n-",
        "[a]: /b\n--\ns\n-",
    ] {
        for file in ["page.mdx", "page.md"] {
            let out = render_page(&site, "page", file, source);
            assert!(out.html.contains("</html>"), "{file}: {source}");
        }
    }
}
