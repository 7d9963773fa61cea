//! The built component, run in Quire's plugin runtime; its archive read back with the `zip`
//! crate.

use std::io::Read;

use quire_sdk::harness::TestPackager;

#[test]
fn files_round_trip_through_a_zip() {
    let packager =
        TestPackager::build(env!("CARGO_MANIFEST_DIR")).expect("the packager builds and loads");
    let big = "lorem ipsum ".repeat(10_000);
    let packed = packager
        .pack(&[
            ("index.html", b"<h1>Hi</h1>"),
            ("guides/a.html", big.as_bytes()),
        ])
        .expect("packing works");
    assert_eq!(packed.extension, "zip");
    assert_eq!(packed.media_type, "application/zip");
    assert!(
        packed.bytes.len() < big.len() / 10,
        "entries are compressed"
    );

    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(packed.bytes)).expect("a readable zip");
    assert_eq!(archive.len(), 2);
    let mut text = String::new();
    archive
        .by_name("guides/a.html")
        .expect("entry")
        .read_to_string(&mut text)
        .expect("inflates");
    assert_eq!(text, big);
}

#[test]
fn paths_that_escape_the_archive_are_refused() {
    let packager =
        TestPackager::build(env!("CARGO_MANIFEST_DIR")).expect("the packager builds and loads");
    let error = packager
        .pack(&[("../evil.html", b"x")])
        .err()
        .expect("refused");
    assert!(error.to_string().contains("must be relative"), "{error}");
}
