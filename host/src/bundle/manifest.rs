//! `manifest.json`: the content version, when the bundle was made, and every file with its size
//! and SHA-256 (sorted by path, so the same files always list alike), so whoever serves the
//! bundle can verify it before use. A delta carries `manifest-patch.json` in its place: what
//! changed against the earlier bundle's manifest, from which a docs server rebuilds the new
//! manifest byte for byte (checked against the hash the patch names). A manifest of 64,000
//! files is about 3 MB compressed, far more than the files a one-page change touches.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::plugins::OutputFile;

/// The path of the manifest in the bundle.
pub const MANIFEST_FILE: &str = "manifest.json";

/// The path of the manifest patch in a delta.
pub const MANIFEST_PATCH_FILE: &str = "manifest-patch.json";

/// One file as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

/// The manifest file's form: one serialization, shared by the export that writes a manifest
/// and the docs server that rebuilds one from a patch.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ManifestDocument {
    domain: String,
    content_version: String,
    created_at: String,
    files: Vec<ManifestEntry>,
}

impl ManifestDocument {
    fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }
}

/// Records every file added to a bundle.
#[derive(Default)]
pub struct ManifestBuilder {
    files: Vec<ManifestEntry>,
}

impl ManifestBuilder {
    /// Records the file at `path`; returns its SHA-256 (hex).
    pub fn add(&mut self, path: &str, contents: &[u8]) -> &str {
        self.add_hashed(
            path,
            contents.len() as u64,
            hex::encode(Sha256::digest(contents)),
        )
    }

    /// Records the file at `path` of `size` bytes whose contents hash to `sha256` (hex),
    /// hashed where the file was made; returns `sha256`.
    pub fn add_hashed(&mut self, path: &str, size: u64, sha256: String) -> &str {
        self.files.push(ManifestEntry {
            path: path.to_string(),
            size,
            sha256,
        });
        self.files
            .last()
            .map(|f| f.sha256.as_str())
            .unwrap_or_default()
    }

    /// The manifest for content version `version` of `domain`.
    pub fn finish(mut self, domain: &str, version: &str, created: OffsetDateTime) -> Manifest {
        self.files.sort_by(|a, b| a.path.cmp(&b.path));
        let document = ManifestDocument {
            domain: domain.to_string(),
            content_version: version.to_string(),
            created_at: created.format(&Rfc3339).unwrap_or_default(),
            files: self.files,
        };
        let contents = document.to_bytes();
        Manifest {
            sha256: hex::encode(Sha256::digest(&contents)),
            file: OutputFile {
                path: MANIFEST_FILE.to_string(),
                contents,
            },
            document,
        }
    }
}

/// A finished manifest: the file, and what it lists.
pub struct Manifest {
    pub file: OutputFile,
    /// The SHA-256 of the file's contents.
    pub sha256: String,
    document: ManifestDocument,
}

impl Manifest {
    /// The patch that rebuilds this manifest from an earlier bundle's, given which files that
    /// bundle has (`has(path, sha256)`) and every path it has.
    pub fn patch_against<'a>(
        &self,
        has: impl Fn(&str, &str) -> bool,
        earlier_paths: impl IntoIterator<Item = &'a str>,
    ) -> ManifestPatch {
        let paths: HashSet<&str> = self
            .document
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        let mut removed: Vec<String> = earlier_paths
            .into_iter()
            .filter(|p| *p != MANIFEST_FILE && !paths.contains(p))
            .map(str::to_string)
            .collect();
        removed.sort();
        removed.dedup();
        ManifestPatch {
            domain: self.document.domain.clone(),
            content_version: self.document.content_version.clone(),
            created_at: self.document.created_at.clone(),
            manifest_sha256: self.sha256.clone(),
            files: self
                .document
                .files
                .iter()
                .filter(|f| !has(&f.path, &f.sha256))
                .cloned()
                .collect(),
            removed,
            patched: Vec::new(),
        }
    }
}

/// What a delta carries in place of the manifest: the new manifest's own fields, the files
/// added or changed since the earlier bundle, the paths it no longer has, and the SHA-256 of
/// the manifest these rebuild.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestPatch {
    pub domain: String,
    pub content_version: String,
    pub created_at: String,
    pub manifest_sha256: String,
    pub files: Vec<ManifestEntry>,
    pub removed: Vec<String>,
    /// Files of `files` the delta carries as a patch against the earlier bundle's contents
    /// (`file_patch`) rather than whole. Absent from deltas written before patches: a docs
    /// server that does not know them refuses the delta's unlisted entries and takes the
    /// whole bundle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patched: Vec<PatchedFile>,
}

/// A file a delta carries as a patch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchedFile {
    /// The file's path in the bundle.
    pub path: String,
    /// The SHA-256 of the earlier contents the patch applies to.
    pub base_sha256: String,
    /// The patch's entry in the delta (under `PATCH_ENTRIES`, never a bundle path).
    pub entry: String,
}

/// Where a delta's patches lie: a folder no export writes.
pub const PATCH_ENTRIES: &str = ".quire-patches/";

/// Why a manifest could not be rebuilt from a patch.
#[derive(Debug, thiserror::Error)]
pub enum PatchError {
    #[error("{file} is unreadable: {message}")]
    Unreadable { file: &'static str, message: String },
    #[error(
        "the manifest rebuilt from the patch does not match the hash it names (the delta is for another base)"
    )]
    Mismatch,
}

impl ManifestPatch {
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, PatchError> {
        serde_json::from_slice(bytes).map_err(|e| PatchError::Unreadable {
            file: MANIFEST_PATCH_FILE,
            message: e.to_string(),
        })
    }

    /// The new manifest's bytes, rebuilt from `base` (the earlier bundle's `manifest.json`)
    /// and checked against the hash the patch names.
    pub fn apply(&self, base: &[u8]) -> Result<Vec<u8>, PatchError> {
        let base: ManifestDocument =
            serde_json::from_slice(base).map_err(|e| PatchError::Unreadable {
                file: MANIFEST_FILE,
                message: e.to_string(),
            })?;
        let removed: HashSet<&str> = self.removed.iter().map(String::as_str).collect();
        let changed: HashSet<&str> = self.files.iter().map(|f| f.path.as_str()).collect();
        let mut files: Vec<ManifestEntry> = base
            .files
            .into_iter()
            .filter(|f| !removed.contains(f.path.as_str()) && !changed.contains(f.path.as_str()))
            .chain(self.files.iter().cloned())
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let bytes = ManifestDocument {
            domain: self.domain.clone(),
            content_version: self.content_version.clone(),
            created_at: self.created_at.clone(),
            files,
        }
        .to_bytes();
        if hex::encode(Sha256::digest(&bytes)) != self.manifest_sha256 {
            return Err(PatchError::Mismatch);
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(files: &[(&str, &[u8])], version: &str) -> Manifest {
        let mut m = ManifestBuilder::default();
        for (path, contents) in files {
            m.add(path, contents);
        }
        m.finish("d.test", version, OffsetDateTime::UNIX_EPOCH)
    }

    #[test]
    fn lists_sizes_and_hashes_sorted_by_path() {
        let file = manifest(&[("b.txt", b"x"), ("a.txt", b"abc")], "v1").file;
        let json: serde_json::Value = serde_json::from_slice(&file.contents).unwrap();
        assert_eq!(json["contentVersion"], "v1");
        assert_eq!(json["files"][0]["path"], "a.txt");
        assert_eq!(json["files"][0]["size"], 3);
        assert_eq!(
            json["files"][0]["sha256"],
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_patch_rebuilds_the_manifest_from_the_earlier_one() {
        let earlier = manifest(&[("a", b"1"), ("b", b"2"), ("gone", b"3")], "v1");
        let later = manifest(&[("a", b"1"), ("b", b"changed"), ("new", b"4")], "v2");
        let had: Vec<(String, String)> = earlier
            .document
            .files
            .iter()
            .map(|f| (f.path.clone(), f.sha256.clone()))
            .collect();
        let patch = later.patch_against(
            |p, s| had.iter().any(|(hp, hs)| hp == p && hs == s),
            had.iter().map(|(p, _)| p.as_str()),
        );
        let changed: Vec<&str> = patch.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(changed, ["b", "new"]);
        assert_eq!(patch.removed, ["gone"]);
        let patch = ManifestPatch::from_bytes(&patch.to_bytes()).unwrap();
        assert_eq!(
            patch.apply(&earlier.file.contents).unwrap(),
            later.file.contents
        );
        // Against another base, the rebuilt manifest fails the hash.
        let other = manifest(&[("a", b"other")], "v0");
        assert!(matches!(
            patch.apply(&other.file.contents),
            Err(PatchError::Mismatch)
        ));
    }
}
