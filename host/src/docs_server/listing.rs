//! A bundle's `manifest.json` as the docs server reads it: the files it lists, each with its size
//! and SHA-256. Unpacking checks every archive entry against this listing as it streams, so a
//! file the manifest does not list, or one larger than it says, is refused before it is written.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::bundle_rules::{BundleError, UnpackLimits};

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";

/// The largest `manifest.json` read: a million files' lines fit well within it.
pub const MAX_MANIFEST_BYTES: u64 = 256 << 20;

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

/// One file the manifest lists.
#[derive(Debug, Clone)]
pub struct Listed {
    pub size: u64,
    pub sha256: String,
}

/// The files a bundle's manifest lists, checked against the limits before anything is unpacked.
#[derive(Debug)]
pub struct Listing {
    pub content_version: String,
    pub domain: Option<String>,
    pub files: HashMap<String, Listed>,
    /// The manifest's own bytes, compared with the `manifest.json` entry that is unpacked (an
    /// archive could hold two).
    pub manifest_bytes: Vec<u8>,
}

impl Listing {
    /// Reads `text` (the manifest's bytes) and checks that what it lists fits `limits`.
    pub fn parse(text: Vec<u8>, limits: UnpackLimits) -> Result<Self, BundleError> {
        let manifest: Manifest =
            serde_json::from_slice(&text).map_err(|e| BundleError::BadManifest(e.to_string()))?;
        if !is_safe_label(&manifest.content_version) {
            return Err(BundleError::BadManifest(format!(
                "contentVersion {:?} is not a usable version label",
                manifest.content_version
            )));
        }
        if manifest.files.len() >= limits.max_files {
            return Err(BundleError::TooLarge(format!(
                "manifest.json lists {} files; at most {} are accepted",
                manifest.files.len(),
                limits.max_files
            )));
        }
        let mut files = HashMap::with_capacity(manifest.files.len());
        let mut total = text.len() as u64;
        for file in manifest.files {
            if file.path == MANIFEST {
                continue;
            }
            total = total.saturating_add(file.size);
            let listed = Listed {
                size: file.size,
                sha256: file.sha256,
            };
            if files.insert(file.path.clone(), listed).is_some() {
                return Err(BundleError::BadManifest(format!(
                    "{:?} is listed twice",
                    file.path
                )));
            }
        }
        if total > limits.max_bytes {
            return Err(BundleError::TooLarge(format!(
                "manifest.json lists {total} bytes; at most {} are accepted",
                limits.max_bytes
            )));
        }
        Ok(Self {
            content_version: manifest.content_version,
            domain: manifest.domain,
            files,
            manifest_bytes: text,
        })
    }
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
