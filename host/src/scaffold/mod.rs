//! `quire plugin new`: a ready-to-build plugin crate from a template, one per role. Each
//! template compiles as generated and passes its own test, which runs the built component in
//! Quire's plugin runtime through the SDK's harness.

use std::path::{Path, PathBuf};

use crate::plugins::Role;

/// Why a plugin crate could not be created.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    #[error(
        "the plugin name {0:?} must start with a letter and hold only lowercase letters, digits, '-' and '_'"
    )]
    BadName(String),
    #[error("{0} already exists; choose another name or folder")]
    Exists(PathBuf),
    #[error(
        "cannot find the Quire SDK (looked for {0}); pass --sdk with the path of the sdk/ folder of a Quire checkout"
    )]
    NoSdk(PathBuf),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What to create.
pub struct NewPlugin<'a> {
    pub role: Role,
    pub name: &'a str,
    /// The folder the crate's folder goes in.
    pub parent: &'a Path,
    /// The SDK's folder; default: the `sdk/` folder of the checkout this binary was built from.
    pub sdk: Option<&'a Path>,
}

/// Creates the crate `parent/name` and returns its folder.
pub fn create(request: &NewPlugin<'_>) -> Result<PathBuf, ScaffoldError> {
    let name = request.name;
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !valid || name.len() > 64 {
        return Err(ScaffoldError::BadName(name.to_string()));
    }
    let dir = request.parent.join(name);
    if dir.exists() {
        return Err(ScaffoldError::Exists(dir));
    }
    let sdk = match request.sdk {
        Some(sdk) => sdk.to_path_buf(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../sdk"),
    };
    let sdk = std::fs::canonicalize(&sdk)
        .ok()
        .filter(|p| p.join("Cargo.toml").is_file())
        .ok_or(ScaffoldError::NoSdk(sdk))?;

    let role = request.role.name();
    let (source, test, dependencies) = match request.role {
        Role::Renderer => (
            include_str!("templates/renderer.rs.tmpl"),
            include_str!("templates/renderer_test.rs.tmpl"),
            "",
        ),
        Role::Retriever => (
            include_str!("templates/retriever.rs.tmpl"),
            include_str!("templates/retriever_test.rs.tmpl"),
            "serde_json = \"1\"\n",
        ),
        Role::Packager => (
            include_str!("templates/packager.rs.tmpl"),
            include_str!("templates/packager_test.rs.tmpl"),
            "tar = { version = \"0.4\", default-features = false }\n",
        ),
    };
    let dev_dependencies = if request.role == Role::Packager {
        "tar = { version = \"0.4\", default-features = false }\n"
    } else {
        ""
    };
    let fill = |template: &str| {
        template
            .replace("{{name}}", name)
            .replace("{{file}}", &name.replace('-', "_"))
            .replace("{{role}}", role)
            .replace("{{ROLE}}", &role.to_uppercase())
            .replace("{{sdk}}", &sdk.display().to_string())
            .replace("{{dependencies}}", dependencies)
    };
    let manifest = fill(include_str!("templates/Cargo.toml.tmpl")).replace(
        "\n# A crate of its own",
        &format!("{dev_dependencies}\n# A crate of its own"),
    );
    let files = [
        ("Cargo.toml", manifest),
        ("src/lib.rs", fill(source)),
        ("tests/plugin.rs", fill(test)),
        ("README.md", fill(include_str!("templates/README.md.tmpl"))),
        (".gitignore", "/target\n".to_string()),
    ];
    for (relative, contents) in files {
        let path = dir.join(relative);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, contents));
        written.map_err(|source| ScaffoldError::Write { path, source })?;
    }
    Ok(dir)
}
