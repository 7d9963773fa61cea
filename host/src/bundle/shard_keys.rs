//! The keys of the offline search index's term shards. A shard is written from the postings of
//! its terms, and those come from the groups of pages that hold them (`index_groups`): each
//! group gives each shard its terms fall in a digest of what it gives it
//! (`GroupPostings::shard_digests`), and a shard's key is the hash of those digests with their
//! groups' first documents, the shard count and the average length its postings are weighed
//! by. An edit to one page changes the digests of the shards that page's terms fall in, and so
//! their keys and no other (BENCHMARKS.md). A shard that holds a term pruned while the index
//! was built (whose postings then depend on every document before it) has no key and is
//! written every time.

use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::group_postings::GroupPostings;

/// Changes whenever what a shard's key covers, or how its body is written, changes.
const KEY_FORMAT: &[u8] = b"quire-offline-index-shard/2";

/// The groups an index was built from, in order, each with its first document's number.
#[derive(Default)]
pub(super) struct ShardSources {
    groups: Vec<(Arc<GroupPostings>, u32)>,
}

impl ShardSources {
    /// Records `group`, added with `first` as its first document's number.
    pub fn add(&mut self, group: &Arc<GroupPostings>, first: u32) {
        self.groups.push((Arc::clone(group), first));
    }

    /// The groups recorded, in order, each with its first document's number.
    pub fn groups(&self) -> &[(Arc<GroupPostings>, u32)] {
        &self.groups
    }

    /// Each of `shards` shards' key, for postings weighed with `average`; `pruned` says which
    /// shards hold a pruned term.
    pub fn keys(&self, shards: usize, average: f64, pruned: &[bool]) -> Vec<Option<[u8; 32]>> {
        let mut keys: Vec<Option<Sha256>> = (0..shards)
            .map(|shard| {
                (!pruned.get(shard).copied().unwrap_or(true)).then(|| {
                    let mut key = Sha256::new();
                    key.update(KEY_FORMAT);
                    key.update((shards as u64).to_le_bytes());
                    key.update((shard as u64).to_le_bytes());
                    key.update(average.to_bits().to_le_bytes());
                    key
                })
            })
            .collect();
        for (group, first) in &self.groups {
            for &(shard, digest) in group.shard_digests(shards).iter() {
                if let Some(Some(key)) = keys.get_mut(shard as usize) {
                    key.update(digest);
                    key.update(first.to_le_bytes());
                }
            }
        }
        keys.into_iter()
            .map(|key| key.map(|key| key.finalize().into()))
            .collect()
    }
}
