//! Unpacking checked against the manifest: honest bundles in both formats and both manifest
//! places, each way a bundle can carry more or other than it lists, and damaged archives
//! (property test: any mutation is refused or unpacks exactly what the manifest lists), and a
//! delta's patched file rebuilt from the served one.

use std::io::Write;

use super::*;

/// Files and the manifest that lists them.
fn bundle(files: &[(&str, &[u8])]) -> (Vec<(String, Vec<u8>)>, Vec<u8>) {
    let listed: Vec<_> = files
        .iter()
        .map(|(path, contents)| {
            serde_json::json!({
                "path": path,
                "size": contents.len(),
                "sha256": hex::encode(Sha256::digest(contents)),
            })
        })
        .collect();
    let manifest = serde_json::to_vec(&serde_json::json!({
        "contentVersion": "v1",
        "domain": "docs.acme.test",
        "files": listed,
    }))
    .unwrap();
    let files = files
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_vec()))
        .collect();
    (files, manifest)
}

const FILES: &[(&str, &[u8])] = &[
    ("index.html", b"<h1>Home</h1>"),
    ("guides/a.html", b"<h1>A</h1>"),
    ("assets/quire.css", b"body{}"),
];

/// A .tar.gz of `entries` (path, stated size, contents), in order.
fn tar_gz(entries: &[(&str, u64, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::fast(),
    ));
    for (path, stated, contents) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(*stated);
        header.set_mode(0o644);
        header.set_cksum();
        let padded = contents
            .iter()
            .copied()
            .chain(std::iter::repeat(0))
            .take(*stated as usize)
            .collect::<Vec<_>>();
        builder
            .append_data(&mut header, path, padded.as_slice())
            .unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// The honest bundle's entries, with the manifest first or last, plus `extra`.
fn entries<'a>(
    files: &'a [(String, Vec<u8>)],
    manifest: &'a [u8],
    manifest_first: bool,
    extra: &[(&'a str, u64, &'a [u8])],
) -> Vec<(&'a str, u64, &'a [u8])> {
    let mut out: Vec<(&str, u64, &[u8])> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.len() as u64, c.as_slice()))
        .collect();
    out.extend_from_slice(extra);
    let manifest = (MANIFEST, manifest.len() as u64, manifest);
    if manifest_first {
        out.insert(0, manifest);
    } else {
        out.push(manifest);
    }
    out
}

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, contents) in entries {
        zip.start_file(*path, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(contents).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn unpack(archive: &[u8]) -> (tempfile::TempDir, Result<VerifiedBundle, BundleError>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bundle.archive");
    std::fs::write(&path, archive).unwrap();
    let dest = dir.path().join("out");
    std::fs::create_dir_all(&dest).unwrap();
    let result = unpack_and_verify(&path, &dest, UnpackLimits::default());
    (dir, result)
}

fn refusal(archive: &[u8]) -> String {
    unpack(archive).1.expect_err("refused").to_string()
}

#[test]
fn honest_bundles_unpack_in_both_formats_with_the_manifest_first_or_last() {
    let (files, manifest) = bundle(FILES);
    for first in [true, false] {
        let (dir, result) = unpack(&tar_gz(&entries(&files, &manifest, first, &[])));
        let bundle = result.unwrap();
        assert_eq!(bundle.content_version, "v1");
        assert_eq!(bundle.hashes.len(), 3);
        let page = std::fs::read(dir.path().join("out/guides/a.html")).unwrap();
        assert_eq!(page, b"<h1>A</h1>");
    }
    let mut listed: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_slice()))
        .collect();
    listed.push((MANIFEST, &manifest));
    assert_eq!(unpack(&zip(&listed)).1.unwrap().hashes.len(), 3);
}

#[test]
fn what_the_manifest_does_not_list_or_lists_otherwise_is_refused() {
    let (files, manifest) = bundle(FILES);
    for first in [true, false] {
        let extra = refusal(&tar_gz(&entries(
            &files,
            &manifest,
            first,
            &[("extra.bin", 5, b"")],
        )));
        assert!(extra.contains("extra.bin: not listed"), "{extra}");
    }
    // A listed file whose stated size differs: refused from its header, before its bytes.
    let mut lying = files.clone();
    lying[1].1 = b"<h1>A</h1> and more".to_vec();
    let stated = refusal(&tar_gz(&entries(&lying, &manifest, true, &[])));
    assert!(
        stated.contains("guides/a.html: the archive says 19 bytes"),
        "{stated}"
    );
    // Same size, other bytes.
    let mut changed = files.clone();
    changed[0].1 = b"<h1>Hack</h1>".to_vec();
    let hash = refusal(&tar_gz(&entries(&changed, &manifest, false, &[])));
    assert!(
        hash.contains("index.html: its SHA-256 does not match"),
        "{hash}"
    );
    // Missing, duplicated, a second manifest.
    let missing = refusal(&tar_gz(&entries(&files[..2], &manifest, true, &[])));
    assert!(
        missing.contains("listed in manifest.json but missing"),
        "{missing}"
    );
    let twice = refusal(&tar_gz(&entries(
        &files,
        &manifest,
        true,
        &[("index.html", 13, b"<h1>Home</h1>")],
    )));
    assert!(
        twice.contains("index.html: the archive holds it twice"),
        "{twice}"
    );
    let second = refusal(&tar_gz(&entries(
        &files,
        &manifest,
        true,
        &[(MANIFEST, 2, b"{}")],
    )));
    assert!(second.contains("two different manifest.json"), "{second}");
    // In a zip, the central directory's sizes are checked before anything is written.
    let zipped = refusal(&zip(&[
        ("index.html", b"<h1>Home</h1>"),
        ("extra.bin", b"12345"),
        (MANIFEST, &manifest),
    ]));
    assert!(zipped.contains("extra.bin: not listed"), "{zipped}");
}

#[test]
fn no_manifest_a_bad_one_or_too_much_listed_is_refused() {
    let (files, _) = bundle(FILES);
    let none = refusal(&tar_gz(&[("index.html", 3, b"abc")]));
    assert!(none.contains("no manifest.json"), "{none}");
    let bad = refusal(&tar_gz(&entries(&files, b"{\"files\": 3}", true, &[])));
    assert!(bad.contains("manifest.json is not valid"), "{bad}");
    let huge = serde_json::to_vec(&serde_json::json!({
        "contentVersion": "v1",
        "files": [{"path": "big.bin", "size": 9u64 << 30, "sha256": "00"}],
    }))
    .unwrap();
    let too_large = refusal(&tar_gz(&entries(&[], &huge, true, &[])));
    assert!(too_large.contains("larger than the limit"), "{too_large}");
    assert!(refusal(b"neither").contains("neither a .tar.gz nor a .zip"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// A damaged archive (any byte changed, or cut short) is refused with an error or unpacks
    /// exactly the files its manifest lists; it never panics.
    #[test]
    fn damaged_archives_are_refused_or_unpack_what_is_listed(
        zip_format in proptest::bool::ANY,
        at in 0usize..4096,
        byte in proptest::num::u8::ANY,
        cut in proptest::bool::ANY,
    ) {
        let (files, manifest) = bundle(FILES);
        let mut archive = if zip_format {
            let mut listed: Vec<(&str, &[u8])> =
                files.iter().map(|(p, c)| (p.as_str(), c.as_slice())).collect();
            listed.push((MANIFEST, &manifest));
            zip(&listed)
        } else {
            tar_gz(&entries(&files, &manifest, false, &[]))
        };
        let at = at % archive.len();
        if cut {
            archive.truncate(at);
        } else {
            archive[at] = byte;
        }
        let (dir, result) = unpack(&archive);
        if let Ok(bundle) = result {
            for (path, contents) in &files {
                let written = std::fs::read(dir.path().join("out").join(path)).unwrap();
                proptest::prop_assert_eq!(&written, contents);
                proptest::prop_assert!(bundle.hashes.contains_key(path));
            }
        }
    }
}

/// Applies `delta` (a `.tar.gz`) against the unpacked bundle in `base`.
fn apply_delta(
    delta: &[u8],
    base: &Path,
) -> (tempfile::TempDir, Result<VerifiedBundle, BundleError>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("delta.tar.gz");
    std::fs::write(&path, delta).unwrap();
    let dest = dir.path().join("out");
    std::fs::create_dir_all(&dest).unwrap();
    let result = unpack_delta_and_verify(&path, &dest, UnpackLimits::default(), base);
    (dir, result)
}

#[test]
fn a_patched_file_is_rebuilt_from_the_served_one_and_never_from_other_contents() {
    use crate::bundle::{ManifestBuilder, PatchedFile, file_patch};
    // Bytes with no repeats, so that a patch can only copy them from its base.
    let earlier = crate::testing::noise(16 << 10);
    // The new contents: one byte changed, one line added.
    let mut other = earlier.clone();
    other[100] ^= 0xff;
    let mut later = other.clone();
    later.extend_from_slice(b"one more line\n");
    let home: &[u8] = b"<h1>Home</h1>";
    let manifest_of = |big: &[u8], version: &str| {
        let mut m = ManifestBuilder::default();
        m.add("index.html", home);
        m.add("llms-full.txt", big);
        m.finish("docs.acme.test", version, time::OffsetDateTime::UNIX_EPOCH)
    };
    let (first, second) = (manifest_of(&earlier, "v1"), manifest_of(&later, "v2"));
    let sha = |bytes: &[u8]| hex::encode(Sha256::digest(bytes));
    let served_archive = tar_gz(&[
        ("index.html", home.len() as u64, home),
        ("llms-full.txt", earlier.len() as u64, &earlier),
        (
            MANIFEST,
            first.file.contents.len() as u64,
            &first.file.contents,
        ),
    ]);
    let (served, result) = unpack(&served_archive);
    result.expect("the served version");
    let base = served.path().join("out");

    let entry = ".quire-patches/0.zst";
    let delta_with = |patch: &[u8], base_sha256: String| {
        let mut manifest_patch = second.patch_against(
            |path, hash| path == "index.html" && hash == sha(home),
            ["index.html", "llms-full.txt"],
        );
        manifest_patch.patched = vec![PatchedFile {
            path: "llms-full.txt".into(),
            base_sha256,
            entry: entry.into(),
        }];
        let manifest_patch = manifest_patch.to_bytes();
        tar_gz(&[
            (entry, patch.len() as u64, patch),
            (
                MANIFEST_PATCH_FILE,
                manifest_patch.len() as u64,
                &manifest_patch,
            ),
        ])
    };

    let patch = file_patch::make(&earlier, &later).expect("a patch");
    assert!(patch.len() < 200, "{} bytes", patch.len());
    let (out, result) = apply_delta(&delta_with(&patch, sha(&earlier)), &base);
    result.expect("the delta applies");
    let out = out.path().join("out");
    assert_eq!(std::fs::read(out.join("llms-full.txt")).unwrap(), later);
    assert_eq!(std::fs::read(out.join("index.html")).unwrap(), home);
    assert!(
        !out.join(entry).exists(),
        "the patch is not a file of the bundle"
    );

    // A patch made from other contents than the served ones (which lack the changed byte):
    // what it makes fails the manifest's hash, and is refused.
    let wrong = file_patch::make(&other, &later).expect("a patch");
    let (_out, result) = apply_delta(&delta_with(&wrong, sha(&earlier)), &base);
    let refused = result.expect_err("refused").to_string();
    assert!(refused.contains("llms-full.txt"), "{refused}");
    // A patch for a base the served version does not have: refused before it is read.
    let (_out, result) = apply_delta(&delta_with(&patch, sha(&other)), &base);
    let refused = result.expect_err("refused").to_string();
    assert!(refused.contains("does not have the contents"), "{refused}");
}
