//! `quire build` and `quire dev`: bundles written straight from a folder, the same whatever the
//! number of rendering threads, code highlighted, and a preview that rebuilds on save.

use super::*;

/// `quire build` as a writer runs it: no server, organization or key; the bundle on disk, set
/// for a deployment type, in each format; a bad page is a warning with its file and line, and
/// only a site that cannot be built fails the command.
#[test]
fn build_writes_a_bundle_with_no_server_organization_or_key() {
    let instance = Instance::new(&format!(
        "[plugins.formats]\nzip = \"{}\"\n",
        common::wasm("quire_zip_packager").display()
    ));
    let site = common::example_site();
    let site = site.to_str().unwrap();
    let out_dir = instance.dir.path().join("bundle");
    let out = out_dir.to_str().unwrap();
    let built = instance.cli(&["build", site, "-o", out, "--deployment-type", "air-gapped"]);
    assert!(built.status.success(), "{}", stderr(&built));
    // Every page has its Markdown source beside it: as many as the command says it built.
    let pages = walkdir::WalkDir::new(&out_dir)
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .count();
    assert!(
        stderr(&built).contains(&format!("built {pages} pages into")),
        "{pages}: {}",
        stderr(&built)
    );
    let features = std::fs::read_to_string(out_dir.join("quire-features.js")).unwrap();
    assert!(
        features.contains("\"deployment\":\"air-gapped\"")
            && features.contains("\"integrations\":false"),
        "{features}"
    );
    // An independent check: every navigation page is there and no local link is broken.
    let check = std::process::Command::new("python3")
        .arg(common::workspace().join("../shared/tools/check_bundle.py"))
        .args([site, out])
        .output()
        .expect("python3");
    let report: serde_json::Value =
        serde_json::from_slice(&check.stdout).expect("check_bundle prints JSON");
    assert_eq!(report["nav_pages"], report["found"], "{report}");
    assert_eq!(report["broken_links"], 0, "{report}");
    assert_eq!(report["external_assets"], 0, "{report}");
    // Nothing was left of the organization, key or store in the data folder.
    assert!(instance.cli_ok(&["org", "list"]).is_empty());

    // Archives, each its own format.
    for (format, magic) in [("tar.gz", &[0x1f, 0x8b][..]), ("zip", &b"PK"[..])] {
        let file = instance.dir.path().join(format!("site.{format}"));
        let file = file.to_str().unwrap();
        instance.cli_ok(&["build", site, "-o", file, "--format", format]);
        let bytes = std::fs::read(file).unwrap();
        assert!(bytes.starts_with(magic), "{format}");
    }

    // Mistakes: an output folder in use, a missing site, an unknown deployment type.
    for (args, expected) in [
        (vec!["build", site, "-o", out], "is not an empty folder"),
        (
            vec!["build", "/nonexistent/site", "-o", "x"],
            "is not a folder",
        ),
        (
            vec!["build", site, "-o", "y", "--deployment-type", "mars"],
            "mars",
        ),
    ] {
        let failed = instance.cli(&args);
        assert!(!failed.status.success(), "{args:?}");
        assert!(
            stderr(&failed).contains(expected),
            "{args:?}: {}",
            stderr(&failed)
        );
    }

    // A page that cannot be rendered as written is a warning with its place; the build goes on.
    let broken = instance.dir.path().join("broken-site");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(
        broken.join("docs.json"),
        r#"{"name": "Broken", "navigation": {"pages": ["good", "bad", "gone"]}}"#,
    )
    .unwrap();
    std::fs::write(broken.join("good.mdx"), "# Good\n\nFine.\n").unwrap();
    std::fs::write(broken.join("bad.mdx"), "# Bad\n\nText <Card title=\"A\n").unwrap();
    let broken_out = instance.dir.path().join("broken-out");
    let built = instance.cli(&[
        "build",
        broken.to_str().unwrap(),
        "-o",
        broken_out.to_str().unwrap(),
    ]);
    let log = stderr(&built);
    assert!(built.status.success(), "{log}");
    assert!(log.contains("warning: bad.mdx:3: "), "{log}");
    assert!(
        log.contains("warning: docs.json: navigation.pages[2]"),
        "{log}"
    );
    assert!(broken_out.join("bad.html").is_file());

    // More warnings than the job record keeps (500): --warnings-json has every one.
    let links: String = (0..620)
        .map(|i| format!("See [page {i}](/nowhere-{i}).\n\n"))
        .collect();
    std::fs::write(broken.join("good.mdx"), format!("# Good\n\n{links}")).unwrap();
    let many_out = instance.dir.path().join("many-out");
    let json = instance.dir.path().join("warnings.json");
    let built = instance.cli(&[
        "build",
        broken.to_str().unwrap(),
        "-o",
        many_out.to_str().unwrap(),
        "--warnings-json",
        json.to_str().unwrap(),
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    let warnings: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let links = warnings
        .iter()
        .filter(|w| {
            w["file"] == "good.mdx"
                && w["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("nowhere-"))
        })
        .count();
    assert_eq!(links, 620, "every broken link, each once");
    assert!(
        stderr(&built).contains("... and "),
        "the terminal shows the first 50"
    );
}

/// `quire build --assistant` ships the assistant with a search index built from the folder:
/// its data reads back into the assistant, which answers from it; a build without the flag
/// ships none and leaves it switched off.
#[test]
fn a_build_ships_the_assistant_when_asked() {
    let instance = Instance::new("");
    let site = common::example_site();
    let site = site.to_str().unwrap();
    let plain = instance.dir.path().join("plain");
    let built = instance.cli(&["build", site, "-o", plain.to_str().unwrap()]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(!plain.join("assistant").exists());
    let features = std::fs::read_to_string(plain.join("quire-features.js")).unwrap();
    assert!(features.contains("\"offline\":false"), "{features}");

    let with = instance.dir.path().join("with");
    let built = instance.cli(&["build", site, "-o", with.to_str().unwrap(), "--assistant"]);
    assert!(built.status.success(), "{}", stderr(&built));
    let features = std::fs::read_to_string(with.join("quire-features.js")).unwrap();
    assert!(features.contains("\"offline\":true"), "{features}");
    // The data as the page reads it: each stream's chunks, in order, decoded.
    let listing = std::fs::read_to_string(with.join("assistant/data.js")).unwrap();
    let listing: serde_json::Value = serde_json::from_str(
        listing
            .split_once(" = ")
            .unwrap()
            .1
            .trim_end()
            .trim_end_matches(';'),
    )
    .unwrap();
    let stream = |name: &str| -> Vec<u8> {
        use base64::Engine as _;
        let mut bytes = Vec::new();
        for chunk in listing[name].as_array().unwrap() {
            let chunk = chunk.as_str().unwrap();
            let script =
                std::fs::read_to_string(with.join(format!("assistant/chunks/{chunk}.js"))).unwrap();
            let encoded = script
                .rsplit_once(", \"")
                .unwrap()
                .1
                .trim_end_matches("\");\n");
            bytes.extend(
                base64::engine::general_purpose::STANDARD
                    .decode(encoded)
                    .unwrap(),
            );
        }
        bytes
    };
    let (index, vocabulary, facts) = (stream("index"), stream("vocabulary"), stream("site"));
    let assistant =
        quire_bundle_assistant::Assistant::load(&index, Some(&vocabulary), &facts).unwrap();
    let reply = assistant
        .ask_json(br#"{"messages": [{"role": "user", "content": "How do I verify webhook signatures?"}]}"#)
        .unwrap();
    let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
    let text = reply["text"].as_str().unwrap();
    assert!(text.to_lowercase().contains("signature"), "{text}");
    assert!(
        reply["sources"][0]["path"]
            .as_str()
            .is_some_and(|p| p.contains("webhooks")),
        "{reply}"
    );
}

/// Pages render on several threads, each with a renderer instance of its own, and come back in
/// order: the bundle is the same file for file whatever the number of threads, and a script
/// several instances give (the diagram script) is in it once.
#[test]
fn the_bundle_does_not_depend_on_the_number_of_rendering_threads() {
    let instance = Instance::new("");
    let site = common::example_site();
    let build = |threads: &str| {
        let out = instance.dir.path().join(format!("out-{threads}"));
        let built = instance
            .command()
            .env("QUIRE_PLUGINS__RENDER_THREADS", threads)
            // Rendered, not taken from the first build's cache.
            .args(["build", "--no-cache", site.to_str().unwrap()])
            .args(["-o", out.to_str().unwrap()])
            .output()
            .expect("run quire");
        assert!(built.status.success(), "{}", stderr(&built));
        common::archive::bundle_folder(&out)
    };
    let one = build("1");
    let three = build("3");
    assert!(
        one.keys().any(|f| f.starts_with("assets/mermaid-")),
        "a diagram script"
    );
    common::archive::assert_same_files(&three, &one, "with one and with three threads");
}

/// The "N rendered, M reused" of `quire build`'s summary.
fn rendered_and_reused(output: &std::process::Output) -> (u64, u64) {
    let text = stderr(output);
    let counts = text
        .split_once(" pages into ")
        .and_then(|(_, rest)| rest.split_once(" ("))
        .and_then(|(_, rest)| rest.split_once(" reused"))
        .map(|(counts, _)| counts.to_string())
        .unwrap_or_else(|| panic!("no counts in {text}"));
    let (rendered, reused) = counts.split_once(" rendered, ").expect("two counts");
    (rendered.parse().unwrap(), reused.parse().unwrap())
}

/// `quire build` keeps each rendered page in its cache folder: the next build of an unchanged
/// site renders nothing, a one-page edit renders that page alone, a changed snippet renders
/// again what imports it, a damaged cache entry is rendered again rather than served, and
/// every bundle equals, file for file, a build that rendered everything.
#[test]
fn a_build_renders_only_what_changed_and_equals_a_full_build() {
    let instance = Instance::new("");
    let site = instance.dir.path().join("site");
    common::sites::copy_dir(&common::example_site(), &site);
    let cache = instance.dir.path().join("render-cache");
    let mut builds = 0;
    let mut build = |extra: &[&str]| {
        builds += 1;
        let out = instance.dir.path().join(format!("out-{builds}"));
        let output = instance
            .command()
            .args(["build", site.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .args(extra)
            .output()
            .expect("run quire");
        assert!(output.status.success(), "{}", stderr(&output));
        (
            rendered_and_reused(&output),
            common::archive::bundle_folder(&out),
        )
    };
    let cached = ["--cache-dir", cache.to_str().unwrap()];

    let ((rendered, reused), first) = build(&cached);
    assert_eq!(reused, 0);
    let pages = rendered;
    assert!(pages > 20, "{pages}");
    let ((rendered, reused), again) = build(&cached);
    assert_eq!((rendered, reused), (0, pages), "an unchanged site");
    assert!(first == again, "a build from the cache equals the first");

    // One sentence appended to one page.
    let page = site.join("quickstart.mdx");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\nOne more sentence, appended.\n");
    std::fs::write(&page, text).unwrap();
    let ((rendered, reused), edited) = build(&cached);
    assert_eq!((rendered, reused), (1, pages - 1), "one page changed");
    let (_, full) = build(&["--no-cache"]);
    assert!(edited == full, "incremental equals a full build");
    assert!(String::from_utf8_lossy(&edited["quickstart.html"]).contains("One more sentence"));

    // A snippet one page imports, and one another page names in a legacy `<Snippet file>`:
    // each renders that page again, and no other.
    for (snippet, user) in [
        ("snippets/support.mdx", "guides/components.html"),
        ("snippets/get-help.mdx", "components/legacy-snippets.html"),
    ] {
        let snippet = site.join(snippet);
        let mut text = std::fs::read_to_string(&snippet).unwrap();
        text.push_str("\nA new line, for the test.\n");
        std::fs::write(&snippet, text).unwrap();
        let ((rendered, reused), edited) = build(&cached);
        assert_eq!(
            (rendered, reused),
            (1, pages - 1),
            "{} changed",
            snippet.display()
        );
        assert!(String::from_utf8_lossy(&edited[user]).contains("A new line, for the test."));
        let (_, full) = build(&["--no-cache"]);
        assert!(edited == full, "after {} changed", snippet.display());
    }

    // Damaged entries are made again, never served. An emptied cache first, so that every
    // entry in it is one the next build looks up. The cache holds pages and what is made of
    // them (each page's counted search sections), so three damaged entries render at most
    // three pages again, and every entry damaged renders every page again.
    std::fs::remove_dir_all(&cache).unwrap();
    let ((rendered, reused), _) = build(&cached);
    assert_eq!((rendered, reused), (pages, 0), "an emptied cache");
    let (_, full) = build(&["--no-cache"]);
    for (how_many, expected) in [(3, None), (usize::MAX, Some(pages))] {
        let mut damaged = 0;
        for entry in walkdir::WalkDir::new(&cache).into_iter().flatten() {
            if entry.file_type().is_file() && damaged < how_many {
                let mut bytes = std::fs::read(entry.path()).unwrap();
                let middle = bytes.len() / 2;
                bytes[middle] ^= 0x55;
                std::fs::write(entry.path(), bytes).unwrap();
                damaged += 1;
            }
        }
        let ((rendered, reused), repaired) = build(&cached);
        assert_eq!(rendered + reused, pages);
        match expected {
            Some(all) => assert_eq!(rendered, all, "every entry damaged"),
            None => assert!(rendered <= 3, "{rendered} rendered for 3 damaged entries"),
        }
        assert!(repaired == full, "after {damaged} damaged entries");
    }
}

/// Two builds writing one cache folder at once (two CI jobs of one site) leave it whole: a
/// third build takes every page from it and equals a build that rendered everything.
#[test]
fn builds_sharing_a_cache_at_once_leave_it_whole() {
    let (first, second) = (Instance::new(""), Instance::new(""));
    let site = common::example_site();
    let cache = first.dir.path().join("shared-cache");
    let start = |instance: &Instance, name: &str| {
        instance
            .command()
            .args(["build", site.to_str().unwrap(), "-o"])
            .arg(instance.dir.path().join(name))
            .args(["--cache-dir", cache.to_str().unwrap()])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run quire")
    };
    let racing = [start(&first, "a"), start(&second, "b")];
    for child in racing {
        let output = child.wait_with_output().expect("wait");
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let after = first
        .command()
        .args(["build", site.to_str().unwrap(), "-o"])
        .arg(first.dir.path().join("c"))
        .args(["--cache-dir", cache.to_str().unwrap()])
        .output()
        .expect("run quire");
    assert!(after.status.success(), "{}", stderr(&after));
    let (rendered, reused) = rendered_and_reused(&after);
    assert_eq!(
        rendered,
        0,
        "every page was in the cache: {}",
        stderr(&after)
    );
    assert!(reused > 20);
    let full = second
        .command()
        .args(["build", "--no-cache", site.to_str().unwrap(), "-o"])
        .arg(second.dir.path().join("d"))
        .output()
        .expect("run quire");
    assert!(full.status.success(), "{}", stderr(&full));
    let from_cache = common::archive::bundle_folder(&first.dir.path().join("c"));
    assert!(from_cache == common::archive::bundle_folder(&second.dir.path().join("d")));
    assert!(from_cache == common::archive::bundle_folder(&first.dir.path().join("a")));
    assert!(from_cache == common::archive::bundle_folder(&second.dir.path().join("b")));
}

/// Code is highlighted by the host's tree-sitter grammars through the component's
/// `highlighting` import (TypeScript's `number` is a type, which the renderer's own
/// JavaScript grammar for `ts` does not say), and by the renderer's grammars for a language
/// the host lacks (Prisma).
#[test]
fn code_is_highlighted_by_the_host_and_by_the_renderer_for_the_rest() {
    let instance = Instance::new("");
    let site = instance.dir.path().join("code-site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(
        site.join("docs.json"),
        r#"{"name": "Code", "navigation": {"pages": ["index"]}}"#,
    )
    .unwrap();
    std::fs::write(
        site.join("index.mdx"),
        "# Code\n\n```ts\nconst port: number = 8080; // the default\n```\n\n```prisma\nmodel User {\n  id Int @id\n}\n```\n",
    )
    .unwrap();
    let out = instance.dir.path().join("code-out");
    let built = instance.cli(&["build", site.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(built.status.success(), "{}", stderr(&built));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    // (A run takes the spaces after it: fewer spans.)
    for expected in [
        "<span class=\"k\">const</span>",
        "<span class=\"t\">number",
        "<span class=\"c\">// the default</span>",
        "<span class=\"k\">model",
    ] {
        assert!(html.contains(expected), "{expected} in {html}");
    }
}

/// `quire dev` keeps the render cache it shares with `quire build` within
/// `render_cache_max_mib`: by default its build leaves its pages there; with a limit of 0, no
/// entry is left once the build is served.
#[test]
fn dev_keeps_the_render_cache_within_its_limit() {
    let entries_after_dev = |config: &str| {
        let instance = Instance::new(config);
        let site = instance.dir.path().join("site");
        common::sites::copy_dir(&common::example_site(), &site);
        let dev = instance.dev(&site);
        let cache = instance.data_dir().join("render-cache");
        let entries = || {
            walkdir::WalkDir::new(&cache)
                .into_iter()
                .flatten()
                .filter(|e| e.file_type().is_file())
                .count()
        };
        // The trim follows the build; give it a moment past the first page served.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while entries() > 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        drop(dev);
        entries()
    };
    assert!(entries_after_dev("") >= 40, "the build's pages are cached");
    assert_eq!(
        entries_after_dev("[plugins]\nrender_cache_max_mib = 0\n"),
        0
    );
}

/// `quire dev` as a writer runs it: the site served on 127.0.0.1; a saved page is rendered
/// again alone and open pages are told to reload; a changed docs.json rebuilds everything; a
/// page broken mid-edit is a warning, and the preview goes on.
#[tokio::test]
async fn dev_previews_and_rebuilds_on_save() {
    use futures::StreamExt;

    let instance = Instance::new("");
    let site = instance.dir.path().join("site");
    common::sites::copy_dir(&common::example_site(), &site);
    let dev = instance.dev(&site);
    let page = |path: &'static str| {
        let base = dev.base.clone();
        async move {
            let response = quire::http_client::client()
                .get(format!("{base}/{path}"))
                .send()
                .await
                .unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        }
    };
    let (status, html) = page("quickstart").await;
    assert_eq!(status, 200, "{}", dev.log());
    assert!(html.contains("<title>Quickstart · Acme Widgets</title>"));
    assert_eq!(page("no-such-page").await.0, 404);
    let (_, features) = page("quire-features.js").await;
    assert!(features.contains("new EventSource(\"/__quire/events\")"));

    let events = quire::http_client::client()
        .get(format!("{}/__quire/events", dev.base))
        .send()
        .await
        .unwrap();
    let mut events = events.bytes_stream();
    let mut next_reload = async move || {
        let wait = tokio::time::timeout(std::time::Duration::from_secs(60), async {
            while let Some(chunk) = events.next().await {
                if String::from_utf8_lossy(&chunk.unwrap()).contains("data: reload") {
                    return;
                }
            }
            panic!("the event stream ended");
        });
        wait.await.expect("a reload event after the save");
    };

    let quickstart = site.join("quickstart.mdx");
    let source = std::fs::read_to_string(&quickstart).unwrap();
    std::fs::write(
        &quickstart,
        source.replace("title: Quickstart\n", "title: Quickstart, edited\n"),
    )
    .unwrap();
    next_reload().await;
    assert!(
        page("quickstart")
            .await
            .1
            .contains("<title>Quickstart, edited · Acme Widgets</title>")
    );
    assert!(
        dev.log().contains("rebuilt quickstart: 1 page"),
        "{}",
        dev.log()
    );

    // Later checks poll: a save may bring more than one event.
    let eventually = async |what: &str, check: &dyn Fn(String) -> bool, path: &'static str| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::time::Instant::now() < deadline {
            if check(page(path).await.1) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("{what}: {}", dev.log());
    };
    let config = site.join("docs.json");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace("\"Acme Widgets\"", "\"Acme Gadgets\""),
    )
    .unwrap();
    eventually(
        "a changed docs.json rebuilds every page",
        &|html| html.contains("· Acme Gadgets</title>"),
        "concepts",
    )
    .await;

    // In a browser: the open page reloads itself after a save.
    let node = std::process::Command::new("node")
        .args(["--test", "dev.test.mjs"])
        .current_dir(common::workspace().join("host/tests/browser"))
        .env("QUIRE_SITE_URL", &dev.base)
        .env("QUIRE_PAGE_FILE", site.join("concepts.mdx"))
        .output()
        .expect("run node");
    let report = String::from_utf8_lossy(&node.stdout);
    assert!(
        node.status.success() && report.contains("# pass 1"),
        "{report}\n{}\n{}",
        String::from_utf8_lossy(&node.stderr),
        dev.log()
    );

    std::fs::write(&quickstart, "# Half written\n\n<Card title=\"A\n").unwrap();
    eventually(
        "a page broken mid-edit still renders",
        &|html| html.contains("<title>Half written"),
        "quickstart",
    )
    .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !dev.log().contains("warning: quickstart.mdx:3:") {
        assert!(std::time::Instant::now() < deadline, "{}", dev.log());
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}
