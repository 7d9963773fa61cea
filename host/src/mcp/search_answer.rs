//! What a `search` tool call answers: the Markdown an agent reads (its text content), beside
//! the results as structured content. The SDK's tool takes the Markdown as a string
//! ([`ResultsMarkdown`]); the direct path of the HTTP transport writes the whole JSON-RPC answer
//! at once ([`answer`]), each section's text escaped once and copied into both places:
//! the answer carries every section's text twice, and escaping it was the largest part of what
//! an MCP search cost beyond a search request (BENCHMARKS.md).

use serde_json::value::RawValue;

use super::library::SearchHit;

/// A piece of the Markdown of search results, in order: the layout's own text, or the text of
/// result `n`, trimmed.
enum Piece<'a> {
    Layout(&'a str),
    SectionText(usize),
}

/// The Markdown of `hits`, piece by piece: the one place its layout is written, for both ways
/// of answering.
fn markdown_pieces<'a, E>(
    hits: &'a [SearchHit],
    mut write: impl FnMut(Piece<'a>) -> Result<(), E>,
) -> Result<(), E> {
    if hits.is_empty() {
        return write(Piece::Layout("No section of the docs matches."));
    }
    for (n, hit) in hits.iter().enumerate() {
        write(Piece::Layout("## "))?;
        for (level, heading) in hit.heading_trail.iter().enumerate() {
            if level > 0 {
                write(Piece::Layout(" › "))?;
            }
            write(Piece::Layout(heading))?;
        }
        for piece in ["\n", &hit.url, " (path: ", &hit.path, ")\n\n"] {
            write(Piece::Layout(piece))?;
        }
        write(Piece::SectionText(n))?;
        write(Piece::Layout("\n\n"))?;
    }
    Ok(())
}

/// Search results as an agent reads them: each section's trail, URL and text.
pub(super) struct ResultsMarkdown<'a>(pub(super) &'a [SearchHit]);

impl std::fmt::Display for ResultsMarkdown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        markdown_pieces(self.0, |piece| match piece {
            Piece::Layout(text) => f.write_str(text),
            Piece::SectionText(n) => f.write_str(self.0[n].text.trim()),
        })
    }
}

/// The JSON-RPC answer to the `tools/call` of `search` with request `id` that found `hits`, in
/// the shape of the SDK's answer (a unit test holds the two equal).
pub(super) fn answer(id: &RawValue, hits: &[SearchHit]) -> Vec<u8> {
    // The structured results and their Markdown each hold the sections' text, which escaping
    // lengthens a little.
    let capacity = 2 * hits.iter().map(|hit| hit.text.len() + 192).sum::<usize>();
    let mut out = Vec::with_capacity(capacity + 256);
    write_answer(&mut out, id, hits);
    out
}

/// Appends [`answer`] to `out`.
fn write_answer(out: &mut Vec<u8>, id: &RawValue, hits: &[SearchHit]) {
    // Each section's trimmed text, escaped once: where it starts and ends in `escaped`.
    let mut escaped = Vec::with_capacity(hits.iter().map(|h| h.text.len() + 16).sum());
    // With whether the text was trimmed already, so that the structured copy is the same.
    let texts: Vec<(usize, usize, bool)> = hits
        .iter()
        .map(|hit| {
            let start = escaped.len();
            let trimmed = hit.text.trim();
            write_string(&mut escaped, trimmed);
            // Within the quotes.
            (
                start + 1,
                escaped.len() - 1,
                trimmed.len() == hit.text.len(),
            )
        })
        .collect();
    let section_text = |n: usize| &escaped[texts[n].0..texts[n].1];

    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    out.extend_from_slice(id.get().as_bytes());
    out.extend_from_slice(br#","result":{"content":[{"type":"text","text":""#);
    let _ = markdown_pieces(hits, |piece| {
        match piece {
            Piece::Layout(text) => escape_contents(out, text),
            Piece::SectionText(n) => out.extend_from_slice(section_text(n)),
        }
        Ok::<(), std::convert::Infallible>(())
    });
    out.extend_from_slice(br#""}],"structuredContent":{"results":["#);
    for (n, hit) in hits.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        out.extend_from_slice(br#"{"title":"#);
        write_string(out, &hit.title);
        out.extend_from_slice(br#","headingTrail":["#);
        for (level, heading) in hit.heading_trail.iter().enumerate() {
            if level > 0 {
                out.push(b',');
            }
            write_string(out, heading);
        }
        out.extend_from_slice(br#"],"url":"#);
        write_string(out, &hit.url);
        out.extend_from_slice(br#","path":"#);
        write_string(out, &hit.path);
        out.extend_from_slice(br#","text":"#);
        if texts[n].2 {
            out.push(b'"');
            out.extend_from_slice(section_text(n));
            out.push(b'"');
        } else {
            write_string(out, &hit.text);
        }
        for (name, value) in [("version", &hit.version), ("language", &hit.language)] {
            if let Some(value) = value {
                out.extend_from_slice(b",\"");
                out.extend_from_slice(name.as_bytes());
                out.extend_from_slice(b"\":");
                write_string(out, value);
            }
        }
        out.push(b'}');
    }
    out.extend_from_slice(br#"]},"isError":false}}"#);
}

/// Appends `text` as a JSON string, escaped as `serde_json` escapes it.
fn write_string(out: &mut Vec<u8>, text: &str) {
    // Writing a string into a vector cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

/// Appends `text` escaped as inside a JSON string, without the quotes: a short piece of the
/// layout, so taking its opening quote out moves few bytes.
fn escape_contents(out: &mut Vec<u8>, text: &str) {
    let start = out.len();
    write_string(out, text);
    out.remove(start);
    out.pop();
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    /// The answer as the SDK's types make it: `serde_json` values of the results and their
    /// Markdown.
    fn as_serde_writes(id: &str, hits: &[SearchHit]) -> Value {
        json!({
            "jsonrpc": "2.0",
            "id": serde_json::from_str::<Value>(id).expect("id"),
            "result": {
                "content": [{"type": "text", "text": ResultsMarkdown(hits).to_string()}],
                "structuredContent": {"results": hits},
                "isError": false,
            },
        })
    }

    fn written(id: &str, hits: &[SearchHit]) -> Vec<u8> {
        let id = serde_json::from_str::<Box<RawValue>>(id).expect("id");
        answer(&id, hits)
    }

    fn hit(text: &str, version: Option<&str>) -> SearchHit {
        SearchHit {
            title: "Say \"hi\"".into(),
            heading_trail: vec!["Say \"hi\"".into(), "Tabs\tand ✓".into()],
            url: "https://docs.acme.test/guides/hi#tabs".into(),
            path: "guides/hi".into(),
            text: text.into(),
            version: version.map(str::to_string),
            language: Some("fr".into()),
        }
    }

    #[test]
    fn the_answer_is_the_one_serde_writes() {
        for hits in [
            vec![],
            vec![hit("Plain.", None)],
            vec![
                hit("  Padded, with \"quotes\", a \\ and \u{1}.\n\n", Some("v2")),
                hit("Code:\n\n```sh\nrun --flag </script>\n```", None),
            ],
        ] {
            for id in ["1", "\"a\\\"b\""] {
                let bytes = written(id, &hits);
                let parsed: Value = serde_json::from_slice(&bytes).expect("JSON");
                assert_eq!(parsed, as_serde_writes(id, &hits), "{hits:?}");
            }
        }
    }

    proptest! {
        /// Whatever the sections hold, the answer is valid JSON and says what serde would.
        #[test]
        fn any_sections_give_the_answer_serde_writes(
            texts in proptest::collection::vec(any::<String>(), 0..4),
            trail in proptest::collection::vec(any::<String>(), 0..3),
            title in any::<String>(),
        ) {
            let hits: Vec<SearchHit> = texts
                .iter()
                .map(|text| SearchHit {
                    title: title.clone(),
                    heading_trail: trail.clone(),
                    text: text.clone(),
                    ..hit("", Some("v1"))
                })
                .collect();
            let bytes = written("7", &hits);
            let parsed: Value = serde_json::from_slice(&bytes).expect("JSON");
            prop_assert_eq!(parsed, as_serde_writes("7", &hits));
        }
    }
}
