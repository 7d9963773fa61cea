//! Reciprocal rank fusion: one ranking from several, each item scored by the sum of
//! 1 / (K + rank) over the rankings it appears in (Cormack, Clarke and Büttcher, SIGIR 2009).
//! A follow-up is searched both as asked and steered by the earlier turn; fusing the two keeps
//! what the new question is about without losing the thread's subject.

use std::collections::HashMap;

use super::Ranked;

/// The constant of the original paper: it damps the weight of the very first ranks.
const K: f32 = 60.0;

/// `rankings` fused, best first, at most `limit`; a section is known by its page, anchor and
/// text (the windows of a long section share its anchor).
pub fn fuse<H: Ranked>(rankings: Vec<Vec<H>>, limit: usize) -> Vec<H> {
    let mut scored: HashMap<(String, String, u64), (f32, usize, H)> = HashMap::new();
    let mut order = 0;
    for ranking in rankings {
        for (rank, hit) in ranking.into_iter().enumerate() {
            let key = (
                hit.path().to_string(),
                hit.anchor().to_string(),
                text_hash(hit.text()),
            );
            let gain = 1.0 / (K + rank as f32 + 1.0);
            order += 1;
            scored
                .entry(key)
                .and_modify(|(score, _, _)| *score += gain)
                .or_insert((gain, order, hit));
        }
    }
    let mut fused: Vec<(f32, usize, H)> = scored.into_values().collect();
    fused.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    fused
        .into_iter()
        .take(limit)
        .map(|(score, _, mut hit)| {
            hit.set_score(score);
            hit
        })
        .collect()
}

fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::tests::{Hit, paths};

    fn hit(path: &str) -> Hit {
        Hit::new(path, "", "")
    }

    #[test]
    fn windows_of_one_section_stay_apart() {
        let window = |text: &str| Hit::new("limits", "", text);
        let fused = fuse(vec![vec![window("first part"), window("second part")]], 5);
        assert_eq!(fused.len(), 2);
    }

    #[test]
    fn items_in_both_rankings_come_first_then_by_rank() {
        let plain = vec![hit("signatures"), hit("retries"), hit("keys")];
        let steered = vec![hit("retries"), hit("changelog"), hit("signatures")];
        let fused = fuse(vec![plain, steered], 3);
        assert_eq!(paths(&fused), ["retries", "signatures", "changelog"]);
    }
}
