//! Unpacking an uploaded `.tar.gz` of a site folder as it arrives, refusing any entry that could
//! write outside the destination (absolute paths, `..`, links of any kind) and counting the
//! limits as it goes: nothing is held whole in memory, and the first bytes that are not gzip
//! end the upload. A file whose contents storage already holds on this disk (the site's
//! latest version, `KnownFiles`) is linked from there instead of written: writing every file of
//! a large site again was most of a one-page release's publish. Each file's hash is handed on
//! with the site, so publishing does not read the file again to find it unchanged. An archive
//! may carry only what changed and list the rest (`file_list`).

mod file_list;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use flate2::read::MultiGzDecoder;
use sha2::{Digest, Sha256};

use super::{SiteError, SiteLimits};
pub use file_list::{FILE_LIST, is_sha256_hex, missing_contents};

/// Files on this disk an upload may link instead of writing, by the SHA-256 (hex) of their
/// contents; they are never written through (versions are immutable).
pub type KnownFiles = HashMap<String, KnownFile>;

/// A file on this disk an upload may link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownFile {
    pub path: PathBuf,
    /// Its size, as the manifest that lists it records it: a linked file is counted against
    /// the limits without asking the disk.
    pub size: u64,
}

/// Entries up to this size are read whole and hashed, to be linked when `KnownFiles` holds
/// them; larger ones are streamed to disk.
const LINKABLE_BYTES: u64 = 64 << 20;

/// A site unpacked: its root folder, and the SHA-256 (hex) of each file hashed on the way, by
/// its path from the root (`/`-separated), so that publishing need not read it again.
#[derive(Debug)]
pub struct Unpacked {
    pub root: PathBuf,
    pub hashes: HashMap<String, String>,
}

/// Files read out of the archive ahead of the thread that writes them.
const WRITES_AHEAD: usize = 64;

/// Unpacks the archive read from `archive` into `dest` and returns the site's root: `dest`, or
/// the archive's single top-level folder when the site was packed as `tar czf site.tar.gz my-site/`.
/// A file whose contents `known` holds is a hard link to it. The archive is read and inflated
/// on the calling thread and the files hashed and written on another, so that the two overlap.
pub fn extract_site_archive(
    mut archive: impl Read,
    dest: &Path,
    limits: SiteLimits,
    known: &KnownFiles,
) -> Result<Unpacked, SiteError> {
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
    let tar = tar::Archive::new(MultiGzDecoder::new(
        std::io::Cursor::new(magic).chain(archive),
    ));
    let (read, mut hashes) = std::thread::scope(|scope| {
        let (steps, to_write) = sync_channel::<Step>(WRITES_AHEAD);
        let writer = scope.spawn(move || write_files(to_write, known));
        let read = read_entries(tar, dest, limits, &steps);
        drop(steps);
        let written = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        // A read that stopped because the writer did has nothing to add to the writer's error.
        read.and_then(|read| Ok((read, written?)))
    })?;
    if let Some(list) = read.file_list {
        let listed = file_list::parse(&list)?;
        file_list::link_listed(
            listed,
            dest,
            known,
            limits,
            (read.files, read.bytes),
            (&read.streamed, &mut hashes),
        )?;
    }
    let root = site_root(dest);
    let hashes = match root.strip_prefix(dest).ok().and_then(Path::to_str) {
        Some("") | None => hashes,
        Some(folder) => {
            let prefix = format!("{folder}/");
            hashes
                .into_iter()
                .filter_map(|(path, hash)| Some((path.strip_prefix(&prefix)?.to_string(), hash)))
                .collect()
        }
    };
    Ok(Unpacked { root, hashes })
}

/// What the reading thread hands the writing one, in the archive's order.
enum Step {
    Folder {
        name: String,
        target: PathBuf,
    },
    File {
        name: String,
        /// The file's path from `dest`, `/`-separated, when it is UTF-8.
        relative: Option<String>,
        target: PathBuf,
        contents: Vec<u8>,
        mtime: Option<u64>,
    },
    /// Answered once everything before it is written: a large file is streamed to disk by the
    /// reading thread next, after any earlier entry of its path.
    Settle(SyncSender<()>),
}

/// What reading an archive found besides its files.
#[derive(Default)]
struct ArchiveRead {
    /// The contents of its `.quire-files.json`, if it has one.
    file_list: Option<Vec<u8>>,
    /// Files and bytes it carried, as counted against the limits.
    files: usize,
    bytes: u64,
    /// The files it carried that were streamed to disk rather than hashed (by path from
    /// `dest`, `/`-separated): the list's entries for them are carried, not linked.
    streamed: HashSet<String>,
}

/// Reads the archive's entries, checked and counted against `limits`, and hands them to
/// `steps`; a large file it writes itself. Stops early, with no error of its own, when the
/// writing thread has stopped.
fn read_entries(
    mut tar: tar::Archive<impl Read>,
    dest: &Path,
    limits: SiteLimits,
    steps: &SyncSender<Step>,
) -> Result<ArchiveRead, SiteError> {
    let entries = tar
        .entries()
        .map_err(|e| invalid("upload", format!("not a .tar.gz archive: {e}")))?;
    let mut read = ArchiveRead::default();
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
        let target = dest.join(&relative);
        if kind.is_dir() {
            if steps.send(Step::Folder { name, target }).is_err() {
                return Ok(read);
            }
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
        if relative == Path::new(FILE_LIST) {
            if entry.size() > file_list::MAX_LIST_BYTES {
                return Err(SiteError::TooLarge(format!(
                    "{FILE_LIST} is over {} MiB",
                    file_list::MAX_LIST_BYTES >> 20
                )));
            }
            let mut list = Vec::new();
            entry.read_to_end(&mut list).map_err(|e| io(FILE_LIST, e))?;
            read.file_list = Some(list);
            continue;
        }
        read.files += 1;
        let entry_size = entry.size();
        read.bytes += entry_size;
        limits.check(read.files, read.bytes)?;
        // The archive's times are the site's "last modified" dates (docs.json
        // `metadata.timestamp`); an entry without one keeps the time of unpacking.
        let mtime = entry.header().mtime().ok().filter(|&t| t > 0);
        // The entry's stated size was counted above; reading stops there whatever follows.
        let mut contents = entry.by_ref().take(limits.max_bytes);
        if entry_size > LINKABLE_BYTES {
            let (settled, wait) = sync_channel(1);
            if steps.send(Step::Settle(settled)).is_err() || wait.recv().is_err() {
                return Ok(read);
            }
            make_parent(&target, &name)?;
            let _ = std::fs::remove_file(&target);
            let mut file = std::fs::File::create(&target).map_err(|e| io(&name, e))?;
            std::io::copy(&mut contents, &mut file).map_err(|e| io(&name, e))?;
            set_mtime(&file, mtime, &name)?;
            if let Some(relative) = relative.to_str() {
                read.streamed.insert(relative.replace('\\', "/"));
            }
            continue;
        }
        let mut bytes = Vec::with_capacity(entry_size as usize);
        contents.read_to_end(&mut bytes).map_err(|e| io(&name, e))?;
        let step = Step::File {
            name,
            relative: relative.to_str().map(|r| r.replace('\\', "/")),
            target,
            contents: bytes,
            mtime,
        };
        if steps.send(step).is_err() {
            return Ok(read);
        }
    }
    Ok(read)
}

/// Writes what `steps` brings, in order: each file hashed, and linked from `known` when it
/// holds the same contents. Returns the hashes by path from `dest`.
fn write_files(
    steps: Receiver<Step>,
    known: &KnownFiles,
) -> Result<HashMap<String, String>, SiteError> {
    let mut hashes = HashMap::new();
    let mut folder = LastFolder::default();
    for step in steps {
        let (name, relative, target, bytes, mtime) = match step {
            Step::Folder { name, target } => {
                std::fs::create_dir_all(&target).map_err(|e| io(&name, e))?;
                continue;
            }
            Step::Settle(settled) => {
                let _ = settled.send(());
                continue;
            }
            Step::File {
                name,
                relative,
                target,
                contents,
                mtime,
            } => (name, relative, target, contents, mtime),
        };
        folder.make_parent(&target, &name)?;
        // A second entry of the same path replaces the first, never writes through it (it may
        // be a link).
        let _ = std::fs::remove_file(&target);
        let hash = hex::encode(Sha256::digest(&bytes));
        let linked = known
            .get(&hash)
            .is_some_and(|from| std::fs::hard_link(&from.path, &target).is_ok());
        let file = if linked {
            std::fs::File::options()
                .append(true)
                .open(&target)
                .map_err(|e| io(&name, e))?
        } else {
            let mut file = std::fs::File::create(&target).map_err(|e| io(&name, e))?;
            file.write_all(&bytes).map_err(|e| io(&name, e))?;
            file
        };
        set_mtime(&file, mtime, &name)?;
        if let Some(relative) = relative {
            hashes.insert(relative, hash);
        }
    }
    Ok(hashes)
}

fn make_parent(target: &Path, name: &str) -> Result<(), SiteError> {
    match target.parent() {
        Some(parent) => std::fs::create_dir_all(parent).map_err(|e| io(name, e)),
        None => Ok(()),
    }
}

/// The folder a file was last written into, so that the next file of the same folder (an
/// archive lists a folder's files together) does not make sure of it again: three system
/// calls a file, for a large site's tens of thousands of files.
#[derive(Default)]
struct LastFolder(Option<PathBuf>);

impl LastFolder {
    fn make_parent(&mut self, target: &Path, name: &str) -> Result<(), SiteError> {
        let parent = target.parent();
        if parent.is_some() && parent == self.0.as_deref() {
            return Ok(());
        }
        make_parent(target, name)?;
        self.0 = parent.map(Path::to_path_buf);
        Ok(())
    }
}

fn set_mtime(file: &std::fs::File, mtime: Option<u64>, name: &str) -> Result<(), SiteError> {
    match mtime {
        Some(mtime) => file
            .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(mtime))
            .map_err(|e| io(name, e)),
        None => Ok(()),
    }
}

fn invalid(file: &str, message: String) -> SiteError {
    SiteError::Invalid {
        file: file.to_string(),
        message,
    }
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
        let unpacked =
            extract_site_archive(&bytes[..], dest.path(), LIMITS, &KnownFiles::new()).unwrap();
        assert_eq!(unpacked.root, dest.path().join("site"));
        assert!(unpacked.root.join("a.md").is_file());
        // Hashed on the way, by path from the root the site is found in.
        let expected = HashMap::from([
            ("docs.json".to_string(), hex::encode(Sha256::digest(b"{}"))),
            ("a.md".to_string(), hex::encode(Sha256::digest(b"# A"))),
        ]);
        assert_eq!(unpacked.hashes, expected);
    }

    #[test]
    fn a_file_storage_holds_is_linked_and_a_repeated_entry_never_writes_through_it() {
        use std::os::unix::fs::MetadataExt;
        let kept = tempfile::tempdir().unwrap();
        let stored = kept.path().join("a.md");
        std::fs::write(&stored, b"# A").unwrap();
        let known = KnownFiles::from([(
            hex::encode(Sha256::digest(b"# A")),
            KnownFile {
                path: stored.clone(),
                size: 3,
            },
        )]);
        let dest = tempfile::tempdir().unwrap();
        let bytes = archive(&[
            ("docs.json", tar::EntryType::Regular, b"{}"),
            ("a.md", tar::EntryType::Regular, b"# A"),
            ("copy.md", tar::EntryType::Regular, b"# A"),
        ]);
        let root = extract_site_archive(&bytes[..], dest.path(), LIMITS, &known)
            .unwrap()
            .root;
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
        let root = extract_site_archive(&bytes[..], dest.path(), LIMITS, &known)
            .unwrap()
            .root;
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
        let root = extract_site_archive(&bytes[..], dest.path(), LIMITS, &KnownFiles::new())
            .unwrap()
            .root;
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
