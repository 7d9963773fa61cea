//! The built component, run in Quire's plugin runtime.

use quire_sdk::harness::{TestRenderer, TestSite};

fn site() -> TestSite {
    TestSite::new("Acme")
        .page(
            "index",
            "---\ntitle: Welcome\n---\nStart with the [guide](guides/setup).\n",
        )
        .page(
            "guides/setup",
            "# Setup\n\nInstall it.\n\n## Verify\n\nRun `acme check`. See [missing](nowhere).\n",
        )
}

#[test]
fn pages_render_in_the_theme_with_relative_links_and_sections() {
    let renderer =
        TestRenderer::build(env!("CARGO_MANIFEST_DIR")).expect("the renderer builds and loads");
    let site = site();
    let mut open = renderer.open(&site).expect("the site opens");
    let assets = open.assets().expect("assets");
    assert_eq!(assets[0].path, "assets/minimal.css");

    let index = open.render("index").expect("index renders");
    assert_eq!(index.title, "Welcome");
    let html = String::from_utf8(index.files[0].contents.clone()).unwrap();
    assert!(html.contains("href=\"guides/setup.html\""), "{html}");
    assert!(html.contains("<title>Welcome - Acme</title>"));

    let setup = open.render("guides/setup").expect("setup renders");
    let html = String::from_utf8(setup.files[0].contents.clone()).unwrap();
    assert!(html.contains("href=\"../assets/minimal.css\""));
    assert!(html.contains("<h2 id=\"verify\">Verify</h2>"), "{html}");
    assert!(
        html.contains("href=\"../index.html\""),
        "the previous link is relative: {html}"
    );
    let trails: Vec<_> = setup
        .sections
        .iter()
        .map(|s| s.heading_trail.join(" > "))
        .collect();
    assert_eq!(trails, ["Setup", "Setup > Verify"]);
    assert_eq!(setup.warnings.len(), 1);
    assert_eq!(setup.warnings[0].line, Some(7));
    assert!(setup.warnings[0].message.contains("nowhere"));
}
