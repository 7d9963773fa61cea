//! Quire's default packager: writes the exported site as a `.tar.gz`, handing back compressed
//! bytes as files go in so the archive is never held whole on either side of the boundary.

use std::cell::RefCell;

use flate2::Compression;
use flate2::write::GzEncoder;

wit_bindgen::generate!({
    world: "packager",
    path: "../../wit",
});

use exports::quire::plugins::packing::{FormatInfo, Guest, GuestArchive};
use quire::plugins::types::Error;

/// Files in the archive get this mode and a fixed modification time, so the same site always
/// packs to the same bytes.
const FILE_MODE: u32 = 0o644;
const FIXED_MTIME: u64 = 0;

struct Packager;

/// A tar stream inside a gzip stream whose compressed output is drained after every file.
struct TarGzArchive {
    builder: RefCell<Option<tar::Builder<GzEncoder<Vec<u8>>>>>,
}

impl Guest for Packager {
    type Archive = TarGzArchive;
}

impl GuestArchive for TarGzArchive {
    fn new() -> Self {
        let encoder = GzEncoder::new(Vec::new(), Compression::default());
        let mut builder = tar::Builder::new(encoder);
        builder.mode(tar::HeaderMode::Deterministic);
        Self {
            builder: RefCell::new(Some(builder)),
        }
    }

    fn format(&self) -> FormatInfo {
        FormatInfo {
            extension: "tar.gz".into(),
            media_type: "application/gzip".into(),
        }
    }

    fn add_file(&self, path: String, contents: Vec<u8>) -> Result<Vec<u8>, Error> {
        check_path(&path)?;
        let mut slot = self.builder.borrow_mut();
        let builder = slot
            .as_mut()
            .ok_or_else(|| Error::InvalidInput("the archive is already finished".into()))?;
        let mut header = tar::Header::new_gnu();
        header.set_size(contents.len() as u64);
        header.set_mode(FILE_MODE);
        header.set_mtime(FIXED_MTIME);
        header.set_entry_type(tar::EntryType::Regular);
        builder
            .append_data(&mut header, &path, contents.as_slice())
            .map_err(|e| Error::Internal(format!("adding {path}: {e}")))?;
        Ok(std::mem::take(builder.get_mut().get_mut()))
    }

    fn finish(&self) -> Result<Vec<u8>, Error> {
        let builder = self
            .builder
            .borrow_mut()
            .take()
            .ok_or_else(|| Error::InvalidInput("the archive is already finished".into()))?;
        let encoder = builder
            .into_inner()
            .map_err(|e| Error::Internal(format!("ending the tar stream: {e}")))?;
        encoder
            .finish()
            .map_err(|e| Error::Internal(format!("ending the gzip stream: {e}")))
    }
}

/// Archive paths must stay inside the archive: relative, no `..`, no empty segments.
fn check_path(path: &str) -> Result<(), Error> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.contains('\\')
        || path.split('/').any(|s| s.is_empty() || s == "." || s == "..");
    if bad {
        return Err(Error::InvalidInput(format!(
            "archive path {path:?} must be relative, with no empty, '.' or '..' segments"
        )));
    }
    Ok(())
}

export!(Packager);
