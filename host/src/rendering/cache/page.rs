//! A rendered page as a cache entry's payload: postcard, field for field the renderer's
//! `rendered-page`, with each file's contents read and written as one run of bytes. Derived
//! from the contract's types alone, `list<u8>` goes through serde as a sequence of numbers,
//! one call per byte: decoding the pages of a 25,000-page site spent more time there than on
//! anything else in an export of one changed page. Postcard writes bytes and a sequence of
//! `u8` alike (a length, then the bytes), so entries written either way read back the same.

use serde::{Deserialize, Serialize};

use crate::plugins::{Heading, OutputFile, RenderedPage, Section, Warning};

/// The payload of `page`'s entry.
pub fn encode(page: &RenderedPage) -> Result<Vec<u8>, postcard::Error> {
    let files = page
        .files
        .iter()
        .map(|file| FileRef {
            path: &file.path,
            contents: &file.contents,
        })
        .collect();
    postcard::to_allocvec(&PageRef {
        title: &page.title,
        description: &page.description,
        indexable: page.indexable,
        files,
        headings: &page.headings,
        sections: &page.sections,
        warnings: &page.warnings,
        needs: &page.needs,
    })
}

/// The page an entry's `payload` holds.
pub fn decode(payload: &[u8]) -> Result<RenderedPage, postcard::Error> {
    let page: PageOwned = postcard::from_bytes(payload)?;
    Ok(RenderedPage {
        title: page.title,
        description: page.description,
        indexable: page.indexable,
        files: page
            .files
            .into_iter()
            .map(|file| OutputFile {
                path: file.path,
                contents: file.contents.into_vec(),
            })
            .collect(),
        headings: page.headings,
        sections: page.sections,
        warnings: page.warnings,
        needs: page.needs,
    })
}

#[derive(Serialize)]
struct PageRef<'a> {
    title: &'a str,
    description: &'a Option<String>,
    indexable: bool,
    files: Vec<FileRef<'a>>,
    headings: &'a [Heading],
    sections: &'a [Section],
    warnings: &'a [Warning],
    needs: &'a [String],
}

#[derive(Serialize)]
struct FileRef<'a> {
    path: &'a str,
    #[serde(with = "serde_bytes")]
    contents: &'a [u8],
}

#[derive(Deserialize)]
struct PageOwned {
    title: String,
    description: Option<String>,
    indexable: bool,
    files: Vec<FileOwned>,
    headings: Vec<Heading>,
    sections: Vec<Section>,
    warnings: Vec<Warning>,
    needs: Vec<String>,
}

#[derive(Deserialize)]
struct FileOwned {
    path: String,
    contents: serde_bytes::ByteBuf,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> RenderedPage {
        RenderedPage {
            title: "Quickstart".into(),
            description: Some("Start here".into()),
            indexable: true,
            files: vec![
                OutputFile {
                    path: "quickstart.html".into(),
                    contents: b"<h1>Quickstart</h1>\x00\xff".to_vec(),
                },
                OutputFile {
                    path: "empty.txt".into(),
                    contents: Vec::new(),
                },
            ],
            headings: vec![Heading {
                level: 2,
                text: "Install".into(),
                anchor: "install".into(),
            }],
            sections: vec![Section {
                anchor: "install".into(),
                heading_trail: vec!["Quickstart".into(), "Install".into()],
                text: "Run the installer.".into(),
            }],
            warnings: vec![Warning {
                file: "quickstart.mdx".into(),
                line: Some(3),
                message: "an unknown component".into(),
            }],
            needs: vec!["diagrams".into()],
        }
    }

    #[test]
    fn a_page_reads_back_as_written_and_as_the_derived_encoding_wrote_it() {
        let page = page();
        let encoded = encode(&page).unwrap();
        // Entries written before this codec (the contract types' own derive) are the same
        // bytes, so a cache kept across the change is still read.
        assert_eq!(encoded, postcard::to_allocvec(&page).unwrap());
        let decoded = decode(&encoded).unwrap();
        assert_eq!(postcard::to_allocvec(&decoded).unwrap(), encoded);
        assert_eq!(decoded.files[0].contents, page.files[0].contents);
    }

    #[test]
    fn a_cut_payload_is_an_error_not_a_panic() {
        let encoded = encode(&page()).unwrap();
        for end in 0..encoded.len() {
            assert!(decode(&encoded[..end]).is_err(), "cut at {end}");
        }
    }
}
