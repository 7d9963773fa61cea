//! Quire's default packager: writes the exported site as a `.tar.gz` of one gzip member per
//! file (a multi-member gzip stream is a valid `.tar.gz`: `tar`, `gzip` and every gzip library
//! read it whole). Each file's member is complete when `add-file` returns and depends only on
//! its path and contents, so the host may keep members and assemble the next archive from the
//! ones whose files did not change; the archive is never held whole on either side.
//!
//! Written with the plugin SDK: [`TarGzWriter`] is the SDK's `Packager`, tested natively here
//! and exported as the component's `packager` world.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use quire_sdk::packager::{Format, Packager, check_path};
use quire_sdk::{Error, Result};

/// Files in the archive get this mode and a fixed modification time, so the same site always
/// packs to the same bytes.
const FILE_MODE: u32 = 0o644;
const FIXED_MTIME: u64 = 0;

/// A tar stream cut after every file, each file's tar bytes compressed as a gzip member of
/// their own.
pub struct TarGzWriter {
    /// Writes tar bytes into a buffer that is emptied after each file; `None` once finished.
    builder: Option<tar::Builder<Vec<u8>>>,
}

impl Default for TarGzWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl TarGzWriter {
    pub fn new() -> Self {
        let mut builder = tar::Builder::new(Vec::new());
        builder.mode(tar::HeaderMode::Deterministic);
        Self {
            builder: Some(builder),
        }
    }
}

/// Files larger than this are compressed at the fast level. The large files of a bundle are
/// its site-wide ones (the manifest, which changes with any file, `llms-full.txt`, the page
/// list), packed again on most releases: the fast level packs them at about twice the speed
/// for a few percent more bytes, and small files, nearly all of a bundle's bytes, keep the
/// default level.
const FAST_ABOVE_BYTES: usize = 1 << 20;

/// `tar_bytes` as one complete gzip member (the gzip header carries no name or time, so the
/// same bytes always compress alike).
fn gzip_member(tar_bytes: &[u8]) -> Result<Vec<u8>> {
    let level = match tar_bytes.len() > FAST_ABOVE_BYTES {
        true => Compression::fast(),
        false => Compression::default(),
    };
    let mut encoder = GzEncoder::new(Vec::new(), level);
    encoder
        .write_all(tar_bytes)
        .and_then(|()| encoder.finish())
        .map_err(|e| Error::internal(format!("compressing: {e}")))
}

impl Packager for TarGzWriter {
    fn format(&self) -> Format {
        Format {
            extension: "tar.gz".into(),
            media_type: "application/gzip".into(),
            reusable_entries: true,
        }
    }

    /// Adds a file and returns its gzip member.
    fn add_file(&mut self, path: &str, contents: &[u8]) -> Result<Vec<u8>> {
        check_path(path)?;
        let builder = self
            .builder
            .as_mut()
            .ok_or_else(|| Error::invalid_input("the archive is already finished"))?;
        let mut header = tar::Header::new_gnu();
        header.set_size(contents.len() as u64);
        header.set_mode(FILE_MODE);
        header.set_mtime(FIXED_MTIME);
        header.set_entry_type(tar::EntryType::Regular);
        builder
            .append_data(&mut header, path, contents)
            .map_err(|e| Error::invalid_input(format!("adding {path}: {e}")))?;
        let tar_bytes = std::mem::take(builder.get_mut());
        gzip_member(&tar_bytes)
    }

    /// Ends the archive: the tar end-of-archive blocks as the last member.
    fn finish(&mut self) -> Result<Vec<u8>> {
        let builder = self
            .builder
            .take()
            .ok_or_else(|| Error::invalid_input("the archive is already finished"))?;
        let tar_bytes = builder
            .into_inner()
            .map_err(|e| Error::internal(format!("ending the tar stream: {e}")))?;
        gzip_member(&tar_bytes)
    }
}

quire_sdk::export_packager!(TarGzWriter);

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn chunks_concatenate_to_a_valid_archive() {
        let mut writer = TarGzWriter::new();
        let mut bytes = Vec::new();
        let big: Vec<u8> = (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect();
        bytes.extend(writer.add_file("index.html", b"<h1>hi</h1>").unwrap());
        bytes.extend(writer.add_file("assets/big.bin", &big).unwrap());
        bytes.extend(writer.finish().unwrap());
        let mut archive = tar::Archive::new(flate2::read::MultiGzDecoder::new(bytes.as_slice()));
        let mut seen = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            let mut data = Vec::new();
            entry.read_to_end(&mut data).unwrap();
            seen.push((entry.path().unwrap().display().to_string(), data.len()));
        }
        assert_eq!(
            seen,
            [
                ("index.html".to_string(), 11),
                ("assets/big.bin".to_string(), big.len())
            ]
        );
    }

    #[test]
    fn output_streams_as_files_go_in() {
        let mut writer = TarGzWriter::new();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let noise: Vec<u8> = (0..1_000_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 32) as u8
            })
            .collect();
        let chunk = writer.add_file("noise.bin", &noise).unwrap();
        assert!(
            chunk.len() > 100_000,
            "compressed bytes come back before finish: {}",
            chunk.len()
        );
    }

    #[test]
    fn refuses_escaping_paths_and_use_after_finish() {
        let mut writer = TarGzWriter::new();
        for bad in ["../x", "/etc/x", "a//b", "a/./b", ""] {
            assert!(writer.add_file(bad, b"x").is_err(), "{bad}");
        }
        writer.finish().unwrap();
        assert!(writer.add_file("a", b"x").is_err());
        assert!(writer.finish().is_err());
    }

    #[test]
    fn a_file_packs_to_the_same_member_wherever_it_goes() {
        let member_of = |before: &[(&str, &[u8])]| {
            let mut writer = TarGzWriter::new();
            for (path, contents) in before {
                writer.add_file(path, contents).unwrap();
            }
            writer.add_file("docs/page.html", b"<p>same</p>").unwrap()
        };
        let alone = member_of(&[]);
        assert_eq!(
            alone,
            member_of(&[("a.html", b"x"), ("b/c.css", &[7u8; 5000])])
        );
        // Kept members and a fresh archive's end read back as the files.
        let mut writer = TarGzWriter::new();
        let mut bytes = writer.add_file("first.txt", b"one").unwrap();
        bytes.extend(&alone);
        bytes.extend(writer.finish().unwrap());
        let mut archive = tar::Archive::new(flate2::read::MultiGzDecoder::new(bytes.as_slice()));
        let names: Vec<String> = archive
            .entries()
            .unwrap()
            .map(|e| e.unwrap().path().unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["first.txt", "docs/page.html"]);
    }

    #[test]
    fn same_input_same_bytes() {
        let pack = || {
            let mut w = TarGzWriter::new();
            let mut out = w.add_file("a.html", b"a").unwrap();
            out.extend(w.finish().unwrap());
            out
        };
        assert_eq!(pack(), pack());
    }
}
