//! Compiling components, with the compiled artifacts cached on disk so that a restart loads
//! them in milliseconds instead of recompiling.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use super::PluginError;

/// Compiles `bytes` (read from `path`), reusing a cached artifact in `cache_dir` when one was
/// made from the same bytes by a compatible engine.
pub fn compile(
    engine: &Engine,
    path: &Path,
    bytes: &[u8],
    cache_dir: Option<&Path>,
) -> Result<Component, PluginError> {
    let compile_error = |e: wasmtime::Error| PluginError::Compile {
        path: path.to_path_buf(),
        message: format!("{e:#}"),
    };
    let Some(cache_dir) = cache_dir else {
        return Component::new(engine, bytes).map_err(compile_error);
    };
    let cached = cache_dir.join(format!("{}.cwasm", cache_key(engine, bytes)));
    if cached.is_file() {
        // SAFETY: the file was written by `Component::serialize` of an engine with the same
        // compatibility hash (both are in its name), into a directory only this host writes.
        match unsafe { Component::deserialize_file(engine, &cached) } {
            Ok(component) => return Ok(component),
            Err(e) => tracing::warn!(
                cache = %cached.display(),
                "ignoring an unusable compiled plugin: {e:#}"
            ),
        }
    }
    let component = Component::new(engine, bytes).map_err(compile_error)?;
    if let Err(e) = store_artifact(&component, &cached) {
        tracing::warn!(cache = %cached.display(), "cannot cache a compiled plugin: {e}");
    }
    Ok(component)
}

fn cache_key(engine: &Engine, bytes: &[u8]) -> String {
    let mut engine_hasher = DefaultHasher::new();
    engine
        .precompile_compatibility_hash()
        .hash(&mut engine_hasher);
    let digest = Sha256::new()
        .chain_update(bytes)
        .chain_update(engine_hasher.finish().to_le_bytes())
        .finalize();
    hex::encode(&digest[..16])
}

/// Written to a temporary name and renamed, so a crash never leaves half an artifact.
fn store_artifact(component: &Component, target: &PathBuf) -> std::io::Result<()> {
    let bytes = component
        .serialize()
        .map_err(|e| std::io::Error::other(format!("{e:#}")))?;
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temp = target.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, target)
}
