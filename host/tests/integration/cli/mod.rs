//! The operator's command line: organizations, keys, publishing, plugin checks, and what it
//! says when the server holds the data directory.

use crate::common;

use crate::common::Instance;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn keys_print_alone_on_stdout_and_can_be_revoked() {
    let instance = Instance::new("");
    instance.cli_ok(&["org", "create", "acme", "--plan", "enterprise"]);
    let admin = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "admin"]);
    let assistant = instance.cli_ok(&["key", "create", "--org", "acme", "--kind", "assistant"]);
    assert!(
        admin.starts_with("svc_") && !admin.contains(char::is_whitespace),
        "{admin:?}"
    );
    assert!(assistant.starts_with("svc_dsc_"), "{assistant:?}");
    let listing = instance.cli_ok(&["key", "list", "--org", "acme"]);
    assert_eq!(listing.lines().count(), 2);
    assert!(!listing.contains(&admin), "listings never show secrets");
    instance.cli_ok(&["key", "revoke", &admin]);
    let id = listing
        .lines()
        .find(|l| l.contains("assistant"))
        .unwrap()
        .split('\t')
        .next()
        .unwrap();
    instance.cli_ok(&["key", "revoke", id]);
    let listing = instance.cli_ok(&["key", "list", "--org", "acme"]);
    assert_eq!(listing.matches("revoked").count(), 2, "{listing}");
}

#[test]
fn mistakes_get_clear_messages() {
    let instance = Instance::new("");
    instance.cli_ok(&["org", "create", "acme", "--plan", "free"]);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["org", "create", "acme", "--plan", "pro"],
            "already exists",
        ),
        (vec!["org", "create", "x", "--plan", "platinum"], "platinum"),
        (
            vec!["key", "create", "--org", "nobody", "--kind", "admin"],
            "no organization \"nobody\"",
        ),
        (vec!["key", "revoke", "svc_unknown"], "no API key"),
        (
            vec![
                "site",
                "publish",
                "docs.acme.test",
                "/nonexistent/site",
                "--org",
                "acme",
            ],
            "is not a folder",
        ),
    ];
    for (args, needle) in cases {
        let out = instance.cli(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(
            stderr(&out).contains(needle),
            "{args:?}: {:?} should mention {needle:?}",
            stderr(&out)
        );
    }
}

#[test]
fn a_missing_navigation_page_is_a_warning_and_strict_refuses_it() {
    let instance = Instance::new("");
    instance.cli_ok(&["org", "create", "acme", "--plan", "enterprise"]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("docs.json"),
        r#"{"name": "A", "navigation": {"groups": [{"group": "G", "pages": ["intro", "here"]}]}}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("here.md"), "# Here").unwrap();
    let path = dir.path().to_str().unwrap();
    let publish = |extra: &[&str]| {
        let mut args = vec!["site", "publish", "docs.acme.test", path, "--org", "acme"];
        args.extend(extra);
        instance.cli(&args)
    };
    let strict = publish(&["--strict", "--version", "s"]);
    assert!(!strict.status.success());
    assert!(stderr(&strict).contains("intro.mdx"), "{}", stderr(&strict));
    let out = publish(&["--version", "v1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning: docs.json: navigation.groups[0].pages[0]")
            && stderr(&out).contains("intro.mdx"),
        "{}",
        stderr(&out)
    );
}

/// A docs.json setting of the wrong shape, and a key the schema does not have, are warnings at
/// their place; the rest of the file is read (strict publishing refuses the site instead).
#[test]
fn a_docs_json_setting_that_does_not_fit_is_a_warning_and_the_rest_is_read() {
    let instance = Instance::new("");
    instance.cli_ok(&["org", "create", "acme", "--plan", "enterprise"]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("docs.json"),
        r##"{"name": "A", "description": "Typed settings", "head": "<script>",
            "colors": {"primary": 3, "light": "#123abc"},
            "navigation": {"pages": ["index"]}}"##,
    )
    .unwrap();
    std::fs::write(dir.path().join("index.md"), "# Home\n\nHello.").unwrap();
    let site = dir.path().to_str().unwrap();
    let publish = |extra: &[&str]| {
        let mut args = vec!["site", "publish", "docs.acme.test", site, "--org", "acme"];
        args.extend(extra);
        instance.cli(&args)
    };
    let strict = publish(&["--strict", "--version", "s"]);
    assert!(!strict.status.success());
    assert!(
        stderr(&strict).contains("colors.primary"),
        "{}",
        stderr(&strict)
    );
    let out = publish(&["--version", "v1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains(
            "warning: docs.json: colors.primary: invalid type: integer `3`, expected a string"
        ) && said.contains("warning: docs.json: head: unknown setting `head`; it is ignored"),
        "{said}"
    );
    assert_eq!(
        said.matches("warning: docs.json: head:").count(),
        1,
        "once: {said}"
    );

    // What fits is used: the light accent in the theme, the description on the page.
    let out_dir = instance.dir.path().join("bundle");
    let built = instance.cli(&["build", site, "-o", out_dir.to_str().unwrap()]);
    assert!(built.status.success(), "{}", stderr(&built));
    let text_of = |ext: &str| -> String {
        walkdir::WalkDir::new(&out_dir)
            .into_iter()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == ext))
            .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
            .collect()
    };
    assert!(
        text_of("css").contains("#123abc"),
        "the light accent is in the theme"
    );
    let page = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(page.contains("content=\"Typed settings\""), "{page}");
}

#[test]
fn publishing_refuses_broken_folders_naming_the_file() {
    let instance = Instance::new("");
    instance.cli_ok(&["org", "create", "acme", "--plan", "enterprise"]);
    let folder = |files: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        dir
    };
    let cases = [
        (folder(&[("index.md", "x")]), "no docs.json or mint.json"),
        (folder(&[("mint.json", "[1,")]), "mint.json: invalid JSON"),
        (
            folder(&[("docs.json", r#"{"navigation": {"pages": []}}"#)]),
            "docs.json: the required field name",
        ),
    ];
    for (dir, needle) in cases {
        let out = instance.cli(&[
            "site",
            "publish",
            "docs.acme.test",
            dir.path().to_str().unwrap(),
            "--org",
            "acme",
        ]);
        assert!(!out.status.success());
        assert!(
            stderr(&out).contains(needle),
            "{:?} should mention {needle:?}",
            stderr(&out)
        );
    }
    let escaping = folder(&[(
        "docs.json",
        r#"{"name": "A", "navigation": {"pages": ["leak"]}}"#,
    )]);
    std::os::unix::fs::symlink("/etc/hostname", escaping.path().join("leak.md")).unwrap();
    let out = instance.cli(&[
        "site",
        "publish",
        "docs.acme.test",
        escaping.path().to_str().unwrap(),
        "--org",
        "acme",
    ]);
    assert!(
        stderr(&out).contains("leak.md: the path escapes the site folder"),
        "{}",
        stderr(&out)
    );

    let site = common::example_site();
    let label = instance.cli_ok(&[
        "site",
        "publish",
        "docs.acme.test",
        site.to_str().unwrap(),
        "--org",
        "acme",
    ]);
    assert!(
        label.starts_with("20"),
        "a default label is the publishing time: {label}"
    );
    let again = instance.cli(&[
        "site",
        "publish",
        "docs.acme.test",
        site.to_str().unwrap(),
        "--org",
        "acme",
        "--version",
        &label,
    ]);
    assert!(
        stderr(&again).contains("already published"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn the_cli_says_when_the_server_holds_the_data_directory() {
    // The embedded store, which one process opens (with PostgreSQL the CLI works beside servers).
    let instance = Instance::with_config("");
    instance.cli_ok(&["org", "create", "acme", "--plan", "enterprise"]);
    let _server = instance.start();
    let out = instance.cli(&["key", "create", "--org", "acme", "--kind", "admin"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is in use by another Quire process"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn plugins_are_listed_and_checked_against_their_contract() {
    let instance = Instance::new("");
    let listing = instance.cli_ok(&["plugins", "list"]);
    assert!(
        listing.contains("contract quire:plugins@0.9.0"),
        "{listing}"
    );
    assert!(listing.contains("renderer\tquire_renderer"), "{listing}");
    assert!(listing.contains("packager\tquire_packager"), "{listing}");

    let renderer = common::wasm("quire_renderer");
    let packager = common::wasm("quire_packager");
    let ok = instance.cli_ok(&["plugins", "check", renderer.to_str().unwrap()]);
    assert!(
        ok.contains("ok: ") && ok.contains("satisfies the renderer contract"),
        "{ok}"
    );
    assert!(ok.contains("not a packager"), "{ok}");

    let out = instance.cli(&[
        "plugins",
        "check",
        packager.to_str().unwrap(),
        "--role",
        "renderer",
    ]);
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("does not export quire:plugins/render@0.9.0, the renderer interface"),
        "{text}"
    );
    assert!(
        text.contains("quire:plugins/packing@0.9.0"),
        "it lists what the component does export: {text}"
    );

    let junk = instance.dir.path().join("junk.wasm");
    std::fs::write(&junk, b"\0asm not really").unwrap();
    let out = instance.cli(&["plugins", "check", junk.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is not a valid WebAssembly component"),
        "{}",
        stderr(&out)
    );

    // A server refuses to start with a component that does not fit its role.
    let wrong = Instance::new(&format!(
        "[plugins]\nrenderer = \"{}\"\n",
        packager.display()
    ));
    let out = wrong.cli(&["serve"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("does not satisfy the renderer contract"),
        "{}",
        stderr(&out)
    );
}

/// The files of a compiled-plugin cache with their modification times, sorted: a
/// recompilation writes them again.
fn artifact_stamps(cache: &std::path::Path) -> Vec<(std::ffi::OsString, std::time::SystemTime)> {
    let mut stamps: Vec<_> = std::fs::read_dir(cache)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| (e.file_name(), e.metadata().unwrap().modified().unwrap()))
        .collect();
    stamps.sort();
    stamps
}

#[test]
fn compiled_plugins_are_cached_across_restarts() {
    let instance = Instance::new("").with_own_plugin_cache();
    instance.cli_ok(&["plugins", "list"]);
    let cache = instance.data_dir().join("plugin-cache");
    let stamps = || artifact_stamps(&cache);
    let first = stamps();
    assert_eq!(first.len(), 3, "one compiled artifact per component");
    std::thread::sleep(std::time::Duration::from_millis(20));
    instance.cli_ok(&["plugins", "list"]);
    // A recompilation would write the artifacts again; loading from the cache only reads them.
    assert_eq!(stamps(), first);
}

/// `plugins.cache_dir` lets several data folders share compiled components: the second one
/// loads what the first compiled.
#[test]
fn data_folders_share_a_configured_plugin_cache() {
    let cache = tempfile::tempdir().expect("cache dir");
    let config = format!("[plugins]\ncache_dir = \"{}\"\n", cache.path().display());
    let first = Instance::new(&config).with_own_plugin_cache();
    let second = Instance::new(&config).with_own_plugin_cache();
    let stamps = || artifact_stamps(cache.path());
    first.cli_ok(&["plugins", "list"]);
    let compiled = stamps();
    assert_eq!(compiled.len(), 3, "one compiled artifact per component");
    second.cli_ok(&["plugins", "list"]);
    assert_eq!(stamps(), compiled, "the second data folder recompiled");
    assert!(!first.data_dir().join("plugin-cache").exists());
    assert!(!second.data_dir().join("plugin-cache").exists());
}

mod build;
