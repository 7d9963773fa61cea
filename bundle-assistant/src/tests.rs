//! The bundle's assistant on a small index built by the default retriever: what it answers,
//! what it keeps to, and what it refuses to read.

use quire_retriever::{IndexBuilder, Section};

use crate::{AskRequest, Assistant, Message, Scope, SiteFacts};

fn section(path: &str, anchor: &str, heading: &str, text: &str, version: &str) -> Section {
    Section {
        path: path.into(),
        anchor: anchor.into(),
        title: path.into(),
        heading_trail: vec![path.into(), heading.into()],
        text: text.into(),
        version: Some(version.into()),
        language: None,
    }
}

fn assistant() -> Assistant {
    let mut builder = IndexBuilder::new();
    for version in ["v1", "v2"] {
        builder.add_section(section(
            &format!("{version}/webhooks"),
            "retries",
            "Retries",
            &format!("Failed webhook deliveries are retried five times in {version}."),
            version,
        ));
        builder.add_section(section(
            &format!("{version}/billing"),
            "invoices",
            "Invoices",
            "Invoices are sent on the first day of each month.",
            version,
        ));
    }
    let index = builder.to_bytes().expect("index");
    let scope = |version: &str| Scope {
        version: Some(version.into()),
        language: None,
    };
    let site = SiteFacts {
        name: "Acme".into(),
        scopes: [
            ("v1/webhooks".to_string(), scope("v1")),
            ("v2/webhooks".to_string(), scope("v2")),
        ]
        .into(),
        default_scope: scope("v2"),
    };
    let site = serde_json::to_vec(&site).expect("site");
    Assistant::load(&index, None, &site).expect("load")
}

fn asked(question: &str, current_path: Option<&str>) -> AskRequest {
    AskRequest {
        messages: vec![Message {
            role: "user".into(),
            content: question.into(),
        }],
        current_path: current_path.map(Into::into),
        ..AskRequest::default()
    }
}

#[test]
fn it_answers_from_the_readers_version_and_cites_what_it_quotes() {
    let assistant = assistant();
    let reply = assistant
        .ask(&asked(
            "How often are failed webhook deliveries retried?",
            None,
        ))
        .expect("answer");
    assert!(reply.text.contains("five times in v2"), "{}", reply.text);
    assert!(
        !reply.text.contains("in v1"),
        "the site's first page's version"
    );
    assert_eq!(reply.sources.len(), 1, "{reply:?}");
    assert_eq!(reply.sources[0].url, "/v2/webhooks#retries");
    assert!(reply.text.contains("](/v2/webhooks#retries)"));

    let on_v1 = assistant
        .ask(&asked(
            "How often are failed webhook deliveries retried?",
            Some("/v1/webhooks"),
        ))
        .expect("answer");
    assert!(on_v1.text.contains("five times in v1"), "{}", on_v1.text);
}

#[test]
fn bad_requests_and_data_are_refused_by_name() {
    let assistant = assistant();
    let error = |body: &str| {
        assistant
            .ask_json(body.as_bytes())
            .expect_err(body)
            .to_string()
    };
    assert!(error("{").contains("unreadable"));
    assert!(error(r#"{"messages": []}"#).contains("no question"));
    assert!(
        error(r#"{"messages": [{"role": "user", "content": "x"}], "retrievalPageSize": 0}"#)
            .contains("retrievalPageSize")
    );
    let long = format!(
        r#"{{"messages": [{{"role": "user", "content": "{}"}}]}}"#,
        "a".repeat(5_000)
    );
    assert!(error(&long).contains("at most 4000"));
    assert!(Assistant::load(b"not an index", None, b"{}").is_err());
    let index = IndexBuilder::new().to_bytes().expect("index");
    assert!(
        Assistant::load(&index, Some(b"[]"), b"{}").is_err(),
        "vocabulary"
    );
    assert!(Assistant::load(&index, None, b"[]").is_err(), "site");
}

proptest::proptest! {
    /// Whatever a page sends: an answer or an error, never a panic.
    #[test]
    fn any_request_is_answered_or_refused(body in "\\PC{0,200}", question in "\\PC{0,60}") {
        let assistant = assistant();
        let _ = assistant.ask_json(body.as_bytes());
        let request = serde_json::json!({
            "messages": [
                {"role": "user", "content": question},
                {"role": "assistant", "content": body},
                {"role": "user", "content": format!("and {question}?")},
            ],
            "currentPath": body,
        });
        let reply = assistant.ask_json(request.to_string().as_bytes());
        proptest::prop_assert!(reply.is_ok(), "{reply:?}");
    }
}
