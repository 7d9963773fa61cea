//! What answers hold: the reader's version, prose quoted once, the site's own words weighed.

use super::*;

/// A site with two docs.json versions of one page that differ in one fact: the answer keeps to
/// the version of the page the reader is on, else the site's default, quotes what it says once,
/// shows a how-to's code as code, and never quotes code as a sentence.
#[tokio::test]
async fn answers_keep_to_the_readers_version_and_quote_prose_once() {
    let site = tempfile::tempdir().expect("site");
    let write = |path: &str, text: &str| {
        let file = site.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(file, text).expect("write");
    };
    write(
        "docs.json",
        r#"{"name": "Acme", "navigation": {"versions": [
            {"version": "v1", "pages": ["v1/webhooks"]},
            {"version": "v2", "default": true, "pages": ["v2/webhooks"]}
        ]}}"#,
    );
    let page = |hours: u32| {
        format!(
            "---\ntitle: Webhooks\n---\n\n## Retries\n\n\
             Failed webhook deliveries are retried with exponential backoff for up to {hours} hours.\n\n\
             ## Registering\n\nRegister an endpoint for webhook deliveries with the Acme command line.\n\n\
             ```bash\nacme webhooks create --url https://example.com/hook\n```\n"
        )
    };
    write("v1/webhooks.mdx", &page(12));
    write("v2/webhooks.mdx", &page(24));
    let (instance, key) = publish_as_acme(site.path());
    let server = instance.start();
    let answer = async |question: &str, current: Option<&str>| {
        let mut body = json!({"fp": "a", "messages": [user(question)]});
        if let Some(path) = current {
            body["currentPath"] = json!(path);
        }
        let (status, _, stream) = ask(&server.base, Some(&key), "docs.acme.test", &body).await;
        assert_eq!(status, 200, "{stream}");
        parts_text(&stream)
    };

    let question = "How long are failed webhook deliveries retried?";
    let v1 = answer(question, Some("/v1/webhooks")).await;
    assert!(v1.contains("up to 12 hours"), "{v1}");
    assert!(!v1.contains("24 hours"), "{v1}");
    assert!(v1.contains("(/v1/webhooks#retries)"), "{v1}");
    let default = answer(question, None).await;
    assert!(default.contains("up to 24 hours"), "{default}");
    assert!(!default.contains("12 hours"), "{default}");
    assert_eq!(
        default.matches("exponential backoff").count(),
        1,
        "{default}"
    );

    let how = answer(
        "How do I register a webhook endpoint?",
        Some("/v2/webhooks"),
    )
    .await;
    assert!(
        how.contains("```bash\nacme webhooks create --url https://example.com/hook\n```"),
        "the code is shown as code: {how}"
    );
    assert!(
        !how.contains("> acme webhooks"),
        "code is not quoted as prose: {how}"
    );
}

/// The built-in answer weighs a question's words by the whole site (its vocabulary, counted at
/// publish): a word of the question's phrasing that the site uses everywhere, but that the
/// sections retrieved happen to miss, does not make a question that the docs answer look
/// unanswered; a word the site never uses still does. A version without a vocabulary (published
/// before one was kept) still answers.
#[tokio::test]
async fn questions_are_weighed_by_the_sites_own_words() {
    let site = tempfile::tempdir().expect("site");
    let write = |path: &str, text: &str| {
        let file = site.path().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(file, text).expect("write");
    };
    let batch_pages = [
        ("limits", "A single batch holds at most 1,000 items."),
        (
            "batch-retries",
            "A failed batch is retried with all of its items.",
        ),
        (
            "batch-results",
            "Each batch reports the results of its items when it ends.",
        ),
        (
            "batch-triggers",
            "Trigger a batch of items from the dashboard or the SDK.",
        ),
        ("batch-ids", "Every batch and each of its items gets an id."),
    ];
    let mut pages = Vec::new();
    for (page, text) in batch_pages {
        write(
            &format!("{page}.mdx"),
            &format!("---\ntitle: {page}\n---\n\n{text}\n"),
        );
        pages.push(page.to_string());
    }
    for n in 0..20 {
        let page = format!("guide-{n}");
        write(
            &format!("{page}.mdx"),
            &format!(
                "---\ntitle: Guide {n}\n---\n\nA big project {n} needs a big plan and careful reviews.\n"
            ),
        );
        pages.push(page);
    }
    write(
        "docs.json",
        &json!({"name": "Acme", "navigation": {"pages": pages}}).to_string(),
    );
    let (instance, key) = publish_as_acme(site.path());
    let answer = async |server: &Server, question: &str| {
        let body = json!({"fp": "a", "messages": [user(question)]});
        let (status, _, stream) = ask(&server.base, Some(&key), "docs.acme.test", &body).await;
        assert_eq!(status, 200, "{stream}");
        parts_text(&stream)
    };
    let refusal = "does not seem to answer";
    let question = "How big can a batch of items be?";

    let server = instance.start();
    // Every batch section covers the question but for "big"; which one leads is the search's
    // call, so only that one is quoted is asserted.
    let sized = answer(&server, question).await;
    assert!(
        sized.starts_with("Here is what the Acme documentation says:") && sized.contains(" items"),
        "{sized}"
    );
    let rust = answer(&server, "Can a batch run Rust code?").await;
    assert!(rust.contains(refusal), "{rust}");
    drop(server);

    // Without the vocabulary, "big" (in none of the batch sections retrieved) outweighs
    // "batch": the answer is refused, but it is still an answer.
    let storage = instance.data_dir().join("storage");
    let vocabularies: Vec<_> = walkdir(&storage)
        .into_iter()
        .filter(|p| p.ends_with("search-vocabulary.json"))
        .collect();
    assert_eq!(vocabularies.len(), 1, "one vocabulary per version");
    std::fs::remove_file(&vocabularies[0]).expect("remove the vocabulary");
    let server = instance.start();
    let without = answer(&server, question).await;
    assert!(without.contains(refusal), "{without}");
}

/// A fresh instance with the organization "acme", an assistant key (returned), and the site
/// folder `site` published as docs.acme.test.
fn publish_as_acme(site: &std::path::Path) -> (Instance, String) {
    let instance = Instance::new("");
    let key = instance.acme_assistant_key();
    instance.publish_folder(
        "docs.acme.test",
        site.to_str().expect("utf-8"),
        "acme",
        None,
    );
    (instance, key)
}

/// Every file under `dir`.
fn walkdir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}
