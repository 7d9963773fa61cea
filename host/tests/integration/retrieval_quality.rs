//! Retrieval quality on the example site: for each question in
//! `examples/retrieval-questions.json`, is the page that answers it among the top 5 results of
//! the search endpoint? With the default retriever at least 90% must be. The example
//! title-weighted retriever, swapped in by configuration alone, is measured on the same set and
//! compared; both figures are printed.

use crate::common;

use crate::common::{Api, Instance};
use serde_json::{Value, json};

const TOP: usize = 5;
const REQUIRED_HIT_RATE: f64 = 0.9;

/// How one retriever did on the question set.
struct Score {
    /// The retriever the server reported loaded.
    retriever: String,
    total: usize,
    hits: usize,
    first: usize,
    misses: Vec<String>,
}

impl Score {
    fn rate(&self) -> f64 {
        self.hits as f64 / self.total as f64
    }

    fn print(&self, retriever: &str) {
        println!(
            "{retriever}: answering page in top {TOP}: {}/{} = {:.1}%; ranked first: {}/{}",
            self.hits,
            self.total,
            self.rate() * 100.0,
            self.first,
            self.total
        );
        for miss in &self.misses {
            println!("  miss: {miss}");
        }
    }
}

/// Publishes the example site on a server configured with `config` and asks every question.
async fn measure(config: &str) -> Score {
    let questions: Value = serde_json::from_slice(
        &std::fs::read(common::workspace().join("examples/retrieval-questions.json"))
            .expect("question set"),
    )
    .expect("question set JSON");
    let questions = questions["questions"].as_array().expect("questions");
    assert!(questions.len() >= 30, "the set holds at least 30 questions");

    let instance = Instance::new(config);
    let key = instance.example_site_for_assistant();
    let server = instance.start();
    let api = Api::new(&server.base, &key);
    let ready: Value = quire::http_client::client()
        .get(format!("{}/readyz", server.base))
        .send()
        .await
        .expect("readyz")
        .json()
        .await
        .expect("readyz JSON");
    let retriever = ready["plugins"]["retriever"]["name"]
        .as_str()
        .expect("retriever name")
        .to_string();

    let mut misses = Vec::new();
    let mut first = 0;
    for q in questions {
        let (question, page) = (q["question"].as_str().unwrap(), q["page"].as_str().unwrap());
        let (status, results) = api
            .post(
                "/discovery/v1/search/docs.acme.test",
                json!({"query": question, "pageSize": TOP}),
            )
            .await;
        assert_eq!(status, 200, "{results}");
        let pages: Vec<&str> = results
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["path"].as_str().unwrap())
            .collect();
        first += usize::from(pages.first() == Some(&page));
        if !pages.contains(&page) {
            misses.push(format!("{question:?} -> {pages:?}, wanted {page}"));
        }
    }
    Score {
        retriever,
        total: questions.len(),
        hits: questions.len() - misses.len(),
        first,
        misses,
    }
}

#[tokio::test]
async fn the_answering_page_is_in_the_top_5_for_at_least_90_percent() {
    let score = measure("").await;
    score.print("default retriever (BM25)");
    assert!(
        score.rate() >= REQUIRED_HIT_RATE,
        "hit rate {:.1}% is below 90%: {:#?}",
        score.rate() * 100.0,
        score.misses
    );
}

#[tokio::test]
async fn the_title_weighted_example_retriever_is_swapped_in_by_configuration_and_compared() {
    let title = common::wasm("quire_title_retriever");
    let config = format!("[plugins]\nretriever = \"{}\"\n", title.display());
    let (default, swapped) = tokio::join!(measure(""), measure(&config));
    default.print("default retriever (BM25)");
    swapped.print("example title-weighted retriever");
    assert_eq!(default.retriever, "quire_retriever");
    assert_eq!(
        swapped.retriever, "quire_title_retriever",
        "configuration alone swaps the retriever"
    );
    // And the example is a usable retriever, not a stub.
    assert!(
        swapped.rate() >= 0.8,
        "the title-weighted retriever finds only {:.1}%: {:#?}",
        swapped.rate() * 100.0,
        swapped.misses
    );
}
