//! The offline search index's postings merged from its groups of pages: each term's list made
//! from the groups in the site's order, a very common term's cut back to its best postings as
//! it grows. Merging every term of a large site was most of a one-page export's index
//! (BENCHMARKS.md), though such an export writes only a few term shards again, so the merge can
//! take only the terms of some shards: each term's list is then made from the same groups in
//! the same order, and is the same. [`TermTotals`] is what the index knows of every term
//! without merging: how many postings it has in all, which sizes and prunes the shards.

use super::counted_section::FxHashMap;
use super::group_postings::{GroupPostings, TermHash};
use super::term_shards::{MAX_POSTINGS, Placed, Postings, shard_numbered, weight};

/// A term's list is cut back to twice `MAX_POSTINGS` when it reaches this many while documents
/// are still added.
pub(super) const PRUNE_AT: usize = 8 * MAX_POSTINGS;

/// Every term's postings in all the groups added, counted by its [`TermHash`].
#[derive(Default)]
pub(super) struct TermTotals {
    postings: FxHashMap<TermHash, u32>,
}

impl TermTotals {
    /// Counts `group`'s postings.
    pub fn add(&mut self, group: &GroupPostings) {
        for ((_, list), hash) in group.terms().zip(group.term_hashes()) {
            *self.postings.entry(*hash).or_default() += list.len() as u32;
        }
    }

    /// The postings the shards will list: each term's, at most `MAX_POSTINGS`.
    pub fn listed(&self) -> usize {
        self.postings
            .values()
            .map(|&n| (n as usize).min(MAX_POSTINGS))
            .sum()
    }

    /// Which of `shards` shards hold a term whose list is pruned while it is merged: one with
    /// `PRUNE_AT` postings or more, as merging adds postings until a list reaches that many.
    pub fn pruned_shards(&self, shards: usize) -> Vec<bool> {
        let mut pruned = vec![false; shards];
        for (&(_, shard_hash), &n) in &self.postings {
            if n as usize >= PRUNE_AT {
                pruned[shard_numbered(shard_hash, shards)] = true;
            }
        }
        pruned
    }
}

/// Terms' postings merged from groups, in the order the groups were added.
#[derive(Default)]
pub(super) struct MergedPostings {
    /// term -> its number in `postings`, each term's string kept once.
    terms: FxHashMap<String, u32>,
    postings: Vec<Postings>,
    /// Each term's shard hash, by number.
    shard_hashes: Vec<u32>,
    scratch: PruneScratch,
}

/// The terms a merge takes: those of the shards marked, of `shards`.
pub(super) struct ShardSet<'a> {
    pub marked: &'a [bool],
    pub shards: usize,
}

impl ShardSet<'_> {
    fn holds(&self, shard_hash: u32) -> bool {
        self.marked
            .get(shard_numbered(shard_hash, self.shards))
            .copied()
            .unwrap_or(false)
    }
}

impl MergedPostings {
    /// Adds the postings of `group`, whose documents are numbered from `first`: all its terms'
    /// or, with `only`, those of the shards it marks. `lengths` holds at least every document's
    /// up to the group's last, and `average` is their mean, which a pruning weighs by.
    pub fn add(
        &mut self,
        group: &GroupPostings,
        first: u32,
        lengths: &[u32],
        average: f64,
        only: Option<&ShardSet<'_>>,
    ) {
        for ((token, list), &(_, shard_hash)) in group.terms().zip(group.term_hashes()) {
            if only.is_some_and(|set| !set.holds(shard_hash)) {
                continue;
            }
            let term = match self.terms.get(token) {
                Some(&term) => term,
                None => {
                    let term = self.postings.len() as u32;
                    self.postings.push(Postings::default());
                    self.shard_hashes.push(shard_hash);
                    self.terms.insert(token.to_string(), term);
                    term
                }
            };
            let postings = &mut self.postings[term as usize];
            postings.df += list.len() as u32;
            postings
                .list
                .extend(list.iter().map(|&(section, tf)| (first + section, tf)));
            // A very common term would hold a posting for most documents until the end, which
            // for a large site is most of the export's memory: its list is cut back to its best
            // postings by the weights known so far, with room to spare above what is kept.
            if postings.list.len() >= PRUNE_AT {
                prune(
                    &mut postings.list,
                    lengths,
                    average,
                    2 * MAX_POSTINGS,
                    &mut self.scratch,
                );
            }
        }
    }

    /// The merged terms of the shards `only` marks, placed in their shards.
    pub fn placed(&self, only: &ShardSet<'_>) -> Vec<Placed<'_>> {
        self.terms
            .iter()
            .filter_map(|(term, &number)| {
                let shard_hash = self.shard_hashes[number as usize];
                only.holds(shard_hash).then(|| {
                    (
                        shard_numbered(shard_hash, only.shards),
                        term.as_str(),
                        number,
                    )
                })
            })
            .collect()
    }

    /// The merged postings, by term number.
    pub fn postings(&self) -> &[Postings] {
        &self.postings
    }

    /// The postings of `term`, if it was merged.
    #[cfg(test)]
    pub fn of(&self, term: &str) -> Option<&Postings> {
        self.terms.get(term).map(|&n| &self.postings[n as usize])
    }
}

/// Keeps the `keep` best of `list`, which is in doc order, by their weight with the `average`
/// length known so far, in doc order; `scratch` is room for the selection, kept between calls.
fn prune(
    list: &mut Vec<(u32, u32)>,
    lengths: &[u32],
    average: f64,
    keep: usize,
    scratch: &mut PruneScratch,
) {
    debug_assert!(list.windows(2).all(|pair| pair[0].0 < pair[1].0));
    if keep == 0 {
        list.clear();
        return;
    }
    if list.len() <= keep {
        return;
    }
    // Which postings are kept is all that matters here, so the keep-th best key is selected
    // rather than the list sorted (a large site prunes its common terms thousands of times),
    // and the list filtered by it in place, which leaves it in doc order with no sort after.
    // Each key is best weight first and then the earlier document: a document is listed once
    // per term, so the keys are distinct and exactly `keep` are at most the selected one.
    let PruneScratch { keys, selection } = scratch;
    keys.clear();
    keys.extend(list.iter().map(|&(doc, tf)| {
        let weight = weight(tf, lengths[doc as usize], average);
        (u64::from(u32::MAX - weight) << 32) | u64::from(doc)
    }));
    selection.clear();
    selection.extend_from_slice(keys);
    let (_, &mut threshold, _) = selection.select_nth_unstable(keep - 1);
    let mut key = keys.iter();
    // The list is filled again to `PRUNE_AT` before its next pruning: its room is kept.
    list.retain(|_| key.next().is_some_and(|&key| key <= threshold));
}

/// The buffers pruning selects in, kept between prunings so that each does not allocate its
/// own.
#[derive(Default)]
struct PruneScratch {
    keys: Vec<u64>,
    selection: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Pruning keeps the postings a full sort by weight (best first, then the earlier
        /// document) would keep, in document order.
        #[test]
        fn pruning_keeps_what_sorting_by_weight_keeps(
            postings in proptest::collection::btree_map(0u32..400, 1u32..40, 0..300),
            lengths in proptest::collection::vec(1u32..500, 400),
            average in 1.0f64..300.0,
            keep in 0usize..320,
        ) {
            let mut list: Vec<(u32, u32)> = postings.into_iter().collect();
            let mut sorted = list.clone();
            sorted.sort_by_key(|&(doc, tf)| {
                (std::cmp::Reverse(weight(tf, lengths[doc as usize], average)), doc)
            });
            sorted.truncate(keep);
            sorted.sort_by_key(|p| p.0);
            prune(&mut list, &lengths, average, keep, &mut PruneScratch::default());
            proptest::prop_assert_eq!(list, sorted);
        }
    }
}
