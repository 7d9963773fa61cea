//! Bundles that carry more than their manifest lists cost a docs server no disk: a real export
//! plus a 3 GiB file of zeros (generated as the archive is made, never stored whole) that
//! `manifest.json` does not list, before or after the manifest, or an entry whose size the
//! archive states wrongly, is refused
//! while what is unpacked stays under twice the manifest's total, for `.tar.gz` and `.zip`.
//! (The downloaded archive itself, a few megabytes here, is bounded by `--max-bundle-mib`.)

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::{api_host, export_link, serve_bytes};
use crate::common::archive::unpack;
use crate::common::{Api, docs_server};

const EXTRA: u64 = 3 << 30;

/// An entry of zeros added to a real bundle's files.
struct Extra<'a> {
    name: &'a str,
    size: u64,
}

/// A `.tar.gz` of `files` with `extra` after the first half of them (before the file of the same
/// name, if there is one), `manifest.json` first or last.
fn tar_gz_with(files: &BTreeMap<String, Vec<u8>>, extra: &Extra, manifest_first: bool) -> Vec<u8> {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let mut builder = tar::Builder::new(encoder);
    let mut append = |name: &str, size: u64, data: &mut dyn Read| {
        let mut header = tar::Header::new_gnu();
        header.set_size(size);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, name, data)
            .expect("append");
    };
    let manifest = &files["manifest.json"];
    if manifest_first {
        append(
            "manifest.json",
            manifest.len() as u64,
            &mut manifest.as_slice(),
        );
    }
    let others: Vec<_> = files
        .iter()
        .filter(|(p, _)| *p != "manifest.json")
        .collect();
    let at = others
        .iter()
        .position(|(p, _)| p.as_str() == extra.name)
        .unwrap_or(others.len() / 2);
    for (index, (path, contents)) in others.iter().enumerate() {
        if index == at {
            append(
                extra.name,
                extra.size,
                &mut std::io::repeat(0).take(extra.size),
            );
        }
        append(path, contents.len() as u64, &mut contents.as_slice());
    }
    if !manifest_first {
        append(
            "manifest.json",
            manifest.len() as u64,
            &mut manifest.as_slice(),
        );
    }
    builder.into_inner().expect("tar").finish().expect("gzip")
}

/// A `.zip` of `files` with `extra` (zeros) among them, `manifest.json` last.
fn zip_with(files: &BTreeMap<String, Vec<u8>>, extra: &Extra) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(9))
        .large_file(true);
    zip.start_file(extra.name, options).expect("start");
    std::io::copy(&mut std::io::repeat(0).take(extra.size), &mut zip).expect("zeros");
    for (path, contents) in files.iter().filter(|(p, _)| *p != "manifest.json") {
        zip.start_file(path.as_str(), options).expect("start");
        zip.write_all(contents).expect("write");
    }
    zip.start_file("manifest.json", options).expect("start");
    zip.write_all(&files["manifest.json"]).expect("write");
    zip.finish().expect("zip").into_inner()
}

/// The bytes of every file under `dir`, but the downloaded archive.
fn disk_use(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() != ".download")
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// Installs the archive served at `url` with a fresh docs server, watching its data folder's
/// size all along; returns the server's log and the largest size seen.
fn install_watching_disk(url: &str) -> (String, u64) {
    let home = tempfile::tempdir().expect("tempdir");
    let data = home.path().join("docs-data");
    std::fs::create_dir_all(&data).expect("data folder");
    let (done, peak) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
    );
    let watcher = {
        let (done, peak, data) = (done.clone(), peak.clone(), data.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                peak.fetch_max(disk_use(&data), Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        })
    };
    let server = docs_server(&data, &["--bundle-url", url]);
    done.store(true, Ordering::SeqCst);
    watcher.join().expect("watcher");
    (server.log(), peak.load(Ordering::SeqCst))
}

#[tokio::test]
async fn bundles_carrying_more_than_their_manifest_lists_are_refused_before_it_is_written() {
    let (_instance, server, key, _) = api_host("");
    let api = Api::new(&server.base, &key);
    api.publish_example_site("v1").await;
    let (_, bytes) = export_link(&api, "v1").await;
    let files = unpack(&bytes);
    let total: u64 = files.values().map(|f| f.len() as u64).sum();
    let listed_page = files
        .keys()
        .find(|p| p.ends_with(".html"))
        .expect("a page")
        .clone();
    let unlisted = Extra {
        name: "padding.bin",
        size: EXTRA,
    };

    // 3 GiB where the size is the point; the order and the lying header need less to show.
    let small_unlisted = Extra {
        name: "padding.bin",
        size: 256 << 20,
    };
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            ".tar.gz, 3 GiB unlisted, manifest last (as exports are)",
            tar_gz_with(&files, &unlisted, false),
            "padding.bin: not listed in manifest.json".into(),
        ),
        (
            ".zip, 3 GiB unlisted",
            zip_with(&files, &unlisted),
            "padding.bin: not listed in manifest.json".into(),
        ),
        (
            ".tar.gz, 256 MiB unlisted, manifest first",
            tar_gz_with(&files, &small_unlisted, true),
            "padding.bin: not listed in manifest.json".into(),
        ),
        (
            ".tar.gz, a listed page stated 64 MiB",
            tar_gz_with(
                &files,
                &Extra {
                    name: &listed_page,
                    size: 64 << 20,
                },
                true,
            ),
            format!("{listed_page}: the archive says {} bytes", 64u64 << 20),
        ),
    ];
    for (case, archive, expected) in cases {
        assert!(archive.len() < 64 << 20, "{case}: the archive is small");
        let (log, peak) = install_watching_disk(&serve_bytes(archive));
        assert!(log.contains(&expected), "{case}: {log}");
        eprintln!("{case}: refused; at most {peak} bytes unpacked (the manifest lists {total})");
        assert!(
            peak < 2 * total,
            "{case}: the data folder reached {peak} bytes; the manifest lists {total}"
        );
    }
}
