//! Marking a folder cache's entries as used: `trim` evicts the entries whose modification
//! time is oldest, so a read sets it to now. A release of a large site uses every entry, so
//! marking each on every run was three system calls per page for a time that only needs to
//! be right to within an hour; an entry this process marked within [`MARK_INTERVAL`] is not
//! marked again.
//!
//! The marks remembered are those of the last two intervals (two generations of keys), so
//! their memory is bounded by the entries used in that time. Trimming a folder forgets its
//! marks, since an entry it removed must not count as held.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use super::KEY_LEN;

/// How long a mark is good for, here: well under what eviction's order needs to be right to.
const MARK_INTERVAL: Duration = Duration::from_secs(30 * 60);

/// The keys of one cache folder marked in the current and the previous interval.
struct FolderMarks {
    started: Instant,
    current: HashSet<[u8; KEY_LEN]>,
    previous: HashSet<[u8; KEY_LEN]>,
}

impl FolderMarks {
    fn new() -> Self {
        Self {
            started: Instant::now(),
            current: HashSet::new(),
            previous: HashSet::new(),
        }
    }

    /// Turns intervals over: the current becomes the previous once an interval has passed,
    /// and both are dropped once two have.
    fn turn_over(&mut self) {
        let elapsed = self.started.elapsed();
        if elapsed >= MARK_INTERVAL {
            self.previous = std::mem::take(&mut self.current);
            if elapsed >= 2 * MARK_INTERVAL {
                self.previous.clear();
            }
            self.started = Instant::now();
        }
    }

    /// Whether `key` was marked in this interval or the last.
    fn is_marked(&mut self, key: &[u8; KEY_LEN]) -> bool {
        self.turn_over();
        self.current.contains(key) || self.previous.contains(key)
    }

    fn mark(&mut self, key: &[u8; KEY_LEN]) {
        self.turn_over();
        self.current.insert(*key);
    }
}

fn marks() -> MutexGuard<'static, HashMap<PathBuf, FolderMarks>> {
    static MARKS: LazyLock<Mutex<HashMap<PathBuf, FolderMarks>>> = LazyLock::new(Mutex::default);
    // Every change is whole before the lock is let go, so a poisoned lock is still right.
    MARKS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Marks the entry `key` of the cache folder `root`, whose file is at `path()`, as used now,
/// unless this process did within the interval (the path is only made then: a release of a
/// large site asks this of every entry it keeps). Whether the entry is there: an entry marked
/// recently is taken to be (whoever reads it checks it, and makes it again if it is not).
pub(super) fn mark_used(root: &Path, key: &[u8; KEY_LEN], path: impl FnOnce() -> PathBuf) -> bool {
    if marks()
        .get_mut(root)
        .is_some_and(|folder| folder.is_marked(key))
    {
        return true;
    }
    let marked = std::fs::File::options()
        .append(true)
        .open(path())
        .map(|file| {
            // One that cannot be marked is only trimmed sooner.
            let _ = file.set_modified(SystemTime::now());
        })
        .is_ok();
    if marked {
        written(root, key);
    }
    marked
}

/// Takes note that the entry `key` of the cache folder `root` was written just now, which
/// marks it as used as well as marking it would.
pub(super) fn written(root: &Path, key: &[u8; KEY_LEN]) {
    let mut marks = marks();
    match marks.get_mut(root) {
        Some(folder) => folder.mark(key),
        None => {
            let mut folder = FolderMarks::new();
            folder.mark(key);
            marks.insert(root.to_path_buf(), folder);
        }
    }
}

/// Forgets the marks of the cache folder `root` (its entries are being trimmed).
pub(super) fn forget(root: &Path) {
    marks().remove(root);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_marked_once_per_interval_and_forgotten_on_trim() {
        let root = tempfile::tempdir().expect("a folder");
        let path = root.path().join("entry");
        let key = [7u8; KEY_LEN];
        assert!(
            !mark_used(root.path(), &key, || path.clone()),
            "no entry yet"
        );

        std::fs::write(&path, b"x").expect("an entry");
        let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let set = |when| {
            std::fs::File::options()
                .append(true)
                .open(&path)
                .and_then(|f| f.set_modified(when))
                .expect("a time set");
        };
        set(old);
        assert!(mark_used(root.path(), &key, || path.clone()));
        let modified = || std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        assert!(modified() > Some(old), "marked as used now");

        set(old);
        assert!(mark_used(root.path(), &key, || path.clone()));
        assert_eq!(modified(), Some(old), "not marked twice in an interval");

        forget(root.path());
        assert!(mark_used(root.path(), &key, || path.clone()));
        assert!(modified() > Some(old), "marked again once forgotten");

        forget(root.path());
        written(root.path(), &key);
        set(old);
        assert!(mark_used(root.path(), &key, || path.clone()));
        assert_eq!(
            modified(),
            Some(old),
            "an entry just written counts as marked"
        );
    }
}
