//! A memo bounded by two generations, for what a process keeps from one release of a site to
//! the next (a page's read, a page's index digest): entries go into the current generation, a
//! full one becomes the previous one (and the one before is dropped), and a hit in the
//! previous one moves the entry back. A site's release touches every entry it still uses, so
//! what a site stopped using is gone two generations later, with no clock and no list of uses.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard};

use quire_core::variables::Variables;
use sha2::{Digest, Sha256};

/// The memo: shared between threads, each call holding its lock briefly.
pub struct TwoGenerations<K, V> {
    generation_entries: usize,
    inner: Mutex<Generations<K, V>>,
}

struct Generations<K, V> {
    current: HashMap<K, V>,
    previous: HashMap<K, V>,
}

impl<K: Hash + Eq + Copy, V: Clone> TwoGenerations<K, V> {
    /// A memo whose generations hold `generation_entries` entries each.
    pub fn new(generation_entries: usize) -> Self {
        Self {
            generation_entries,
            inner: Mutex::new(Generations {
                current: HashMap::new(),
                previous: HashMap::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Generations<K, V>> {
        // Every change is whole before the lock is let go, so a poisoned lock is still right.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value kept under `key`, if any.
    pub fn get(&self, key: &K) -> Option<V> {
        let mut kept = self.lock();
        if let Some(value) = kept.current.get(key) {
            return Some(value.clone());
        }
        let value = kept.previous.remove(key)?;
        self.keep_in(&mut kept, *key, value.clone());
        Some(value)
    }

    /// Keeps each (key, value) of `entries`.
    pub fn put(&self, entries: impl IntoIterator<Item = (K, V)>) {
        let mut kept = self.lock();
        for (key, value) in entries {
            self.keep_in(&mut kept, key, value);
        }
    }

    fn keep_in(&self, kept: &mut Generations<K, V>, key: K, value: V) {
        if kept.current.len() >= self.generation_entries && !kept.current.contains_key(&key) {
            kept.previous = std::mem::take(&mut kept.current);
        }
        kept.current.insert(key, value);
    }
}

/// The part of a memo's keys that covers `format` (what is kept, and how it is made) and the
/// site's `variables`, hashed once per run: what reads of a page's source depend on besides
/// the source, since its variables are replaced as it is read.
pub fn variables_context(format: &[u8], variables: &Variables) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update(format);
    for (name, value) in variables.in_order() {
        for part in [name, value] {
            hash.update((part.len() as u64).to_le_bytes());
            hash.update(part.as_bytes());
        }
    }
    hash.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_used_stays_and_what_is_not_is_gone_two_generations_later() {
        let memo = TwoGenerations::new(2);
        memo.put([(1, "a"), (2, "b")]);
        memo.put([(3, "c")]); // 1 and 2 become the previous generation
        assert_eq!(
            memo.get(&1),
            Some("a"),
            "a hit in the previous one moves it back"
        );
        memo.put([(4, "d")]); // current {3, 1} is full: it becomes the previous one
        assert_eq!(memo.get(&2), None, "unused for two generations");
        assert_eq!((memo.get(&3), memo.get(&4)), (Some("c"), Some("d")));
    }
}
