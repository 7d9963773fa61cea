//! Publishing only what changed: a CI pipeline asks which file contents the server lacks
//! (`POST /v1/sites/{domain}/files/missing`) and uploads only those, listing the rest of the
//! site in the archive's `.quire-files.json`. The version equals one uploaded whole, and every
//! refusal names what is wrong.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::common::archive::{tar_gz_dir, unpack};
use crate::common::{self, Api, Instance};
use serde_json::json;

/// Every file of `dir` by its path from there, with the SHA-256 (hex) of its contents.
fn file_hashes(dir: &std::path::Path) -> BTreeMap<String, String> {
    use sha2::Digest;
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.expect("walk"))
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let path = entry.path().strip_prefix(dir).expect("inside");
            let bytes = std::fs::read(entry.path()).expect("read");
            (
                path.to_string_lossy().replace('\\', "/"),
                hex::encode(sha2::Sha256::digest(bytes)),
            )
        })
        .collect()
}

/// A `.tar.gz` of `dir`'s files named in `carried`, with `.quire-files.json` listing `listed`.
fn partial_archive(
    dir: &std::path::Path,
    carried: &[&str],
    listed: &BTreeMap<String, String>,
) -> Vec<u8> {
    use flate2::write::GzEncoder;
    let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), flate2::Compression::fast()));
    let list = serde_json::to_vec(&json!({ "files": listed })).unwrap();
    let mut header = tar::Header::new_gnu();
    header.set_size(list.len() as u64);
    header.set_mode(0o644);
    header.set_cksum();
    builder
        .append_data(&mut header, ".quire-files.json", &list[..])
        .unwrap();
    for path in carried {
        builder.append_path_with_name(dir.join(path), path).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// Publishes `site` to `docs.acme.test` as `version` by a partial upload: the files named in
/// `carried`, and `.quire-files.json` listing `listed`.
async fn publish_partial(
    api: &Api,
    site: &std::path::Path,
    version: &str,
    carried: &[&str],
    listed: &BTreeMap<String, String>,
) -> (u16, serde_json::Value) {
    api.publish(
        "docs.acme.test",
        version,
        partial_archive(site, carried, listed),
    )
    .await
}

/// A CI pipeline asks which contents the server lacks and uploads only those, the rest of the
/// site named in `.quire-files.json`: the version is the same as one uploaded whole, and the
/// errors name what is wrong (an unknown content, a hash that does not match, a bad hash).
#[tokio::test]
async fn a_publish_carries_only_the_files_the_server_lacks() {
    let instance = Instance::new("");
    let key = instance.organization("acme", "enterprise");
    let other = instance.organization("globex", "enterprise");
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let site = instance.dir.path().join("site");
    common::sites::copy_dir(&common::example_site(), &site);
    let (status, version) = api.publish("docs.acme.test", "v1", tar_gz_dir(&site)).await;
    assert_eq!(status, 201, "{version}");

    let page = site.join("quickstart.mdx");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\nOne more sentence, appended.\n");
    std::fs::write(&page, text).unwrap();
    let hashes = file_hashes(&site);
    let asked: Vec<&String> = hashes.values().collect();
    let (status, answer) = api
        .post(
            "/v1/sites/docs.acme.test/files/missing",
            json!({ "sha256": asked }),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["missing"],
        json!([hashes["quickstart.mdx"]]),
        "only the changed page's contents are missing"
    );
    // Another organization learns nothing of this site's contents.
    let (status, theirs) = Api::new(&server.base, &other)
        .post(
            "/v1/sites/docs.acme.test/files/missing",
            json!({ "sha256": [hashes["docs.json"]] }),
        )
        .await;
    assert_eq!(
        (status, &theirs["missing"]),
        (200, &json!([hashes["docs.json"]]))
    );
    let (status, refused) = Api::new(&server.base, &assistant)
        .post(
            "/v1/sites/docs.acme.test/files/missing",
            json!({ "sha256": [hashes["docs.json"]] }),
        )
        .await;
    assert_eq!(status, 401, "an assistant key does not publish: {refused}");

    let (status, record) = publish_partial(&api, &site, "v2", &["quickstart.mdx"], &hashes).await;
    assert_eq!(status, 201, "{record}");
    let job = |label: &str| json!({"domain": "docs.acme.test", "version": label});
    let (partial, last) = api.run_job(job("v2"), Duration::from_secs(120)).await;
    assert_eq!(last["status"], "completed", "{last}");
    let mut partial = unpack(&api.download_bundle(&partial).await.1);
    partial.remove("manifest.json");

    // The same site uploaded whole, to a server that never saw it.
    let whole = Instance::new("");
    let whole_key = whole.organization("acme", "enterprise");
    let whole_server = whole.start();
    let whole_api = Api::new(&whole_server.base, &whole_key);
    let (status, record) = whole_api
        .publish("docs.acme.test", "v2", tar_gz_dir(&site))
        .await;
    assert_eq!(status, 201, "{record}");
    let (full, last) = whole_api.run_job(job("v2"), Duration::from_secs(120)).await;
    assert_eq!(last["status"], "completed", "{last}");
    let mut full = unpack(&whole_api.download_bundle(&full).await.1);
    full.remove("manifest.json");
    common::archive::assert_same_files(&partial, &full, "uploaded in part, and whole");

    // A listed file whose contents the server does not hold, and the archive does not carry.
    let mut unknown = hashes.clone();
    unknown.insert("guides/new.mdx".into(), "ab".repeat(32));
    let (status, error) = publish_partial(&api, &site, "v3", &[], &unknown).await;
    assert_eq!(status, 400, "{error}");
    let message = error["error"].as_str().unwrap_or_default();
    assert!(
        message.contains(".quire-files.json") && message.contains("guides/new.mdx"),
        "{error}"
    );
    // A carried file listed with other contents.
    let mut wrong = hashes.clone();
    wrong.insert("quickstart.mdx".into(), "cd".repeat(32));
    let (status, error) = publish_partial(&api, &site, "v3", &["quickstart.mdx"], &wrong).await;
    assert_eq!(status, 400, "{error}");
    assert!(
        error.to_string().contains("files.quickstart.mdx"),
        "{error}"
    );
    let (status, error) = api
        .post(
            "/v1/sites/docs.acme.test/files/missing",
            json!({ "sha256": [hashes["docs.json"], "not-a-hash"] }),
        )
        .await;
    assert_eq!(status, 400, "{error}");
    assert!(error.to_string().contains("sha256[1]"), "{error}");
    // No refused upload took the label.
    let (status, record) = api.publish("docs.acme.test", "v3", tar_gz_dir(&site)).await;
    assert_eq!(status, 201, "{record}");
}

/// A server of `instance` with the example site published as version v1 of docs.acme.test, an
/// admin's API to it, and the folder of the site as published (a copy, to edit).
async fn example_published(instance: &Instance) -> (common::Server, Api, std::path::PathBuf) {
    let key = instance.organization("acme", "enterprise");
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let site = instance.dir.path().join("site");
    common::sites::copy_dir(&common::example_site(), &site);
    let (status, record) = api.publish("docs.acme.test", "v1", tar_gz_dir(&site)).await;
    assert_eq!(status, 201, "{record}");
    (server, api, site)
}

/// The relative paths of the files under `dir`, sorted.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    file_hashes(dir).into_keys().collect()
}

/// An upload's folder becomes the new version's files (storage is a local folder here): the
/// unchanged files stay links to the version before, which keeps its own contents; what the
/// site does not publish (hidden files, `node_modules`) is not stored; and no upload folder is
/// left once the request is done.
#[tokio::test]
async fn an_upload_becomes_the_versions_files_and_leaves_the_version_before_as_it_was() {
    use std::os::unix::fs::MetadataExt;
    let instance = Instance::new("");
    let (server, api, site) = example_published(&instance).await;

    let page = site.join("quickstart.mdx");
    let before = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, format!("{before}\nOne more sentence, appended.\n")).unwrap();
    std::fs::create_dir_all(site.join("node_modules/dep")).unwrap();
    std::fs::write(
        site.join("node_modules/dep/index.js"),
        "module.exports = 1;",
    )
    .unwrap();
    std::fs::write(site.join(".env"), "TOKEN=not-for-the-server").unwrap();
    let (status, record) = api.publish("docs.acme.test", "v2", tar_gz_dir(&site)).await;
    assert_eq!(status, 201, "{record}");

    let storage = instance.data_dir().join("storage");
    let files = |label: &str| storage.join(format!("sites/docs.acme.test/versions/{label}/files"));
    let (v1, v2) = (files("v1"), files("v2"));
    assert_eq!(
        files_under(&v2),
        files_under(&v1),
        "the same files as the version before, and nothing the site does not publish"
    );
    assert_eq!(
        std::fs::read_to_string(v1.join("quickstart.mdx")).unwrap(),
        before
    );
    assert!(
        std::fs::read_to_string(v2.join("quickstart.mdx"))
            .unwrap()
            .ends_with("One more sentence, appended.\n")
    );
    let inode = |path: std::path::PathBuf| std::fs::metadata(path).unwrap().ino();
    assert_eq!(
        inode(v2.join("docs.json")),
        inode(v1.join("docs.json")),
        "an unchanged file is the version before's, not a copy"
    );

    assert_eq!(
        server
            .log()
            .matches("the upload's folder became the version's files")
            .count(),
        2,
        "both uploads were moved into place, not copied"
    );
    // The upload's folder went with the version; what is left of it goes after the reply.
    let uploads = storage.join("uploads");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let left: Vec<_> = std::fs::read_dir(&uploads).unwrap().flatten().collect();
        if left.is_empty() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "upload folders left: {left:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // And the version is whole: its export has the new sentence.
    let job = json!({"domain": "docs.acme.test", "version": "v2"});
    let (id, last) = api.run_job(job, Duration::from_secs(120)).await;
    assert_eq!(last["status"], "completed", "{last}");
    let bundle = unpack(&api.download_bundle(&id).await.1);
    let markdown =
        String::from_utf8_lossy(bundle.get("quickstart.md").expect("the page's Markdown"));
    assert!(
        markdown.contains("One more sentence, appended."),
        "{markdown}"
    );
}

/// Storage on another disk than the system's temporary folder (a tmpfs here): uploads unpack
/// beside storage, so a partial upload links the files it lists rather than failing on the
/// first link across disks, and the version is moved into place all the same.
#[tokio::test]
async fn a_partial_upload_links_its_files_when_storage_is_on_another_disk() {
    use std::os::unix::fs::MetadataExt;
    let device = |path: &std::path::Path| std::fs::metadata(path).map(|m| m.dev()).ok();
    let shm = std::path::Path::new("/dev/shm");
    if device(shm).is_none() || device(shm) == device(&std::env::temp_dir()) {
        eprintln!("no second disk beside the temporary folder here; nothing to test");
        return;
    }
    let storage = tempfile::tempdir_in(shm).expect("a folder on the tmpfs");
    let instance = Instance::new(&format!(
        "[storage]\nroot = \"{}\"\n",
        storage.path().display()
    ));
    let (server, api, site) = example_published(&instance).await;

    let page = site.join("quickstart.mdx");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, format!("{text}\nOne more sentence, appended.\n")).unwrap();
    let hashes = file_hashes(&site);
    let (status, record) = publish_partial(&api, &site, "v2", &["quickstart.mdx"], &hashes).await;
    assert_eq!(status, 201, "{record}");
    let files = |label: &str| {
        storage
            .path()
            .join(format!("sites/docs.acme.test/versions/{label}/files"))
    };
    assert_eq!(files_under(&files("v2")), files_under(&files("v1")));
    let inode = |path: std::path::PathBuf| std::fs::metadata(path).unwrap().ino();
    assert_eq!(
        inode(files("v2").join("docs.json")),
        inode(files("v1").join("docs.json"))
    );
    assert!(
        server
            .log()
            .contains("the upload's folder became the version's files")
    );
}
