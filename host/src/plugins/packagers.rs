//! The packagers by archive format: the default one and any further formats the configuration
//! names. Each is asked for its format when loaded (and when replaced), so a component
//! configured as `zip` that writes something else never starts.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::selection::RoleFiles;
use super::slot::{PluginSlot, Validator};
use super::{ArchiveSession, Limits, PluginError, PluginRuntime, Role};

/// The packager slots, by the extension of the format they write.
pub struct Packagers {
    default_format: String,
    by_format: BTreeMap<String, Arc<PluginSlot>>,
}

/// An export asked for a format no packager writes.
#[derive(Debug, thiserror::Error)]
#[error("no packager writes {asked:?}; this server writes {}", available.join(", "))]
pub struct PackagerChoiceError {
    pub asked: String,
    pub available: Vec<String>,
}

impl Packagers {
    /// Loads the default packager and one per configured format.
    pub fn load(
        runtime: &PluginRuntime,
        files: &RoleFiles,
        limits: Limits,
    ) -> Result<Self, PluginError> {
        let default = PluginSlot::load(runtime, Role::Packager, &files.packager, limits, None)?;
        let default_format = format_of(runtime, &default.current())?;
        let default = default.with_validator(keeps_format(default_format.clone()));
        let mut by_format = BTreeMap::from([(default_format.clone(), Arc::new(default))]);
        for (format, path) in &files.formats {
            if by_format.contains_key(format) {
                return Err(PluginError::Contract {
                    path: path.clone(),
                    role: Role::Packager.name(),
                    problems: vec![format!(
                        "the format {format:?} is already written by {}",
                        by_format[format].path().display()
                    )],
                });
            }
            let slot = PluginSlot::load(
                runtime,
                Role::Packager,
                path,
                limits,
                Some(keeps_format(format.clone())),
            )?;
            by_format.insert(format.clone(), Arc::new(slot));
        }
        Ok(Self {
            default_format,
            by_format,
        })
    }

    /// The format exports get unless they ask for another.
    pub fn default_format(&self) -> &str {
        &self.default_format
    }

    /// Every format this server writes.
    pub fn formats(&self) -> Vec<String> {
        self.by_format.keys().cloned().collect()
    }

    /// The packager for `format` (an extension such as `zip`), or the default one.
    pub fn choose(&self, format: Option<&str>) -> Result<Arc<PluginSlot>, PackagerChoiceError> {
        let format = format.unwrap_or(&self.default_format);
        self.by_format
            .get(format)
            .cloned()
            .ok_or_else(|| PackagerChoiceError {
                asked: format.to_string(),
                available: self.formats(),
            })
    }

    /// The default packager.
    pub fn default_slot(&self) -> Arc<PluginSlot> {
        self.by_format[&self.default_format].clone()
    }

    pub fn slots(&self) -> Vec<Arc<PluginSlot>> {
        self.by_format.values().cloned().collect()
    }
}

/// The extension of the format `plugin` writes, asked of a throwaway archive.
fn format_of(runtime: &PluginRuntime, plugin: &super::LoadedPlugin) -> Result<String, PluginError> {
    Ok(ArchiveSession::start(runtime, plugin, "reading its format")?.extension)
}

/// A replacement (or a configured format's component) must write `format`.
fn keeps_format(format: String) -> Validator {
    Box::new(move |runtime, plugin| {
        let written = format_of(runtime, plugin).map_err(|e| e.to_string())?;
        if written == format {
            Ok(())
        } else {
            Err(format!(
                "it writes {written:?} archives, but it is configured for {format:?}"
            ))
        }
    })
}
