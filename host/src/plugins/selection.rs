//! Which component file serves each role for a deployment type: the deployment type's override,
//! else the general choice, else the built-in component.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::config::PluginsConfig;
use crate::deployment_type::DeploymentType;

/// The component files one server loads.
#[derive(Debug, Clone)]
pub struct RoleFiles {
    pub renderer: PathBuf,
    /// The packager of the default archive format.
    pub packager: PathBuf,
    pub retriever: PathBuf,
    /// Packagers of further formats, by extension.
    pub formats: BTreeMap<String, PathBuf>,
}

/// The files `config` chooses for a server of type `kind`.
pub fn resolve_files(config: &PluginsConfig, kind: DeploymentType) -> RoleFiles {
    let overrides = config.deployments.for_type(kind);
    let pick = |special: &Option<PathBuf>, general: &Option<PathBuf>, built_in: &str| {
        let chosen = special
            .clone()
            .or_else(|| general.clone())
            .unwrap_or_else(|| PathBuf::from(built_in));
        config.resolve(&chosen)
    };
    RoleFiles {
        renderer: pick(&overrides.renderer, &config.renderer, "quire_renderer.wasm"),
        packager: pick(&overrides.packager, &config.packager, "quire_packager.wasm"),
        retriever: pick(
            &overrides.retriever,
            &config.retriever,
            "quire_retriever.wasm",
        ),
        formats: config
            .formats
            .iter()
            .map(|(format, path)| (format.clone(), config.resolve(path)))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use figment::providers::Format;

    use super::*;

    fn config(toml: &str) -> PluginsConfig {
        let mut config: PluginsConfig = figment::Figment::new()
            .merge(figment::providers::Toml::string(toml))
            .extract()
            .expect("valid plugins config");
        config.dir = Some(PathBuf::from("/opt/quire/plugins"));
        config
    }

    #[test]
    fn a_deployment_override_beats_the_general_choice_which_beats_the_built_in() {
        let config = config(
            r#"
            retriever = "/srv/title.wasm"
            [formats]
            zip = "zip.wasm"
            [deployments.air-gapped]
            renderer = "light.wasm"
            "#,
        );
        let air = resolve_files(&config, DeploymentType::AirGapped);
        assert_eq!(air.renderer, PathBuf::from("/opt/quire/plugins/light.wasm"));
        assert_eq!(air.retriever, PathBuf::from("/srv/title.wasm"));
        assert_eq!(
            air.packager,
            PathBuf::from("/opt/quire/plugins/quire_packager.wasm")
        );
        assert_eq!(
            air.formats.get("zip"),
            Some(&PathBuf::from("/opt/quire/plugins/zip.wasm"))
        );
        let cloud = resolve_files(&config, DeploymentType::Cloud);
        assert_eq!(
            cloud.renderer,
            PathBuf::from("/opt/quire/plugins/quire_renderer.wasm")
        );
    }

    #[test]
    fn an_unknown_deployment_type_or_role_is_refused() {
        let bad = figment::Figment::new()
            .merge(figment::providers::Toml::string(
                "[deployments.on-prem]\nrenderer = \"x.wasm\"",
            ))
            .extract::<PluginsConfig>();
        assert!(bad.is_err_and(|e| e.to_string().contains("on-prem")));
        let bad = figment::Figment::new()
            .merge(figment::providers::Toml::string(
                "[limits.rendrer]\nmemory_limit_mib = 1",
            ))
            .extract::<PluginsConfig>();
        assert!(bad.is_err_and(|e| e.to_string().contains("rendrer")));
    }
}
