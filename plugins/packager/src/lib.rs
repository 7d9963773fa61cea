//! Quire's default packager: writes the exported site as a `.tar.gz` of one gzip member per
//! file (a multi-member gzip stream is a valid `.tar.gz`: `tar`, `gzip` and every gzip library
//! read it whole). Each file's member is complete when `add-file` returns and depends only on
//! its path and contents, so the host may keep members and assemble the next archive from the
//! ones whose files did not change; the archive is never held whole on either side. A large
//! file may be written in parts (`add_file_in_parts`): its tar header, each part of its
//! contents and its padding are members of their own, so the host packs only the parts of
//! `llms-full.txt` that a release changed.
//!
//! Written with the plugin SDK: [`TarGzWriter`] is the SDK's `Packager`, tested natively here
//! and exported as the component's `packager` world.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use quire_sdk::packager::{Format, Packager, PartedEntry, check_path};
use quire_sdk::{Error, Result};

/// Files in the archive get this mode and a fixed modification time, so the same site always
/// packs to the same bytes.
const FILE_MODE: u32 = 0o644;
const FIXED_MTIME: u64 = 0;
/// A tar stream's block: each file's contents are padded to a whole number of them.
const BLOCK: u64 = 512;

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

/// Files larger than this are compressed at [`FAST_LEVEL`]. The large files of a bundle are
/// its site-wide ones (the manifest, which changes with any file, `llms-full.txt`, the page
/// list), packed again on most releases (or, written in parts, packed whole on a first
/// export): the fast level packs them sooner for a few percent more bytes, and small files,
/// nearly all of a bundle's bytes, keep the default level.
const FAST_ABOVE_BYTES: usize = 1 << 20;

/// The level of large files and of every part of a file written in parts (whose piece must
/// depend on the part's bytes alone, not on the file's size). zlib-rs's level 1 is a quicker
/// strategy that gave `llms-full.txt` a fifth more bytes than its level 2; level 2 packs it in
/// about four fifths of the default level's time, at 4% more bytes (BENCHMARKS.md).
const FAST_LEVEL: Compression = Compression::new(2);

/// The tar header of a regular file of `size` bytes, with the fixed mode and time.
fn file_header(size: u64) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.set_size(size);
    header.set_mode(FILE_MODE);
    header.set_mtime(FIXED_MTIME);
    header.set_entry_type(tar::EntryType::Regular);
    header
}

/// The level for a file of `size` bytes (see [`FAST_ABOVE_BYTES`]).
fn level_for(size: usize) -> Compression {
    match size > FAST_ABOVE_BYTES {
        true => FAST_LEVEL,
        false => Compression::default(),
    }
}

/// `tar_bytes` as one complete gzip member (the gzip header carries no name or time, so the
/// same bytes always compress alike).
fn gzip_member(tar_bytes: &[u8]) -> Result<Vec<u8>> {
    gzip_member_at(tar_bytes, level_for(tar_bytes.len()))
}

/// `bytes` as one complete gzip member at `level`.
fn gzip_member_at(bytes: &[u8], level: Compression) -> Result<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::new(), level);
    encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_err(|e| Error::internal(format!("compressing: {e}")))
}

impl Packager for TarGzWriter {
    fn format(&self) -> Format {
        Format {
            extension: "tar.gz".into(),
            media_type: "application/gzip".into(),
            reusable_entries: true,
            reusable_parts: true,
        }
    }

    /// Adds a file and returns its gzip member.
    fn add_file(&mut self, path: &str, contents: &[u8]) -> Result<Vec<u8>> {
        check_path(path)?;
        let builder = self
            .builder
            .as_mut()
            .ok_or_else(|| Error::invalid_input("the archive is already finished"))?;
        let mut header = file_header(contents.len() as u64);
        builder
            .append_data(&mut header, path, contents)
            .map_err(|e| Error::invalid_input(format!("adding {path}: {e}")))?;
        let tar_bytes = std::mem::take(builder.get_mut());
        gzip_member(&tar_bytes)
    }

    /// Adds a file as its header's member, one member per part and its padding's member. Every
    /// part is compressed at [`FAST_LEVEL`], so a part packs alike whichever file or release
    /// gave it.
    fn add_file_in_parts(
        &mut self,
        path: &str,
        size: u64,
        parts: &[Option<&[u8]>],
    ) -> Result<PartedEntry> {
        check_path(path)?;
        let builder = self
            .builder
            .as_mut()
            .ok_or_else(|| Error::invalid_input("the archive is already finished"))?;
        let given: u64 = parts.iter().flatten().map(|part| part.len() as u64).sum();
        if given > size {
            return Err(Error::invalid_input(format!(
                "{path}: the parts hold {given} bytes, more than the file's {size}"
            )));
        }
        let mut header = file_header(size);
        // The header alone (and a long name's entry before it): the contents come as parts.
        builder
            .append_data(&mut header, path, std::io::empty())
            .map_err(|e| Error::invalid_input(format!("adding {path}: {e}")))?;
        let head = gzip_member_at(&std::mem::take(builder.get_mut()), Compression::default())?;
        let parts = parts
            .iter()
            .map(|part| match part {
                Some(bytes) => gzip_member_at(bytes, FAST_LEVEL),
                None => Ok(Vec::new()),
            })
            .collect::<Result<Vec<_>>>()?;
        let padding = (BLOCK - size % BLOCK) % BLOCK;
        let tail = match padding {
            0 => Vec::new(),
            _ => gzip_member_at(&vec![0; padding as usize], Compression::default())?,
        };
        Ok(PartedEntry { head, parts, tail })
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

    /// Unpacks a `.tar.gz` into (path, contents) pairs.
    fn unpack(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut archive = tar::Archive::new(flate2::read::MultiGzDecoder::new(bytes));
        archive
            .entries()
            .unwrap()
            .map(|entry| {
                let mut entry = entry.unwrap();
                let mut data = Vec::new();
                entry.read_to_end(&mut data).unwrap();
                (entry.path().unwrap().display().to_string(), data)
            })
            .collect()
    }

    #[test]
    fn a_file_in_parts_unpacks_as_the_whole_file_with_kept_pieces_in_place() {
        let long_name = format!("{}/llms-full.txt", "deep".repeat(40));
        for (name, sizes) in [
            ("llms-full.txt", vec![700_000, 1, 512, 300_001]),
            (long_name.as_str(), vec![1024, 1536]),
            ("empty-parts.txt", vec![0, 5]),
        ] {
            let contents: Vec<u8> = (0..sizes.iter().sum::<usize>())
                .map(|i| (i * 7 % 251) as u8)
                .collect();
            let mut parts = Vec::new();
            let mut start = 0;
            for size in &sizes {
                parts.push(&contents[start..start + size]);
                start += size;
            }
            let all: Vec<Option<&[u8]>> = parts.iter().copied().map(Some).collect();
            let mut writer = TarGzWriter::new();
            let mut bytes = writer.add_file("first.txt", b"one").unwrap();
            let entry = writer
                .add_file_in_parts(name, contents.len() as u64, &all)
                .unwrap();
            // A second archive keeps the first part: its piece comes back empty, and the
            // first archive's piece put in its place gives the same entry.
            let mut kept = all.clone();
            kept[0] = None;
            let again = TarGzWriter::new()
                .add_file_in_parts(name, contents.len() as u64, &kept)
                .unwrap();
            assert!(again.parts[0].is_empty());
            assert_eq!(
                (&again.head, &again.parts[1..], &again.tail),
                (&entry.head, &entry.parts[1..], &entry.tail)
            );
            bytes.extend(&entry.head);
            entry.parts.iter().for_each(|piece| bytes.extend(piece));
            bytes.extend(&entry.tail);
            bytes.extend(writer.add_file("last.txt", b"two").unwrap());
            bytes.extend(writer.finish().unwrap());
            assert_eq!(
                unpack(&bytes),
                [
                    ("first.txt".to_string(), b"one".to_vec()),
                    (name.to_string(), contents.clone()),
                    ("last.txt".to_string(), b"two".to_vec()),
                ]
            );
        }
    }

    #[test]
    fn parts_larger_than_the_file_are_refused() {
        let mut writer = TarGzWriter::new();
        assert!(
            writer
                .add_file_in_parts("a.txt", 3, &[Some(b"four")])
                .is_err()
        );
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
