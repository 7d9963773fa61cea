//! Reading a settings document leniently: the typed model is strict (each setting has one
//! shape, and structs deny keys they do not know), and a value that does not fit is taken out of
//! a working copy of the document and read again, with a warning naming its place. A wrong
//! setting therefore costs only itself, never the site, and every problem is reported once,
//! where the author wrote it. The document itself is kept as written.

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

use super::ConfigWarning;

/// At most this many values are taken out before the whole document is read as empty: each
/// pass reads it again, and a file with more problems than this is not a settings file.
const MAX_PROBLEMS: usize = 200;

/// `document` read as `T`, leaving out what does not fit, with a warning for each.
pub fn read<T: DeserializeOwned + Default>(document: &Value) -> (T, Vec<ConfigWarning>) {
    let mut working = document.clone();
    let mut warnings = Vec::new();
    for _ in 0..MAX_PROBLEMS {
        let error = match serde_path_to_error::deserialize::<_, T>(&working) {
            Ok(read) => return (read, warnings),
            Err(error) => error,
        };
        let at = error.path().to_string();
        let serde_message = error.inner().to_string();
        let unknown_key = serde_message.starts_with("unknown field ");
        let message = plain(&serde_message);
        let removed = take_out(&mut working, error.path().iter().collect());
        warnings.push(ConfigWarning {
            at,
            message,
            unknown_key,
        });
        if !removed {
            break;
        }
    }
    (T::default(), warnings)
}

/// Removes the value at `path` from `document`; false when there is nothing there to remove
/// (the document as a whole is at fault).
fn take_out(document: &mut Value, path: Vec<&Segment>) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut node = document;
    for segment in parents {
        node = match (segment, node) {
            (Segment::Map { key }, Value::Object(map)) => match map.get_mut(key) {
                Some(child) => child,
                None => return false,
            },
            (Segment::Seq { index }, Value::Array(items)) => match items.get_mut(*index) {
                Some(child) => child,
                None => return false,
            },
            _ => return false,
        };
    }
    match (last, node) {
        (Segment::Map { key }, Value::Object(map)) => map.shift_remove(key).is_some(),
        (Segment::Seq { index }, Value::Array(items)) if *index < items.len() => {
            items.remove(*index);
            true
        }
        _ => false,
    }
}

/// serde's message as an author reads it ("invalid type: integer `3`, expected a string"; the
/// model's settings with more than one shape say which in their `expecting`), with what
/// happens to the value.
fn plain(message: &str) -> String {
    match message.strip_prefix("unknown field ") {
        // "`head`, expected one of ...": the key, without the list of every known one.
        Some(rest) => {
            let key = rest.split(", expected").next().unwrap_or(rest);
            format!("unknown setting {key}; it is ignored")
        }
        None => format!("{message}; the setting is ignored"),
    }
}
