//! Archives assembled from kept entries. When the packager says its entries are reusable (the
//! contract's `reusable-entries`), an archive is written with an index of its entries: each
//! file's path, SHA-256 and where its entry lies. The next archive of the site copies the entry
//! of every file whose path and contents are unchanged from that earlier archive instead of
//! packing it again, which gives the same bytes packing would. The entries the earlier archive
//! lacks, followed by a manifest patch (`bundle::ManifestPatch`) and the archive's end, are its
//! delta: an archive of the changed files, which a docs server serving the earlier archive
//! takes in place of the whole (`docs_server`, which rebuilds the manifest and fills in the
//! rest from the files it has). A changed file the earlier archive holds at the same path goes
//! into the delta as a patch against its earlier contents when that is much smaller
//! (`bundle::file_patch`): `llms-full.txt` and the search shards a one-page change touches.
//! The earlier archive, its index and the entries read back out of it are `earlier_archive`'s;
//! a large file's entry may be written in parts (`export::parted`).

use std::io::Write;

pub use super::earlier_archive::{ArchiveIndex, EarlierArchive, Entry, IndexEntry, IndexPart};
use crate::bundle::{MANIFEST_FILE, Manifest, PATCH_ENTRIES, PatchedFile, file_patch};

/// What an export does with reusable entries: copy them from an earlier archive, and write
/// the delta against it.
#[derive(Default)]
pub struct Reuse<'a> {
    /// The archive to copy unchanged files' entries from, and the delta's base.
    pub earlier: Option<&'a EarlierArchive>,
    /// Where the delta against `earlier` goes, if one is wanted.
    pub delta: Option<&'a mut (dyn Write + Send)>,
}

/// What assembling gave: the new archive's index, and how much was reused and sent apart.
#[derive(Debug)]
pub struct Assembled {
    pub index: ArchiveIndex,
    /// Entries copied from the earlier archive.
    pub reused: u64,
    /// Pieces of entries written in parts copied from the earlier archive.
    pub reused_pieces: u64,
    /// The delta's size and the files it carries, when one was written.
    pub delta: Option<DeltaWritten>,
}

/// A delta archive written.
#[derive(Debug, Clone, Copy)]
pub struct DeltaWritten {
    pub size_bytes: u64,
    /// Files in the delta, its manifest patch included.
    pub files: u64,
}

/// Follows an archive being written from reusable entries: records the index, takes entries
/// from the earlier archive, and writes the delta.
pub(super) struct Assembler<'a> {
    earlier: Option<&'a EarlierArchive>,
    delta: Option<&'a mut (dyn Write + Send)>,
    index: ArchiveIndex,
    offset: u64,
    reused: u64,
    /// Pieces of entries written in parts copied from the earlier archive.
    reused_pieces: u64,
    delta_written: DeltaWritten,
    /// The files the delta carries as patches.
    patched: Vec<PatchedFile>,
}

/// Makes the manifest patch of a delta against an earlier archive.
pub(super) struct ManifestPatcher<'a> {
    earlier: &'a EarlierArchive,
    /// The files the delta carries as patches.
    patched: Vec<PatchedFile>,
}

impl ManifestPatcher<'_> {
    /// The patch that rebuilds `manifest` from the earlier archive's.
    pub(super) fn patch(self, manifest: &Manifest) -> Vec<u8> {
        let earlier = self.earlier;
        let mut patch =
            manifest.patch_against(|path, sha256| earlier.has(path, sha256), earlier.paths());
        patch.patched = self.patched;
        patch.to_bytes()
    }
}

/// A patch to pack for the delta alone, under the entry name `entry`.
pub(super) struct PatchToPack {
    pub entry: String,
    pub patch: Vec<u8>,
}

impl<'a> Assembler<'a> {
    /// Assembles with `reuse` for an archive of `content_version` by the packager whose
    /// component hashes to `packager`; an earlier archive by another packager is not used.
    pub(super) fn new(reuse: Reuse<'a>, packager: &str, content_version: &str) -> Self {
        let earlier = reuse.earlier.filter(|e| {
            let same = e.packager == packager;
            if !same {
                tracing::info!(
                    "the earlier archive was written by another packager; packing every file"
                );
            }
            same
        });
        Self {
            earlier,
            delta: reuse.delta.filter(|_| earlier.is_some()),
            index: ArchiveIndex {
                packager: packager.to_string(),
                content_version: content_version.to_string(),
                entries: Vec::new(),
            },
            offset: 0,
            reused: 0,
            reused_pieces: 0,
            delta_written: DeltaWritten {
                size_bytes: 0,
                files: 0,
            },
            patched: Vec::new(),
        }
    }

    /// The earlier archive's entry for the file at `path` with contents `sha256`, if it can
    /// be copied.
    pub(super) fn kept(&mut self, path: &str, sha256: &str) -> Option<Entry> {
        let entry = self.earlier?.entry(path, sha256)?;
        self.reused += 1;
        Some(entry)
    }

    /// The earlier archive's file, which the entries it gives (`kept`, and those the render
    /// side found there) are copied from.
    pub(super) fn earlier_file(&self) -> Option<&std::sync::Arc<std::fs::File>> {
        self.earlier.map(EarlierArchive::file)
    }

    /// The SHA-256 (hex) of the earlier archive's contents at `path`, if it has any.
    pub(super) fn earlier_sha256(&self, path: &str) -> Option<&str> {
        self.earlier?.sha256_at(path)
    }

    /// The earlier archive's piece for a part whose bytes hash to `sha256`, if it can be
    /// copied.
    pub(super) fn kept_piece(&mut self, sha256: &str) -> Option<Vec<u8>> {
        let piece = self.earlier?.piece(sha256)?;
        self.reused_pieces += 1;
        Some(piece)
    }

    /// Whether the earlier archive holds the file at `path` with contents `sha256`, so that its
    /// entry (read and checked already) is copied; counted as reused when it is.
    pub(super) fn reuses(&mut self, path: &str, sha256: &str) -> bool {
        let held = self.earlier.is_some_and(|e| e.has(path, sha256));
        self.reused += u64::from(held);
        held
    }

    /// Records `entry`, the entry of the file at `path` with `contents` hashing to `sha256`,
    /// as written next in the archive, and, if the earlier archive lacks the file, writes it
    /// to the delta (the manifest never: the delta carries its patch instead), or returns the
    /// patch against the earlier contents at `path` to pack in its place, when that is much
    /// smaller.
    pub(super) fn record(
        &mut self,
        path: &str,
        (contents, sha256): (&[u8], &str),
        entry: &Entry,
    ) -> std::io::Result<Option<PatchToPack>> {
        self.record_from(path, (contents, sha256), entry, None)
    }

    /// [`Assembler::record`], with the earlier archive's contents at `path` and the bytes they
    /// share with `contents` at their start and end where these are known (a large file's
    /// layout found them), so that its patch is made without reading them back.
    pub(super) fn record_from(
        &mut self,
        path: &str,
        (contents, sha256): (&[u8], &str),
        entry: &Entry,
        base: Option<(&[u8], (usize, usize))>,
    ) -> std::io::Result<Option<PatchToPack>> {
        let length = entry.length();
        self.index.entries.push(IndexEntry {
            path: path.to_string(),
            sha256: sha256.to_string(),
            offset: self.offset,
            length,
            entry_crc64: entry.crc64,
            parts: entry
                .parts
                .iter()
                .map(|part| IndexPart {
                    offset: self.offset + part.offset,
                    ..part.clone()
                })
                .collect(),
        });
        self.offset += length;
        let known = self.earlier.is_some_and(|e| e.has(path, sha256));
        if known || path == MANIFEST_FILE {
            return Ok(None);
        }
        if let Some(patch) = self.patch_for(path, contents, entry, base) {
            return Ok(Some(patch));
        }
        self.delta_written.files += 1;
        self.write_delta(&entry.bytes)?;
        Ok(None)
    }

    /// The patch that makes `contents` from the earlier archive's file at `path`, if a delta
    /// is written, that file can be read back, and the patch is worth it against `entry`.
    fn patch_for(
        &mut self,
        path: &str,
        contents: &[u8],
        entry: &Entry,
        base: Option<(&[u8], (usize, usize))>,
    ) -> Option<PatchToPack> {
        self.delta.as_ref()?;
        // A file too small to patch is not worth reading the earlier entry back for.
        if contents.len() < file_patch::MIN_PATCHED_BYTES || path.starts_with(PATCH_ENTRIES) {
            return None;
        }
        let patch = match base {
            Some((earlier, ends)) => {
                let base_sha256 = self.earlier?.sha256_at(path)?;
                (
                    base_sha256,
                    file_patch::make_with_ends(earlier, contents, ends),
                )
            }
            None => {
                let (base_sha256, earlier) = self.earlier?.contents(path, (contents, entry))?;
                (base_sha256, file_patch::make(&earlier, contents))
            }
        };
        let (base_sha256, patch) = (patch.0, patch.1?);
        let patch =
            Some(patch).filter(|patch| file_patch::worth_it(patch, entry.length() as usize))?;
        let entry = format!("{PATCH_ENTRIES}{}.zst", self.patched.len());
        self.patched.push(PatchedFile {
            path: path.to_string(),
            base_sha256: base_sha256.to_string(),
            entry: entry.clone(),
        });
        Some(PatchToPack { entry, patch })
    }

    /// Writes the packed entry of a patch `record` returned to the delta.
    pub(super) fn patch_packed(&mut self, packed: &[u8]) -> std::io::Result<()> {
        self.delta_written.files += 1;
        self.write_delta(packed)
    }

    /// What makes the manifest patch the delta carries, when a delta is written: apart from
    /// the assembler, so that it is made on another thread while the manifest is packed.
    pub(super) fn manifest_patcher(&self) -> Option<ManifestPatcher<'a>> {
        self.delta.as_ref()?;
        Some(ManifestPatcher {
            earlier: self.earlier?,
            patched: self.patched.clone(),
        })
    }

    /// Ends the delta with the manifest patch's entry and the archive's last bytes.
    pub(super) fn end(&mut self, patch_entry: Option<&[u8]>, last: &[u8]) -> std::io::Result<()> {
        if let Some(entry) = patch_entry {
            self.delta_written.files += 1;
            self.write_delta(entry)?;
        }
        self.write_delta(last)
    }

    fn write_delta(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if let Some(delta) = self.delta.as_mut() {
            delta.write_all(bytes)?;
            self.delta_written.size_bytes += bytes.len() as u64;
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> std::io::Result<Assembled> {
        let delta = match self.delta.take() {
            Some(delta) => {
                delta.flush()?;
                Some(self.delta_written)
            }
            None => None,
        };
        Ok(Assembled {
            index: self.index,
            reused: self.reused,
            reused_pieces: self.reused_pieces,
            delta,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Seek, SeekFrom};

    use sha2::{Digest, Sha256};

    use super::*;
    use crate::bundle::ManifestBuilder;

    /// An archive of `files` whose entries are the contents themselves, with its index.
    fn archive(files: &[(&str, &[u8])]) -> (std::fs::File, ArchiveIndex) {
        let mut assembler = Assembler::new(Reuse::default(), "packager", "v1");
        let mut file = tempfile::tempfile().unwrap();
        for (path, contents) in files {
            let sha256 = hex::encode(Sha256::digest(contents));
            assembler
                .record(path, (contents, &sha256), &Entry::new(contents.to_vec()))
                .unwrap();
            file.write_all(contents).unwrap();
        }
        (file, assembler.finish().unwrap().index)
    }

    #[test]
    fn unchanged_files_are_copied_and_the_delta_holds_the_rest() {
        let (file, index) = archive(&[("a.html", b"aaaa"), ("b.html", b"bb")]);
        let earlier = EarlierArchive::new(index, file);
        let mut delta = Vec::new();
        let reuse = Reuse {
            earlier: Some(&earlier),
            delta: Some(&mut delta),
        };
        let mut assembler = Assembler::new(reuse, "packager", "v2");
        let sha = |bytes: &[u8]| hex::encode(Sha256::digest(bytes));
        let kept = assembler.kept("a.html", &sha(b"aaaa")).expect("kept");
        let span = kept.in_earlier.expect("left in the earlier archive's file");
        assert_eq!(
            crate::export::read_span(earlier.file(), span).unwrap(),
            b"aaaa"
        );
        assert_eq!(kept.length(), 4);
        assert!(
            assembler.kept("b.html", &sha(b"changed")).is_none(),
            "changed"
        );
        assert!(
            assembler.kept("a.html", &sha(b"bb")).is_none(),
            "same bytes, other path"
        );
        assembler
            .record(
                "a.html",
                (b"aaaa", &sha(b"aaaa")),
                &Entry::new(b"aaaa".to_vec()),
            )
            .unwrap();
        assembler
            .record(
                "b.html",
                (b"changed", &sha(b"changed")),
                &Entry::new(b"changed".to_vec()),
            )
            .unwrap();
        let mut manifest = ManifestBuilder::default();
        manifest.add("a.html", b"aaaa");
        manifest.add("b.html", b"changed");
        let manifest = manifest.finish("d.test", "v2", time::OffsetDateTime::UNIX_EPOCH);
        let patch = assembler
            .manifest_patcher()
            .expect("a delta is written")
            .patch(&manifest);
        let patch = crate::bundle::ManifestPatch::from_bytes(&patch).unwrap();
        assert_eq!(patch.files.len(), 1, "only b.html changed: {patch:?}");
        assembler.end(Some(b"PATCH"), b"END").unwrap();
        let assembled = assembler.finish().unwrap();
        assert_eq!(assembled.reused, 1);
        assert_eq!(assembled.index.entries[1].offset, 4);
        assert_eq!(delta, b"changedPATCHEND");
        assert_eq!(assembled.delta.map(|d| d.files), Some(2));
    }

    #[test]
    fn a_damaged_entry_is_packed_again_and_another_packagers_never_copied() {
        let (mut file, index) = archive(&[("a.html", b"aaaa")]);
        file.seek(SeekFrom::Start(1)).unwrap();
        file.write_all(b"X").unwrap();
        let sha = hex::encode(Sha256::digest(b"aaaa"));
        let earlier = EarlierArchive::new(index.clone(), file);
        let reuse = Reuse {
            earlier: Some(&earlier),
            delta: None,
        };
        assert!(
            Assembler::new(reuse, "packager", "v2")
                .kept("a.html", &sha)
                .is_none()
        );

        let (file, _) = archive(&[("a.html", b"aaaa")]);
        let earlier = EarlierArchive::new(index, file);
        let reuse = Reuse {
            earlier: Some(&earlier),
            delta: None,
        };
        assert!(
            Assembler::new(reuse, "another", "v2")
                .kept("a.html", &sha)
                .is_none()
        );
    }
}
