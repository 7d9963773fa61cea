//! Search and page endpoints over a real socket: the index built at publish time by the
//! retriever plugin, ranking, validation, keys, and a new version replacing the old index.

use crate::common;

use crate::common::archive::tar_gz_dir;
use crate::common::{Api, Instance, Server};
use serde_json::{Value, json};

struct World {
    instance: Instance,
    server: Server,
    admin: String,
    assistant: String,
    other_assistant: String,
}

fn world() -> World {
    let instance = Instance::new("");
    let admin = instance.organization("acme", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    instance.organization("rival", "pro");
    let other_assistant =
        instance.cli_ok(&["key", "create", "--org", "rival", "--kind", "assistant"]);
    let site = common::example_site();
    let out = instance.cli(&[
        "site",
        "publish",
        "docs.acme.test",
        site.to_str().unwrap(),
        "--org",
        "acme",
        "--version",
        "v1",
    ]);
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("searchable sections"), "{said}");
    let server = instance.start();
    World {
        instance,
        server,
        admin,
        assistant,
        other_assistant,
    }
}

async fn search(api: &Api, body: Value) -> (u16, Value) {
    api.post("/discovery/v1/search/docs.acme.test", body).await
}

fn paths(results: &Value) -> Vec<String> {
    results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn search_ranks_the_answering_section_first() {
    let w = world();
    let api = Api::new(&w.server.base, &w.assistant);
    for (query, page) in [
        ("how do I verify webhook signatures", "guides/webhooks"),
        ("rotate API keys", "guides/authentication"),
        (
            "deploy the agent as a DaemonSet",
            "guides/deploy/kubernetes",
        ),
        ("pagination cursor", "api-reference/overview"),
        ("warehouses", "concepts"),
    ] {
        let (status, results) = search(&api, json!({"query": query})).await;
        assert_eq!(status, 200, "{results}");
        assert_eq!(paths(&results)[0], page, "{query}: {results}");
    }
    let (_, results) = search(
        &api,
        json!({"query": "verify webhook signatures", "pageSize": 2}),
    )
    .await;
    let first = &results[0];
    assert_eq!(results.as_array().unwrap().len(), 2);
    assert_eq!(first["metadata"]["anchor"], "verifying-signatures");
    assert_eq!(first["metadata"]["title"], "Webhooks");
    assert_eq!(first["metadata"]["score"], 1.0);
    assert!(first["content"].as_str().unwrap().contains("HMAC-SHA256"));
    let (_, best_only) = search(
        &api,
        json!({"query": "verify webhook signatures", "scoreThreshold": 1.0}),
    )
    .await;
    assert_eq!(best_only.as_array().unwrap().len(), 1);
    let (_, nothing) = search(&api, json!({"query": "zeppelin"})).await;
    assert_eq!(nothing, json!([]));
}

#[tokio::test]
async fn search_validates_and_checks_keys() {
    let w = world();
    let api = Api::new(&w.server.base, &w.assistant);
    for (body, needle) in [
        (json!({}), "query is required"),
        (json!({"query": "  "}), "query is required"),
        (json!({"query": 5}), "query"),
        (json!({"query": "x", "pageSize": 0}), "pageSize"),
        (json!({"query": "x", "pageSize": 51}), "pageSize"),
        (json!({"query": "x", "pageSize": 2.5}), "pageSize"),
        (
            json!({"query": "x", "scoreThreshold": 1.5}),
            "scoreThreshold",
        ),
        (json!({"query": "x", "filter": "v1"}), "filter"),
    ] {
        let (status, response) = search(&api, body.clone()).await;
        assert_eq!(status, 400, "{body}: {response}");
        assert!(
            response["error"].as_str().unwrap().contains(needle),
            "{body}: {response}"
        );
    }
    let admin = Api::new(&w.server.base, &w.admin);
    let (status, response) = search(&admin, json!({"query": "x"})).await;
    assert_eq!(status, 401, "an admin key is refused: {response}");
    let rival = Api::new(&w.server.base, &w.other_assistant);
    let (status, _) = search(&rival, json!({"query": "webhooks"})).await;
    assert_eq!(status, 404, "another organization's site is not found");
    let (status, _) = api
        .post(
            "/discovery/v1/search/unknown.acme.test",
            json!({"query": "x"}),
        )
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn pages_are_served_by_path() {
    let w = world();
    let api = Api::new(&w.server.base, &w.assistant);
    for path in ["quickstart", "/quickstart", "quickstart.mdx"] {
        let (status, page) = api
            .post("/discovery/v1/page/docs.acme.test", json!({"path": path}))
            .await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["path"], "quickstart");
        assert!(
            page["content"]
                .as_str()
                .unwrap()
                .starts_with("---\ntitle: Quickstart")
        );
    }
    let (status, page) = api
        .post("/discovery/v1/page/docs.acme.test", json!({"path": "nope"}))
        .await;
    assert_eq!(status, 404);
    assert!(
        page["message"].as_str().unwrap().contains("no page"),
        "{page}"
    );
    let (status, _) = api
        .post("/discovery/v1/page/docs.acme.test", json!({}))
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_new_version_replaces_the_index_and_restarts_load_it() {
    let mut w = world();
    let api = Api::new(&w.server.base, &w.assistant);
    let (_, before) = search(&api, json!({"query": "zeppelin"})).await;
    assert_eq!(before, json!([]));

    let site = tempfile::tempdir().unwrap();
    for entry in walk(&common::example_site()) {
        let target = site
            .path()
            .join(entry.strip_prefix(common::example_site()).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &target).unwrap();
    }
    std::fs::write(site.path().join("concepts.mdx"), "---\ntitle: Core concepts\n---\n\n## Zeppelins\n\nWidgets can now ride zeppelins between warehouses.\n").unwrap();
    let admin = Api::new(&w.server.base, &w.admin);
    let (status, version) = admin
        .publish("docs.acme.test", "v2", tar_gz_dir(site.path()))
        .await;
    assert_eq!(status, 201, "{version}");
    assert!(
        version["indexedSections"].as_u64().unwrap() > 10,
        "{version}"
    );
    let (_, after) = search(&api, json!({"query": "zeppelin"})).await;
    assert_eq!(paths(&after), ["concepts"], "{after}");

    w.server.signal("-TERM");
    w.server = w.instance.start();
    let api = Api::new(&w.server.base, &w.assistant);
    let (_, restarted) = search(&api, json!({"query": "zeppelin"})).await;
    assert_eq!(paths(&restarted), ["concepts"]);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Writes `files` (path, text) into `site` and publishes it as docs.acme.test for acme.
fn publish_files(instance: &Instance, site: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = site.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    instance.publish_folder("docs.acme.test", site.to_str().unwrap(), "acme", None);
}

#[tokio::test]
async fn version_and_language_filters_follow_the_navigation() {
    let instance = Instance::new("");
    let key = instance.acme_assistant_key();
    let site = tempfile::tempdir().unwrap();
    let files = [
        (
            "docs.json",
            r#"{"name": "Versioned", "navigation": {"versions": [
            {"version": "v2", "languages": [
                {"language": "en", "pages": ["v2/en/limits"]},
                {"language": "fr", "pages": ["v2/fr/limits"]}]},
            {"version": "v1", "pages": ["v1/limits"]}]}}"#,
        ),
        (
            "v2/en/limits.md",
            "# Rate limits\n\nRequests are limited to 10,000 per hour.\n",
        ),
        (
            "v2/fr/limits.md",
            "# Limites\n\nRequests are limited to 10 000 per hour (limites).\n",
        ),
        (
            "v1/limits.md",
            "# Rate limits\n\nRequests are limited to 100 per hour.\n",
        ),
    ];
    publish_files(&instance, site.path(), &files);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let found = |filter: Value| {
        let api = &api;
        async move {
            let (status, results) =
                search(api, json!({"query": "requests per hour", "filter": filter})).await;
            assert_eq!(status, 200, "{results}");
            let mut pages = paths(&results);
            pages.sort();
            pages
        }
    };
    assert_eq!(
        found(json!({})).await,
        ["v1/limits", "v2/en/limits", "v2/fr/limits"]
    );
    assert_eq!(found(json!({"version": "v1"})).await, ["v1/limits"]);
    assert_eq!(
        found(json!({"version": "v2"})).await,
        ["v2/en/limits", "v2/fr/limits"]
    );
    assert_eq!(
        found(json!({"version": "v2", "language": "fr"})).await,
        ["v2/fr/limits"]
    );
    let (_, results) = search(
        &api,
        json!({"query": "requests per hour", "filter": {"version": "v1"}}),
    )
    .await;
    assert_eq!(results[0]["metadata"]["version"], "v1");
}

#[tokio::test]
async fn pages_are_searched_in_their_own_language() {
    let instance = Instance::new("");
    let key = instance.acme_assistant_key();
    let site = tempfile::tempdir().unwrap();
    let files = [
        (
            "docs.json",
            r#"{"name": "Multilingual", "navigation": {"languages": [
            {"language": "en", "pages": ["en/settings"]},
            {"language": "es", "pages": ["es/ajustes"]},
            {"language": "zh", "pages": ["zh/search"]}]}}"#,
        ),
        (
            "en/settings.md",
            "# Settings\n\nSettings are saved on the server.\n",
        ),
        (
            "es/ajustes.md",
            "# Ajustes\n\nLas configuraciones se guardan en el servidor.\n",
        ),
        ("zh/search.md", "# 搜索\n\n快速检索所有文档。\n"),
    ];
    publish_files(&instance, site.path(), &files);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let found = |query: &'static str, filter: Value| {
        let api = &api;
        async move {
            let (status, results) = search(api, json!({"query": query, "filter": filter})).await;
            assert_eq!(status, 200, "{results}");
            paths(&results)
        }
    };
    // Spanish stems: "configurar" finds "configuraciones", in Spanish or open to every language.
    assert_eq!(
        found("¿Cómo configurar?", json!({"language": "es"})).await,
        ["es/ajustes"]
    );
    assert_eq!(found("configurar", json!({})).await, ["es/ajustes"]);
    // Chinese has no spaces: a word is found inside the sentence, by its character pairs.
    assert_eq!(
        found("文档", json!({"language": "zh"})).await,
        ["zh/search"]
    );
    assert_eq!(found("saved settings", json!({})).await, ["en/settings"]);
}

/// Publishes a site whose pages are reached in every way a page can be hidden, with `extra`
/// merged into its docs.json, and returns the pages a search for their shared words finds.
async fn searched_pages(extra: Value) -> Vec<String> {
    let instance = Instance::new("");
    let key = instance.acme_assistant_key();
    let site = tempfile::tempdir().unwrap();
    let mut config = json!({"name": "Hidden", "navigation": {"groups": [
        {"group": "Guides", "pages": ["shown", "hidden-by-frontmatter", "quiet"]},
        {"group": "Internal", "hidden": true, "pages": ["hidden-group"]},
        {"group": "Kept", "hidden": true, "searchable": true, "pages": ["searchable-group"]}
    ]}});
    if let (Some(config), Some(extra)) = (config.as_object_mut(), extra.as_object()) {
        config.extend(extra.clone());
    }
    let page =
        |front: &str| format!("---\ntitle: Quotas\n{front}---\n\nQuota rules for webhooks.\n");
    let files = [
        ("docs.json", config.to_string()),
        ("shown.mdx", page("")),
        ("hidden-by-frontmatter.mdx", page("hidden: true\n")),
        ("quiet.mdx", page("noindex: true\n")),
        ("hidden-group.mdx", page("")),
        ("searchable-group.mdx", page("")),
        ("not-in-navigation.mdx", page("")),
    ];
    for (path, text) in files {
        std::fs::write(site.path().join(path), text).unwrap();
    }
    instance.publish_folder(
        "docs.acme.test",
        site.path().to_str().unwrap(),
        "acme",
        None,
    );
    // The exported site's own search box has the same pages.
    let out = instance.dir.path().join("exported");
    instance.cli_ok(&[
        "build",
        site.path().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let offline = quire::bundle::offline_search::OfflineIndex::open(&out).expect("its index");
    let mut offline: Vec<String> = offline
        .search("quota rules webhooks", None, None, 10)
        .expect("searched")
        .into_iter()
        .map(|hit| hit.path)
        .collect();
    offline.sort();
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let (status, results) = search(&api, json!({"query": "quota rules webhooks"})).await;
    assert_eq!(status, 200, "{results}");
    let mut pages = paths(&results);
    pages.sort();
    assert_eq!(
        offline, pages,
        "the bundle's search finds what the server's does"
    );
    pages
}

#[tokio::test]
async fn pages_readers_cannot_reach_are_not_searched_unless_the_site_says_so() {
    assert_eq!(
        searched_pages(json!({})).await,
        ["searchable-group", "shown"]
    );
    assert_eq!(
        searched_pages(json!({"seo": {"indexing": "all"}})).await,
        [
            "hidden-by-frontmatter",
            "hidden-group",
            "not-in-navigation",
            "searchable-group",
            "shown"
        ]
    );
}
