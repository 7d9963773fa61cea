//! Does a component satisfy a role? Answered before it is ever instantiated, in words a plugin
//! author can act on: which interface is missing, which contract version it was built against,
//! which import the host does not provide.

use std::path::Path;

use serde::Serialize;
use wasmtime::Engine;
use wasmtime::component::{Component, InstancePre, Linker};

use super::PluginError;
use super::bindings::{packager::PackagerPre, renderer::RendererPre, retriever::RetrieverPre};
use super::sandbox::PluginState;

/// The version of the `quire:plugins` WIT package (`wit/`) this runtime implements; new
/// plugins are built against it.
pub const CONTRACT_VERSION: &str = "0.9.0";

/// Every contract version this runtime can run. Older ones are not among them: 0.2.0 changed
/// the renderer's records (navigation kinds, snippets, API documents), 0.3.0 added the
/// page's modification time, 0.4.0 the site's own stylesheets and scripts, 0.5.0 the list
/// of the site's other files and directory listings, 0.6.0 the site-wide output asked once
/// (`site-output`, a page's `needs`), 0.7.0 the packager's reusable entries, 0.8.0 the
/// retriever's index loaded from segments, and 0.9.0 the packager's entries written in parts,
/// so plugins built against them must be rebuilt.
pub const SUPPORTED_CONTRACT_VERSIONS: &[&str] = &[CONTRACT_VERSION];

/// The part a plugin plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Renderer,
    Packager,
    Retriever,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Renderer, Role::Packager, Role::Retriever];

    pub fn name(self) -> &'static str {
        match self {
            Role::Renderer => "renderer",
            Role::Packager => "packager",
            Role::Retriever => "retriever",
        }
    }

    /// The interface a component of this role exports.
    fn interface(self) -> &'static str {
        match self {
            Role::Renderer => "render",
            Role::Packager => "packing",
            Role::Retriever => "retrieve",
        }
    }

    /// The fully qualified export name, `quire:plugins/render@0.9.0`.
    pub fn export_name(self) -> String {
        format!("quire:plugins/{}@{CONTRACT_VERSION}", self.interface())
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Checks `component` against `role` and pre-instantiates it.
pub fn check(
    engine: &Engine,
    linker: &Linker<PluginState>,
    component: &Component,
    role: Role,
    path: &Path,
) -> Result<InstancePre<PluginState>, PluginError> {
    let contract_error = |problems: Vec<String>| PluginError::Contract {
        path: path.to_path_buf(),
        role: role.name(),
        problems,
    };
    let ty = component.component_type();
    let exports: Vec<String> = ty
        .exports(engine)
        .map(|(name, _)| name.to_string())
        .collect();
    let imports: Vec<String> = ty
        .imports(engine)
        .map(|(name, _)| name.to_string())
        .collect();

    let mut problems = Vec::new();
    // Names built against an unsupported version, by version: one problem per version.
    let mut mismatched: Vec<(String, Vec<String>)> = Vec::new();
    let mut mismatch =
        |version: &str, name: &str| match mismatched.iter_mut().find(|(v, _)| v == version) {
            Some((_, names)) => names.push(name.to_string()),
            None => mismatched.push((version.to_string(), vec![name.to_string()])),
        };
    let wanted = role.export_name();
    if !exports.contains(&wanted) {
        let prefix = format!("quire:plugins/{}@", role.interface());
        match exports.iter().find(|e| e.starts_with(&prefix)) {
            Some(other) => mismatch(&other[prefix.len()..], other),
            None => problems.push(format!(
                "it does not export {wanted}, the {role} interface (it exports {})",
                list_or_nothing(&exports)
            )),
        }
    }
    for import in &imports {
        if let Some(rest) = import.strip_prefix("quire:plugins/") {
            let version = rest.split_once('@').map(|(_, v)| v).unwrap_or("none");
            if !SUPPORTED_CONTRACT_VERSIONS.contains(&version) {
                mismatch(version, import);
            }
        } else if !import.starts_with("wasi:") {
            problems.push(format!(
                "it imports {import}, which the host does not provide (plugins may import only WASI, quire:plugins/host and, for renderers, quire:plugins/highlighting)"
            ));
        }
    }
    for (version, names) in mismatched {
        problems.insert(0, version_mismatch(&names.join(", "), &version));
    }
    problems.dedup();
    if !problems.is_empty() {
        return Err(contract_error(problems));
    }

    let pre = linker
        .instantiate_pre(component)
        .map_err(|e| contract_error(vec![format!("its imports cannot be satisfied: {e:#}")]))?;
    let typed = match role {
        Role::Renderer => RendererPre::new(pre.clone()).map(drop),
        Role::Packager => PackagerPre::new(pre.clone()).map(drop),
        Role::Retriever => RetrieverPre::new(pre.clone()).map(drop),
    };
    typed.map_err(|e| {
        contract_error(vec![format!(
            "its {wanted} export does not match the contract: {e:#}"
        )])
    })?;
    Ok(pre)
}

/// Names both versions and what to do: rebuild an older plugin, or upgrade an older host.
fn version_mismatch(names: &str, version: &str) -> String {
    let supported = SUPPORTED_CONTRACT_VERSIONS.join(", ");
    let advice = if is_newer(version, CONTRACT_VERSION) {
        "upgrade Quire to a release that supports it, or rebuild the plugin with this release's quire-sdk"
    } else {
        "rebuild the plugin with this release's quire-sdk (or against its wit/ folder)"
    };
    format!(
        "it was built against contract version {version} ({names}), but this host supports {supported}: {advice}"
    )
}

/// Whether version `a` is newer than `b` (numeric `major.minor.patch`; anything unparsable is
/// treated as older).
fn is_newer(a: &str, b: &str) -> bool {
    let parse = |v: &str| -> Option<Vec<u64>> { v.split('.').map(|p| p.parse().ok()).collect() };
    match (parse(a), parse(b)) {
        (Some(a), Some(b)) => a > b,
        _ => false,
    }
}

fn list_or_nothing(names: &[String]) -> String {
    if names.is_empty() {
        "nothing".to_string()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::is_newer;

    #[test]
    fn versions_compare_numerically() {
        assert!(is_newer("0.10.0", "0.2.0"));
        assert!(!is_newer("0.1.0", "0.2.0"));
        assert!(!is_newer("x", "0.2.0"));
    }
}
