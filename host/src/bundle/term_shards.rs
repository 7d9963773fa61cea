//! The offline search index's term shards written out: each term's postings as JSON, in the
//! shard its hash names, terms in order within a shard. Every posting is written at every
//! export, kept groups' too, so this is the serial end of a one-page export's index
//! (BENCHMARKS.md): shards hold disjoint terms, so they are written on several threads, each
//! taking every n-th shard, and the files are the same whatever the number of threads.

/// Threads the shards are written on at most: an export's other threads are busy then too.
const MAX_THREADS: usize = 4;
/// An index with fewer terms is written on the calling thread.
const TERMS_PER_THREAD: usize = 20_000;
/// Postings kept per term, the highest-weighted ones.
pub(super) const MAX_POSTINGS: usize = 1_000;

/// A term's postings while documents are added.
#[derive(Default)]
pub(super) struct Postings {
    /// Documents holding the term, all of them (the list may have been pruned).
    pub df: u32,
    /// (doc id, raw term frequency), in doc order.
    pub list: Vec<(u32, u32)>,
}

/// Terms by their number in the postings.
type Terms = Vec<(String, u32)>;

/// What weighs a posting: each document's length and the average.
pub(super) struct Lengths<'a> {
    pub lengths: &'a [u32],
    pub average: f64,
}

/// The bodies of `shards` shards (each a JSON object of its terms, without the braces' end
/// written yet), for `terms` numbered into `postings`.
pub(super) fn write(
    terms: impl Iterator<Item = (String, u32)>,
    postings: &[Postings],
    lengths: &Lengths<'_>,
    shards: usize,
) -> Vec<String> {
    let mut by_shard: Vec<Terms> = vec![Vec::new(); shards];
    let mut count = 0usize;
    for (term, number) in terms {
        by_shard[shard_of(&term, shards)].push((term, number));
        count += 1;
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(MAX_THREADS)
        .min(count / TERMS_PER_THREAD + 1)
        .min(shards)
        .max(1);
    write_on(threads, by_shard, postings, lengths)
}

/// The shards' bodies for the terms of each shard, written on `threads` threads.
fn write_on(
    threads: usize,
    by_shard: Vec<Terms>,
    postings: &[Postings],
    lengths: &Lengths<'_>,
) -> Vec<String> {
    let shards = by_shard.len();
    let mut bodies: Vec<String> = vec![String::new(); shards];
    if threads == 1 {
        for (body, terms) in bodies.iter_mut().zip(by_shard) {
            *body = shard(terms, postings, lengths);
        }
        return bodies;
    }
    // Shard `s` goes to thread `s % threads`.
    let mut per_thread: Vec<Vec<(usize, Terms)>> = (0..threads).map(|_| Vec::new()).collect();
    for (s, terms) in by_shard.into_iter().enumerate() {
        per_thread[s % threads].push((s, terms));
    }
    let written: Vec<Vec<(usize, String)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = per_thread
            .into_iter()
            .map(|shards| {
                scope.spawn(move || {
                    shards
                        .into_iter()
                        .map(|(s, terms)| (s, shard(terms, postings, lengths)))
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
    for (s, body) in written.into_iter().flatten() {
        bodies[s] = body;
    }
    bodies
}

/// One shard's body: `{` and its terms in order, each
/// `"term":[document frequency, doc delta, weight, doc delta, weight, ...]` (weights ×100).
fn shard(mut terms: Terms, postings: &[Postings], lengths: &Lengths<'_>) -> String {
    terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::from("{");
    // Numbers go through `itoa` and the weights through one buffer, which took a third off
    // the writing.
    let mut numbers = itoa::Buffer::new();
    let mut weighted: Vec<(u32, u32)> = Vec::new();
    for (term, number) in terms {
        let Postings { df, list } = &postings[number as usize];
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
        push_json_string(&mut out, &term);
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
    let mut hash: u32 = 0x811c_9dc5;
    for unit in term.encode_utf16() {
        hash ^= unit as u32;
        hash = hash.wrapping_mul(0x0100_0193);
    }
    (hash as usize) % shards.max(1)
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

    #[test]
    fn shards_written_on_several_threads_are_those_written_on_one() {
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
        let lengths = Lengths {
            lengths: &document_lengths,
            average: 55.0,
        };
        let by_shard = |shards: usize| {
            let mut by: Vec<Vec<(String, u32)>> = vec![Vec::new(); shards];
            for (term, number) in &terms {
                by[shard_of(term, shards)].push((term.clone(), *number));
            }
            by
        };
        let one = write_on(1, by_shard(37), &postings, &lengths);
        for threads in [2, 3, 4] {
            assert!(write_on(threads, by_shard(37), &postings, &lengths) == one);
        }
        assert!(write(terms.clone().into_iter(), &postings, &lengths, 37) == one);
        assert!(one.iter().all(|body| body.starts_with('{')));
        let listed: usize = one.iter().map(|body| body.matches(":[").count()).sum();
        assert_eq!(listed, terms.len());
    }
}
