//! One group of sections' postings for the offline search index: each distinct term of the
//! group with the sections holding it, collected with one map for the group, so that the
//! index (`search_index`) adds the group with one look up per term (`index_groups` keeps them).

use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::PageSections;
use super::counted_section::{FxHashMap, SectionParts};
use super::search_chunks::Numbering;
use super::term_shards::{shard_hash, shard_numbered};

/// A shard's number and the digest of what a group gives it (128 bits of a SHA-256: content
/// addressing, not a defence against collisions made on purpose).
pub type ShardDigest = (u32, [u8; 16]);

/// A term told apart from every other by two hashes of it (96 bits): the one that names its
/// shard, and another, so the index counts terms' postings over all groups without holding
/// their strings.
pub type TermHash = (u64, u32);

/// One group's postings: for each distinct term of its sections, the sections holding it with
/// the term's frequency, sections numbered from the group's first, each page's in its range
/// (`search_chunks::Numbering`).
#[derive(Default)]
pub struct GroupPostings {
    /// Each number's section length in tokens, at least 1; 0 for a number with no section.
    lengths: Vec<u32>,
    /// Sections in the group.
    documents: usize,
    /// The distinct terms, one after another, in the order they first appear.
    terms: String,
    /// Per term: where its text ends in `terms` and its postings end in `postings`.
    ends: Vec<(u32, u32)>,
    /// (section, term frequency), each term's in section order.
    postings: Vec<(u32, u32)>,
    /// Its shard digests for the last shard count asked: a kept group is asked again at
    /// every export, nearly always for the same count.
    digests: Mutex<Option<(usize, Arc<[ShardDigest]>)>>,
    /// Each term's [`TermHash`], in the terms' order, made when first asked.
    hashes: OnceLock<Box<[TermHash]>>,
}

impl GroupPostings {
    /// The postings of one section.
    pub fn of_section(section: &SectionParts<'_>) -> Self {
        let mut group = Self::default();
        group.add_all(|add| add(Some(section)));
        group
    }

    /// The postings of the sections `each` gives, in order, each page's ended by `None`: a
    /// page's stored sections are read in place, so they are only borrowed while each is
    /// added.
    fn add_all(&mut self, each: impl FnOnce(&mut dyn FnMut(Option<&SectionParts<'_>>))) {
        let mut numbers: FxHashMap<Box<str>, u32> = FxHashMap::default();
        let mut lists: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut terms = String::new();
        let mut term_ends = Vec::new();
        let lengths = &mut self.lengths;
        let documents = &mut self.documents;
        let mut numbering = Numbering::default();
        each(&mut |section: Option<&SectionParts<'_>>| {
            let Some(section) = section else {
                lengths.resize(numbering.end_page(), 0);
                return;
            };
            *documents += 1;
            let id = numbering.next() as u32;
            numbering.take(1);
            lengths.push(section.length.max(1));
            let mut start = 0;
            for &(end, tf) in section.counts {
                let token = &section.terms[start..end as usize];
                start = end as usize;
                let number = match numbers.get(token) {
                    Some(&number) => number,
                    None => {
                        let number = lists.len() as u32;
                        numbers.insert(token.into(), number);
                        terms.push_str(token);
                        term_ends.push(terms.len() as u32);
                        lists.push(Vec::new());
                        number
                    }
                };
                lists[number as usize].push((id, tf));
            }
        });
        self.postings
            .reserve_exact(lists.iter().map(Vec::len).sum());
        for (list, term_end) in lists.into_iter().zip(term_ends) {
            self.postings.extend(list);
            self.ends.push((term_end, self.postings.len() as u32));
        }
        self.terms = terms;
    }

    /// The postings of the sections of `pages`, in order.
    pub(super) fn of_pages(pages: &[PageSections]) -> Self {
        let mut group = Self::default();
        group.add_all(|add| {
            for page in pages {
                page.each(|section: &SectionParts<'_>| add(Some(section)));
                add(None);
            }
        });
        group
    }

    /// For each shard of `shards` that its terms fall in, in order, the digest of what it
    /// gives that shard: those terms with their postings and the lengths of the sections
    /// listed. An edit to one page changes the digests of the shards that page's terms fall
    /// in, and no other (`shard_keys`).
    pub fn shard_digests(&self, shards: usize) -> Arc<[ShardDigest]> {
        // Every change is whole before the lock is let go, so a poisoned lock is still right.
        let mut kept = self
            .digests
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((count, digests)) = kept.as_ref()
            && *count == shards
        {
            return Arc::clone(digests);
        }
        let hashes = self.term_hashes();
        let mut hashers: Vec<Option<Sha256>> = (0..shards).map(|_| None).collect();
        // Each term's part is gathered into one buffer and hashed at once: a posting is a few
        // bytes, and hashing them one by one costs more than the bytes.
        let mut part: Vec<u8> = Vec::new();
        for ((term, list), &(_, shard_hash)) in self.terms().zip(hashes) {
            part.clear();
            part.extend_from_slice(&(term.len() as u64).to_le_bytes());
            part.extend_from_slice(term.as_bytes());
            part.extend_from_slice(&(list.len() as u64).to_le_bytes());
            for &(section, tf) in list {
                let length = self.lengths.get(section as usize).copied().unwrap_or(0);
                for number in [section, tf, length] {
                    part.extend_from_slice(&number.to_le_bytes());
                }
            }
            hashers[shard_numbered(shard_hash, shards)]
                .get_or_insert_with(Sha256::new)
                .update(&part);
        }
        let digests: Arc<[ShardDigest]> = hashers
            .into_iter()
            .enumerate()
            .filter_map(|(shard, hasher)| {
                let digest: [u8; 32] = hasher?.finalize().into();
                let mut short = [0u8; 16];
                short.copy_from_slice(&digest[..16]);
                Some((shard as u32, short))
            })
            .collect();
        *kept = Some((shards, Arc::clone(&digests)));
        digests
    }

    /// Each term's [`TermHash`], in the order of [`Self::terms`].
    pub fn term_hashes(&self) -> &[TermHash] {
        self.hashes.get_or_init(|| {
            self.terms()
                .map(|(term, _)| {
                    // SipHash with fixed keys: the same term has the same hash in every process.
                    let mut hasher = std::hash::DefaultHasher::new();
                    term.hash(&mut hasher);
                    (hasher.finish(), shard_hash(term))
                })
                .collect()
        })
    }

    /// Each number's section length, in order: 0 where a page's range has no section.
    pub fn lengths(&self) -> &[u32] {
        &self.lengths
    }

    /// The sections in the group.
    pub fn documents(&self) -> usize {
        self.documents
    }

    /// Each distinct term with its postings.
    pub fn terms(&self) -> impl Iterator<Item = (&str, &[(u32, u32)])> {
        let mut text_start = 0;
        let mut postings_start = 0;
        self.ends.iter().map(move |&(text_end, postings_end)| {
            let term = &self.terms[text_start..text_end as usize];
            let postings = &self.postings[postings_start..postings_end as usize];
            (text_start, postings_start) = (text_end as usize, postings_end as usize);
            (term, postings)
        })
    }
}
