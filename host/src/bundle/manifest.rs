//! `manifest.json`: the content version, when the bundle was made, and every file with its size
//! and SHA-256, so whoever serves the bundle can verify it before use.

use serde::Serialize;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::plugins::OutputFile;

/// The path of the manifest in the bundle.
pub const MANIFEST_FILE: &str = "manifest.json";

#[derive(Serialize)]
struct ManifestEntry {
    path: String,
    size: u64,
    sha256: String,
}

/// Records every file added to a bundle.
#[derive(Default)]
pub struct ManifestBuilder {
    files: Vec<ManifestEntry>,
}

impl ManifestBuilder {
    pub fn add(&mut self, path: &str, contents: &[u8]) {
        self.files.push(ManifestEntry {
            path: path.to_string(),
            size: contents.len() as u64,
            sha256: hex::encode(Sha256::digest(contents)),
        });
    }

    /// The manifest file for content version `version` of `domain`.
    pub fn finish(self, domain: &str, version: &str, created: OffsetDateTime) -> OutputFile {
        let body = serde_json::json!({
            "domain": domain,
            "contentVersion": version,
            "createdAt": created.format(&Rfc3339).unwrap_or_default(),
            "files": self.files,
        });
        OutputFile {
            path: MANIFEST_FILE.to_string(),
            contents: serde_json::to_vec_pretty(&body).unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_sizes_and_hashes() {
        let mut m = ManifestBuilder::default();
        m.add("a.txt", b"abc");
        let file = m.finish("d.test", "v1", OffsetDateTime::UNIX_EPOCH);
        let json: serde_json::Value = serde_json::from_slice(&file.contents).unwrap();
        assert_eq!(json["contentVersion"], "v1");
        assert_eq!(json["files"][0]["size"], 3);
        assert_eq!(
            json["files"][0]["sha256"],
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
