//! One group of sections' postings for the offline search index: each distinct term of the
//! group with the sections holding it, collected with one map for the group, so that the
//! index (`search_index`) adds the group with one look up per term (`index_groups` keeps them).

use super::PageSections;
use super::counted_section::{FxHashMap, SectionParts};

/// One group's postings: for each distinct term of its sections, the sections holding it with
/// the term's frequency, sections numbered from the group's first.
#[derive(Default)]
pub struct GroupPostings {
    /// Each section's length in tokens, at least 1, in order.
    lengths: Vec<u32>,
    /// The distinct terms, one after another, in the order they first appear.
    terms: String,
    /// Per term: where its text ends in `terms` and its postings end in `postings`.
    ends: Vec<(u32, u32)>,
    /// (section, term frequency), each term's in section order.
    postings: Vec<(u32, u32)>,
}

impl GroupPostings {
    /// The postings of one section.
    pub fn of_section(section: &SectionParts<'_>) -> Self {
        let mut group = Self::default();
        group.add_all(|add| add(section));
        group
    }

    /// The postings of the sections `each` gives, in order: a page's stored sections are
    /// read in place, so they are only borrowed while each is added.
    fn add_all(&mut self, each: impl FnOnce(&mut dyn FnMut(&SectionParts<'_>))) {
        let mut numbers: FxHashMap<Box<str>, u32> = FxHashMap::default();
        let mut lists: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut terms = String::new();
        let mut term_ends = Vec::new();
        let lengths = &mut self.lengths;
        each(&mut |section: &SectionParts<'_>| {
            let id = lengths.len() as u32;
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
        group.add_all(|add| pages.iter().for_each(|page| page.each(&mut *add)));
        group
    }

    /// Each section's length, in order.
    pub fn lengths(&self) -> &[u32] {
        &self.lengths
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
