//! The offline search index's term shards written out: each term's postings as JSON, in the
//! shard its hash names, terms in order within a shard. Writing every posting was the serial
//! end of a one-page export's index (BENCHMARKS.md), so a shard's file is kept in the process
//! under its key (`shard_keys`: what it is written from), and only the shards whose keys are
//! new are written. Shards hold disjoint terms, so those are written on several threads, each
//! taking every n-th shard, and the files are the same whatever the number of threads.

use std::sync::{Arc, LazyLock};

use crate::memo::TwoGenerations;

/// Threads the shards are written on at most: an export's other threads are busy then too.
const MAX_THREADS: usize = 4;
/// An index with fewer terms is written on the calling thread.
const TERMS_PER_THREAD: usize = 20_000;
/// Postings kept per term, the highest-weighted ones.
pub(super) const MAX_POSTINGS: usize = 1_000;
/// Shards kept per generation of the process's memo: the most one site's index has.
const SHARDS_PER_GENERATION: usize = 4_096;

/// The shards' files this process wrote, by their keys.
static KEPT: LazyLock<ShardMemo> = LazyLock::new(|| TwoGenerations::new(SHARDS_PER_GENERATION));

/// Where shards' files are kept between exports.
pub(super) type ShardMemo = TwoGenerations<[u8; 32], Arc<[u8]>>;

/// A term's postings while documents are added.
#[derive(Default)]
pub(super) struct Postings {
    /// Documents holding the term, all of them (the list may have been pruned).
    pub df: u32,
    /// (doc id, raw term frequency), in doc order.
    pub list: Vec<(u32, u32)>,
}

/// A shard's terms, with their numbers in the postings.
type Terms<'t> = Vec<(&'t str, u32)>;

/// What weighs a posting: each document's length and the average.
pub(super) struct Lengths<'a> {
    pub lengths: &'a [u32],
    pub average: f64,
}

/// The average length postings are weighed by: the mean of the documents' lengths, rounded to
/// 7 significant bits (steps under 1.6%, far below what moves a ranking). An edit moves the
/// mean a little and then rarely the rounded one, so the postings of the documents it did not
/// touch keep their weights and their shards stay as they were written.
pub(super) fn weighing_average(mean: f64) -> f64 {
    if !mean.is_finite() || mean <= 0.0 {
        return 1.0;
    }
    // A multiple of a power of two is exact in a float, so the same mean always gives the
    // same average.
    let step = 2f64.powi(mean.log2().floor() as i32 - 6);
    (mean / step).round() * step
}

/// The process's memo of shards' bodies.
pub(super) fn process_memo() -> &'static ShardMemo {
    &KEPT
}

/// A term placed in its shard: (shard, term, its number in the postings).
pub(super) type Placed<'t> = (usize, &'t str, u32);

/// The files of the shards `keys` name that `memo` holds; `None` for each shard to write.
pub(super) fn kept(memo: &ShardMemo, keys: &[Option<[u8; 32]>]) -> Vec<Option<Arc<[u8]>>> {
    keys.iter()
        .map(|key| key.as_ref().and_then(|key| memo.get(key)))
        .collect()
}

/// Every shard's file: those `kept` holds, and the others written from the `placed` terms
/// numbered into `postings` (which must hold every term of those shards) and made a file by
/// `wrap`, given the shard's number and its JSON object; each written one is kept in `memo`
/// under its key.
pub(super) fn write(
    memo: &ShardMemo,
    kept: Vec<Option<Arc<[u8]>>>,
    placed: &[Placed<'_>],
    postings: &[Postings],
    lengths: &Lengths<'_>,
    keys: &[Option<[u8; 32]>],
    wrap: &(dyn Fn(usize, &str) -> Vec<u8> + Sync),
) -> Vec<Arc<[u8]>> {
    let mut files = kept;
    let mut by_shard: Vec<Terms<'_>> = vec![Vec::new(); keys.len()];
    let mut count = 0usize;
    for &(shard, term, number) in placed {
        if files.get(shard).is_some_and(Option::is_none) {
            by_shard[shard].push((term, number));
            count += 1;
        }
    }
    let to_write: Vec<(usize, Terms<'_>)> = by_shard
        .into_iter()
        .enumerate()
        .filter(|(shard, _)| files.get(*shard).is_some_and(Option::is_none))
        .collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(MAX_THREADS)
        .min(count / TERMS_PER_THREAD + 1)
        .min(to_write.len())
        .max(1);
    let written = write_on(threads, to_write, &|(number, mut terms): (
        usize,
        Terms<'_>,
    )| {
        terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let body = shard(&terms, postings, lengths);
        (number, Arc::<[u8]>::from(wrap(number, &body)))
    });
    memo.put(
        written
            .iter()
            .filter_map(|(number, file)| Some((keys[*number]?, Arc::clone(file)))),
    );
    for (number, file) in written {
        files[number] = Some(file);
    }
    // Every shard was kept or written.
    files.into_iter().flatten().collect()
}

/// `each` applied to each of `items` on `threads` threads, in the items' order.
fn write_on<I: Send, T: Send>(
    threads: usize,
    items: Vec<I>,
    each: &(dyn Fn(I) -> T + Sync),
) -> Vec<T> {
    if threads <= 1 {
        return items.into_iter().map(each).collect();
    }
    // Item `i` goes to thread `i % threads`.
    let mut per_thread: Vec<Vec<(usize, I)>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, item) in items.into_iter().enumerate() {
        per_thread[i % threads].push((i, item));
    }
    let written: Vec<Vec<(usize, T)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = per_thread
            .into_iter()
            .map(|items| {
                scope.spawn(move || {
                    items
                        .into_iter()
                        .map(|(i, item)| (i, each(item)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .collect()
    });
    let mut results: Vec<(usize, T)> = written.into_iter().flatten().collect();
    results.sort_unstable_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, result)| result).collect()
}

/// One shard's body: `{` and its terms in order, each
/// `"term":[document frequency, doc delta, weight, doc delta, weight, ...]` (weights ×100).
/// `terms` are in order.
fn shard(terms: &Terms<'_>, postings: &[Postings], lengths: &Lengths<'_>) -> String {
    let mut out = String::from("{");
    // Numbers go through `itoa` and the weights through one buffer, which took a third off
    // the writing.
    let mut numbers = itoa::Buffer::new();
    let mut weighted: Vec<(u32, u32)> = Vec::new();
    for (term, number) in terms {
        let Postings { df, list, .. } = &postings[*number as usize];
        weighted.clear();
        weighted.extend(list.iter().map(|&(doc, tf)| {
            (
                doc,
                weight(tf, lengths.lengths[doc as usize], lengths.average),
            )
        }));
        if weighted.len() > MAX_POSTINGS {
            weighted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            weighted.truncate(MAX_POSTINGS);
            weighted.sort_by_key(|p| p.0);
        }
        if out.len() > 1 {
            out.push(',');
        }
        push_json_string(&mut out, term);
        out.push_str(":[");
        out.push_str(numbers.format(*df));
        let mut previous = 0u32;
        for &(doc, weight) in &weighted {
            out.push(',');
            out.push_str(numbers.format(doc - previous));
            out.push(',');
            out.push_str(numbers.format(weight));
            previous = doc;
        }
        out.push(']');
    }
    out
}

/// The shard of a term: FNV-1a over its UTF-16 code units (what JavaScript strings are made
/// of), so the browser computes the same number.
pub fn shard_of(term: &str, shards: usize) -> usize {
    shard_numbered(shard_hash(term), shards)
}

/// The shard of `shards` that a term of shard hash `hash` falls in.
pub(super) fn shard_numbered(hash: u32, shards: usize) -> usize {
    hash as usize % shards.max(1)
}

/// The hash a term's shard is taken from: FNV-1a 32 over its UTF-16 code units.
pub(super) fn shard_hash(term: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for unit in term.encode_utf16() {
        hash ^= unit as u32;
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// BM25 parameters (the common defaults).
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// A posting's BM25 weight without the IDF, ×100 and at least 1.
pub(super) fn weight(tf: u32, length: u32, average: f64) -> u32 {
    let tf = f64::from(tf);
    let weight = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * f64::from(length) / average));
    (weight * 100.0).round().max(1.0) as u32
}

/// Appends `text` as a JSON string, as `serde_json` writes it: a term rarely holds a character
/// that needs escaping, so most are copied as they are.
pub(super) fn push_json_string(out: &mut String, text: &str) {
    let plain = text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\');
    if plain {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        out.push_str(&serde_json::Value::String(text.to_string()).to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 5,000 terms over 1,200 documents.
    fn index() -> (Vec<(String, u32)>, Vec<Postings>, Vec<u32>) {
        let terms: Vec<(String, u32)> = (0..5_000u32)
            .map(|n| {
                (
                    format!("term{}", n.wrapping_mul(2_654_435_761) % 100_000),
                    n,
                )
            })
            .collect();
        let postings: Vec<Postings> = (0..5_000u32)
            .map(|n| Postings {
                df: n % 7 + 1,
                list: (0..n % 1_200).map(|d| (d, d % 5 + 1)).collect(),
            })
            .collect();
        let document_lengths: Vec<u32> = (0..1_200).map(|d| d % 90 + 10).collect();
        (terms, postings, document_lengths)
    }

    fn placed(terms: &[(String, u32)], shards: usize) -> Vec<Placed<'_>> {
        terms
            .iter()
            .map(|(term, number)| (shard_of(term, shards), term.as_str(), *number))
            .collect()
    }

    fn fresh_memo() -> ShardMemo {
        TwoGenerations::new(SHARDS_PER_GENERATION)
    }

    /// A shard's JSON object as its file, for the tests.
    fn as_file(_: usize, body: &str) -> Vec<u8> {
        body.as_bytes().to_vec()
    }

    /// Every shard's file from `memo` or written, and how many were kept.
    fn write_all(
        memo: &ShardMemo,
        placed: &[Placed<'_>],
        postings: &[Postings],
        lengths: &Lengths<'_>,
        keys: &[Option<[u8; 32]>],
    ) -> (Vec<Arc<[u8]>>, usize) {
        let found = kept(memo, keys);
        let count = found.iter().flatten().count();
        let files = write(memo, found, placed, postings, lengths, keys, &as_file);
        (files, count)
    }

    #[test]
    fn shards_written_on_several_threads_are_those_written_on_one() {
        let (terms, postings, document_lengths) = index();
        let lengths = Lengths {
            lengths: &document_lengths,
            average: 55.0,
        };
        let mut by_shard: Vec<Terms<'_>> = vec![Vec::new(); 37];
        for &(shard, term, number) in &placed(&terms, 37) {
            by_shard[shard].push((term, number));
        }
        let written = |mut terms: Terms<'_>| {
            terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
            shard(&terms, &postings, &lengths)
        };
        let one = write_on(1, by_shard.clone(), &written);
        for threads in [2, 3, 4] {
            assert!(write_on(threads, by_shard.clone(), &written) == one);
        }
        let (bodies, kept) = write_all(
            &fresh_memo(),
            &placed(&terms, 37),
            &postings,
            &lengths,
            &[None; 37],
        );
        assert_eq!(kept, 0);
        assert!(
            bodies
                .iter()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .collect::<Vec<_>>()
                == one
        );
        assert!(one.iter().all(|body| body.starts_with('{')));
        let listed: usize = one.iter().map(|body| body.matches(":[").count()).sum();
        assert_eq!(listed, terms.len());
    }

    #[test]
    fn a_shard_is_taken_from_the_memo_by_its_key_and_else_written() {
        let memo = fresh_memo();
        let (terms, postings, document_lengths) = index();
        let lengths = Lengths {
            lengths: &document_lengths,
            average: 55.0,
        };
        let placed = placed(&terms, 37);
        let keys: Vec<Option<[u8; 32]>> = (0..37u8).map(|n| Some([n; 32])).collect();
        let (first, kept) = write_all(&memo, &placed, &postings, &lengths, &keys);
        assert_eq!(kept, 0);
        let (again, kept) = write_all(&memo, &placed, &postings, &lengths, &keys);
        assert_eq!((kept, &again), (37, &first));

        // A shard without a key or with a new one is written; the memo's files are taken
        // whatever the postings now say, which is why a key must name everything a shard is
        // written from (`shard_keys`).
        let other = Lengths {
            lengths: &document_lengths,
            average: 80.0,
        };
        let mut changed = keys.clone();
        changed[3] = None;
        changed[5] = Some([200; 32]);
        let (bodies, kept) = write_all(&memo, &placed, &postings, &other, &changed);
        let (fresh, _) = write_all(&fresh_memo(), &placed, &postings, &other, &[None; 37]);
        assert_eq!(kept, 35);
        for shard in 0..37 {
            let expected = if shard == 3 || shard == 5 {
                &fresh[shard]
            } else {
                &first[shard]
            };
            assert_eq!(&bodies[shard], expected, "shard {shard}");
        }
        assert_ne!(fresh[3], first[3]);
    }

    proptest::proptest! {
        /// The weighing average is within 1.6% of the mean, and the same for means that
        /// differ by far less than that, most of the time.
        #[test]
        fn the_weighing_average_is_close_to_the_mean(mean in 1.0f64..100_000.0) {
            let average = weighing_average(mean);
            proptest::prop_assert!((average - mean).abs() <= mean * 0.008, "{mean} {average}");
            proptest::prop_assert_eq!(weighing_average(average), average);
        }
    }

    #[test]
    fn the_weighing_average_of_no_documents_is_one() {
        assert_eq!(weighing_average(0.0), 1.0);
        assert_eq!(weighing_average(f64::NAN), 1.0);
        assert_eq!(weighing_average(100.0), 100.0);
        assert_eq!(weighing_average(100.3), 100.0);
    }
}
