//! Building and reading `.tar.gz` archives in tests.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

/// A `.tar.gz` of the folder `dir`, as a CI pipeline would make it.
pub fn tar_gz_dir(dir: &Path) -> Vec<u8> {
    let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
    builder.append_dir_all(".", dir).expect("pack site");
    builder
        .into_inner()
        .and_then(|gz| gz.finish())
        .expect("finish archive")
}

/// Every file of a `.tar.gz`, by path.
pub fn unpack(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut archive = tar::Archive::new(MultiGzDecoder::new(bytes));
    let mut files = BTreeMap::new();
    for entry in archive.entries().expect("entries") {
        let mut entry = entry.expect("entry");
        let path = entry.path().expect("path").display().to_string();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).expect("read entry");
        files.insert(path, data);
    }
    files
}

/// Every `href="..."` and `src="..."` value in an HTML text.
pub fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(start) = rest.find(attr) {
            rest = &rest[start + attr.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

/// Resolves a relative link found in `from` (a path in the bundle) to a bundle path, without
/// its fragment or query; `None` if it climbs out of the bundle.
pub fn resolve(from: &str, link: &str) -> Option<String> {
    let path = link.split(['#', '?']).next().unwrap_or("");
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The navigation entries the page `page` (path without extension) of an unpacked bundle loads,
/// and those of them its sidebar shows: the subtree of its section (`data-section`), or all of
/// them when it has none.
pub fn sidebar_of(
    bundle: &BTreeMap<String, Vec<u8>>,
    page: &str,
) -> Option<(Vec<serde_json::Value>, Vec<serde_json::Value>)> {
    let file = format!("{page}.html");
    let html = String::from_utf8_lossy(bundle.get(&file)?).into_owned();
    let script = links(&html)
        .into_iter()
        .find(|l| l.contains("assets/nav/"))
        .and_then(|l| resolve(&file, &l))?;
    let text = String::from_utf8_lossy(bundle.get(&script)?).into_owned();
    let json: serde_json::Value =
        serde_json::from_str(text.get(text.find('{')?..=text.rfind('}')?)?).ok()?;
    let items = json["items"].as_array()?.clone();
    let section = html
        .split("data-section=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|s| s.parse::<usize>().ok());
    let shown = match section {
        Some(s) => {
            let depth = items.get(s)?["depth"].as_u64().unwrap_or(0);
            items[s + 1..]
                .iter()
                .take_while(|i| i["depth"].as_u64().unwrap_or(0) > depth)
                .cloned()
                .collect()
        }
        None => items.clone(),
    };
    Some((items, shown))
}

/// The files of a bundle written as a folder, by path, without its manifest (which says when
/// the bundle was made, so two builds of one site differ there alone).
pub fn bundle_folder(out: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(out)
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let name = entry
                .path()
                .strip_prefix(out)
                .expect("inside")
                .display()
                .to_string();
            (name, std::fs::read(entry.path()).expect("read"))
        })
        .filter(|(name, _)| name != "manifest.json")
        .collect()
}

/// Asserts that two bundles hold the same files, byte for byte; `context` says which two, and
/// the message names the first file that differs.
pub fn assert_same_files(
    actual: &BTreeMap<String, Vec<u8>>,
    expected: &BTreeMap<String, Vec<u8>>,
    context: &str,
) {
    assert_eq!(
        actual.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "{context}"
    );
    for (name, contents) in expected {
        assert!(actual[name] == *contents, "{name} differs: {context}");
    }
}
