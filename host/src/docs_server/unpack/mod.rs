//! Unpacking and verifying a bundle before it is served: a `.tar.gz` or `.zip` whose entries stay
//! inside the target folder (no absolute paths, no `..`, no links of any kind), each checked
//! against `manifest.json` as it streams. The manifest is read first (a zip's by name, a
//! `.tar.gz`'s by a pass that decompresses without writing, since exports put it last); then an
//! entry it does not list, or whose stated or running size exceeds the listed one, stops the
//! unpacking before its bytes reach the disk, and every file's SHA-256 is checked as it ends.
//! Disk use while a bundle is refused stays within what its manifest declares.
//!
//! A delta (`export::assembly`) is a `.tar.gz` carrying `manifest-patch.json` in place of the
//! manifest: the manifest is rebuilt from the served version's and the patch (and must match
//! the hash the patch names), then the delta is unpacked against it as a bundle is, except
//! that a listed file it does not carry is taken from the served version when that has it with
//! the listed hash, linked (or copied) and hashed again; anything else missing refuses it. A
//! file the delta carries as a patch is rebuilt from the served version's contents (`patched`).

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use flate2::read::MultiGzDecoder;
use sha2::{Digest, Sha256};

use super::bundle_rules::{BundleError, UnpackLimits};
use super::listing::{Listing, MANIFEST, MAX_MANIFEST_BYTES, VerifiedBundle};
use crate::bundle::{MANIFEST_PATCH_FILE, ManifestPatch, PatchError, PatchedFile};

mod patched;

/// Unpacks the archive at `archive` (`.tar.gz` or `.zip`, told apart by their first bytes)
/// into the empty folder `dest`, checking each entry against the manifest as it is written.
/// On an error, what was written stays in `dest` for the caller to remove (the docs server
/// unpacks into a staging folder that is dropped).
pub fn unpack_and_verify(
    archive: &Path,
    dest: &Path,
    limits: UnpackLimits,
) -> Result<VerifiedBundle, BundleError> {
    let mut magic = [0u8; 4];
    let read = std::fs::File::open(archive)?.read(&mut magic)?;
    match &magic[..read] {
        [0x1f, 0x8b, ..] => {
            let manifest =
                tar_gz_find(archive, limits, MANIFEST)?.ok_or(BundleError::NoManifest)?;
            let listing = Listing::parse(manifest, limits)?;
            let mut unpacker = Unpacker::new(dest, limits, &listing, None);
            unpack_tar_gz(archive, &mut unpacker)?;
            unpacker.finish()
        }
        [b'P', b'K', 3, 4] | [b'P', b'K', 5, 6] => {
            let file = std::io::BufReader::new(std::fs::File::open(archive)?);
            let mut zip = zip::ZipArchive::new(file).map_err(not_an_archive)?;
            let listing = zip_listing(&mut zip, limits)?;
            let mut unpacker = Unpacker::new(dest, limits, &listing, None);
            unpack_zip(&mut zip, &mut unpacker)?;
            unpacker.finish()
        }
        _ => Err(BundleError::NotAnArchive(
            "it is neither a .tar.gz nor a .zip (its first bytes are neither)".into(),
        )),
    }
}

/// Unpacks the delta archive at `archive` into the empty folder `dest` against the unpacked
/// version in `base` (the one being served): the manifest is rebuilt from `base`'s and the
/// delta's patch, and every listed file the delta lacks is taken from `base`, which must have
/// it with the listed hash.
pub fn unpack_delta_and_verify(
    archive: &Path,
    dest: &Path,
    limits: UnpackLimits,
    base: &Path,
) -> Result<VerifiedBundle, BundleError> {
    let mut magic = [0u8; 2];
    let read = std::fs::File::open(archive)?.read(&mut magic)?;
    if magic[..read] != [0x1f, 0x8b] {
        return Err(BundleError::BadDelta("a delta is a .tar.gz".into()));
    }
    let bad = |e: PatchError| BundleError::BadDelta(e.to_string());
    let patch = tar_gz_find(archive, limits, MANIFEST_PATCH_FILE)?
        .ok_or_else(|| BundleError::BadDelta(format!("it has no {MANIFEST_PATCH_FILE}")))?;
    let patch = ManifestPatch::from_bytes(&patch).map_err(bad)?;
    let base_manifest = std::fs::read(base.join(MANIFEST))?;
    let manifest = patch.apply(&base_manifest).map_err(bad)?;
    let listing = Listing::parse(manifest, limits)?;
    let hashes = super::listing::read_hashes(base)?.hashes;
    let patches = patch
        .patched
        .into_iter()
        .map(|p| (p.entry.clone(), p))
        .collect();
    let base = Some(Base {
        dir: base,
        hashes,
        patches,
    });
    let mut unpacker = Unpacker::new(dest, limits, &listing, base);
    unpack_tar_gz(archive, &mut unpacker)?;
    unpacker.finish()
}

fn not_an_archive(e: impl std::fmt::Display) -> BundleError {
    BundleError::NotAnArchive(e.to_string())
}

/// Reads `contents` whole, refusing more than `max` bytes.
fn read_bounded(contents: &mut dyn Read, max: u64) -> Result<Vec<u8>, BundleError> {
    let mut bytes = Vec::new();
    contents.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(BundleError::BadManifest(format!(
            "it is larger than {max} bytes"
        )));
    }
    Ok(bytes)
}

/// A `.tar.gz` read from the start (each pass opens its own).
fn open_tar_gz(
    archive: &Path,
) -> Result<tar::Archive<MultiGzDecoder<std::io::BufReader<std::fs::File>>>, BundleError> {
    let file = std::fs::File::open(archive)?;
    Ok(tar::Archive::new(MultiGzDecoder::new(
        std::io::BufReader::new(file),
    )))
}

/// The first pass over a `.tar.gz`: finds the file `wanted` (`manifest.json`, or a delta's
/// patch) without writing anything, counting the entries before it against the limits (their
/// data is decompressed and dropped), and refusing any that climbs out or is a link.
fn tar_gz_find(
    archive: &Path,
    limits: UnpackLimits,
    wanted: &str,
) -> Result<Option<Vec<u8>>, BundleError> {
    let mut tar = open_tar_gz(archive)?;
    let (mut entries, mut bytes) = (0usize, 0u64);
    for entry in tar.entries().map_err(not_an_archive)? {
        let mut entry = entry.map_err(not_an_archive)?;
        entries += 1;
        bytes = bytes.saturating_add(entry.size());
        if entries > limits.max_files.saturating_mul(2) || bytes > limits.max_bytes {
            return Err(BundleError::TooLarge(format!(
                "more than {} bytes or {} files before its manifest.json",
                limits.max_bytes, limits.max_files
            )));
        }
        let raw = entry.path().map_err(not_an_archive)?.into_owned();
        let name = raw.display().to_string();
        let relative =
            crate::sites::safe_relative(&raw).ok_or_else(|| BundleError::Escapes(name.clone()))?;
        let kind = entry.header().entry_type();
        if kind.is_symlink() || kind.is_hard_link() {
            return Err(BundleError::Link(name));
        }
        if kind.is_file() && path_key(&relative) == wanted {
            // Found: the second pass checks the entries from here on (a second manifest
            // among them included).
            let text = read_bounded(&mut entry, MAX_MANIFEST_BYTES.min(limits.max_bytes))?;
            return Ok(Some(text));
        }
    }
    Ok(None)
}

fn unpack_tar_gz(archive: &Path, unpacker: &mut Unpacker) -> Result<(), BundleError> {
    let mut tar = open_tar_gz(archive)?;
    for entry in tar.entries().map_err(not_an_archive)? {
        let mut entry = entry.map_err(not_an_archive)?;
        let raw = entry.path().map_err(not_an_archive)?.into_owned();
        let kind = entry.header().entry_type();
        let kind = if kind.is_symlink() || kind.is_hard_link() {
            EntryKind::Link
        } else if kind.is_dir() {
            EntryKind::Folder
        } else if kind.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        let stated = entry.size();
        unpacker.entry(&raw, kind, stated, &mut entry)?;
    }
    Ok(())
}

/// A zip's manifest, read by name from the central directory; then every entry's name and
/// stated size are checked against it before anything is written.
fn zip_listing<R: std::io::Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    limits: UnpackLimits,
) -> Result<Listing, BundleError> {
    if zip.len() > limits.max_files.saturating_mul(2) {
        return Err(BundleError::TooLarge(format!(
            "{} entries; at most {} files are accepted",
            zip.len(),
            limits.max_files
        )));
    }
    for index in 0..zip.len() {
        let entry = zip.by_index_raw(index).map_err(not_an_archive)?;
        let name = entry.name().to_string();
        if crate::sites::safe_relative(Path::new(&name)).is_none() {
            return Err(BundleError::Escapes(name));
        }
        if entry.is_symlink() {
            return Err(BundleError::Link(name));
        }
    }
    let text = match zip.by_name(MANIFEST) {
        Ok(mut entry) => read_bounded(&mut entry, MAX_MANIFEST_BYTES.min(limits.max_bytes))?,
        Err(zip::result::ZipError::FileNotFound) => return Err(BundleError::NoManifest),
        Err(e) => return Err(not_an_archive(e)),
    };
    let listing = Listing::parse(text, limits)?;
    for index in 0..zip.len() {
        let entry = zip.by_index_raw(index).map_err(not_an_archive)?;
        if entry.is_dir() {
            continue;
        }
        let relative = crate::sites::safe_relative(Path::new(entry.name())).unwrap_or_default();
        let key = path_key(&relative);
        if key == MANIFEST || key.is_empty() {
            continue;
        }
        check_stated(&listing, &key, entry.size())?;
    }
    Ok(listing)
}

fn unpack_zip<R: std::io::Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    unpacker: &mut Unpacker,
) -> Result<(), BundleError> {
    for index in 0..zip.len() {
        let mut entry = zip.by_index(index).map_err(not_an_archive)?;
        // The raw name, not `enclosed_name`: a name that escapes is refused, not rewritten.
        let raw = std::path::PathBuf::from(entry.name());
        let kind = if entry.is_symlink() {
            EntryKind::Link
        } else if entry.is_dir() {
            EntryKind::Folder
        } else {
            EntryKind::File
        };
        let stated = entry.size();
        unpacker.entry(&raw, kind, stated, &mut entry)?;
    }
    Ok(())
}

/// Refuses a file the manifest does not list, or whose size the archive states otherwise.
fn check_stated(listing: &Listing, key: &str, stated: u64) -> Result<u64, BundleError> {
    let Some(listed) = listing.files.get(key) else {
        return Err(BundleError::Mismatch {
            path: key.to_string(),
            problem: "not listed in manifest.json".into(),
        });
    };
    if stated != listed.size {
        return Err(BundleError::Mismatch {
            path: key.to_string(),
            problem: format!(
                "the archive says {stated} bytes, manifest.json says {}",
                listed.size
            ),
        });
    }
    Ok(listed.size)
}

/// What an archive entry is.
enum EntryKind {
    File,
    Folder,
    Link,
    /// Devices, FIFOs and the like: skipped.
    Other,
}

/// The unpacked version a delta completes: its folder and its files' hashes, and the files
/// the delta patches, by their entry's name.
struct Base<'a> {
    dir: &'a Path,
    hashes: HashMap<String, String>,
    patches: HashMap<String, PatchedFile>,
}

/// Writes entries under `dest`, each checked against the listing before and while it is
/// written, and hashed as it goes.
struct Unpacker<'a> {
    dest: &'a Path,
    limits: UnpackLimits,
    listing: &'a Listing,
    /// For a delta: where the files it does not carry come from.
    base: Option<Base<'a>>,
    folders: usize,
    manifest_seen: bool,
    /// The SHA-256 of each file written, by path.
    found: HashMap<String, String>,
}

impl<'a> Unpacker<'a> {
    fn new(
        dest: &'a Path,
        limits: UnpackLimits,
        listing: &'a Listing,
        base: Option<Base<'a>>,
    ) -> Self {
        Self {
            dest,
            limits,
            listing,
            base,
            folders: 0,
            manifest_seen: false,
            found: HashMap::new(),
        }
    }

    fn entry(
        &mut self,
        raw: &Path,
        kind: EntryKind,
        stated: u64,
        contents: &mut dyn Read,
    ) -> Result<(), BundleError> {
        let name = raw.display().to_string();
        let relative =
            crate::sites::safe_relative(raw).ok_or_else(|| BundleError::Escapes(name.clone()))?;
        match kind {
            EntryKind::Link => return Err(BundleError::Link(name)),
            EntryKind::Other => return Ok(()),
            EntryKind::Folder => {
                self.folders += 1;
                if self.folders > self.limits.max_files {
                    return Err(BundleError::TooLarge(format!(
                        "more than {} folders",
                        self.limits.max_files
                    )));
                }
                if !relative.as_os_str().is_empty() {
                    std::fs::create_dir_all(self.dest.join(&relative))?;
                }
                return Ok(());
            }
            EntryKind::File if relative.as_os_str().is_empty() => return Ok(()),
            EntryKind::File => {}
        }
        let key = path_key(&relative);
        let target = self.dest.join(&relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if self.base.is_some() {
            // A delta carries the patch the listing was rebuilt from, and no manifest.
            if key == MANIFEST_PATCH_FILE {
                return Ok(());
            }
            if key == MANIFEST {
                return Err(BundleError::BadDelta(format!(
                    "it carries {MANIFEST}; a delta carries {MANIFEST_PATCH_FILE} in its place"
                )));
            }
            if let Some(patched) = self.base.as_ref().and_then(|b| b.patches.get(&key)) {
                let patched = patched.clone();
                return self.patched_entry(&patched, contents);
            }
        }
        if key == MANIFEST {
            // The same bytes the listing was read from: an archive holding a second,
            // different manifest is refused.
            let bytes = read_bounded(contents, self.listing.manifest_bytes.len() as u64)?;
            if self.manifest_seen || bytes != self.listing.manifest_bytes {
                return Err(BundleError::BadManifest(
                    "the archive holds two different manifest.json files".into(),
                ));
            }
            self.manifest_seen = true;
            std::fs::write(&target, bytes)?;
            return Ok(());
        }
        if self.found.contains_key(&key) {
            return Err(BundleError::Mismatch {
                path: key,
                problem: "the archive holds it twice".into(),
            });
        }
        let listed_size = check_stated(self.listing, &key, stated)?;
        let mut out = std::fs::File::create(&target)?;
        let sha = self.copy_checked(&key, contents, &mut out, listed_size)?;
        self.found.insert(key, sha);
        Ok(())
    }

    /// Copies `contents` into `out`, checking its size and SHA-256 against the listing's for
    /// `key` as it goes; returns the hash.
    fn copy_checked(
        &self,
        key: &str,
        contents: &mut dyn Read,
        out: &mut dyn std::io::Write,
        listed_size: u64,
    ) -> Result<String, BundleError> {
        let mut hasher = Sha256::new();
        let mut size = 0u64;
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let n = contents.read(&mut buffer)?;
            if n == 0 {
                break;
            }
            size += n as u64;
            if size > listed_size {
                return Err(BundleError::Mismatch {
                    path: key.to_string(),
                    problem: format!("more than the {listed_size} bytes manifest.json says"),
                });
            }
            hasher.update(&buffer[..n]);
            out.write_all(&buffer[..n])?;
        }
        if size != listed_size {
            return Err(BundleError::Mismatch {
                path: key.to_string(),
                problem: format!("{size} bytes, manifest.json says {listed_size}"),
            });
        }
        let sha = hex::encode(hasher.finalize());
        if !sha.eq_ignore_ascii_case(&self.listing.files[key].sha256) {
            return Err(BundleError::Mismatch {
                path: key.to_string(),
                problem: "its SHA-256 does not match manifest.json".into(),
            });
        }
        Ok(sha)
    }

    /// Takes the listed file `key`, which a delta does not carry, from the base version: it
    /// must list the same hash there, and the file is hashed again once in place, so damage
    /// on disk is refused too. Linked where the file system allows, else copied.
    fn take_from_base(&self, key: &str) -> Result<String, BundleError> {
        let listed = &self.listing.files[key];
        let missing = || BundleError::Mismatch {
            path: key.to_string(),
            problem: "listed in manifest.json but missing".into(),
        };
        let base = self.base.as_ref().ok_or_else(missing)?;
        let same = base
            .hashes
            .get(key)
            .is_some_and(|sha| sha.eq_ignore_ascii_case(&listed.sha256));
        if !same {
            return Err(BundleError::Mismatch {
                path: key.to_string(),
                problem:
                    "not in the delta, and the served version does not have it with this content"
                        .into(),
            });
        }
        let relative = crate::sites::safe_relative(Path::new(key)).ok_or_else(missing)?;
        let (source, target) = (base.dir.join(&relative), self.dest.join(&relative));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if std::fs::hard_link(&source, &target).is_err() {
            std::fs::copy(&source, &target)?;
        }
        let mut contents = std::fs::File::open(&target)?;
        self.copy_checked(key, &mut contents, &mut std::io::sink(), listed.size)
    }

    /// Every listed file was unpacked (or, for a delta, taken from the base): the bundle is
    /// whole.
    fn finish(mut self) -> Result<VerifiedBundle, BundleError> {
        if self.base.is_some() {
            std::fs::write(self.dest.join(MANIFEST), &self.listing.manifest_bytes)?;
            self.manifest_seen = true;
        }
        if !self.manifest_seen {
            return Err(BundleError::NoManifest);
        }
        let missing: Vec<String> = self
            .listing
            .files
            .keys()
            .filter(|path| !self.found.contains_key(*path))
            .cloned()
            .collect();
        for key in missing {
            let sha = self.take_from_base(&key)?;
            self.found.insert(key, sha);
        }
        Ok(VerifiedBundle {
            content_version: self.listing.content_version.clone(),
            domain: self.listing.domain.clone(),
            hashes: self.found,
        })
    }
}

fn path_key(relative: &Path) -> String {
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests;
