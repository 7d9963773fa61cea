//! Unpacking and verifying a bundle before it is served: a `.tar.gz` or `.zip` whose entries stay inside
//! the target folder (no absolute paths, no `..`, no links of any kind), and a `manifest.json`
//! whose sizes and SHA-256 match every file, with no file it does not list.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use flate2::read::GzDecoder;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// Largest unpacked bundle and number of files accepted.
#[derive(Debug, Clone, Copy)]
pub struct UnpackLimits {
    pub max_bytes: u64,
    pub max_files: usize,
}

impl Default for UnpackLimits {
    fn default() -> Self {
        Self {
            max_bytes: 8 << 30,
            max_files: 1_000_000,
        }
    }
}

/// Why a bundle was refused.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("the download is not a readable bundle archive: {0}")]
    NotAnArchive(String),
    #[error("the entry {0:?} would be written outside the bundle folder")]
    Escapes(String),
    #[error("the entry {0:?} is a link; bundles hold only files and folders")]
    Link(String),
    #[error("the bundle is larger than the limit ({0})")]
    TooLarge(String),
    #[error("the bundle has no manifest.json")]
    NoManifest,
    #[error("manifest.json is not valid: {0}")]
    BadManifest(String),
    #[error("{path}: {problem} (the bundle was changed after it was made, or is damaged)")]
    Mismatch { path: String, problem: String },
    #[error("cannot unpack the bundle: {0}")]
    Io(#[from] std::io::Error),
}

/// What a verified bundle says about itself.
#[derive(Debug, Clone)]
pub struct VerifiedBundle {
    pub content_version: String,
    pub domain: Option<String>,
    /// Each file's SHA-256, by path: the ETags the server sends.
    pub hashes: HashMap<String, String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    content_version: String,
    domain: Option<String>,
    files: Vec<ManifestFile>,
}

#[derive(Deserialize)]
struct ManifestFile {
    path: String,
    size: u64,
    sha256: String,
}

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";

/// Unpacks the archive at `archive` (`.tar.gz` or `.zip`, told apart by their first bytes)
/// into the empty folder `dest` and verifies it.
pub fn unpack_and_verify(
    archive: &Path,
    dest: &Path,
    limits: UnpackLimits,
) -> Result<VerifiedBundle, BundleError> {
    let mut magic = [0u8; 4];
    let read = std::fs::File::open(archive)?.read(&mut magic)?;
    let mut unpacker = Unpacker {
        dest,
        limits,
        files: 0,
        total: 0,
        found: HashMap::new(),
    };
    match &magic[..read] {
        [0x1f, 0x8b, ..] => unpack_tar_gz(archive, &mut unpacker)?,
        [b'P', b'K', 3, 4] | [b'P', b'K', 5, 6] => unpack_zip(archive, &mut unpacker)?,
        _ => {
            return Err(BundleError::NotAnArchive(
                "it is neither a .tar.gz nor a .zip (its first bytes are neither)".into(),
            ));
        }
    }
    verify(dest, unpacker.found)
}

fn unpack_tar_gz(archive: &Path, unpacker: &mut Unpacker) -> Result<(), BundleError> {
    let file = std::fs::File::open(archive)?;
    let mut tar = tar::Archive::new(GzDecoder::new(std::io::BufReader::new(file)));
    let entries = tar
        .entries()
        .map_err(|e| BundleError::NotAnArchive(e.to_string()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| BundleError::NotAnArchive(e.to_string()))?;
        let raw = entry
            .path()
            .map_err(|e| BundleError::NotAnArchive(e.to_string()))?
            .into_owned();
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
        unpacker.entry(&raw, kind, &mut entry)?;
    }
    Ok(())
}

fn unpack_zip(archive: &Path, unpacker: &mut Unpacker) -> Result<(), BundleError> {
    let file = std::io::BufReader::new(std::fs::File::open(archive)?);
    let mut zip =
        zip::ZipArchive::new(file).map_err(|e| BundleError::NotAnArchive(e.to_string()))?;
    for index in 0..zip.len() {
        let mut entry = zip
            .by_index(index)
            .map_err(|e| BundleError::NotAnArchive(e.to_string()))?;
        // The raw name, not `enclosed_name`: a name that escapes is refused, not rewritten.
        let raw = std::path::PathBuf::from(entry.name());
        let kind = if entry.is_symlink() {
            EntryKind::Link
        } else if entry.is_dir() {
            EntryKind::Folder
        } else {
            EntryKind::File
        };
        unpacker.entry(&raw, kind, &mut entry)?;
    }
    Ok(())
}

/// What an archive entry is.
enum EntryKind {
    File,
    Folder,
    Link,
    /// Devices, FIFOs and the like: skipped.
    Other,
}

/// Writes entries under `dest`, counting files and bytes against the limits and hashing each
/// file as it is written.
struct Unpacker<'a> {
    dest: &'a Path,
    limits: UnpackLimits,
    files: usize,
    total: u64,
    found: HashMap<String, (u64, String)>,
}

impl Unpacker<'_> {
    fn entry(
        &mut self,
        raw: &Path,
        kind: EntryKind,
        contents: &mut dyn Read,
    ) -> Result<(), BundleError> {
        let name = raw.display().to_string();
        let relative =
            crate::sites::safe_relative(raw).ok_or_else(|| BundleError::Escapes(name.clone()))?;
        match kind {
            EntryKind::Link => return Err(BundleError::Link(name)),
            EntryKind::Other => return Ok(()),
            EntryKind::Folder => {
                if !relative.as_os_str().is_empty() {
                    std::fs::create_dir_all(self.dest.join(&relative))?;
                }
                return Ok(());
            }
            EntryKind::File if relative.as_os_str().is_empty() => return Ok(()),
            EntryKind::File => {}
        }
        self.files += 1;
        if self.files > self.limits.max_files {
            return Err(BundleError::TooLarge(format!(
                "more than {} files",
                self.limits.max_files
            )));
        }
        let target = self.dest.join(&relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
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
            self.total += n as u64;
            if self.total > self.limits.max_bytes {
                return Err(BundleError::TooLarge(format!(
                    "more than {} bytes",
                    self.limits.max_bytes
                )));
            }
            hasher.update(&buffer[..n]);
            std::io::Write::write_all(&mut out, &buffer[..n])?;
        }
        self.found
            .insert(path_key(&relative), (size, hex::encode(hasher.finalize())));
        Ok(())
    }
}

fn path_key(relative: &Path) -> String {
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn verify(
    dest: &Path,
    mut found: HashMap<String, (u64, String)>,
) -> Result<VerifiedBundle, BundleError> {
    if found.remove(MANIFEST).is_none() {
        return Err(BundleError::NoManifest);
    }
    let text = std::fs::read(dest.join(MANIFEST))?;
    let manifest: Manifest =
        serde_json::from_slice(&text).map_err(|e| BundleError::BadManifest(e.to_string()))?;
    if !is_safe_label(&manifest.content_version) {
        return Err(BundleError::BadManifest(format!(
            "contentVersion {:?} is not a usable version label",
            manifest.content_version
        )));
    }
    let mut hashes = HashMap::with_capacity(manifest.files.len());
    for listed in manifest.files {
        let Some((size, sha)) = found.remove(&listed.path) else {
            return Err(BundleError::Mismatch {
                path: listed.path,
                problem: "listed in manifest.json but missing".into(),
            });
        };
        if size != listed.size {
            return Err(BundleError::Mismatch {
                path: listed.path,
                problem: format!("{size} bytes, manifest.json says {}", listed.size),
            });
        }
        if !sha.eq_ignore_ascii_case(&listed.sha256) {
            return Err(BundleError::Mismatch {
                path: listed.path,
                problem: "its SHA-256 does not match manifest.json".into(),
            });
        }
        hashes.insert(listed.path, sha);
    }
    if let Some(extra) = found.into_keys().next() {
        return Err(BundleError::Mismatch {
            path: extra,
            problem: "not listed in manifest.json".into(),
        });
    }
    Ok(VerifiedBundle {
        content_version: manifest.content_version,
        domain: manifest.domain,
        hashes,
    })
}

/// A version label that is safe as a folder name.
pub fn is_safe_label(label: &str) -> bool {
    !label.is_empty()
        && label.len() <= 128
        && label != "."
        && label != ".."
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// The hashes of an unpacked, verified version, read back from its manifest (on restart).
pub fn read_hashes(dir: &Path) -> Result<VerifiedBundle, BundleError> {
    let text = std::fs::read(dir.join(MANIFEST))?;
    let manifest: Manifest =
        serde_json::from_slice(&text).map_err(|e| BundleError::BadManifest(e.to_string()))?;
    Ok(VerifiedBundle {
        content_version: manifest.content_version,
        domain: manifest.domain,
        hashes: manifest
            .files
            .into_iter()
            .map(|f| (f.path, f.sha256))
            .collect(),
    })
}
