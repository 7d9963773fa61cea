//! Retrieval quality on the example site: for each question in
//! `examples/retrieval-questions.json`, is the page that answers it among the top 5 results of
//! the search endpoint? At least 90% must be; the hit rate is printed.

mod common;

use common::{Api, Instance};
use serde_json::{Value, json};

const TOP: usize = 5;
const REQUIRED_HIT_RATE: f64 = 0.9;

#[tokio::test]
async fn the_answering_page_is_in_the_top_5_for_at_least_90_percent() {
    let questions: Value = serde_json::from_slice(
        &std::fs::read(common::workspace().join("examples/retrieval-questions.json"))
            .expect("question set"),
    )
    .expect("question set JSON");
    let questions = questions["questions"].as_array().expect("questions");
    assert!(questions.len() >= 30, "the set holds at least 30 questions");

    let instance = Instance::new("");
    let key = instance.example_site_for_assistant();
    let server = instance.start();
    let api = Api::new(&server.base, &key);

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
    let hits = questions.len() - misses.len();
    let rate = hits as f64 / questions.len() as f64;
    println!(
        "retrieval hit rate (answering page in top {TOP}): {hits}/{} = {:.1}%",
        questions.len(),
        rate * 100.0
    );
    println!("answering page ranked first: {first}/{}", questions.len());
    for miss in &misses {
        println!("  miss: {miss}");
    }
    assert!(
        rate >= REQUIRED_HIT_RATE,
        "hit rate {:.1}% is below 90%: {misses:#?}",
        rate * 100.0
    );
}
