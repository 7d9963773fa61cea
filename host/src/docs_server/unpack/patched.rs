//! A delta's patched file: the patch entry read whole (bounded), the served version's contents
//! it applies to checked by their hash, and the file rebuilt from the two into the new
//! version, checked against the manifest's size and hash as it is written.

use std::io::Read;
use std::path::Path;

use super::{BundleError, Unpacker, read_bounded};
use crate::bundle::{PatchedFile, file_patch};

/// A patch may be at most this much larger than the file it makes (headers, incompressible
/// bytes); an export sends one only when it is far smaller.
const PATCH_SLACK_BYTES: u64 = 1 << 20;

impl Unpacker<'_> {
    /// Rebuilds the file `patched` names from the served version's contents and the patch
    /// read from `contents`.
    pub(super) fn patched_entry(
        &mut self,
        patched: &PatchedFile,
        contents: &mut dyn Read,
    ) -> Result<(), BundleError> {
        let key = patched.path.clone();
        let bad = |problem: String| BundleError::BadDelta(format!("{key}: {problem}"));
        if self.listing.files.contains_key(&patched.entry) {
            return Err(bad(format!(
                "its patch's entry {} is also a file of the bundle",
                patched.entry
            )));
        }
        let Some(listed) = self.listing.files.get(&key) else {
            return Err(bad("patched, but not listed in manifest.json".into()));
        };
        let listed_size = listed.size;
        if self.found.contains_key(&key) {
            return Err(bad("the delta carries it twice".into()));
        }
        let base = self.base.as_ref().ok_or_else(|| bad("no base".into()))?;
        let same_base = base
            .hashes
            .get(&key)
            .is_some_and(|sha| sha.eq_ignore_ascii_case(&patched.base_sha256));
        if !same_base {
            return Err(bad(
                "the served version does not have the contents its patch applies to".into(),
            ));
        }
        let relative = crate::sites::safe_relative(Path::new(&key))
            .ok_or_else(|| BundleError::Escapes(key.clone()))?;
        let max_patch = listed_size
            .saturating_add(PATCH_SLACK_BYTES)
            .min(self.limits.max_bytes);
        let patch = read_bounded(contents, max_patch).map_err(|e| match e {
            BundleError::BadManifest(_) => {
                bad(format!("its patch is larger than {max_patch} bytes"))
            }
            other => other,
        })?;
        let mut earlier = Vec::new();
        std::fs::File::open(base.dir.join(&relative))?
            .take(self.limits.max_bytes)
            .read_to_end(&mut earlier)?;
        let target = self.dest.join(&relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut rebuilt = file_patch::apply(&earlier, &patch)
            .map_err(|e| bad(format!("its patch cannot be read: {e}")))?;
        let mut out = std::fs::File::create(&target)?;
        let sha = self
            .copy_checked(&key, &mut rebuilt, &mut out, listed_size)
            .map_err(|e| match e {
                BundleError::Io(e) => bad(format!("its patch cannot be applied: {e}")),
                other => other,
            })?;
        self.found.insert(key, sha);
        Ok(())
    }
}
