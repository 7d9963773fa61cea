//! Pages keep the elements their authors wrote: raw HTML, SVG and MathML (sanitised), props
//! given as elements, the legacy `<Snippet file>` form, and icons that are neither names nor
//! images.

use super::*;
use crate::raw_html::vocabulary;

fn page(source: &str) -> PageOutput {
    render_page(&site(), "quickstart", "quickstart.mdx", source)
}

/// The article only: the theme around it has its own scripts and handlers.
fn body(out: &PageOutput) -> &str {
    let start = out.html.find("<article").unwrap_or(0);
    let end = out.html[start..]
        .find("</article>")
        .map_or(out.html.len(), |e| start + e);
    &out.html[start..end]
}

const RAW: &str = r##"# Schema

<div className="schema" data-kind="object">
  <svg className="sprite" viewBox="0 0 24 24" strokeWidth={2} onLoad="alert(1)"><defs><linearGradient id="fade"><stop offset="0" stopColor="red" /></linearGradient></defs><use xlinkHref="#shape" /><path d="M0 0h24" fillRule="evenodd" clipPath="url(#fade)" /><foreignObject><img src="x" onError="alert(1)" /></foreignObject><script>alert(1)</script></svg>
  <aside className="note">Aside text &amp; more &#x7B;braces&#x7D;</aside>
  <button type="button" onClick="steal()">Press</button>
  <label htmlFor="q">Query</label>
  <a href="javascript:alert(1)">bad link</a>
  <a href="/guides/auth">good link</a>
  <math display="block"><mfrac><mi>a</mi><mn>2</mn></mfrac></math>
</div>
"##;

#[test]
fn raw_html_svg_and_mathml_render_as_written_without_their_hostile_parts() {
    let out = page(RAW);
    let html = body(&out);
    for expected in [
        "<div class=\"schema\" data-kind=\"object\">",
        "<svg class=\"sprite\" viewBox=\"0 0 24 24\" stroke-width=\"2\">",
        "<linearGradient id=\"fade\"><stop offset=\"0\" stop-color=\"red\"></stop></linearGradient>",
        "<use xlink:href=\"#shape\"></use>",
        "fill-rule=\"evenodd\"",
        "<aside class=\"note\">Aside text &amp; more {braces}</aside>",
        "<button type=\"button\">Press</button>",
        "<label for=\"q\">Query</label>",
        "<a>bad link</a>",
        "<a href=\"guides/auth.html\">good link</a>",
        "<math display=\"block\"><mfrac><mi>a</mi><mn>2</mn></mfrac></math>",
    ] {
        assert!(html.contains(expected), "{expected} missing from {html}");
    }
    for hostile in [
        "onload",
        "onerror",
        "onclick",
        "alert",
        "steal",
        "javascript:",
        "foreignObject",
        "<script",
    ] {
        assert!(
            !html.to_lowercase().contains(&hostile.to_lowercase()),
            "{hostile} in {html}"
        );
    }
    assert!(
        !out.warnings
            .iter()
            .any(|w| w.message.contains("unknown component")),
        "{:?}",
        out.warnings
    );
    // The left-out parts are named, once each.
    let left_out: Vec<_> = out
        .warnings
        .iter()
        .filter(|w| w.message.contains("left out"))
        .collect();
    assert_eq!(left_out.len(), 2, "{:?}", out.warnings);
    assert!(out.sections[0].text.contains("Aside text & more {braces}"));
}

#[test]
fn every_html_svg_and_mathml_element_is_known() {
    let source: String = vocabulary::all_elements()
        .map(|name| format!("<{name}>x</{name}>\n\n"))
        .collect();
    let out = page(&source);
    let unknown: Vec<_> = out
        .warnings
        .iter()
        .filter(|w| w.message.contains("unknown component"))
        .collect();
    assert!(unknown.is_empty(), "{unknown:?}");
}

#[test]
fn components_and_markdown_inside_raw_elements_keep_their_markup() {
    let out = page(
        "<div className=\"wrap\">\n\n<Note>Careful **now**.</Note>\n\nA [link](/guides/auth).\n\n</div>\n",
    );
    let html = body(&out);
    assert!(html.contains("<div class=\"wrap\">"), "{html}");
    assert!(html.contains("callout callout-note"), "{html}");
    assert!(html.contains("<strong>now</strong>"), "{html}");
    assert!(
        html.contains("<a href=\"guides/auth.html\">link</a>"),
        "{html}"
    );
}

#[test]
fn props_given_as_elements_render_where_the_component_puts_them() {
    let out = page(
        "<Card title={<>Fast <b>and</b> safe</>} icon={<><svg viewBox=\"0 0 8 8\"><circle cx=\"4\" cy=\"4\" r=\"3\" strokeWidth={1} /></svg></>} href=\"/guides/auth\">Body</Card>\n",
    );
    let html = body(&out);
    assert!(
        html.contains("<svg class=\"icon icon-own\" aria-hidden=\"true\" width=\"20\" height=\"20\" viewBox=\"0 0 8 8\"><circle cx=\"4\" cy=\"4\" r=\"3\" stroke-width=\"1\"></circle></svg>"),
        "{html}"
    );
    assert!(html.contains("Fast <b>and</b> safe"), "{html}");
    assert!(
        !html.contains("&lt;svg") && !html.contains("href=\"&lt;"),
        "{html}"
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert!(
        out.sections[0].text.contains("Fast and safe"),
        "{:?}",
        out.sections
    );
    // The icon's size stands for the drawing's own.
    let sized = page(
        "<Icon icon={<svg width=\"64\" viewBox=\"0 0 1 1\" height=\"64\"><path d=\"M0 0\" /></svg>} />\n",
    );
    assert!(
        body(&sized).contains("<svg class=\"icon icon-own\" aria-hidden=\"true\" width=\"16\" height=\"16\" viewBox=\"0 0 1 1\">"),
        "{}",
        body(&sized)
    );
}

#[test]
fn svg_code_as_an_icon_string_is_an_icon() {
    let out = page(
        "<Card title=\"T\" icon='<svg viewBox=\"0 0 8 8\" onload=\"x()\"><path d=\"M0 0\" strokeLinecap=\"round\"/></svg>'>B</Card>\n",
    );
    let html = body(&out);
    assert!(
        html.contains("<path d=\"M0 0\" stroke-linecap=\"round\"></path>"),
        "{html}"
    );
    assert!(!html.contains("onload"), "{html}");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn legacy_snippets_are_read_from_the_snippets_folder() {
    let site = site().with_files(
        vec![(
            "snippets/get-help.mdx".into(),
            "Ask **{who}** for help.".into(),
        )],
        vec![],
    );
    let out = render_page(
        &site,
        "quickstart",
        "quickstart.mdx",
        "<Snippet file=\"get-help.mdx\" who=\"us\" />\n\n<Snippet file=\"gone.mdx\" />\n",
    );
    assert!(
        out.html.contains("Ask <strong>us</strong> for help."),
        "{}",
        out.html
    );
    let messages: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages, ["the snippet snippets/gone.mdx does not exist"]);
}

#[test]
fn an_icon_that_is_neither_a_name_nor_an_image_is_a_warning_and_draws_nothing() {
    let source = "---\ntitle: T\nicon: \"); -webkit-mask-image: url(https://x.test/a.svg);/*\"\n---\n\n<Card title=\"C\" icon=\"); background: url(x)\">B</Card>\n";
    let out = page(source);
    assert!(!body(&out).contains("<img"), "{}", body(&out));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.message.starts_with("unknown icon")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn components_fill_template_literals_and_start_from_their_initial_state() {
    let source = "export const ThemeCard = ({ name }) => <Card img={`https://example.com/themes/${name}.png`} title={`Theme ${props.name}`} />;\n\nexport const Counter = () => {\n  const [count, setCount] = useState(3);\n  const label = \"Clicks\";\n  return (<span className=\"counter\">{label}: {count}</span>);\n};\n\n<ThemeCard name=\"dark\" />\n\n<Counter />\n";
    let out = page(source);
    let html = body(&out);
    assert!(
        html.contains("src=\"https://example.com/themes/dark.png\""),
        "{html}"
    );
    assert!(html.contains("Theme dark"), "{html}");
    assert!(
        html.contains("<span class=\"counter\">Clicks: 3</span>"),
        "{html}"
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn raw_html_in_markdown_pages_is_sanitised_with_the_markdown_around_it() {
    let source = "# Keys\n\n<div class=\"keys\" onclick=\"steal()\">\n\nPress <kbd>Ctrl</kbd> and **C**.\n\n</div>\n\n<script>alert(1)</script>\n\n<a href=\"javascript:alert(1)\">x</a> <img src=\"/images/x.png\" onerror=\"alert(1)\">\n";
    let out = render_page(&site(), "quickstart", "quickstart.md", source);
    let html = body(&out);
    assert!(html.contains("<div class=\"keys\">"), "{html}");
    assert!(
        html.contains("Press <kbd>Ctrl</kbd> and <strong>C</strong>."),
        "{html}"
    );
    assert!(html.contains("<img src=\"images/x.png\">"), "{html}");
    for hostile in [
        "onclick",
        "steal",
        "<script",
        "alert",
        "javascript:",
        "onerror",
    ] {
        assert!(!html.contains(hostile), "{hostile} in {html}");
    }
    let messages: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("the <script> element is left out")),
        "{messages:?}"
    );
}

#[test]
fn components_map_over_data_the_page_declares_in_another_block() {
    let source = "export const steps = [\"Install\", \"Configure\", \"Run\"];\n\nexport const List = ({ skip = 0 }) => (\n  <ol className=\"plan\">{steps.slice(skip).map((s, i) => <li key={s}>{i + 1 + skip}. {s}</li>)}</ol>\n);\n\n<List skip={1} />\n";
    let out = page(source);
    assert!(
        body(&out).contains("<ol class=\"plan\"><li>2. Configure</li><li>3. Run</li></ol>"),
        "{}",
        body(&out)
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn computing_components_read_values_the_page_imports() {
    let site = site().with_files(
        vec![(
            "snippets/data.mdx".into(),
            "export const regions = [{ id: \"eu\", name: \"Europe\" }, { id: \"us\", name: \"United States\" }];\n".into(),
        )],
        vec![],
    );
    let source = "import { regions } from '/snippets/data.mdx';\n\nexport const Regions = () => (\n  <ul className=\"regions\">{regions.map((r) => <li key={r.id}><code>{r.id}</code> {r.name}</li>)}</ul>\n);\n\n<Regions />\n\n<Card title=\"Pic\" img={<img src=\"/images/a.png\" alt=\"A\" />}>Body</Card>\n";
    let out = render_page(&site, "quickstart", "quickstart.mdx", source);
    let html = body(&out);
    assert!(
        html.contains("<ul class=\"regions\"><li><code>eu</code> Europe</li><li><code>us</code> United States</li></ul>"),
        "{html}"
    );
    assert!(
        html.contains(
            "<div class=\"card-image\"><img src=\"images/a.png\" alt=\"A\" loading=\"lazy\"></div>"
        ),
        "{html}"
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}
