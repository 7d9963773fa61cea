//! The evaluator on components as docs sites write them.

use super::*;

fn html_of(node: &Node) -> String {
    // A compact picture of the tree: elements with their literal attributes, and text.
    match node {
        Node::Root(r) => r.children.iter().map(html_of).collect(),
        Node::Text(t) => t.value.clone(),
        Node::MdxFlowExpression(e) => format!("{{{}}}", e.value),
        Node::MdxJsxFlowElement(e) => {
            let name = e.name.clone().unwrap_or_default();
            let attrs: String = e
                .attributes
                .iter()
                .map(|a| match a {
                    AttributeContent::Property(p) => match &p.value {
                        Some(AttributeValue::Literal(v)) => format!(" {}=\"{v}\"", p.name),
                        Some(AttributeValue::Expression(v)) => {
                            format!(" {}={{{}}}", p.name, v.value)
                        }
                        None => format!(" {}", p.name),
                    },
                    AttributeContent::Expression(_) => String::new(),
                })
                .collect();
            let inner: String = e.children.iter().map(html_of).collect();
            format!("<{name}{attrs}>{inner}</{name}>")
        }
        _ => String::new(),
    }
}

/// Renders `name` with `props`: `(name, value)` is written `name="value"`, and `(name,
/// "{expr}")` is written in braces.
fn run(source: &str, name: &str, props: &[(&str, &str)]) -> Result<(String, Vec<String>), String> {
    let mut text = HashMap::new();
    let mut expressions = HashMap::new();
    for (k, v) in props {
        match v.strip_prefix('{').and_then(|e| e.strip_suffix('}')) {
            Some(e) => {
                text.insert(k.to_string(), e.to_string());
                expressions.insert(k.to_string(), e.to_string());
            }
            None => {
                text.insert(k.to_string(), v.to_string());
            }
        }
    }
    render(source, name, &text, &expressions, &[]).map(|r| (html_of(&r.tree), r.left_out))
}

#[test]
fn tables_mapped_from_the_files_own_data() {
    let source = r#"
export const methods = () => {
  return [
    { name: "connect", dt: "1.0.0", ws: "1.1.0" },
    { name: "disconnect", dt: "1.0.0" },
  ];
};

export const TransportTable = () => {
  const headers = ["Method", "Daily", "WebSocket"];
  return (
    <table>
      <thead><tr>{headers.map((header) => (<th key={header}>{header}</th>))}</tr></thead>
      <tbody>
        {methods().map((m) => (
          <tr key={m.name}>
            <td><code>{m.name}</code></td>
            <td>{m.dt ?? "—"}</td>
            <td>{m.ws ? `v${m.ws}` : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};
"#;
    let (html, left_out) = run(source, "TransportTable", &[]).unwrap();
    assert_eq!(
        html,
        "<table><thead><tr><th key=\"Method\">Method</th><th key=\"Daily\">Daily</th><th key=\"WebSocket\">WebSocket</th></tr></thead><tbody><tr key=\"connect\"><td><code>connect</code></td><td>1.0.0</td><td>v1.1.0</td></tr><tr key=\"disconnect\"><td><code>disconnect</code></td><td>1.0.0</td><td>—</td></tr></tbody></table>"
    );
    assert!(left_out.is_empty(), "{left_out:?}");
}

#[test]
fn props_defaults_state_templates_and_conditions() {
    let source = r#"
export const ThemeCard = ({ name, size = 2, tags = [], children }) => {
  const [open, setOpen] = useState(false);
  const label = name.charAt(0).toUpperCase() + name.slice(1);
  if (tags.length === 0) {
    return <Card title={label} img={`https://x.test/${name}.png`}>{children}</Card>;
  }
  return (
    <Card title={`${label} (${size * 2})`} cols={size}>
      {open && <p>hidden</p>}
      {tags.filter((t) => t !== "old").map((t, i) => <Badge>{i + 1}. {t}</Badge>)}
      {children}
    </Card>
  );
};
"#;
    let (plain, _) = run(source, "ThemeCard", &[("name", "dark")]).unwrap();
    assert_eq!(
        plain,
        "<Card title=\"Dark\" img=\"https://x.test/dark.png\">{children}</Card>"
    );
    let (tagged, _) = run(
        source,
        "ThemeCard",
        &[
            ("name", "light"),
            ("size", "{3}"),
            ("tags", "{[\"new\", \"old\", \"beta\"]}"),
        ],
    )
    .unwrap();
    assert_eq!(
        tagged,
        "<Card title=\"Light (6)\" cols={3}><Badge>1. new</Badge><Badge>2. beta</Badge>{children}</Card>"
    );
}

#[test]
fn what_cannot_be_known_is_named_and_the_rest_renders() {
    let source = "export const Status = ({ id }) => (\n  <div className=\"status\">\n    <span>Build {id}</span>\n    {fetch(`/api/${id}`).then((r) => r.json())}\n    {window.location.href}\n  </div>\n);\n";
    let (html, left_out) = run(source, "Status", &[("id", "7")]).unwrap();
    assert_eq!(html, "<div className=\"status\"><span>Build 7</span></div>");
    assert_eq!(
        left_out,
        [
            "fetch is not known statically",
            "window is not known statically"
        ]
    );
}

#[test]
fn loops_regular_expressions_and_runaways_are_refused() {
    let loop_source = "export const L = () => { const out = []; for (const x of [1]) { out.push(x); } return out; };";
    assert!(run(loop_source, "L", &[]).unwrap_err().contains("no loop"));
    let regex = "export const R = ({ text }) => { const re = /a+/g; return <p>{text}</p>; };";
    assert!(
        run(regex, "R", &[])
            .unwrap_err()
            .contains("regular expression")
    );
    let runaway = "export const f = (n) => f(n + 1);\nexport const Runaway = () => <p>{f(0)}</p>;";
    let (html, left_out) = run(runaway, "Runaway", &[]).unwrap();
    assert_eq!(html, "<p></p>");
    assert_eq!(left_out, ["calls nest too deeply"]);
    let uses_broken = "export const data = /x/;\nexport const U = () => <p>{data}</p>;";
    let (_, left_out) = run(uses_broken, "U", &[]).unwrap();
    assert!(left_out[0].contains("regular expression"), "{left_out:?}");
}

#[test]
fn styles_and_lists_stay_literals_for_the_markup() {
    let source = "export const S = () => <p style={{ marginLeft: 8, color: 'red' }} data-tags={['a', 'b']} hidden={false} open>x</p>;";
    let (html, _) = run(source, "S", &[]).unwrap();
    assert_eq!(
        html,
        "<p style={{marginLeft: 8, color: \"red\"}} data-tags={[\"a\", \"b\"]} open>x</p>"
    );
}

/// Fragments of component source, joined and cut at random: reading and evaluating them never
/// panics, whatever they are.
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const PARTS: &[&str] = &[
        "export const C = ({ a = 1, b }) => ",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "<div className=\"x\">",
        "</div>",
        "<>",
        "</>",
        "{a.map((x, i) => <p key={i}>{x}</p>)}",
        "`${a}-${b}`",
        "?",
        ":",
        "&&",
        "||",
        "??",
        "===",
        "+",
        "-",
        "*",
        "/",
        "%",
        "!",
        "...",
        ",",
        ";",
        "\n",
        "return ",
        "const [s, set] = useState(2);",
        "if (a) { return null; }",
        "\"str\"",
        "'s'",
        "1e3",
        "0x1F",
        "a.b.c",
        "a?.b",
        "a[0]",
        "f(f(f()))",
        "=>",
        "=",
        "<Card title={a} />",
        "&amp;",
        "&#x7B;",
        "// c\n",
        "/* c */",
        "\\",
        "\\u{1F600}",
        "for (;;) {}",
        "/re/g",
        "日本",
    ];

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2000),
            rng_seed: proptest::test_runner::RngSeed::Fixed(7),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn any_source_is_read_without_panicking(
            parts in proptest::collection::vec(proptest::sample::select(PARTS), 0..40),
            cut in 0usize..400,
        ) {
            let source: String = parts.concat();
            let end = source.char_indices().map(|(i, _)| i).nth(cut).unwrap_or(source.len());
            let props = HashMap::from([("a".to_string(), "[1, 2]".to_string())]);
            let _ = render(&source[..end], "C", &props, &props, &[]);
        }
    }
}

#[test]
fn props_in_braces_are_evaluated_in_the_components_file() {
    let source = "export const rows = () => [{ name: \"connect\", dt: \"1.0\" }];\nexport const Table = (props) => {\n  if (!props || !props.rows || !Array.isArray(props.rows)) {\n    return <div>Error</div>;\n  }\n  return <table>{props.rows.map((r) => <tr key={r.name}><td>{r.name}()</td><td className={r.dt ? \"yes\" : \"no\"}>{r.dt || \"none\"}</td></tr>)}</table>;\n};\n";
    let (html, _) = run(source, "Table", &[("rows", "{rows()}")]).unwrap();
    assert_eq!(
        html,
        "<table><tr key=\"connect\"><td>connect()</td><td className=\"yes\">1.0</td></tr></table>"
    );
    // Text props stay text, however they look.
    let (text, _) = run(
        "export const V = ({ v }) => <p>{v}</p>;",
        "V",
        &[("v", "1.0")],
    )
    .unwrap();
    assert_eq!(text, "<p>1.0</p>");
    let deep = format!(
        "export const D = () => <p>{{{}1{}}}</p>;",
        "[".repeat(80),
        "]".repeat(80)
    );
    assert!(
        run(&deep, "D", &[])
            .unwrap_err()
            .contains("nests too deeply")
    );
}

#[test]
fn numbers_passed_on_stay_numbers() {
    let source = "export const Nest = ({ n = 0 }) => n > 2 ? <b>{n}</b> : <Nest n={n + 1} />;";
    let (html, _) = run(source, "Nest", &[("n", "{1}")]).unwrap();
    assert_eq!(html, "<Nest n={2}></Nest>");
}

#[test]
fn names_imported_from_other_files_are_in_scope() {
    let data =
        "export const plans = [{ name: \"Team\", seats: 10 }];\nexport const unit = \"seats\";";
    let source = "export const Plans = () => <ul>{plans.map((p) => <li>{p.name}: {p.seats} {unit}</li>)}</ul>;";
    let imports = [
        Imported {
            local: "plans",
            module: data,
            exported: "plans",
        },
        Imported {
            local: "unit",
            module: data,
            exported: "unit",
        },
    ];
    let rendered = render(source, "Plans", &HashMap::new(), &HashMap::new(), &imports).unwrap();
    assert_eq!(html_of(&rendered.tree), "<ul><li>Team: 10 seats</li></ul>");
}
