//! Unpacking and verifying a bundle before it is served: a `.tar.gz` or `.zip` whose entries stay
//! inside the target folder (no absolute paths, no `..`, no links of any kind), each checked
//! against `manifest.json` as it streams. The manifest is read first (a zip's by name, a
//! `.tar.gz`'s by a pass that decompresses without writing, since exports put it last); then an
//! entry it does not list, or whose stated or running size exceeds the listed one, stops the
//! unpacking before its bytes reach the disk, and every file's SHA-256 is checked as it ends.
//! Disk use while a bundle is refused stays within what its manifest declares.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use flate2::read::GzDecoder;
use sha2::{Digest, Sha256};

use super::bundle_rules::{BundleError, UnpackLimits};
use super::listing::{Listing, MANIFEST, MAX_MANIFEST_BYTES, VerifiedBundle};

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
            let listing = tar_gz_listing(archive, limits)?;
            let mut unpacker = Unpacker::new(dest, limits, &listing);
            unpack_tar_gz(archive, &mut unpacker)?;
            unpacker.finish()
        }
        [b'P', b'K', 3, 4] | [b'P', b'K', 5, 6] => {
            let file = std::io::BufReader::new(std::fs::File::open(archive)?);
            let mut zip = zip::ZipArchive::new(file).map_err(not_an_archive)?;
            let listing = zip_listing(&mut zip, limits)?;
            let mut unpacker = Unpacker::new(dest, limits, &listing);
            unpack_zip(&mut zip, &mut unpacker)?;
            unpacker.finish()
        }
        _ => Err(BundleError::NotAnArchive(
            "it is neither a .tar.gz nor a .zip (its first bytes are neither)".into(),
        )),
    }
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
) -> Result<tar::Archive<GzDecoder<std::io::BufReader<std::fs::File>>>, BundleError> {
    let file = std::fs::File::open(archive)?;
    Ok(tar::Archive::new(GzDecoder::new(std::io::BufReader::new(
        file,
    ))))
}

/// The first pass over a `.tar.gz`: finds `manifest.json` without writing anything, counting
/// the entries before it against the limits (their data is decompressed and dropped), and
/// refusing any that climbs out or is a link.
fn tar_gz_listing(archive: &Path, limits: UnpackLimits) -> Result<Listing, BundleError> {
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
        if kind.is_file() && path_key(&relative) == MANIFEST {
            // Found: the second pass checks the entries from here on (a second manifest
            // among them included).
            let text = read_bounded(&mut entry, MAX_MANIFEST_BYTES.min(limits.max_bytes))?;
            return Listing::parse(text, limits);
        }
    }
    Err(BundleError::NoManifest)
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

/// Writes entries under `dest`, each checked against the listing before and while it is
/// written, and hashed as it goes.
struct Unpacker<'a> {
    dest: &'a Path,
    limits: UnpackLimits,
    listing: &'a Listing,
    folders: usize,
    manifest_seen: bool,
    /// The SHA-256 of each file written, by path.
    found: HashMap<String, String>,
}

impl<'a> Unpacker<'a> {
    fn new(dest: &'a Path, limits: UnpackLimits, listing: &'a Listing) -> Self {
        Self {
            dest,
            limits,
            listing,
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
                    path: key,
                    problem: format!("more than the {listed_size} bytes manifest.json says"),
                });
            }
            hasher.update(&buffer[..n]);
            std::io::Write::write_all(&mut out, &buffer[..n])?;
        }
        if size != listed_size {
            return Err(BundleError::Mismatch {
                path: key,
                problem: format!("{size} bytes, manifest.json says {listed_size}"),
            });
        }
        let sha = hex::encode(hasher.finalize());
        let listed = &self.listing.files[&key];
        if !sha.eq_ignore_ascii_case(&listed.sha256) {
            return Err(BundleError::Mismatch {
                path: key,
                problem: "its SHA-256 does not match manifest.json".into(),
            });
        }
        self.found.insert(key, sha);
        Ok(())
    }

    /// Every listed file was unpacked: the bundle is whole.
    fn finish(self) -> Result<VerifiedBundle, BundleError> {
        if !self.manifest_seen {
            return Err(BundleError::NoManifest);
        }
        if let Some(missing) = self
            .listing
            .files
            .keys()
            .find(|path| !self.found.contains_key(*path))
        {
            return Err(BundleError::Mismatch {
                path: missing.clone(),
                problem: "listed in manifest.json but missing".into(),
            });
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
