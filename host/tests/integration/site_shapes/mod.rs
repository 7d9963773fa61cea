//! The docs.json shapes real sites use, end to end: a site built from them is published with the
//! real binary, exported over the API and served by the docs server. Every page its navigation
//! names is in a sidebar (group roots, tab menus, tabs inside anchors), hidden ones are exported
//! and not shown, a missing page is a warning (and `--strict` refuses), redirects work in the
//! bundle and on the docs server, API operations named in navigation get pages, right-to-left
//! languages are marked, a component attribute with `&` renders, pages carry their "last
//! modified" date, and a group's root page lists its pages (`directory`); snippets are imported
//! from anywhere in the folder. A site in mint.json's older shape builds with its tabs, anchors
//! and settings (`mint_json.rs`).

mod mint_json;

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::common::archive::unpack;
use crate::common::{Api, Instance};
use serde_json::{Value, json};

fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let target = root.join(path);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        std::fs::write(target, text).expect("write");
    }
}

fn site(root: &Path) {
    let docs = json!({
        "name": "Shapes",
        "api": {"openapi": "openapi.yaml",
                "mdx": {"server": "https://api.shapes.test", "auth": {"method": "bearer"}}},
        "favicon": {"light": "/favicon-light.svg", "dark": "/favicon-dark.svg"},
        "navbar": {"primary": {"type": "button", "label": "Sign up", "href": "https://app.example"}},
        "footer": {"socials": {"github": "https://github.com/acme"},
                   "links": [{"header": "Company", "items": [{"label": "About", "href": "/start"}]}]},
        "seo": {"metatags": {"og:site_name": "Shapes"}},
        "banner": {"content": "Version **2** is out"},
        "metadata": {"timestamp": true},
        "variables": {"product": "Shapes Cloud"},
        "redirects": [
            {"source": "/old-start", "destination": "/start"},
            {"source": "/moved/:slug", "destination": "/guides/:slug"},
            {"source": "/guides-home", "destination": "/guides"}
        ],
        "navigation": {"languages": [
            {"language": "en", "default": true, "anchors": [
                {"anchor": "Docs", "tabs": [
                    {"tab": "Guides", "menu": [
                        {"item": "Basics", "groups": [
                            {"group": "Start here", "root": "start", "directory": "card", "pages": ["guides/setup", "gone"]}
                        ]},
                        {"item": "More", "pages": ["guides/more"]}
                    ]},
                    {"tab": "API", "groups": [{"group": "Users", "pages": ["GET /users", "create-user"]}]},
                    {"tab": "Blog", "href": "https://blog.example"},
                    {"tab": "Internal", "hidden": true, "pages": ["internal"]}
                ]},
                {"anchor": "Community", "href": "https://community.example"}
            ]},
            {"language": "ar", "pages": ["ar/start"], "banner": {"content": "إصدار جديد"},
             "global": {"anchors": [{"anchor": "Forum", "href": "https://forum.example"}]}}
        ]}
    });
    write(
        root,
        &[
            ("docs.json", &docs.to_string()),
            (
                "start.mdx",
                "---\ntitle: Start\n---\n\n<Card title=\"A&B\">Text.</Card>\n\nSee [the setup](/moved/setup) and [old](/old-start), [all guides](/guides-home), [a folder](/guides#top) and [nothing](/nowhere).\n",
            ),
            (
                "guides/setup.mdx",
                "---\ntitle: Setup\n---\n\n<Step title=\"Crie uma conta no W&B\">Sign up.</Step>\n",
            ),
            (
                "guides/more.mdx",
                "---\ntitle: More of {{product}}\n---\n\nInstall {{ product }}.\n",
            ),
            (
                "internal.mdx",
                "---\ntitle: Internal\ntimestamp: false\n---\n\nNot dated.\n",
            ),
            ("ar/start.mdx", "---\ntitle: ابدأ\n---\n\nمرحبا\n"),
            (
                "create-user.mdx",
                "---\ntitle: Create a user\napi: POST /users\n---\n\n<ParamField body=\"email\" type=\"string\" required>Their email.</ParamField>\n",
            ),
            (
                "openapi.yaml",
                "openapi: 3.0.0\ninfo: {title: Shapes, version: '1'}\npaths:\n  /users:\n    get:\n      summary: List users\n      responses: {'200': {description: The users}}\n",
            ),
        ],
    );
}

/// 2026-01-15 12:00 UTC, the time `start.mdx` was last changed.
const START_MODIFIED: u64 = 1_768_478_400;

fn sidebar(bundle: &BTreeMap<String, Vec<u8>>, page: &str) -> (Vec<Value>, Vec<Value>) {
    common::archive::sidebar_of(bundle, page).expect("the page's navigation data")
}

fn lists(items: &[Value], page: &str) -> bool {
    items.iter().any(|i| i["target"] == page)
}

#[tokio::test]
async fn every_navigation_shape_publishes_exports_and_serves() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let root = tempfile::tempdir().expect("site");
    site(root.path());
    std::fs::File::options()
        .write(true)
        .open(root.path().join("start.mdx"))
        .and_then(|f| f.set_modified(std::time::UNIX_EPOCH + Duration::from_secs(START_MODIFIED)))
        .expect("set the modification time");
    let path = root.path().to_str().expect("utf-8");

    let strict = instance.cli(&[
        "site",
        "publish",
        "shapes.test",
        path,
        "--org",
        "acme",
        "--strict",
    ]);
    assert!(
        !strict.status.success(),
        "--strict refuses a site with warnings"
    );
    let refusal = String::from_utf8_lossy(&strict.stderr);
    assert!(
        refusal.contains("strict") && refusal.contains("gone"),
        "{refusal}"
    );

    let out = instance.cli(&[
        "site",
        "publish",
        "shapes.test",
        path,
        "--org",
        "acme",
        "--version",
        "v1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: docs.json: navigation.languages[0].anchors[0].tabs[0].menu[0].groups[0].pages[1]")
            && stderr.contains("gone.mdx"),
        "{stderr}"
    );

    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (job_id, last) = api
        .run_job(json!({"domain": "shapes.test"}), Duration::from_secs(120))
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let messages: Vec<&str> = last["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w["message"].as_str())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("gone.mdx")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("\"/nowhere\"")),
        "{messages:?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("could not be rendered")),
        "{messages:?}"
    );
    let (bundle_view, bytes) = api.download_bundle(&job_id).await;
    let bundle = unpack(&bytes);
    let html = |page: &str| String::from_utf8_lossy(&bundle[&format!("{page}.html")]).into_owned();

    // A language may give its own banner (or navbar, or footer); the others keep the site's.
    assert!(html("ar/start").contains("إصدار جديد"));
    assert!(!html("ar/start").contains("Version <strong>2</strong>"));

    // docs.json `variables` are replaced in the page, its Markdown and its navigation label.
    assert!(html("guides/more").contains("Install Shapes Cloud."));
    let markdown = String::from_utf8_lossy(&bundle["guides/more.md"]).into_owned();
    assert!(markdown.contains("Install Shapes Cloud."), "{markdown}");
    let (items, _) = sidebar(&bundle, "guides/more");
    assert!(
        items.iter().any(|i| i["label"] == "More of Shapes Cloud"),
        "{items:?}"
    );

    // Attributes with `&` render as written.
    assert!(html("start").contains("A&amp;B"), "{}", html("start"));
    assert!(html("guides/setup").contains("Crie uma conta no W&amp;B"));

    // The group's root page, menu items and their pages are in their own sidebars.
    for page in ["start", "guides/setup", "guides/more"] {
        let (_, shown) = sidebar(&bundle, page);
        assert!(
            lists(&shown, page),
            "{page} is not in its sidebar: {shown:?}"
        );
    }
    let (items, _) = sidebar(&bundle, "start");
    let root_group = items
        .iter()
        .find(|i| i["label"] == "Start here")
        .expect("the group");
    assert_eq!(root_group["target"], "start");
    // The tab bar of a page inside the anchor shows its tabs, the link tab among them; the
    // hidden tab is exported and shown nowhere.
    let start = html("start");
    // The group's root page lists the group's pages as cards (docs.json `directory`).
    assert!(
        start.contains("<div class=\"directory card-group cols-2\"><a class=\"card\" href=\"guides/setup.html\">"),
        "{start}"
    );
    let tabs = start.split("tabs-bar").nth(1).expect("a tab bar");
    let tabs = &tabs[..tabs.find("</nav>").unwrap()];
    assert!(
        tabs.contains(">Guides<") && tabs.contains("https://blog.example"),
        "{tabs}"
    );
    assert!(!tabs.contains("Internal"), "{tabs}");
    assert!(bundle.contains_key("internal.html"));
    assert!(!lists(&items, "internal"));
    assert!(
        start.contains("https://community.example"),
        "the link anchor is shown"
    );

    // Site settings: favicon given light and dark, navbar button, footer, meta tags, banner.
    for expected in [
        "<link rel=\"icon\" href=\"favicon-light.svg\">",
        "<a class=\"navbar-button\" href=\"https://app.example\">Sign up</a>",
        "<strong>Company</strong><a href=\"start.html\">About</a>",
        "href=\"https://github.com/acme\"",
        "<meta property=\"og:site_name\" content=\"Shapes\">",
        "<span class=\"banner-text\">Version <strong>2</strong> is out</span>",
    ] {
        assert!(start.contains(expected), "{expected} in {start}");
    }

    // metadata.timestamp: the source file's date, unless the page's frontmatter turns it off;
    // generated pages have no file, so no date.
    assert!(
        start.contains("Last modified on <time datetime=\"2026-01-15\">January 15, 2026</time>"),
        "{start}"
    );
    assert!(!html("internal").contains("last-modified"));
    assert!(!html("api-reference/get-users").contains("last-modified"));

    // The API operation named in navigation has its page.
    let operation = html("api-reference/get-users");
    assert!(
        operation.contains("List users") && operation.contains("/users"),
        "{operation}"
    );
    assert!(lists(&items, "api-reference/get-users"));

    // A hand-written API page: its endpoint, and a request built from its fields and the
    // site's api.mdx server and credential.
    let manual = html("create-user");
    for expected in [
        "<span class=\"method method-post\">POST</span>",
        "https://api.shapes.test/users",
        "Authorization: Bearer &lt;token&gt;",
        "&quot;email&quot;",
        "data-method=\"POST\" data-path=\"/users\"",
    ] {
        assert!(manual.contains(expected), "{expected} in {manual}");
    }

    // Right to left, with its own global anchor.
    let arabic = html("ar/start");
    assert!(arabic.contains("dir=\"rtl\"") && arabic.contains("https://forum.example"));

    // Redirects: a page at the plain source, links straight to the destination, a folder's
    // first page for a folder, text for a page that does not exist.
    let moved = html("old-start");
    assert!(moved.contains("url=start.html"), "{moved}");
    assert!(start.contains("href=\"guides/setup.html\""), "{start}");
    assert!(start.contains("href=\"start.html\""), "{start}");
    assert!(start.contains("href=\"guides/setup.html#top\""), "{start}");
    assert!(
        start.contains("<span class=\"broken-link\">nothing</span>"),
        "{start}"
    );
    assert!(html("guides-home").contains("url=guides/setup.html"));

    // The docs server answers the same table with 308s.
    let data = instance.dir.path().join("docs-data");
    let url = bundle_view["bundleUrl"].as_str().expect("bundleUrl");
    let docs = common::docs_server(&data, &["--bundle-url", url]);
    let client = quire::http_client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for (path, location) in [
        ("/old-start", "/start"),
        ("/moved/setup?x=1", "/guides/setup?x=1"),
    ] {
        let response = client
            .get(format!("{}{path}", docs.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 308, "{path}");
        assert_eq!(response.headers()["location"], location, "{path}");
    }
    let page = client
        .get(format!("{}/start", docs.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
}

/// Snippets as docs.json sites write them today: imported from anywhere in the folder, by a
/// path relative to the importing file or from the root, importing one another, and named by
/// docs.json `snippets` patterns. They show where they are imported and are no pages of their
/// own; a page the navigation leaves out that nothing imports is still exported.
#[test]
fn snippets_import_from_anywhere_and_are_not_pages() {
    let instance = Instance::new("");
    let root = tempfile::tempdir().expect("site");
    let docs = json!({
        "name": "Snippets",
        "snippets": ["components/**/*.jsx"],
        "navigation": {"pages": ["guides/setup"]}
    });
    write(
        root.path(),
        &[
            ("docs.json", &docs.to_string()),
            (
                "guides/setup.mdx",
                "---\ntitle: Setup\n---\nimport Step from './parts/step.mdx'\nimport Intro from '../shared/intro.mdx'\nimport { Shout } from '/components/ui/shout.jsx'\n\n<Intro />\n\n<Step />\n\n<Shout word=\"hey\" />\n",
            ),
            ("guides/parts/step.mdx", "Step text from a part.\n"),
            (
                "shared/intro.mdx",
                "import Deep from './deep.mdx'\n\nIntro text.\n\n<Deep />\n",
            ),
            ("shared/deep.mdx", "Deep text.\n"),
            (
                "components/ui/shout.jsx",
                "export const Shout = ({ word }) => (\n  <strong>{word}!</strong>\n);\n",
            ),
            (
                "draft.mdx",
                "---\ntitle: Draft\n---\n\nNot in the navigation.\n",
            ),
        ],
    );
    let out = instance.dir.path().join("bundle");
    let warnings = instance.dir.path().join("warnings.json");
    instance.cli_ok(&[
        "build",
        root.path().to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
        "--warnings-json",
        warnings.to_str().expect("utf-8"),
    ]);
    let warnings: Value =
        serde_json::from_slice(&std::fs::read(&warnings).expect("warnings")).expect("json");
    assert_eq!(warnings, json!([]), "no warnings expected");
    let setup = std::fs::read_to_string(out.join("guides/setup.html")).expect("the page");
    for text in [
        "Step text from a part.",
        "Intro text.",
        "Deep text.",
        "<strong>hey!</strong>",
    ] {
        assert!(setup.contains(text), "{text:?} missing from the page");
    }
    for snippet in ["guides/parts/step", "shared/intro", "shared/deep"] {
        assert!(
            !out.join(format!("{snippet}.html")).exists(),
            "{snippet} is a snippet, not a page"
        );
    }
    assert!(out.join("draft.html").exists(), "a hidden page is exported");
}
