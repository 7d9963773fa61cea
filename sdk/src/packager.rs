//! Writing a packager: implement [`Packager`] and export it with
//! [`export_packager!`](crate::export_packager). Files arrive one at a time and each call hands
//! back the archive bytes that are ready, so neither side ever holds the whole archive.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use crate::{Error, Result};

/// The archive format a packager writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// Extension without the dot (`zip`); exports ask for formats by it.
    pub extension: String,
    /// Media type (`application/zip`).
    pub media_type: String,
    /// True when each [`Packager::add_file`] returns exactly one self-contained entry whose
    /// bytes depend only on the path and contents, the archive is those entries in order
    /// followed by [`Packager::finish`]'s bytes, and those depend on nothing added. The host
    /// then keeps entries and writes them again in later archives without calling the
    /// packager. Leave it false unless all of that holds (a zip's central directory does not).
    pub reusable_entries: bool,
    /// True when, besides, [`Packager::add_file_in_parts`] writes a file's entry in parts: a
    /// head depending only on the path and size, one piece per part depending only on that
    /// part's bytes, and a tail depending only on the size, which concatenated unpack to the
    /// file. The host then packs only the changed parts of a large file and copies the
    /// others' pieces from an earlier archive. Only with `reusable_entries`.
    pub reusable_parts: bool,
}

/// A file's entry written in parts (see [`Format::reusable_parts`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PartedEntry {
    /// The entry's start, depending only on the path and size.
    pub head: Vec<u8>,
    /// One piece per part, in order; empty for a part given as `None`.
    pub parts: Vec<Vec<u8>>,
    /// The entry's end, depending only on the size.
    pub tail: Vec<u8>,
}

/// An archive being written.
pub trait Packager: Default + 'static {
    /// The format this packager writes.
    fn format(&self) -> Format;
    /// Adds a file; returns the bytes ready to be written out (possibly none).
    fn add_file(&mut self, path: &str, contents: &[u8]) -> Result<Vec<u8>>;
    /// Adds a file of `size` bytes whose contents are `parts` concatenated; a part given as
    /// `None` was packed before and its piece is kept by the host, so return an empty piece
    /// for it. Called only when [`Format::reusable_parts`] is true; the default refuses.
    fn add_file_in_parts(
        &mut self,
        path: &str,
        size: u64,
        parts: &[Option<&[u8]>],
    ) -> Result<PartedEntry> {
        let _ = (size, parts);
        Err(Error::invalid_input(format!(
            "{path}: this packager does not write entries in parts"
        )))
    }
    /// Ends the archive; returns its last bytes.
    fn finish(&mut self) -> Result<Vec<u8>>;
}

/// A `Write` target whose bytes can be taken out while an archive writer still owns it:
/// give the writer a clone, `take` what it wrote after each file.
#[derive(Debug, Clone, Default)]
pub struct DrainBuffer(Rc<RefCell<Vec<u8>>>);

impl DrainBuffer {
    /// The bytes written since the last `take`.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

impl Write for DrainBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A seekable `Write` target for archive writers that seek back to patch a header (as `zip`
/// does for each entry's sizes), whose settled bytes can still be handed out as they are
/// ready: everything before an offset no writer will seek back to is drained with
/// [`drain_before`](Self::drain_before), and seeking into drained bytes is an error.
#[derive(Debug, Clone, Default)]
pub struct SeekWindow(Rc<RefCell<Window>>);

#[derive(Debug, Default)]
struct Window {
    /// Absolute offset of `bytes[0]`.
    base: u64,
    bytes: Vec<u8>,
    /// Absolute write position.
    position: u64,
}

impl SeekWindow {
    /// The absolute offset of the end of everything written.
    pub fn end(&self) -> u64 {
        let window = self.0.borrow();
        window.base + window.bytes.len() as u64
    }

    /// Takes the bytes before absolute `offset` (they will not be written again).
    pub fn drain_before(&self, offset: u64) -> Vec<u8> {
        let mut window = self.0.borrow_mut();
        let count = offset
            .saturating_sub(window.base)
            .min(window.bytes.len() as u64) as usize;
        window.base += count as u64;
        window.bytes.drain(..count).collect()
    }

    /// Takes every byte written and not yet taken.
    pub fn drain_all(&self) -> Vec<u8> {
        let end = self.end();
        self.drain_before(end)
    }
}

impl Write for SeekWindow {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut window = self.0.borrow_mut();
        let start = (window.position - window.base) as usize;
        let overlap = bytes.len().min(window.bytes.len().saturating_sub(start));
        window.bytes[start..start + overlap].copy_from_slice(&bytes[..overlap]);
        window.bytes.extend_from_slice(&bytes[overlap..]);
        window.position += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Seek for SeekWindow {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let mut window = self.0.borrow_mut();
        let end = window.base + window.bytes.len() as u64;
        let target = match to {
            std::io::SeekFrom::Start(offset) => Some(offset),
            std::io::SeekFrom::End(delta) => end.checked_add_signed(delta),
            std::io::SeekFrom::Current(delta) => window.position.checked_add_signed(delta),
        };
        match target {
            Some(target) if target >= window.base && target <= end => {
                window.position = target;
                Ok(target)
            }
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek outside the bytes not yet handed out",
            )),
        }
    }
}

/// Refuses archive paths that could escape the folder the archive is unpacked into: absolute,
/// `..`, `.` or empty segments, backslashes.
pub fn check_path(path: &str) -> Result<()> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.contains('\\')
        || path
            .split('/')
            .any(|s| s.is_empty() || s == "." || s == "..");
    if bad {
        return Err(Error::invalid_input(format!(
            "archive path {path:?} must be relative, with no empty, '.' or '..' segments"
        )));
    }
    Ok(())
}

/// The glue between [`Packager`] and the generated bindings.
#[cfg(feature = "packager")]
#[doc(hidden)]
pub mod adapter {
    use std::cell::RefCell;

    use super::Packager;
    use crate::bindings::packager::exports::quire::plugins::packing as wit;
    use crate::bindings::packager::quire::plugins::types::Error as WitError;

    /// Holds the author's packager as the `archive` resource.
    pub struct ArchiveAdapter<P>(RefCell<P>);

    impl<P: Packager> wit::GuestArchive for ArchiveAdapter<P> {
        fn new() -> Self {
            Self(RefCell::new(P::default()))
        }

        fn format(&self) -> wit::FormatInfo {
            let format = self.0.borrow().format();
            wit::FormatInfo {
                extension: format.extension,
                media_type: format.media_type,
                reusable_entries: format.reusable_entries,
                reusable_parts: format.reusable_parts,
            }
        }

        fn add_file_in_parts(
            &self,
            path: String,
            size: u64,
            parts: Vec<Option<Vec<u8>>>,
        ) -> Result<wit::PartedEntry, WitError> {
            super::check_path(&path)?;
            let parts: Vec<Option<&[u8]>> = parts.iter().map(Option::as_deref).collect();
            let entry = self.0.borrow_mut().add_file_in_parts(&path, size, &parts)?;
            Ok(wit::PartedEntry {
                head: entry.head,
                parts: entry.parts,
                tail: entry.tail,
            })
        }

        fn add_file(&self, path: String, contents: Vec<u8>) -> Result<Vec<u8>, WitError> {
            super::check_path(&path)?;
            self.0
                .borrow_mut()
                .add_file(&path, &contents)
                .map_err(Into::into)
        }

        fn finish(&self) -> Result<Vec<u8>, WitError> {
            self.0.borrow_mut().finish().map_err(Into::into)
        }
    }
}

/// Exports a [`Packager`] as the component's `packager` world:
/// `quire_sdk::export_packager!(MyPackager);`
#[macro_export]
macro_rules! export_packager {
    ($packager:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[doc(hidden)]
        pub struct QuirePackagerExport;
        #[cfg(target_arch = "wasm32")]
        impl $crate::bindings::packager::exports::quire::plugins::packing::Guest
            for QuirePackagerExport
        {
            type Archive = $crate::packager::adapter::ArchiveAdapter<$packager>;
        }
        #[cfg(target_arch = "wasm32")]
        $crate::bindings::packager::export_packager_world!(
            QuirePackagerExport with_types_in $crate::bindings::packager
        );
    };
}

#[cfg(test)]
mod tests {
    use std::io::{Seek, SeekFrom, Write};

    use super::SeekWindow;

    #[test]
    fn drained_bytes_are_final_and_patching_works_after_them() {
        let mut window = SeekWindow::default();
        window.write_all(b"headerAAAA").unwrap();
        let entry = window.end();
        window.write_all(b"hdr2BBBB").unwrap();
        assert_eq!(window.drain_before(entry), b"headerAAAA");
        window.seek(SeekFrom::Start(entry)).unwrap();
        window.write_all(b"HDR2").unwrap();
        window.seek(SeekFrom::End(0)).unwrap();
        window.write_all(b"!").unwrap();
        assert!(window.seek(SeekFrom::Start(0)).is_err());
        assert_eq!(window.drain_all(), b"HDR2BBBB!");
    }
}
