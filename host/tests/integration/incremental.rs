//! Incremental releases on the API host: publishing renders each page once and keeps it in the
//! render cache in object storage, the export that follows renders nothing again, and the next
//! version renders only its changed page, with a bundle equal, file for file, to one exported
//! with no cache at all. Counted through the server's `/metrics`.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::common::archive::{tar_gz_dir, unpack};
use crate::common::{self, Api, Instance};
use crate::operations::{metrics, sample};
use serde_json::json;

/// Pages rendered and reused by the server so far.
async fn counts(base: &str) -> (f64, f64) {
    let text = metrics(base).await;
    let value = |series| sample(&text, series).unwrap_or(0.0);
    (
        value("quire_render_pages_rendered_total"),
        value("quire_render_pages_reused_total"),
    )
}

/// Publishes `site` as `label` of `docs.acme.test` and exports it: the completed job's id and
/// last state.
pub(crate) async fn publish_and_export(
    api: &Api,
    site: &std::path::Path,
    label: &str,
) -> (String, serde_json::Value) {
    let (status, version) = api.publish("docs.acme.test", label, tar_gz_dir(site)).await;
    assert_eq!(status, 201, "{version}");
    let (job_id, last) = api
        .run_job(
            json!({"domain": "docs.acme.test", "version": label}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    (job_id, last)
}

/// Publishes `site` as `label` and exports it; returns the bundle's files (the manifest,
/// which says when it was made, left out) and its page count.
async fn release(
    api: &Api,
    site: &std::path::Path,
    label: &str,
) -> (BTreeMap<String, Vec<u8>>, f64) {
    let (job_id, last) = publish_and_export(api, site, label).await;
    let (_, bytes) = api.download_bundle(&job_id).await;
    let mut files = unpack(&bytes);
    files.remove("manifest.json");
    (files, last["pageCount"].as_f64().expect("pageCount"))
}

#[tokio::test]
async fn a_release_renders_each_page_once_and_the_next_only_what_changed() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let site = instance.dir.path().join("site");
    common::sites::copy_dir(&common::example_site(), &site);
    // A page no navigation reaches: exported, but not searchable, so a publish only makes sure
    // it is in the cache (and, from the second release on, does not read it back out).
    std::fs::write(
        site.join("unlisted.mdx"),
        "---\ntitle: Unlisted\n---\n\nReached by its address alone.\n",
    )
    .unwrap();
    // A variable, replaced in the Markdown beside the page that uses it.
    let config = site.join("docs.json");
    let mut settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    settings["variables"] = json!({"release": "2.4"});
    std::fs::write(&config, settings.to_string()).unwrap();
    // A page search engines are told to leave alone: `llms-full.txt` does not take it either,
    // so an export that keeps it whole needs nothing of its source.
    std::fs::write(
        site.join("internal.mdx"),
        "---\ntitle: Internal\nnoindex: true\n---\n\nFor the team: {{release}} notes.\n",
    )
    .unwrap();

    let (v1, pages) = release(&api, &site, "v1").await;
    let (rendered, reused) = counts(&server.base).await;
    assert_eq!(rendered, pages, "publishing rendered every page, once");
    assert_eq!(reused, pages, "the export rendered none again");
    assert!(
        v1.contains_key("unlisted.html"),
        "the unlisted page is exported"
    );
    assert_eq!(
        v1.get("internal.md")
            .map(|md| String::from_utf8_lossy(md).contains("2.4 notes")),
        Some(true),
        "its Markdown has the variable replaced"
    );
    let segments = |text: &str| {
        let value = |series| sample(text, series).unwrap_or(0.0);
        (
            value("quire_search_segments_built_total"),
            value("quire_search_segments_reused_total"),
        )
    };
    let (built, none) = segments(&metrics(&server.base).await);
    assert!(built >= 1.0 && none == 0.0, "{built} {none}");

    let page = site.join("quickstart.mdx");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\nOne more sentence, appended.\n");
    std::fs::write(&page, text).unwrap();
    let (v2, _) = release(&api, &site, "v2").await;
    let (rendered, reused) = counts(&server.base).await;
    assert_eq!(rendered, pages + 1.0, "v2 rendered its changed page alone");
    let (built_now, reused_now) = segments(&metrics(&server.base).await);
    assert_eq!(
        (built_now - built, reused_now),
        (1.0, built - 1.0),
        "v2 indexed again the group of its changed page alone"
    );
    assert_eq!(reused, pages + (pages - 1.0) + pages);
    let kept = sample(
        &metrics(&server.base).await,
        "quire_search_index_pages_kept_total",
    );
    assert!(
        kept.is_some_and(|kept| kept >= 1.0 && kept < pages),
        "v2 indexed its unchanged pages from their kept sections, not the pages: {kept:?}"
    );
    let unread = sample(
        &metrics(&server.base).await,
        "quire_export_pages_kept_total",
    );
    assert_eq!(
        unread,
        Some(pages - 1.0),
        "v2's export read none of its unchanged pages: it copied their entries"
    );
    let sources_unread = sample(
        &metrics(&server.base).await,
        "quire_export_sources_unread_total",
    );
    // All but the changed page and the one the navigation makes of the AsyncAPI document,
    // whose source comes with the version's manifest rather than from a file.
    assert_eq!(
        sources_unread,
        Some(pages - 2.0),
        "v2's export read the source of none of its unchanged pages, llms-full.txt taking their parts from v1's"
    );
    let changed: Vec<&String> = v2
        .keys()
        .filter(|name| v1.get(*name) != v2.get(*name))
        .collect();
    assert!(
        changed.iter().any(|name| *name == "quickstart.html"),
        "{changed:?}"
    );
    assert!(
        !changed
            .iter()
            .any(|name| name.ends_with(".html") && *name != "quickstart.html"),
        "no other page changed: {changed:?}"
    );

    // The same version exported by a server with no render cache, from scratch.
    let uncached = Instance::new("[plugins]\nrender_cache = false\n");
    let key = uncached.organization("acme", "enterprise");
    let server = uncached.start();
    let api = Api::new(&server.base, &key);
    let (scratch, _) = release(&api, &site, "v2").await;
    assert_eq!(
        counts(&server.base).await.1,
        0.0,
        "nothing reused without a cache"
    );
    common::archive::assert_same_files(&scratch, &v2, "v2 from the cache, and a full export");
}

/// A render cache over its limit is trimmed once an export ends: with no room at all, nothing
/// is left of it, and the next release renders its pages again.
#[tokio::test]
async fn a_render_cache_over_its_limit_is_trimmed() {
    let instance = Instance::new("[plugins]\nrender_cache_max_mib = 0\n");
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let cache = instance.data_dir().join("storage").join("render-cache");
    let (_, pages) = release(&api, &common::example_site(), "v1").await;
    let entries = walkdir::WalkDir::new(&cache)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .count();
    assert_eq!(entries, 0, "the cache was emptied");
    let (rendered, _) = counts(&server.base).await;
    assert_eq!(rendered, pages, "{pages}");
}

/// A version the retriever cannot index (here it has no room at all) is published unsearchable,
/// with the reason and the setting that would let it through, and its pages are rendered all the same: the export renders none again.
#[tokio::test]
async fn pages_are_rendered_once_even_when_the_search_index_fails() {
    let instance = Instance::new("[plugins.limits.retriever]\nmemory_limit_mib = 1\n");
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let version = api.publish_example_site("v1").await;
    assert_eq!(version["indexedSections"], 0, "{version}");
    assert!(
        version["indexProblems"][0]
            .as_str()
            .is_some_and(|p| p.contains("not searchable")
                && p.contains("[plugins.limits.retriever] memory_limit_mib")),
        "the problem says which limit to raise: {version}"
    );
    let (job_id, last) = api
        .run_job(
            json!({"domain": "docs.acme.test"}),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(last["status"], "completed", "{last}");
    let pages = last["pageCount"].as_f64().expect("pageCount");
    let (rendered, reused) = counts(&server.base).await;
    assert_eq!((rendered, reused), (pages, pages), "job {job_id}");
}

/// One small change a writer makes between two releases.
#[derive(Debug, Clone, Copy)]
enum Edit {
    /// A sentence appended to a page.
    PageText,
    /// A line appended to a snippet (to a page, for a site with none).
    Snippet,
    /// A new page, added to the navigation.
    NavigationPage,
}

/// Applies `edit` to the site at `root`, choosing with `rng`; says what it did.
fn apply(edit: Edit, root: &std::path::Path, rng: &mut impl rand::Rng, n: usize) -> String {
    let files = |under: &str| -> Vec<std::path::PathBuf> {
        let mut found: Vec<_> = walkdir::WalkDir::new(root.join(under))
            .into_iter()
            .flatten()
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|x| x == "mdx" || x == "md"))
            .filter(|p| under == "snippets" || !p.starts_with(root.join("snippets")))
            .collect();
        found.sort();
        found
    };
    let append = |file: &std::path::Path, text: &str| {
        let mut contents = std::fs::read_to_string(file).unwrap_or_default();
        contents.push_str(text);
        std::fs::write(file, contents).expect("edit");
    };
    let snippets = files("snippets");
    match edit {
        Edit::Snippet if !snippets.is_empty() => {
            let snippet = &snippets[rng.random_range(0..snippets.len())];
            append(snippet, &format!("\nEdited snippet line {n}.\n"));
            format!("snippet {}", snippet.display())
        }
        Edit::PageText | Edit::Snippet => {
            let pages = files("");
            let page = &pages[rng.random_range(0..pages.len())];
            append(page, &format!("\nEdited sentence {n}.\n"));
            format!("page {}", page.display())
        }
        Edit::NavigationPage => {
            let config = root.join("docs.json");
            let mut docs: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&config).expect("docs.json")).unwrap();
            let name = format!("added-page-{n}");
            std::fs::write(
                root.join(format!("{name}.mdx")),
                format!("---\ntitle: Added {n}\n---\n\nA page added to the navigation.\n"),
            )
            .unwrap();
            let list = first_page_list(&mut docs["navigation"]).expect("a page list");
            let at = rng.random_range(0..=list.len());
            list.insert(at, serde_json::Value::String(name.clone()));
            std::fs::write(&config, serde_json::to_vec_pretty(&docs).unwrap()).unwrap();
            format!("navigation page {name} at {at}")
        }
    }
}

/// The first list of page paths in a docs.json navigation.
fn first_page_list(node: &mut serde_json::Value) -> Option<&mut Vec<serde_json::Value>> {
    let holds_pages = |v: &serde_json::Value| {
        v.get("pages")
            .and_then(|p| p.as_array())
            .is_some_and(|p| p.iter().any(|e| e.is_string()))
    };
    if holds_pages(node) {
        return node.get_mut("pages")?.as_array_mut();
    }
    match node {
        serde_json::Value::Object(map) => map.values_mut().find_map(first_page_list),
        serde_json::Value::Array(items) => items.iter_mut().find_map(first_page_list),
        _ => None,
    }
}

/// On every shared corpus, random edits of each kind, one after another: after each, a build
/// from the render cache, its archive assembled from the last build's entries, equals, file
/// for file, a build that renders and packs everything; and the delta it writes, applied as a
/// docs server applies one to the last build's files, gives the same files again. The seed
/// is printed; `QUIRE_EDIT_SEED` replays one.
#[test]
fn incremental_builds_equal_full_builds_on_the_corpora_after_random_edits() {
    use rand::{Rng, SeedableRng};
    let seed = std::env::var("QUIRE_EDIT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
    eprintln!("QUIRE_EDIT_SEED={seed}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let instance = Instance::new("");
    let sites = tempfile::tempdir().expect("sites");
    let cache = instance.dir.path().join("render-cache");
    let builds = std::cell::Cell::new(0);
    let mut edits = 0;
    let work = instance.dir.path();
    for (name, root) in common::sites::unpack_corpora(sites.path()) {
        // Builds a .tar.gz; returns its files unpacked into a folder of their own, and what
        // the build said.
        let build = |extra: &[&str]| {
            builds.set(builds.get() + 1);
            let out = work.join(format!("out-{}.tar.gz", builds.get()));
            let output = instance
                .command()
                .args(["build", root.to_str().unwrap(), "-o", out.to_str().unwrap()])
                .args(["--format", "tar.gz"])
                .args(extra)
                .output()
                .expect("run quire");
            let said = String::from_utf8_lossy(&output.stderr).to_string();
            assert!(output.status.success(), "{name}: {said}");
            let folder = work.join(format!("unpacked-{}", builds.get()));
            quire::docs_server::unpack_bundle(&std::fs::read(&out).unwrap(), &folder)
                .expect("the archive verifies against its manifest");
            std::fs::remove_file(&out).unwrap();
            (folder, said)
        };
        let delta = work.join("delta.tar.gz");
        let cached = [
            "--cache-dir",
            cache.to_str().unwrap(),
            "--delta",
            delta.to_str().unwrap(),
        ];
        let (mut served, _) = build(&cached);
        let kinds = [Edit::PageText, Edit::Snippet, Edit::NavigationPage];
        for _ in 0..2 {
            let edit = kinds[rng.random_range(0..kinds.len())];
            edits += 1;
            let done = apply(edit, &root, &mut rng, edits);
            let context = format!("{name}, after {done} (QUIRE_EDIT_SEED={seed})");
            let (incremental, said) = build(&cached);
            assert!(
                said.contains("archive entries and"),
                "the archive was assembled from the last one's entries: {context}: {said}"
            );
            let (full, _) = build(&["--no-cache"]);
            let full_files = common::archive::bundle_folder(&full);
            // A large file that changed was packed in parts, and only its changed parts were:
            // the others were copied, and the delta carries it as a patch.
            let large = |files: &BTreeMap<String, Vec<u8>>| {
                files
                    .get("llms-full.txt")
                    .filter(|text| text.len() > 1 << 20)
                    .cloned()
            };
            if let (Some(before), Some(after)) = (
                large(&common::archive::bundle_folder(&served)),
                large(&full_files),
            ) && before != after
            {
                let pieces: u64 = said
                    .split("archive entries and ")
                    .nth(1)
                    .and_then(|rest| rest.split(' ').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                assert!(
                    pieces > 0,
                    "llms-full.txt's unchanged parts were copied: {context}: {said}"
                );
                let patch = common::archive::unpack(&std::fs::read(&delta).unwrap());
                let patch: serde_json::Value =
                    serde_json::from_slice(&patch["manifest-patch.json"]).unwrap();
                assert!(
                    patch["patched"]
                        .as_array()
                        .is_some_and(|files| files.iter().any(|f| f["path"] == "llms-full.txt")),
                    "the delta carries llms-full.txt as a patch: {context}: {patch}"
                );
            }
            common::archive::assert_same_files(
                &common::archive::bundle_folder(&incremental),
                &full_files,
                &format!("from the cache and in full, {context}"),
            );
            let updated = work.join(format!("updated-{edits}"));
            quire::docs_server::apply_delta(&std::fs::read(&delta).unwrap(), &served, &updated)
                .unwrap_or_else(|e| panic!("the delta applies: {e}: {context}"));
            common::archive::assert_same_files(
                &common::archive::bundle_folder(&updated),
                &full_files,
                &format!("the last build with the delta applied, and in full, {context}"),
            );
            assert_eq!(
                std::fs::read(updated.join("manifest.json")).unwrap(),
                std::fs::read(incremental.join("manifest.json")).unwrap(),
                "the manifest rebuilt from the patch: {context}"
            );
            served = incremental;
        }
    }
}

/// Exports of one site at once share the render cache and the kept archive without harm: with
/// a worker each, three exports of one version all verify against their manifests and hold the
/// same files; the next export after them copies its entries from whichever archive was kept
/// last, and verifies too.
#[tokio::test]
async fn exports_of_one_site_at_once_never_corrupt_what_they_share() {
    let instance = Instance::new("[jobs]\nworkers = 3\n");
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    api.publish_example_site("v1").await;
    let body = json!({"domain": "docs.acme.test", "version": "v1"});
    let jobs = [
        api.start_job(body.clone()).await,
        api.start_job(body.clone()).await,
        api.start_job(body.clone()).await,
    ];
    let mut bundles = Vec::new();
    for job in &jobs {
        let last = api.wait_job(job, Duration::from_secs(120)).await;
        let last = last.last().expect("a state");
        assert_eq!(last["status"], "completed", "{last}");
        bundles.push(verified_files(&api, job).await);
    }
    for (job, files) in jobs.iter().zip(&bundles).skip(1) {
        common::archive::assert_same_files(files, &bundles[0], &format!("job {job} and the first"));
    }
    let reused_before = reused_entries(&server.base).await;
    let (job, last) = api.run_job(body, Duration::from_secs(120)).await;
    assert_eq!(last["status"], "completed", "{last}");
    common::archive::assert_same_files(
        &verified_files(&api, &job).await,
        &bundles[0],
        "the export after them",
    );
    assert!(
        reused_entries(&server.base).await > reused_before,
        "the export after them copied entries from the kept archive"
    );
}

/// A job's bundle, checked against its manifest as a docs server checks one; its files
/// without the manifest.
pub(crate) async fn verified_files(api: &Api, job: &str) -> BTreeMap<String, Vec<u8>> {
    let (_, bytes) = api.download_bundle(job).await;
    let folder = tempfile::tempdir().expect("folder");
    quire::docs_server::unpack_bundle(&bytes, folder.path())
        .unwrap_or_else(|e| panic!("job {job}'s bundle verifies: {e}"));
    common::archive::bundle_folder(folder.path())
}

async fn reused_entries(base: &str) -> f64 {
    sample(
        &metrics(base).await,
        "quire_export_archive_entries_reused_total",
    )
    .unwrap_or(0.0)
}

/// Index sections a server knows it kept are gone from the render cache (a replica trimmed it,
/// a volume was wiped): the next publish, which builds one group's segment again from them,
/// indexes every page all the same, reading or rendering them again.
#[tokio::test]
async fn a_publish_indexes_every_page_when_its_kept_sections_are_gone() {
    let instance = Instance::new("");
    let admin = instance.organization("acme", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let server = instance.start();
    let api = Api::new(&server.base, &admin);
    let site = instance.dir.path().join("site");
    common::sites::copy_dir(&common::example_site(), &site);
    let (status, record) = api.publish("docs.acme.test", "v1", tar_gz_dir(&site)).await;
    assert_eq!(status, 201, "{record}");

    std::fs::remove_dir_all(instance.data_dir().join("storage/render-cache")).unwrap();
    let page = site.join("quickstart.mdx");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\nZeppelins wait in the hangar.\n");
    std::fs::write(&page, text).unwrap();
    let (status, record) = api.publish("docs.acme.test", "v2", tar_gz_dir(&site)).await;
    assert_eq!(status, 201, "{record}");
    assert!(record.get("indexProblems").is_none(), "{record}");
    assert!(
        server.log().contains("kept index sections were gone"),
        "the publish found them gone, and read its pages again"
    );

    let search = Api::new(&server.base, &assistant);
    for (query, expected) in [
        ("zeppelins in the hangar", "quickstart"),
        ("how do I verify webhook signatures", "guides/webhooks"),
    ] {
        let (status, results) = search
            .post(
                "/discovery/v1/search/docs.acme.test",
                json!({ "query": query }),
            )
            .await;
        assert_eq!(status, 200, "{results}");
        assert_eq!(results[0]["path"], expected, "{query}: {results}");
    }
}
