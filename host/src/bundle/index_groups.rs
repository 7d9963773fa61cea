//! The offline search index's postings collected per group of pages and kept in the process, so
//! that an export after a small change collects again only the group the change falls in.
//! Adding every section's postings to the index, one term at a time, was the largest part of a
//! one-page export of a large site (BENCHMARKS.md); a group's postings are added with one look
//! up per distinct term of the group instead.
//!
//! Pages are cut into groups at content-defined boundaries, as the server's search index is
//! (`search::segments`), by `page_groups::closes_group`: a page whose path hashes to a
//! multiple of `PAGES_PER_GROUP` closes its group, so an edited, added or removed page changes
//! the group it falls in and no other. [`GroupCut`] decides it once per page, for both the
//! postings and the documents, as each group's documents are numbered in a range of their own
//! (`search_chunks`). A group's postings are kept under the hash of its pages'
//! stored sections. The index is the same whether a group's postings were collected now or
//! kept: both are made from the same sections by `GroupPostings::of_pages`, and the index adds
//! groups in the site's order either way.

use std::sync::{Arc, LazyLock};

use sha2::{Digest, Sha256};

use super::PageSections;
use super::group_postings::GroupPostings;
use super::search_index::{IndexFiles, SearchIndexBuilder};
use crate::memo::TwoGenerations;
use crate::page_groups::closes_group;

/// Pages per group, on average: a one-page change collects about this many pages' postings
/// again, and the index looks each of a group's distinct terms up once.
const PAGES_PER_GROUP: u64 = 64;
/// A group closes at this many pages even where no page closes it.
const MAX_GROUP_PAGES: usize = 1_024;
/// Changes whenever what a group's key covers, or what its postings hold, changes.
const KEY_FORMAT: &[u8] = b"quire-offline-index-group/2";
/// Groups kept per generation of the process's memo: about 130,000 pages' worth of sites each.
const GROUPS_PER_GENERATION: usize = 2_048;

/// The groups' postings this process collected, by key.
static KEPT: LazyLock<Memo> = LazyLock::new(|| TwoGenerations::new(GROUPS_PER_GENERATION));

/// Where groups' postings are kept between exports.
pub type Memo = TwoGenerations<[u8; 32], Arc<GroupPostings>>;

/// Where the pages with sections, in the site's order, close their groups.
#[derive(Default)]
pub struct GroupCut {
    /// Pages in the group so far.
    pages: usize,
}

impl GroupCut {
    /// Whether the page at `path`, the next with sections, closes its group.
    pub fn closes_after(&mut self, path: &str) -> bool {
        self.pages += 1;
        let closes = closes_group(path, PAGES_PER_GROUP) || self.pages >= MAX_GROUP_PAGES;
        if closes {
            self.pages = 0;
        }
        closes
    }
}

/// The index's builder, given pages in the site's order and adding their postings a group at a
/// time, each group's kept in `memo` or collected and kept there.
pub struct GroupedIndex {
    builder: SearchIndexBuilder,
    memo: &'static Memo,
    /// The pages of the group being filled, and the hash of their sections so far.
    pages: Vec<PageSections>,
    key: Sha256,
    /// Whether every page of the group so far could be hashed, so the group can be kept.
    keyable: bool,
    /// Groups added, and those of them found kept.
    groups: usize,
    reused: usize,
}

impl Default for GroupedIndex {
    fn default() -> Self {
        Self::with_memo(&KEPT)
    }
}

impl GroupedIndex {
    /// A builder keeping groups' postings in `memo`.
    pub fn with_memo(memo: &'static Memo) -> Self {
        Self {
            builder: SearchIndexBuilder::default(),
            memo,
            pages: Vec::new(),
            key: group_key(),
            keyable: true,
            groups: 0,
            reused: 0,
        }
    }

    /// A builder keeping groups' postings in `memo` and shards' bodies in `shards`.
    #[cfg(test)]
    fn with_memos(memo: &'static Memo, shards: &'static super::term_shards::ShardMemo) -> Self {
        Self {
            builder: SearchIndexBuilder::with_shard_memo(shards),
            ..Self::with_memo(memo)
        }
    }

    /// Adds the sections of the next page in the site's order; `closes` says it closes its
    /// group ([`GroupCut`]).
    pub fn add(&mut self, page: PageSections, closes: bool) {
        match page.digest() {
            Some(digest) => self.key.update(digest),
            // Sections that cannot be hashed make a group that is collected and not kept.
            None => self.keyable = false,
        }
        self.pages.push(page);
        if closes {
            self.close_group();
        }
    }

    /// Adds the postings of the group being filled.
    fn close_group(&mut self) {
        if self.pages.is_empty() {
            return;
        }
        let key: [u8; 32] = std::mem::replace(&mut self.key, group_key())
            .finalize()
            .into();
        let pages = std::mem::take(&mut self.pages);
        let keyable = std::mem::replace(&mut self.keyable, true);
        let kept = keyable.then(|| self.memo.get(&key)).flatten();
        let was_kept = kept.is_some();
        let group = match kept {
            Some(group) => {
                self.reused += 1;
                group
            }
            None => {
                let group = Arc::new(GroupPostings::of_pages(&pages));
                if keyable {
                    self.memo.put([(key, Arc::clone(&group))]);
                }
                group
            }
        };
        self.groups += 1;
        self.builder.add_group(&group, was_kept);
        self.builder.end_group();
    }

    /// The index's files (its term shards and header; its documents are written by the
    /// caller), and how many groups it had and how many of them were kept.
    pub fn finish(mut self) -> (IndexFiles, usize, usize) {
        self.close_group();
        let metrics = crate::metrics::get();
        metrics
            .offline_index_groups_built
            .inc_by((self.groups - self.reused) as u64);
        metrics
            .offline_index_groups_reused
            .inc_by(self.reused as u64);
        (self.builder.finish(), self.groups, self.reused)
    }
}

/// A group's key before its pages: what the key covers, and the host that counted the terms.
fn group_key() -> Sha256 {
    let mut key = Sha256::new();
    key.update(KEY_FORMAT);
    key.update(env!("CARGO_PKG_VERSION").as_bytes());
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::page_sections::Sections;
    use crate::bundle::{CountedSection, SearchDocument};

    /// Memos of the test's own, empty: groups' postings and shards' bodies.
    fn fresh_memo() -> &'static (Memo, super::super::term_shards::ShardMemo) {
        Box::leak(Box::new((
            TwoGenerations::new(GROUPS_PER_GENERATION),
            TwoGenerations::new(4_096),
        )))
    }

    /// The sections of the page at `path`; `edit` changes its text. Every section says "common", so a
    /// site of a few hundred pages prunes that term's postings while it is built.
    fn page(path: &str, edit: &str) -> PageSections {
        let sections = (0..30)
            .map(|s| {
                CountedSection::of(SearchDocument {
                    path: path.to_string(),
                    anchor: format!("part-{s}"),
                    trail: vec![format!("Page {path}"), format!("Part {s}")],
                    text: format!(
                        "common words {} and {path} number{s} {edit}",
                        "common ".repeat(s % 7)
                    ),
                    scope: "/".into(),
                })
            })
            .collect();
        PageSections::of(Sections::Counted(sections))
    }

    /// The index of `pages` (path, edit), built with `memo`, and (groups, reused).
    fn index(
        pages: &[(String, String)],
        memo: &'static (Memo, super::super::term_shards::ShardMemo),
    ) -> (IndexFiles, usize, usize) {
        let mut index = GroupedIndex::with_memos(&memo.0, &memo.1);
        let mut cut = GroupCut::default();
        for (i, (path, edit)) in pages.iter().enumerate() {
            let mut sections = page(path, edit);
            // Every other page as a kept summary gives it back.
            if i % 2 == 1 {
                let stored = postcard::to_allocvec(&sections).expect("stores");
                sections = postcard::from_bytes(&stored).expect("reads back");
            }
            index.add(sections, cut.closes_after(path));
        }
        index.finish()
    }

    #[test]
    fn an_index_with_kept_groups_is_the_one_built_from_nothing() {
        let mut pages: Vec<(String, String)> = (0..400)
            .map(|i| (format!("guides/page-{i}"), String::new()))
            .collect();
        let memo = fresh_memo();
        let (before, groups, reused) = index(&pages, memo);
        assert_eq!(reused, 0);
        assert!(groups > 2, "{groups} groups");
        assert_eq!(before.shards_kept, 0);
        let (again, _, _) = index(&pages, memo);
        assert!(again.files == before.files);
        // Every shard but those holding a pruned term (those of every section: "common",
        // "words", "page", ...) is kept.
        assert!(
            before.shards > 2 && again.shards_kept > before.shards / 2,
            "{} of {} shards kept",
            again.shards_kept,
            before.shards
        );

        // One page's text changed: one group is collected again, and the shards of its terms
        // are written again.
        pages[200].1 = "an appended sentence".into();
        let (after, groups_after, reused) = index(&pages, memo);
        assert_eq!((groups_after, reused), (groups, groups - 1));
        let (from_nothing, _, _) = index(&pages, fresh_memo());
        assert!(
            after.files == from_nothing.files,
            "the same files, byte for byte"
        );
        assert!(after.files != before.files);

        // An edit to the first group: that group is merged as it comes, the kept ones after
        // it at the end.
        pages[0].1 = "an edit up front".into();
        let (front, _, reused) = index(&pages, memo);
        assert_eq!(reused, groups - 1);
        let (from_nothing, _, _) = index(&pages, fresh_memo());
        assert!(
            front.files == from_nothing.files,
            "the same files, byte for byte"
        );

        // A page added changes its own group and no other.
        pages.insert(100, ("guides/added".into(), "new".into()));
        let (added, groups_added, reused) = index(&pages, memo);
        assert!(
            reused + 2 >= groups_added && groups_added <= groups + 1,
            "{reused} of {groups_added}"
        );
        let (from_nothing, _, _) = index(&pages, fresh_memo());
        assert!(
            added.files == from_nothing.files,
            "the same files, byte for byte"
        );
    }

    #[test]
    fn an_edit_writes_again_only_the_shards_of_the_terms_it_reaches() {
        // Pages of words of their own, in sections of three words, so that an edit to one
        // section reaches the shards of four terms of the index's thousands.
        let memo = fresh_memo();
        // An edit that starts with "##" adds a section to the page, as a new heading does.
        let build = |memo: &'static (Memo, super::super::term_shards::ShardMemo), edit: &str| {
            let mut index = GroupedIndex::with_memos(&memo.0, &memo.1);
            let mut cut = GroupCut::default();
            for i in 0..2_000 {
                let path = format!("reference/item-{i}");
                let count = if i == 900 && edit.starts_with("##") {
                    10
                } else {
                    9
                };
                let sections = (0..count)
                    .map(|s| {
                        let words: String = (0..3).map(|w| format!("w{i}s{s}x{w} ")).collect();
                        let text = if (i, s) == (900, 3) {
                            format!("{words} {edit}")
                        } else {
                            words
                        };
                        CountedSection::of(SearchDocument {
                            path: path.clone(),
                            anchor: format!("s{s}"),
                            trail: vec![],
                            text,
                            scope: "/".into(),
                        })
                    })
                    .collect();
                let closes = cut.closes_after(&path);
                index.add(PageSections::of(Sections::Counted(sections)), closes);
            }
            index.finish().0
        };
        let before = build(memo, "");
        let after = build(memo, "appended");
        let from_nothing = build(fresh_memo(), "appended");
        assert!(
            after.files == from_nothing.files,
            "the same files, byte for byte"
        );
        assert!(after.files != before.files);
        assert!(
            after.shards > 10 && after.shards_kept + 5 >= after.shards,
            "{} of {} shards kept",
            after.shards_kept,
            after.shards
        );

        // A section more in one group leaves the other groups' document numbers, and so the
        // shards of their terms, as they were.
        let sectioned = build(memo, "## heading");
        assert!(
            sectioned.files == build(fresh_memo(), "## heading").files,
            "the same files, byte for byte"
        );
        assert!(
            sectioned.shards_kept + 5 >= sectioned.shards,
            "{} of {} shards kept",
            sectioned.shards_kept,
            sectioned.shards
        );
    }

    #[test]
    fn groups_close_where_their_pages_say_whatever_comes_before() {
        let closing: Vec<bool> = (0..2_000)
            .map(|i| closes_group(&format!("guides/page-{i}"), PAGES_PER_GROUP))
            .collect();
        let count = closing.iter().filter(|&&c| c).count();
        // About one page in `PAGES_PER_GROUP`.
        assert!(
            (10..=60).contains(&count),
            "{count} of 2,000 pages close a group"
        );
    }
}
