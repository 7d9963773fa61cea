//! The built component, run in Quire's plugin runtime.

use quire_sdk::harness::{IndexSection, TestRetriever};

fn section(path: &str, title: &str, text: &str) -> IndexSection {
    IndexSection {
        path: path.into(),
        anchor: String::new(),
        title: title.into(),
        heading_trail: vec![title.into()],
        text: text.into(),
        version: None,
        language: None,
    }
}

#[test]
fn titles_outweigh_text_and_word_endings_fold() {
    let retriever =
        TestRetriever::build(env!("CARGO_MANIFEST_DIR")).expect("the retriever builds and loads");
    let index = retriever
        .index(&[
            section(
                "guides/webhooks",
                "Webhooks",
                "Events are delivered to your endpoint.",
            ),
            section(
                "changelog",
                "Changelog",
                "Webhooks now retry. Webhooks are faster.",
            ),
            section(
                "guides/keys",
                "API keys",
                "Rotate keys after signing requests.",
            ),
        ])
        .expect("indexing works");

    let hits = retriever
        .search(&index, "webhook", 3)
        .expect("search works");
    assert_eq!(
        hits[0].section.path, "guides/webhooks",
        "the title match wins: {hits:?}"
    );
    assert_eq!(hits.len(), 2);

    let hits = retriever
        .search(&index, "signed requests", 3)
        .expect("search works");
    assert_eq!(
        hits[0].section.path, "guides/keys",
        "signed matches signing: {hits:?}"
    );
}

#[test]
fn an_index_of_another_format_is_refused_by_name() {
    let retriever =
        TestRetriever::build(env!("CARGO_MANIFEST_DIR")).expect("the retriever builds and loads");
    let error = retriever
        .search(b"not json", "x", 1)
        .expect_err("foreign bytes are refused");
    assert!(
        error
            .to_string()
            .contains("not a quire-title-retriever/1 index"),
        "{error}"
    );
}

#[test]
fn an_index_in_segments_ranks_as_one_index_of_the_same_sections() {
    let retriever =
        TestRetriever::build(env!("CARGO_MANIFEST_DIR")).expect("the retriever builds and loads");
    let sections = [
        section("a", "Webhooks", "Events are delivered to your endpoint."),
        section("b", "Changelog", "Webhooks now retry. Webhooks are faster."),
        section("c", "API keys", "Rotate keys after signing requests."),
        section("d", "Retries", "Failed webhook deliveries are retried."),
    ];
    let whole = retriever.index(&sections).expect("indexing works");
    let segments = vec![
        retriever.index(&sections[..1]).expect("indexing works"),
        retriever.index(&sections[1..3]).expect("indexing works"),
        retriever.index(&sections[3..]).expect("indexing works"),
    ];
    for query in ["webhook", "retry deliveries", "signed keys"] {
        let one = retriever.search(&whole, query, 4).expect("search works");
        let split = retriever
            .search_segments(&segments, query, 4)
            .expect("search works");
        let ranked = |hits: Vec<quire_sdk::harness::SearchHit>| {
            hits.into_iter()
                .map(|hit| (hit.section.path, hit.score))
                .collect::<Vec<_>>()
        };
        assert_eq!(ranked(one), ranked(split), "{query}");
    }
}
