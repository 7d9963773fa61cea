//! A role's component that can be replaced while the server runs. Work takes the current
//! component (an `Arc`) when it starts and keeps it to the end, so a replacement only affects
//! work started after it; a replacement that does not load or does not satisfy the role is
//! refused and the previous component stays.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

use super::{Limits, LoadedPlugin, PluginError, PluginRuntime, Role};

/// Extra checks a replacement must pass beyond its role's contract (a packager must keep
/// writing the same format).
pub type Validator = Box<dyn Fn(&PluginRuntime, &LoadedPlugin) -> Result<(), String> + Send + Sync>;

/// One role's component file and the component loaded from it.
pub struct PluginSlot {
    role: Role,
    path: PathBuf,
    limits: Limits,
    current: RwLock<Arc<LoadedPlugin>>,
    /// The file's stamp when it was last considered (loaded or refused), so an unchanged file
    /// is not reloaded and a refused one is not retried until it changes again.
    seen: Mutex<Option<FileStamp>>,
    validator: Option<Validator>,
}

/// What a refresh did.
#[derive(Debug)]
pub enum Refresh {
    /// The file has not changed since it was last considered.
    Unchanged,
    /// The new file was loaded; work started from now on uses it.
    Replaced { previous_sha256: String },
    /// The new file was refused; the previous component stays.
    Refused(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileStamp {
    modified: Option<SystemTime>,
    len: u64,
}

impl FileStamp {
    fn of(path: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(path).ok()?;
        Some(Self {
            modified: metadata.modified().ok(),
            len: metadata.len(),
        })
    }
}

impl PluginSlot {
    /// Loads the component at `path` for `role`; fails (and the server does not start) if it
    /// does not satisfy the role or `validator`.
    pub fn load(
        runtime: &PluginRuntime,
        role: Role,
        path: &Path,
        limits: Limits,
        validator: Option<Validator>,
    ) -> Result<Self, PluginError> {
        let stamp = FileStamp::of(path);
        let plugin = runtime.load_with_limits(role, path, limits)?;
        if let Some(validate) = &validator {
            validate(runtime, &plugin).map_err(|problem| PluginError::Contract {
                path: path.to_path_buf(),
                role: role.name(),
                problems: vec![problem],
            })?;
        }
        Ok(Self {
            role,
            path: path.to_path_buf(),
            limits,
            current: RwLock::new(Arc::new(plugin)),
            seen: Mutex::new(stamp),
            validator,
        })
    }

    /// Adds a check every replacement must pass.
    pub fn with_validator(mut self, validator: Validator) -> Self {
        self.validator = Some(validator);
        self
    }

    pub fn role(&self) -> Role {
        self.role
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The component new work should use.
    pub fn current(&self) -> Arc<LoadedPlugin> {
        self.current
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Loads the file again if it changed since it was last considered.
    pub fn refresh(&self, runtime: &PluginRuntime) -> Refresh {
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let stamp = FileStamp::of(&self.path);
        if stamp == *seen {
            return Refresh::Unchanged;
        }
        *seen = stamp;
        if stamp.is_none() {
            return Refresh::Refused(format!("{} was removed", self.path.display()));
        }
        let loaded = runtime
            .load_with_limits(self.role, &self.path, self.limits)
            .map_err(|e| e.to_string())
            .and_then(|plugin| match &self.validator {
                Some(validate) => validate(runtime, &plugin).map(|()| plugin),
                None => Ok(plugin),
            });
        match loaded {
            Ok(plugin) => {
                let mut current = self
                    .current
                    .write()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                if current.sha256 == plugin.sha256 {
                    return Refresh::Unchanged;
                }
                let previous_sha256 = current.sha256.clone();
                *current = Arc::new(plugin);
                Refresh::Replaced { previous_sha256 }
            }
            Err(problem) => Refresh::Refused(problem),
        }
    }
}
