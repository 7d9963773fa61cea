//! The sections an answer draws from, made to vary. A search can return one page's sections
//! five times over (a long reference page matches every word of the question), or the same
//! text in several versions or languages; the answer then has one page to quote, and the page
//! that answers may be sixth. So more sections are fetched than are used, copies of one text
//! are kept once (the best-ranked), and a page gives at most `PER_PAGE` sections while other
//! pages have some to give.

use std::collections::{HashMap, HashSet};

use super::Ranked;

/// Sections fetched for each one used.
pub const OVERFETCH: u32 = 3;
/// Most sections fetched in one search, whatever the page size asked.
const MAX_FETCH: u32 = 60;
/// Sections a page gives before other pages have their turn.
const PER_PAGE: usize = 2;

/// How many sections to fetch for an answer that uses `limit`.
pub fn fetch_size(limit: u32) -> u32 {
    limit
        .saturating_mul(OVERFETCH)
        .clamp(limit, MAX_FETCH.max(limit))
}

/// `hits` (best first) cut to `limit`: copies dropped, at most `PER_PAGE` sections a page
/// unless too few pages are left to fill `limit`; rank order is kept.
pub fn diversify<H: Ranked>(hits: Vec<H>, limit: usize) -> Vec<H> {
    let mut seen_text = HashSet::new();
    let distinct: Vec<H> = hits
        .into_iter()
        .filter(|h| seen_text.insert(same_text_key(h.text())))
        .collect();
    let mut per_page: HashMap<&str, usize> = HashMap::new();
    let mut keep = vec![false; distinct.len()];
    let mut kept = 0;
    for (i, hit) in distinct.iter().enumerate() {
        let count = per_page.entry(hit.path()).or_default();
        if *count < PER_PAGE && kept < limit {
            *count += 1;
            keep[i] = true;
            kept += 1;
        }
    }
    // Too few other pages: the best of the rest fill the answer up.
    for slot in keep.iter_mut() {
        if kept >= limit {
            break;
        }
        if !*slot {
            *slot = true;
            kept += 1;
        }
    }
    distinct
        .into_iter()
        .zip(keep)
        .filter_map(|(hit, keep)| keep.then_some(hit))
        .collect()
}

/// A section's text with case and spacing left out, to tell copies apart from sections.
fn same_text_key(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::tests::{Hit, paths};

    fn hit(path: &str, text: &str) -> Hit {
        Hit::new(path, text, text)
    }

    #[test]
    fn one_page_gives_two_sections_while_others_have_some() {
        let hits = vec![
            hit("auth", "a"),
            hit("auth", "b"),
            hit("auth", "c"),
            hit("auth", "d"),
            hit("faq", "e"),
            hit("keys", "f"),
        ];
        assert_eq!(paths(&diversify(hits, 4)), ["auth", "auth", "faq", "keys"]);
    }

    #[test]
    fn copies_go_and_a_lone_page_still_fills_the_answer() {
        let hits = vec![
            hit("v1/auth", "Same  text"),
            hit("v2/auth", "same text"),
            hit("auth", "a"),
            hit("auth", "b"),
            hit("auth", "c"),
        ];
        let kept = diversify(hits, 4);
        assert_eq!(paths(&kept), ["v1/auth", "auth", "auth", "auth"]);
        assert_eq!(fetch_size(5), 15);
        assert_eq!(fetch_size(50), 60);
        assert_eq!(fetch_size(100), 100);
    }
}
