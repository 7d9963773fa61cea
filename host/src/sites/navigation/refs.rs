//! `$ref` in the navigation file: an object naming another JSON file of the site stands for
//! that file's content, at any level.

use std::path::Path;

use serde_json::{Map, Value};

use crate::sites::SiteError;

/// Deepest `$ref` chain followed; deeper is taken for a cycle.
const MAX_REF_DEPTH: usize = 16;

/// Replaces every `{"$ref": "file.json", ...}` object with the referenced file's content
/// (sibling keys win), reading files relative to the site root and never outside it.
pub fn resolve_refs(
    value: Value,
    root: &Path,
    file: &str,
    depth: usize,
) -> Result<Value, SiteError> {
    if depth > MAX_REF_DEPTH {
        return Err(SiteError::Invalid {
            file: file.to_string(),
            message: "$ref chain is too deep (a cycle?)".into(),
        });
    }
    match value {
        Value::Object(mut map) => {
            if let Some(Value::String(reference)) = map.remove("$ref") {
                let target = crate::sites::folder::inside(
                    root,
                    Path::new(file).parent().unwrap_or(Path::new("")),
                    &reference,
                )
                .ok_or_else(|| SiteError::Escapes {
                    file: reference.clone(),
                })?;
                let referenced = crate::sites::folder::read_json(root, &target)?;
                let resolved = resolve_refs(referenced, root, &target, depth + 1)?;
                let mut merged = match resolved {
                    Value::Object(m) => m,
                    other => return Ok(other),
                };
                for (k, v) in map {
                    merged.insert(k, resolve_refs(v, root, file, depth)?);
                }
                return Ok(Value::Object(merged));
            }
            let mut out = Map::new();
            for (k, v) in map {
                out.insert(k, resolve_refs(v, root, file, depth)?);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items
            .into_iter()
            .map(|v| resolve_refs(v, root, file, depth))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other),
    }
}
