//! The documents of the bundle's offline search index (`search_index`), written into chunk
//! files of `DOCS_PER_CHUNK` in the order they are added: a result's link, title, trail,
//! excerpt and scope, which a query loads only for the results it shows.

use super::counted_section::DocumentRef;

/// Documents per document chunk.
pub(super) const DOCS_PER_CHUNK: usize = 32;

/// Writes the documents of the index, in the order they are added, into chunk files of
/// `DOCS_PER_CHUNK` as they fill: each document's JSON is written as it comes, never held as
/// strings of its own. Its chunks are those of a [`super::SearchIndexBuilder`] given the same
/// sections.
#[derive(Default)]
pub struct ChunkWriter {
    /// Documents written so far.
    count: usize,
    /// The documents of the chunk being filled, as JSON array items, each followed by a comma.
    pending: Vec<u8>,
    /// How many documents `pending` holds.
    pending_count: usize,
    /// Chunk files written and not yet taken.
    ready: Vec<(String, Vec<u8>)>,
}

impl ChunkWriter {
    /// Writes `document` into the chunk being filled, and the chunk out when it is full.
    pub(super) fn push(&mut self, document: DocumentRef<'_>) {
        let mut json = Vec::new();
        document_json(&mut json, document);
        self.push_json(&json);
    }

    /// [`ChunkWriter::push`] of a document whose JSON [`document_json`] wrote already.
    pub(super) fn push_json(&mut self, json: &[u8]) {
        self.pending.extend_from_slice(json);
        self.pending.push(b',');
        self.pending_count += 1;
        self.count += 1;
        if self.pending_count == DOCS_PER_CHUNK {
            self.write_chunk();
        }
    }

    /// The chunk files written since the last call, as (path, contents).
    pub fn take_ready(&mut self) -> Vec<(String, Vec<u8>)> {
        std::mem::take(&mut self.ready)
    }

    /// The chunk files not yet taken, the last one included.
    pub fn finish(mut self) -> Vec<(String, Vec<u8>)> {
        self.write_chunk();
        self.ready
    }

    /// Writes the pending documents as the next chunk file: the documents as a JSON array (the
    /// text a `serde_json::Value` of them gives) in a [`script`], put together as bytes.
    fn write_chunk(&mut self) {
        if self.pending_count == 0 {
            return;
        }
        let index = (self.count - 1) / DOCS_PER_CHUNK;
        self.pending.pop();
        let name = format!("d{index}");
        let contents = data_file(&name, &[b"[", &self.pending, b"]"]);
        self.pending.clear();
        self.pending_count = 0;
        self.ready.push((format!("search/{name}.js"), contents));
    }
}

/// Appends `document`'s JSON as a chunk file holds it to `out`: a JSON array of its fields,
/// with `<` written as `\u003c`, as [`script`] writes it. Runs on whichever thread has the
/// page, so the one that puts chunks together only copies bytes.
pub(super) fn document_json(out: &mut Vec<u8>, document: DocumentRef<'_>) {
    let start = out.len();
    // Writing into a vector fails only where serialising strings does: never.
    let _ = serde_json::to_writer(&mut *out, &document);
    if out[start..].contains(&b'<') {
        let escaped = String::from_utf8_lossy(&out[start..]).replace('<', "\\u003c");
        out.truncate(start);
        out.extend_from_slice(escaped.as_bytes());
    }
}

/// The data file `name` around JSON whose `<` are escaped already, given in `parts`.
pub(super) fn data_file(name: &str, parts: &[&[u8]]) -> Vec<u8> {
    let open = format!("QUIRE_SEARCH_DATA({name:?},");
    let length = open.len() + parts.iter().map(|part| part.len()).sum::<usize>() + 3;
    let mut contents = Vec::with_capacity(length);
    contents.extend_from_slice(open.as_bytes());
    parts
        .iter()
        .for_each(|part| contents.extend_from_slice(part));
    contents.extend_from_slice(b");\n");
    contents
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    proptest::proptest! {
        /// A chunk of documents is the text a `serde_json::Value` of them gave before.
        #[test]
        fn a_chunk_is_written_as_a_json_value_of_it(
            documents in proptest::collection::vec(
                ("\\PC{0,8}", "[\"\\\\\u{0}-\u{1f}<>&é✓]{0,6}", "\\PC{0,4}", "\\PC{0,4}", "/[a-z]{0,3}"),
                1..5,
            )
        ) {
            let expected = json!(
                documents
                    .iter()
                    .map(|(a, b, c, d, e)| json!([a, b, c, d, e]))
                    .collect::<Vec<_>>()
            )
            .to_string();
            let mut chunks = ChunkWriter::default();
            for (a, b, c, d, e) in &documents {
                chunks.push((a, b, c, d, e));
            }
            let (_, contents) = chunks.finish().pop().expect("a chunk");
            proptest::prop_assert_eq!(contents, super::super::search_index::script("d0", &[&expected]));
        }
    }
}
