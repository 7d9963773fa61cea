//! Sites made up for tests: generated at any size, with hostile pages, or copied to a folder of their own.

use std::path::Path;

/// Writes a site of `pages` pages in groups of 50 under `dir`.
pub fn generate(dir: &Path, pages: usize) {
    std::fs::create_dir_all(dir.join("pages")).expect("site dir");
    let mut groups = Vec::new();
    for (g, chunk) in (0..pages).collect::<Vec<_>>().chunks(50).enumerate() {
        let names: Vec<String> = chunk
            .iter()
            .map(|i| format!("\"pages/page-{i}\""))
            .collect();
        groups.push(format!(
            "{{\"group\": \"Section {g}\", \"pages\": [{}]}}",
            names.join(", ")
        ));
    }
    let config = format!(
        "{{\"name\": \"Generated\", \"theme\": \"mint\", \"colors\": {{\"primary\": \"#336699\"}}, \"navigation\": {{\"groups\": [{}]}}}}",
        groups.join(",\n")
    );
    std::fs::write(dir.join("docs.json"), config).expect("docs.json");
    for i in 0..pages {
        let next = (i + 1) % pages;
        let body = format!(
            "---\ntitle: Page {i}\ndescription: Generated page number {i}.\n---\n\n\
             ## Overview\n\nThis page explains widget feature {i} and links to [the next page](/pages/page-{next}).\n\n\
             <Note>Feature {i} is available on every plan.</Note>\n\n\
             ## Usage\n\n```bash\nacme widgets enable --feature {i}\n```\n\n\
             | Option | Default |\n| --- | --- |\n| `retries` | 3 |\n| `timeout` | 30s |\n\n\
             ## Details\n\nWidgets configured with feature {i} report their state every minute. \
             The state is one of draft, active or retired, and transitions emit events.\n"
        );
        std::fs::write(dir.join(format!("pages/page-{i}.mdx")), body).expect("page");
    }
}

/// A site whose pages ask the hostile renderer fixture to misbehave.
pub fn hostile(dir: &Path) {
    hostile_pages(dir, HOSTILE_PAGES);
}

/// The pages of the hostile site: one of each misbehaviour, and two that render fine.
pub const HOSTILE_PAGES: &[&str] = &["fine", "fine2", "trap", "loop", "hoard", "flood", "snoop"];

/// A site of `pages`, each a one-line page, in that navigation order (for the hostile
/// renderer, whose misbehaviour each page's name picks).
pub fn hostile_pages(dir: &Path, pages: &[&str]) {
    std::fs::create_dir_all(dir).expect("site dir");
    let navigation = serde_json::json!({"name": "Hostile", "navigation": {"pages": pages}});
    std::fs::write(dir.join("docs.json"), navigation.to_string()).expect("docs.json");
    for page in pages {
        std::fs::write(dir.join(format!("{page}.md")), format!("# {page}\n")).expect("page");
    }
}

/// The shared corpora (`../shared/corpora/NAME.tar.gz`, real docs.json sites), each unpacked
/// into a folder of its own under `dir`: their names and folders, in name order.
pub fn unpack_corpora(dir: &Path) -> Vec<(String, std::path::PathBuf)> {
    let corpora = super::workspace().join("../shared/corpora");
    assert!(
        corpora.is_dir(),
        "the shared corpora are not at {}: this test needs the shared folder beside the repository",
        corpora.display()
    );
    let mut names: Vec<String> = std::fs::read_dir(&corpora)
        .expect("corpora")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".tar.gz").map(String::from))
        .collect();
    names.sort();
    assert!(
        !names.is_empty(),
        "no .tar.gz site in {}",
        corpora.display()
    );
    names
        .into_iter()
        .map(|name| {
            let root = dir.join(&name);
            let archive = std::fs::read(corpora.join(format!("{name}.tar.gz"))).expect("corpus");
            for (path, contents) in super::archive::unpack(&archive) {
                if path.ends_with('/') {
                    continue; // a folder entry; its files come on their own
                }
                let target = root.join(&path);
                std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
                std::fs::write(target, contents).expect("write");
            }
            (name, root)
        })
        .collect()
}

/// Copies the folder `from` (a site, say) to `to`, creating it.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
