//! Uploads that carry only what changed. An archive whose top holds `.quire-files.json` lists
//! the whole site in it, each file's path and SHA-256; a listed file the archive does not
//! carry is linked from the contents this disk already holds (`KnownFiles`: the site's latest
//! version). A client learns which contents to send from the missing-files endpoint, so a
//! one-page change uploads one page, not the site: inflating and hashing every file of a
//! large site was most of a one-page release's publish.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{KnownFiles, LastFolder, io, safe_relative};
use crate::sites::{SiteError, SiteLimits};

/// The entry at the archive's top that lists the site's files.
pub const FILE_LIST: &str = ".quire-files.json";

/// The largest list read: two hundred thousand files' entries fit with room to spare.
pub const MAX_LIST_BYTES: u64 = 32 << 20;

/// How many missing paths an error names before it only counts them.
const NAMED: usize = 5;

/// `.quire-files.json` as clients write it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Listed {
    /// Path from the archive's top (`/`-separated) -> SHA-256 of the contents, lowercase hex.
    files: BTreeMap<String, String>,
}

/// One listed file, checked.
pub(super) struct ListedFile {
    /// From the archive's top, `/`-separated, as the archive's hashes name it.
    path: String,
    relative: PathBuf,
    sha256: String,
}

/// Whether `text` is a SHA-256 as the API writes them: 64 lowercase hex digits.
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The files `bytes` lists, each path checked as an archive entry's would be. Two spellings of
/// one path (`a.md`, `./a.md`) are refused: which contents the site gets would be a guess.
pub(super) fn parse(bytes: &[u8]) -> Result<Vec<ListedFile>, SiteError> {
    let listed: Listed = serde_json::from_slice(bytes).map_err(|e| invalid(e.to_string()))?;
    let mut spelled: HashMap<String, String> = HashMap::new();
    listed
        .files
        .into_iter()
        .map(|(path, sha256)| {
            let relative = safe_relative(Path::new(&path))
                .filter(|relative| !relative.as_os_str().is_empty())
                .ok_or_else(|| SiteError::Escapes {
                    file: format!("{FILE_LIST}: files.{path}"),
                })?;
            if !is_sha256_hex(&sha256) {
                return Err(invalid(format!(
                    "files.{path}: {sha256:?} is not a SHA-256 (64 lowercase hex digits)"
                )));
            }
            let named = relative.to_string_lossy().replace('\\', "/");
            if let Some(first) = spelled.insert(named.clone(), path.clone()) {
                return Err(invalid(format!(
                    "files.{first} and files.{path} name the same file; list it once"
                )));
            }
            Ok(ListedFile {
                path: named,
                relative,
                sha256,
            })
        })
        .collect()
}

/// Links into `dest` each listed file the archive did not carry, from `known`, adding its
/// hash to `hashes` (by path from `dest`), and checks that each one it did carry has the
/// listed contents. `files` and `bytes` are the archive's counts so far, which the linked files
/// add to against `limits`; `streamed` are the files it carried unhashed. Refuses the upload,
/// naming them, when `known` lacks some listed contents: the client sends those in the
/// archive. Nothing is linked before the whole list is found good.
pub(super) fn link_listed(
    listed: Vec<ListedFile>,
    dest: &Path,
    known: &KnownFiles,
    limits: SiteLimits,
    (mut files, mut bytes): (usize, u64),
    (streamed, hashes): (&HashSet<String>, &mut HashMap<String, String>),
) -> Result<(), SiteError> {
    let mut missing = Vec::new();
    let mut to_link = Vec::new();
    for file in listed {
        if file.path == FILE_LIST || streamed.contains(&file.path) {
            continue;
        }
        if let Some(carried) = hashes.get(&file.path) {
            if *carried != file.sha256 {
                return Err(invalid(format!(
                    "files.{} lists SHA-256 {} but the archive's entry hashes to {carried}",
                    file.path, file.sha256
                )));
            }
            continue;
        }
        let Some(from) = known.get(&file.sha256) else {
            missing.push(file.path);
            continue;
        };
        files += 1;
        bytes += from.size;
        limits.check(files, bytes)?;
        to_link.push((file, from.path.as_path()));
    }
    if !missing.is_empty() {
        let named = missing[..missing.len().min(NAMED)].join(", ");
        let more = match missing.len() {
            n if n > NAMED => format!(" and {} more", n - NAMED),
            _ => String::new(),
        };
        return Err(invalid(format!(
            "{} listed file(s) are neither in the archive nor held by the server ({named}{more}): \
             put them in the archive (POST /v1/sites/{{domain}}/files/missing says which contents \
             the server holds)",
            missing.len()
        )));
    }
    let linked = link_all(&to_link, dest)?;
    for ((file, _), linked) in to_link.into_iter().zip(linked) {
        if linked {
            hashes.insert(file.path, file.sha256);
        }
    }
    Ok(())
}

/// Lists shorter than this are linked on the calling thread.
const LINKS_PER_THREAD: usize = 512;
/// Threads that link at most: a one-page release of a large site links tens of thousands of
/// files, one system call each, which on one thread took most of its upload.
const LINKING_THREADS: usize = 4;

/// Hard-links each `(file, from)` into `dest`, on several threads for a long list (each takes
/// a run of the list, which is in path order, so its files share folders). Whether each was
/// linked: one whose path the archive carried as something else (a folder) is left as it is.
fn link_all(to_link: &[(ListedFile, &Path)], dest: &Path) -> Result<Vec<bool>, SiteError> {
    let link_run = |run: &[(ListedFile, &Path)]| {
        let mut folder = LastFolder::default();
        run.iter()
            .map(|(file, from)| {
                let target = dest.join(&file.relative);
                folder.make_parent(&target, &file.path)?;
                match std::fs::hard_link(from, &target) {
                    Ok(()) => Ok(true),
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
                    Err(e) => Err(io(&file.path, e)),
                }
            })
            .collect::<Result<Vec<bool>, SiteError>>()
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(LINKING_THREADS)
        .min(to_link.len() / LINKS_PER_THREAD)
        .max(1);
    if threads == 1 {
        return link_run(to_link);
    }
    let runs: Vec<&[(ListedFile, &Path)]> =
        to_link.chunks(to_link.len().div_ceil(threads)).collect();
    let linked = std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .into_iter()
            .map(|run| scope.spawn(move || link_run(run)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect::<Vec<_>>()
    });
    let mut all = Vec::with_capacity(to_link.len());
    for run in linked {
        all.extend(run?);
    }
    Ok(all)
}

/// Which of `wanted` (SHA-256s) `known` does not hold, in their order, each once.
pub fn missing_contents<'a>(known: &KnownFiles, wanted: &'a [String]) -> Vec<&'a str> {
    let mut seen = std::collections::HashSet::new();
    wanted
        .iter()
        .map(String::as_str)
        .filter(|hash| !known.contains_key(*hash) && seen.insert(*hash))
        .collect()
}

fn invalid(message: String) -> SiteError {
    SiteError::Invalid {
        file: FILE_LIST.to_string(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::upload::KnownFile;

    fn sha(bytes: &[u8]) -> String {
        use sha2::{Digest, Sha256};
        hex::encode(Sha256::digest(bytes))
    }

    #[test]
    fn paths_and_hashes_are_checked_and_named() {
        let good = sha(b"x");
        let list = |path: &str, hash: &str| format!(r#"{{"files": {{"{path}": "{hash}"}}}}"#);
        let parsed = parse(list("./guides//a.mdx", &good).as_bytes()).unwrap();
        assert_eq!(
            parsed[0].path, "guides/a.mdx",
            "named as the archive's hashes name it"
        );
        for escaping in ["../a.mdx", "/etc/passwd", "a/../../b", "."] {
            let error = parse(list(escaping, &good).as_bytes()).err().unwrap();
            assert!(
                matches!(error, SiteError::Escapes { .. }),
                "{escaping}: {error}"
            );
        }
        let error = parse(list("a.mdx", &good.to_uppercase()).as_bytes())
            .err()
            .unwrap();
        assert!(error.to_string().contains("files.a.mdx"), "{error}");
        let twice = format!(r#"{{"files": {{"./a.mdx": "{good}", "a.mdx": "{good}"}}}}"#);
        let error = parse(twice.as_bytes()).err().unwrap().to_string();
        assert!(
            error.contains("files../a.mdx and files.a.mdx name the same file"),
            "{error}"
        );
        let error = parse(br#"{"files": [], "more": 1}"#).err().unwrap();
        assert!(error.to_string().starts_with(FILE_LIST), "{error}");
    }

    #[test]
    fn listed_files_are_linked_counted_and_the_unknown_named() {
        let kept = tempfile::tempdir().unwrap();
        let stored = kept.path().join("a.md");
        std::fs::write(&stored, b"# A").unwrap();
        let known = KnownFiles::from([(
            sha(b"# A"),
            KnownFile {
                path: stored.clone(),
                size: 3,
            },
        )]);
        let limits = SiteLimits {
            max_files: 2,
            max_bytes: 1 << 20,
        };
        let list = |files: &[(&str, String)]| {
            let files: BTreeMap<_, _> = files.iter().cloned().collect();
            parse(&serde_json::to_vec(&serde_json::json!({ "files": files })).unwrap()).unwrap()
        };

        let dest = tempfile::tempdir().unwrap();
        let mut hashes = HashMap::from([("docs.json".to_string(), sha(b"{}"))]);
        let listed = list(&[("docs.json", sha(b"{}")), ("deep/a.md", sha(b"# A"))]);
        link_listed(
            listed,
            dest.path(),
            &known,
            limits,
            (1, 2),
            (&HashSet::new(), &mut hashes),
        )
        .unwrap();
        assert_eq!(
            std::fs::read(dest.path().join("deep/a.md")).unwrap(),
            b"# A"
        );
        assert_eq!(hashes["deep/a.md"], sha(b"# A"));

        // Linked files count against the limits with the archive's.
        let dest = tempfile::tempdir().unwrap();
        let listed = list(&[("a.md", sha(b"# A")), ("b.md", sha(b"# A"))]);
        let error = link_listed(
            listed,
            dest.path(),
            &known,
            limits,
            (1, 2),
            (&HashSet::new(), &mut HashMap::new()),
        )
        .err()
        .unwrap();
        assert!(matches!(error, SiteError::TooLarge(_)), "{error}");

        let dest = tempfile::tempdir().unwrap();
        let listed = list(&[("new.md", sha(b"new")), ("a.md", sha(b"# A"))]);
        let error = link_listed(
            listed,
            dest.path(),
            &known,
            limits,
            (0, 0),
            (&HashSet::new(), &mut HashMap::new()),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            error.contains("1 listed file(s)") && error.contains("new.md"),
            "{error}"
        );
        assert_eq!(
            std::fs::read(&stored).unwrap(),
            b"# A",
            "the stored file is intact"
        );
    }

    #[test]
    fn a_long_list_is_linked_on_several_threads_and_what_was_carried_is_left_alone() {
        let kept = tempfile::tempdir().unwrap();
        let count = 3 * LINKS_PER_THREAD + 7;
        let mut known = KnownFiles::new();
        let mut files = BTreeMap::new();
        for n in 0..count {
            let contents = format!("# Page {n}");
            let stored = kept.path().join(format!("{n}.md"));
            std::fs::write(&stored, &contents).unwrap();
            let size = contents.len() as u64;
            known.insert(sha(contents.as_bytes()), KnownFile { path: stored, size });
            files.insert(format!("f{}/p{n}.md", n % 7), sha(contents.as_bytes()));
        }
        // The archive streamed one listed file and carried a folder where another is listed.
        let dest = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dest.path().join("f1/p1.md")).unwrap();
        let streamed = HashSet::from(["f0/p0.md".to_string()]);
        let listed =
            parse(&serde_json::to_vec(&serde_json::json!({ "files": files })).unwrap()).unwrap();
        let limits = SiteLimits {
            max_files: count,
            max_bytes: 1 << 30,
        };
        let mut hashes = HashMap::new();
        link_listed(
            listed,
            dest.path(),
            &known,
            limits,
            (0, 0),
            (&streamed, &mut hashes),
        )
        .unwrap();
        assert_eq!(
            hashes.len(),
            count - 2,
            "all but the streamed file and the folder"
        );
        for n in 2..count {
            let path = format!("f{}/p{n}.md", n % 7);
            let read = std::fs::read_to_string(dest.path().join(&path)).unwrap();
            assert_eq!(read, format!("# Page {n}"), "{path}");
            assert_eq!(hashes[&path], files[&path], "{path}");
        }
        assert!(
            !dest.path().join("f0/p0.md").exists(),
            "streamed: not linked"
        );
        assert!(
            dest.path().join("f1/p1.md").is_dir(),
            "the carried folder stays"
        );
    }

    #[test]
    fn missing_contents_come_in_the_order_asked_each_once() {
        let known = KnownFiles::from([(
            sha(b"a"),
            KnownFile {
                path: PathBuf::from("a"),
                size: 1,
            },
        )]);
        let wanted = [sha(b"b"), sha(b"a"), sha(b"c"), sha(b"b")];
        assert_eq!(
            missing_contents(&known, &wanted),
            [sha(b"b").as_str(), sha(b"c").as_str()]
        );
    }
}
