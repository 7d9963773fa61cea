//! The documents of the bundle's offline search index (`search_index`), written into chunk
//! files of `DOCS_PER_CHUNK` in the order they are added: a result's link, title, trail,
//! excerpt and scope, which a query loads only for the results it shows.
//!
//! A document's number is where it sits in the chunks, and the numbers leave room, so that a
//! section added to or removed from a page moves no other page's documents: each page's
//! sections are numbered in a range of their own that grows in steps of `PAGE_STEP`, and each
//! group of pages' (`index_groups`) in one that grows in steps of `GROUP_STEP`. The term
//! shards that hold no term of the changed sections are then the same files as before and are
//! kept (BENCHMARKS.md). A number with no document is a `null` in its chunk; a chunk of none
//! is not written.

use super::counted_section::DocumentRef;

/// Document numbers per document chunk.
pub(super) const DOCS_PER_CHUNK: usize = 64;

/// The step a page's range of document numbers grows in: one section more moves the pages
/// after it one time in `PAGE_STEP`.
const PAGE_STEP: usize = 8;

/// The step a group's range grows in: whole chunks, so each group starts a chunk of its own,
/// and large enough that a page's range growing rarely moves the groups after it.
const GROUP_STEP: usize = 4 * DOCS_PER_CHUNK;

/// The document numbers a page of `sections` takes: room for at least one more.
fn page_span(sections: usize) -> usize {
    (sections / PAGE_STEP + 1) * PAGE_STEP
}

/// The document numbers a group whose pages took `numbers` takes.
fn group_span(numbers: usize) -> usize {
    numbers.div_ceil(GROUP_STEP) * GROUP_STEP
}

/// The numbers documents take, page by page and group by group: the one home of the layout,
/// kept alike by the chunks, the index's lengths and each group's postings.
#[derive(Default)]
pub(super) struct Numbering {
    /// The number the next document takes.
    next: usize,
    /// The numbers the page and the group being numbered started at.
    page_first: usize,
    group_first: usize,
}

impl Numbering {
    /// The number the next document takes.
    pub fn next(&self) -> usize {
        self.next
    }

    /// Numbers `documents` more documents of the page being numbered.
    pub fn take(&mut self, documents: usize) {
        self.next += documents;
    }

    /// Ends the page being numbered; returns the number the next page starts at.
    pub fn end_page(&mut self) -> usize {
        self.next = self.page_first + page_span(self.next - self.page_first);
        self.page_first = self.next;
        self.next
    }

    /// Ends the group being numbered, its pages ended; returns the number the next group
    /// starts at.
    pub fn end_group(&mut self) -> usize {
        self.next = self.group_first + group_span(self.next - self.group_first);
        self.page_first = self.next;
        self.group_first = self.next;
        self.next
    }
}

/// Writes the documents of the index, in the order they are added, into chunk files of
/// `DOCS_PER_CHUNK` as they fill: each document's JSON is written as it comes, never held as
/// strings of its own. Its chunks are those of a [`super::SearchIndexBuilder`] given the same
/// sections.
#[derive(Default)]
pub struct ChunkWriter {
    /// The number the next item written takes: a document or a `null`.
    count: usize,
    /// The documents' numbers.
    numbering: Numbering,
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
        self.numbering.take(1);
        self.push_item(json);
    }

    /// Writes `json` as the next item of the chunk being filled, and the chunk out when it is
    /// full.
    fn push_item(&mut self, json: &[u8]) {
        self.pending.extend_from_slice(json);
        self.pending.push(b',');
        self.pending_count += 1;
        self.count += 1;
        if self.pending_count == DOCS_PER_CHUNK {
            self.write_chunk();
        }
    }

    /// Ends the page whose documents were pushed since the last call: the next page's are
    /// numbered from the end of its range ([`Numbering::end_page`]).
    pub(super) fn end_page(&mut self) {
        let next = self.numbering.end_page();
        self.skip_to(next);
    }

    /// Ends the group of pages ended since the last call: the next group's documents are
    /// numbered from the end of its range ([`Numbering::end_group`]).
    pub(super) fn end_group(&mut self) {
        let next = self.numbering.end_group();
        self.skip_to(next);
    }

    /// Leaves the numbers up to `next` without documents: `null` in their chunk, and whole
    /// chunks of none not written.
    fn skip_to(&mut self, next: usize) {
        while self.count < next {
            let whole = (next - self.count) / DOCS_PER_CHUNK * DOCS_PER_CHUNK;
            if self.pending_count == 0 && whole > 0 {
                self.count += whole;
            } else {
                self.push_item(b"null");
            }
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
        // A document is a JSON array, so only a number without one ends in `null,`.
        while self.pending.ends_with(b"null,") {
            self.pending.truncate(self.pending.len() - b"null,".len());
        }
        self.pending_count = 0;
        if self.pending.is_empty() {
            return;
        }
        self.pending.pop();
        let name = format!("d{index}");
        let contents = data_file(&name, &[b"[", &self.pending, b"]"]);
        self.pending.clear();
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

    #[test]
    fn numbers_without_documents_are_nulls_and_chunks_of_none_are_left_out() {
        let mut chunks = ChunkWriter::default();
        let row = |i: usize| json!(["p.html", format!("t{i}"), "", "", "/"]);
        let push = |chunks: &mut ChunkWriter, i: usize| {
            chunks.push_json(row(i).to_string().as_bytes());
        };
        // Two pages of 3 and 9 sections (numbers 0-2 and 8-16), a group's end, and a page of
        // one in the next group (number 256).
        (0..3).for_each(|i| push(&mut chunks, i));
        chunks.end_page();
        (3..12).for_each(|i| push(&mut chunks, i));
        chunks.end_page();
        chunks.end_group();
        push(&mut chunks, 12);
        chunks.end_page();
        let files = chunks.finish();
        let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["search/d0.js", "search/d4.js"]);
        let mut first: Vec<serde_json::Value> = (0..3).map(row).collect();
        first.extend(std::iter::repeat_n(serde_json::Value::Null, 5));
        first.extend((3..12).map(row));
        let expected = super::super::search_index::script("d0", &[&json!(first).to_string()]);
        assert_eq!(files[0].1, expected, "gaps inside, none at the end");
    }

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
