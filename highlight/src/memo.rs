//! Runs already worked out, kept for the next block of the same code in the same grammar.
//!
//! Documentation repeats its code: every version and every language of a page carries the
//! same blocks, and snippets put one block on many pages. Parsing is most of a page's
//! rendering time (tree-sitter's error recovery on fragments that do not parse costs the
//! most), and a repeated block's runs are the same every time, so the process keeps them.
//!
//! The memory is bounded by two generations: entries go into the current one, and when it
//! holds [`GENERATION_BYTES`] it becomes the previous one and the one before is dropped. A hit
//! in the previous generation moves the entry back into the current one, so code that keeps
//! coming back stays and a site's worth of one-off blocks passes through.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex};

use super::TokenRun;

/// Bytes of code and runs one generation holds before it is retired (so at most about twice
/// this in all).
const GENERATION_BYTES: usize = 32 * 1024 * 1024;

/// What a block highlighted to: its runs, or `None` when its grammar could not parse it.
pub(crate) type Runs = Option<Arc<[TokenRun]>>;

/// One block's code and grammar, kept whole so that a hash collision is never a wrong answer.
struct Entry {
    grammar: Box<str>,
    code: Box<str>,
    runs: Runs,
}

impl Entry {
    fn is(&self, grammar: &str, code: &str) -> bool {
        &*self.grammar == grammar && &*self.code == code
    }

    fn bytes(&self) -> usize {
        self.grammar.len()
            + self.code.len()
            + self
                .runs
                .as_ref()
                .map_or(0, |runs| std::mem::size_of_val(&**runs))
            + std::mem::size_of::<Self>()
    }
}

#[derive(Default)]
struct Generation {
    entries: HashMap<u64, Vec<Entry>>,
    bytes: usize,
}

impl Generation {
    fn find(&self, key: u64, grammar: &str, code: &str) -> Option<&Entry> {
        self.entries.get(&key)?.iter().find(|e| e.is(grammar, code))
    }

    fn take(&mut self, key: u64, grammar: &str, code: &str) -> Option<Entry> {
        let bucket = self.entries.get_mut(&key)?;
        let at = bucket.iter().position(|e| e.is(grammar, code))?;
        let entry = bucket.swap_remove(at);
        if bucket.is_empty() {
            self.entries.remove(&key);
        }
        self.bytes -= entry.bytes();
        Some(entry)
    }

    fn put(&mut self, key: u64, entry: Entry) {
        self.bytes += entry.bytes();
        self.entries.entry(key).or_default().push(entry);
    }
}

/// The process's kept runs.
#[derive(Default)]
pub(crate) struct Memo {
    current: Generation,
    previous: Generation,
}

impl Memo {
    /// The one memo of the process, shared by every rendering thread.
    pub(crate) fn shared() -> &'static Mutex<Memo> {
        static MEMO: LazyLock<Mutex<Memo>> = LazyLock::new(Mutex::default);
        &MEMO
    }

    /// The runs kept for `code` in `grammar`, if any.
    pub(crate) fn get(&mut self, grammar: &str, code: &str) -> Option<Runs> {
        let key = key(grammar, code);
        if let Some(entry) = self.current.find(key, grammar, code) {
            return Some(entry.runs.clone());
        }
        let entry = self.previous.take(key, grammar, code)?;
        let runs = entry.runs.clone();
        self.keep(key, entry);
        Some(runs)
    }

    /// Keeps `runs` as what `code` in `grammar` highlights to.
    pub(crate) fn put(&mut self, grammar: &str, code: &str, runs: Runs) {
        let key = key(grammar, code);
        if self.current.find(key, grammar, code).is_some() {
            return;
        }
        let entry = Entry {
            grammar: grammar.into(),
            code: code.into(),
            runs,
        };
        self.keep(key, entry);
    }

    fn keep(&mut self, key: u64, entry: Entry) {
        if self.current.bytes + entry.bytes() > GENERATION_BYTES {
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.put(key, entry);
    }
}

fn key(grammar: &str, code: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    (grammar, code).hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TokenKind;

    fn runs(end: u32) -> Runs {
        Some(Arc::from(vec![TokenRun {
            start: 0,
            end,
            kind: TokenKind::Keyword,
        }]))
    }

    #[test]
    fn a_kept_block_is_found_by_grammar_and_code() {
        let mut memo = Memo::default();
        memo.put("python", "def f(): pass", runs(3));
        assert_eq!(memo.get("python", "def f(): pass"), Some(runs(3)));
        assert_eq!(memo.get("ruby", "def f(): pass"), None);
        assert_eq!(memo.get("python", "def g(): pass"), None);
    }

    #[test]
    fn memory_stays_within_two_generations_and_hot_code_stays() {
        let mut memo = Memo::default();
        memo.put("rust", "fn hot() {}", runs(2));
        let block = "x".repeat(64 * 1024);
        for n in 0..2 * GENERATION_BYTES / block.len() {
            memo.put("rust", &format!("{block}{n}"), None);
            // Read back often enough to be carried into each new generation.
            assert_eq!(memo.get("rust", "fn hot() {}"), Some(runs(2)));
        }
        assert!(memo.current.bytes <= GENERATION_BYTES);
        assert!(memo.previous.bytes <= GENERATION_BYTES);
        assert_eq!(memo.get("rust", &format!("{block}0")), None);
    }
}
