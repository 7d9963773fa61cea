//! Unpacking an uploaded `.tar.gz` of a site folder as it arrives, refusing any entry that could
//! write outside the destination (absolute paths, `..`, links of any kind) and counting the
//! limits as it goes: nothing is held whole in memory, and the first bytes that are not gzip
//! end the upload. A file whose contents storage already holds on this disk (the site's
//! latest version, `KnownFiles`) is linked from there instead of written: writing every file of
//! a large site again was most of a one-page release's publish.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use flate2::read::MultiGzDecoder;
use sha2::{Digest, Sha256};

use super::{SiteError, SiteLimits};

/// Files on this disk an upload may link instead of writing, by the SHA-256 (hex) of their
/// contents; they are never written through (versions are immutable).
pub type KnownFiles = HashMap<String, PathBuf>;

/// Entries up to this size are read whole and hashed, to be linked when `KnownFiles` holds
/// them; larger ones are streamed to disk.
const LINKABLE_BYTES: u64 = 64 << 20;

/// Unpacks the archive read from `archive` into `dest` and returns the site's root: `dest`, or
/// the archive's single top-level folder when the site was packed as `tar czf site.tar.gz my-site/`.
/// A file whose contents `known` holds is a hard link to it.
pub fn extract_site_archive(
    mut archive: impl Read,
    dest: &Path,
    limits: SiteLimits,
    known: &KnownFiles,
) -> Result<PathBuf, SiteError> {
    let invalid = |file: &str, message: String| SiteError::Invalid {
        file: file.to_string(),
        message,
    };
    let mut magic = [0u8; 2];
    let mut got = 0;
    while got < magic.len() {
        match archive
            .read(&mut magic[got..])
            .map_err(|e| io("upload", e))?
        {
            0 => break,
            n => got += n,
        }
    }
    if got == 0 {
        return Err(invalid(
            "upload",
            "the request body is empty; it must be a .tar.gz of the site folder".into(),
        ));
    }
    if magic[..got] != [0x1f, 0x8b] {
        return Err(invalid(
            "upload",
            "not a .tar.gz archive (it has no gzip header)".into(),
        ));
    }
    let mut tar = tar::Archive::new(MultiGzDecoder::new(
        std::io::Cursor::new(magic).chain(archive),
    ));
    let entries = tar
        .entries()
        .map_err(|e| invalid("upload", format!("not a .tar.gz archive: {e}")))?;
    let (mut files, mut total) = (0usize, 0u64);
    for entry in entries {
        let mut entry = entry.map_err(|e| invalid("upload", format!("corrupt archive: {e}")))?;
        let raw_path = entry
            .path()
            .map_err(|e| invalid("upload", format!("an entry has an unreadable name: {e}")))?
            .into_owned();
        let name = raw_path.display().to_string();
        let relative =
            safe_relative(&raw_path).ok_or_else(|| SiteError::Escapes { file: name.clone() })?;
        let kind = entry.header().entry_type();
        if relative.as_os_str().is_empty() {
            if kind.is_dir() {
                continue; // `./`, the folder itself, as `tar -C site .` writes it
            }
            return Err(invalid(&name, "an entry has an empty name".into()));
        }
        if kind.is_dir() {
            std::fs::create_dir_all(dest.join(&relative)).map_err(|e| io(&name, e))?;
            continue;
        }
        if kind.is_symlink() || kind.is_hard_link() {
            return Err(invalid(
                &name,
                "site archives may hold only files and folders, not links".into(),
            ));
        }
        if !kind.is_file() {
            continue; // pax headers and the like carry no content of the site
        }
        files += 1;
        let entry_size = entry.size();
        total += entry_size;
        limits.check(files, total)?;
        let target = dest.join(&relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(&name, e))?;
        }
        // The archive's times are the site's "last modified" dates (docs.json
        // `metadata.timestamp`); an entry without one keeps the time of unpacking.
        let mtime = entry.header().mtime().ok().filter(|&t| t > 0);
        // A second entry of the same path replaces the first, never writes through it (it may
        // be a link).
        let _ = std::fs::remove_file(&target);
        // The entry's stated size was counted above; reading stops there whatever follows.
        let mut contents = entry.by_ref().take(limits.max_bytes);
        let file = if !known.is_empty() && entry_size <= LINKABLE_BYTES {
            let mut bytes = Vec::with_capacity(entry_size as usize);
            contents.read_to_end(&mut bytes).map_err(|e| io(&name, e))?;
            let hash = hex::encode(Sha256::digest(&bytes));
            let linked = known
                .get(&hash)
                .is_some_and(|from| std::fs::hard_link(from, &target).is_ok());
            if linked {
                std::fs::File::options()
                    .append(true)
                    .open(&target)
                    .map_err(|e| io(&name, e))?
            } else {
                let mut file = std::fs::File::create(&target).map_err(|e| io(&name, e))?;
                file.write_all(&bytes).map_err(|e| io(&name, e))?;
                file
            }
        } else {
            let mut file = std::fs::File::create(&target).map_err(|e| io(&name, e))?;
            std::io::copy(&mut contents, &mut file).map_err(|e| io(&name, e))?;
            file
        };
        if let Some(mtime) = mtime {
            file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(mtime))
                .map_err(|e| io(&name, e))?;
        }
    }
    Ok(site_root(dest))
}

fn io(file: &str, e: std::io::Error) -> SiteError {
    SiteError::Io {
        file: file.to_string(),
        message: e.to_string(),
    }
}

/// The path with `.` segments dropped (possibly empty); `None` if it is absolute or climbs
/// with `..`.
pub fn safe_relative(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

fn site_root(dest: &Path) -> PathBuf {
    let has_config =
        |dir: &Path| dir.join("docs.json").is_file() || dir.join("mint.json").is_file();
    if has_config(dest) {
        return dest.to_path_buf();
    }
    let children: Vec<_> = std::fs::read_dir(dest)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    match children.as_slice() {
        [only] if only.is_dir() && has_config(only) => only.clone(),
        _ => dest.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;

    const LIMITS: SiteLimits = SiteLimits {
        max_files: 10,
        max_bytes: 1 << 20,
    };

    /// A .tar.gz whose entry names are written raw, so hostile names can be built.
    fn archive(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
        for (name, kind, data) in entries {
            let mut header = tar::Header::new_gnu();
            header.as_gnu_mut().unwrap().name[..name.len()].copy_from_slice(name.as_bytes());
            header.set_entry_type(*kind);
            header.set_size(data.len() as u64);
            if kind.is_symlink() {
                header.set_link_name("/etc/passwd").unwrap();
            }
            header.set_mode(0o644);
            header.set_cksum();
            builder.append(&header, *data).unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn unpacks_a_site_and_finds_a_wrapping_folder() {
        let dest = tempfile::tempdir().unwrap();
        let bytes = archive(&[
            ("site/docs.json", tar::EntryType::Regular, b"{}"),
            ("site/a.md", tar::EntryType::Regular, b"# A"),
        ]);
        let root =
            extract_site_archive(&bytes[..], dest.path(), LIMITS, &KnownFiles::new()).unwrap();
        assert_eq!(root, dest.path().join("site"));
        assert!(root.join("a.md").is_file());
    }

    #[test]
    fn a_file_storage_holds_is_linked_and_a_repeated_entry_never_writes_through_it() {
        use std::os::unix::fs::MetadataExt;
        let kept = tempfile::tempdir().unwrap();
        let stored = kept.path().join("a.md");
        std::fs::write(&stored, b"# A").unwrap();
        let known = KnownFiles::from([(hex::encode(Sha256::digest(b"# A")), stored.clone())]);
        let dest = tempfile::tempdir().unwrap();
        let bytes = archive(&[
            ("docs.json", tar::EntryType::Regular, b"{}"),
            ("a.md", tar::EntryType::Regular, b"# A"),
            ("copy.md", tar::EntryType::Regular, b"# A"),
        ]);
        let root = extract_site_archive(&bytes[..], dest.path(), LIMITS, &known).unwrap();
        let inode = |path: &Path| std::fs::metadata(path).unwrap().ino();
        assert_eq!(
            inode(&root.join("a.md")),
            inode(&stored),
            "linked, by contents"
        );
        assert_eq!(inode(&root.join("copy.md")), inode(&stored));
        assert_ne!(inode(&root.join("docs.json")), inode(&stored));

        // The same path twice: the second entry replaces the link, the stored file is intact.
        let dest = tempfile::tempdir().unwrap();
        let bytes = archive(&[
            ("a.md", tar::EntryType::Regular, b"# A"),
            ("a.md", tar::EntryType::Regular, b"# B, longer"),
        ]);
        let root = extract_site_archive(&bytes[..], dest.path(), LIMITS, &known).unwrap();
        assert_eq!(std::fs::read(root.join("a.md")).unwrap(), b"# B, longer");
        assert_eq!(std::fs::read(&stored).unwrap(), b"# A");
    }

    #[test]
    fn files_keep_the_modification_time_of_their_entry() {
        let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
        let mut header = tar::Header::new_gnu();
        header.set_size(3);
        header.set_mode(0o644);
        header.set_mtime(1_700_000_000);
        header.set_cksum();
        builder
            .append_data(&mut header, "a.md", &b"# A"[..])
            .unwrap();
        let bytes = builder.into_inner().unwrap().finish().unwrap();
        let dest = tempfile::tempdir().unwrap();
        let root =
            extract_site_archive(&bytes[..], dest.path(), LIMITS, &KnownFiles::new()).unwrap();
        let modified = std::fs::metadata(root.join("a.md"))
            .unwrap()
            .modified()
            .unwrap();
        let seconds = modified
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        assert_eq!(seconds, 1_700_000_000);
    }

    #[test]
    fn refuses_entries_that_escape() {
        for bad in ["../evil.md", "/etc/evil.md", "a/../../evil.md"] {
            let dest = tempfile::tempdir().unwrap();
            let bytes = archive(&[(bad, tar::EntryType::Regular, b"x")]);
            let err = extract_site_archive(&bytes[..], dest.path(), LIMITS, &KnownFiles::new())
                .unwrap_err();
            assert!(matches!(err, SiteError::Escapes { .. }), "{bad}: {err}");
            assert!(!dest.path().parent().unwrap().join("evil.md").exists());
        }
    }

    #[test]
    fn refuses_links_and_garbage() {
        let dest = tempfile::tempdir().unwrap();
        let bytes = archive(&[("leak.md", tar::EntryType::Symlink, b"")]);
        assert!(
            extract_site_archive(&bytes[..], dest.path(), LIMITS, &KnownFiles::new())
                .unwrap_err()
                .to_string()
                .contains("not links")
        );
        assert!(
            extract_site_archive(&b"not gzip"[..], dest.path(), LIMITS, &KnownFiles::new())
                .is_err()
        );
    }
}
