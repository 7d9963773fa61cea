//! The WIT glue: the `archive` resource over [`TarGzWriter`].

use std::cell::RefCell;

use crate::TarGzWriter;

wit_bindgen::generate!({
    world: "packager",
    path: "../../wit",
});

use exports::quire::plugins::packing::{FormatInfo, Guest, GuestArchive};
use quire::plugins::types::Error;

struct Packager;

struct Archive(RefCell<TarGzWriter>);

impl Guest for Packager {
    type Archive = Archive;
}

impl GuestArchive for Archive {
    fn new() -> Self {
        Self(RefCell::new(TarGzWriter::new()))
    }

    fn format(&self) -> FormatInfo {
        FormatInfo {
            extension: "tar.gz".into(),
            media_type: "application/gzip".into(),
        }
    }

    fn add_file(&self, path: String, contents: Vec<u8>) -> Result<Vec<u8>, Error> {
        self.0
            .borrow_mut()
            .add_file(&path, &contents)
            .map_err(Error::InvalidInput)
    }

    fn finish(&self) -> Result<Vec<u8>, Error> {
        self.0.borrow_mut().finish().map_err(Error::Internal)
    }
}

export!(Packager);
