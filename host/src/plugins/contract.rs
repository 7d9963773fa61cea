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

/// The version of the `quire:plugins` WIT package this host implements.
pub const CONTRACT_VERSION: &str = "0.1.0";

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

    /// The fully qualified export name, `quire:plugins/render@0.1.0`.
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
    let wanted = role.export_name();
    if !exports.contains(&wanted) {
        let prefix = format!("quire:plugins/{}@", role.interface());
        match exports.iter().find(|e| e.starts_with(&prefix)) {
            Some(other) => problems.push(version_mismatch(other, &other[prefix.len()..])),
            None => problems.push(format!(
                "it does not export {wanted}, the {role} interface (it exports {})",
                list_or_nothing(&exports)
            )),
        }
    }
    for import in &imports {
        if let Some(rest) = import.strip_prefix("quire:plugins/") {
            let version = rest.split_once('@').map(|(_, v)| v).unwrap_or("none");
            if version != CONTRACT_VERSION {
                problems.push(version_mismatch(import, version));
            }
        } else if !import.starts_with("wasi:") {
            problems.push(format!(
                "it imports {import}, which the host does not provide (plugins may import only WASI and quire:plugins/host)"
            ));
        }
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

fn version_mismatch(name: &str, version: &str) -> String {
    format!(
        "it was built against contract version {version} ({name}), but this host supports {CONTRACT_VERSION}: \
         rebuild it against the wit/ folder of this Quire release"
    )
}

fn list_or_nothing(names: &[String]) -> String {
    if names.is_empty() {
        "nothing".to_string()
    } else {
        names.join(", ")
    }
}
