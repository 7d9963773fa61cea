//! An example packager: the exported site as a `.zip`, streamed. The `zip` crate seeks back to
//! patch each entry's header once the entry is done, so bytes are handed back one entry behind:
//! everything before the entry being written is final. Written with the Quire plugin SDK.

use std::io::Write;

use quire_sdk::packager::{Format, Packager, SeekWindow};
use quire_sdk::{Error, Result};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

/// A zip archive being written.
pub struct ZipPackager {
    window: SeekWindow,
    writer: Option<ZipWriter<SeekWindow>>,
    files: usize,
}

impl Default for ZipPackager {
    fn default() -> Self {
        let window = SeekWindow::default();
        Self {
            writer: Some(ZipWriter::new(window.clone())),
            window,
            files: 0,
        }
    }
}

/// Deflated, with a fixed time, so the same site always packs to the same bytes.
fn options() -> SimpleFileOptions {
    SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644)
}

impl Packager for ZipPackager {
    fn format(&self) -> Format {
        Format {
            extension: "zip".into(),
            media_type: "application/zip".into(),
            // The central directory at the end lists every entry and where it starts.
            reusable_entries: false,
            reusable_parts: false,
        }
    }

    fn add_file(&mut self, path: &str, contents: &[u8]) -> Result<Vec<u8>> {
        let writer = self
            .writer
            .as_mut()
            .ok_or_else(|| Error::invalid_input("the archive is already finished"))?;
        // Starting this entry settles the previous one; nothing before this header moves again.
        let header = self.window.end();
        writer
            .start_file(path, options())
            .map_err(|e| Error::internal(format!("adding {path}: {e}")))?;
        writer
            .write_all(contents)
            .map_err(|e| Error::internal(format!("adding {path}: {e}")))?;
        self.files += 1;
        Ok(self.window.drain_before(header))
    }

    fn finish(&mut self) -> Result<Vec<u8>> {
        let writer = self
            .writer
            .take()
            .ok_or_else(|| Error::invalid_input("the archive is already finished"))?;
        writer
            .finish()
            .map_err(|e| Error::internal(format!("ending the archive: {e}")))?;
        quire_sdk::info!("wrote a zip of {} files", self.files);
        Ok(self.window.drain_all())
    }
}

quire_sdk::export_packager!(ZipPackager);
