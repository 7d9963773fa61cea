//! The built-in answer on small, hand-made retrievals: what it quotes, what it leaves out.

use super::compose;
use super::{Question, RetrievedSection};

fn section(title: &str, path: &str, content: &str) -> RetrievedSection {
    RetrievedSection {
        path: path.into(),
        anchor: String::new(),
        title: title.into(),
        heading_trail: vec![title.into()],
        content: content.into(),
        url: format!("/{path}"),
    }
}

fn ask(question: &str, sections: Vec<RetrievedSection>) -> String {
    answer(question, sections).text
}

fn answer(question: &str, sections: Vec<RetrievedSection>) -> super::Answer {
    compose(&Question {
        site_name: "Acme",
        question,
        sections: &sections,
        vocabulary: None,
    })
}

#[test]
fn the_sources_are_exactly_the_sections_the_answer_links() {
    let sections = vec![
        section(
            "Billing",
            "billing",
            "Invoices are sent on the first day of each month.",
        ),
        section(
            "Webhooks",
            "guides/webhooks",
            "Failed deliveries are retried with exponential backoff for up to 24 hours.",
        ),
        section("Teams", "teams", "Invite teammates from the settings page."),
    ];
    let answer = answer(
        "How are failed webhook deliveries retried?",
        sections.clone(),
    );
    assert_eq!(answer.cited, [1], "{}", answer.text);
    assert!(
        answer.text.contains("(/guides/webhooks)"),
        "{}",
        answer.text
    );

    // A refusal links the closest pages, one section a page, and so cites them.
    let mut with_copy = sections.clone();
    with_copy.insert(
        1,
        section("Billing", "billing", "Taxes are added at checkout."),
    );
    let refused = super::not_answered(&Question {
        site_name: "Acme",
        question: "Is there a zeppelin fleet?",
        sections: &with_copy,
        vocabulary: None,
    });
    assert_eq!(refused.cited, [0, 2, 3], "{}", refused.text);
    // Nothing found cites nothing.
    assert!(answer_cites_nothing_when_nothing_matches());
}

fn answer_cites_nothing_when_nothing_matches() -> bool {
    let nothing = answer(
        "zeppelin hangar tours",
        vec![section(
            "Teams",
            "teams",
            "Invite teammates from the settings page.",
        )],
    );
    nothing.text.starts_with("I could not find anything") && nothing.cited.is_empty()
}

#[test]
fn quotes_the_matching_sentences_with_links() {
    let answer = ask(
        "How are failed webhook deliveries retried?",
        vec![section(
            "Webhooks",
            "guides/webhooks",
            "Register an endpoint. Failed deliveries are retried with exponential backoff for up to 24 hours.",
        )],
    );
    assert!(
        answer.contains(
            "> Failed deliveries are retried with exponential backoff for up to 24 hours."
        ),
        "{answer}"
    );
    assert!(answer.contains("[Webhooks](/guides/webhooks)"), "{answer}");
    assert!(!answer.contains("Register an endpoint"), "{answer}");
}

#[test]
fn says_so_when_nothing_matches() {
    let answer = ask(
        "zeppelin pricing",
        vec![section(
            "Webhooks",
            "w",
            "Register an endpoint for your events.",
        )],
    );
    assert!(
        answer.starts_with("I could not find anything about that in the Acme documentation"),
        "{answer}"
    );
}

#[test]
fn a_sentence_in_three_versions_is_quoted_once() {
    let text = "A webhook is an HTTP call Acme makes to your server when an event happens.";
    let answer = ask(
        "What is a webhook?",
        vec![
            section("Webhooks", "v3/webhooks", text),
            section("Webhooks", "v2/webhooks", text),
            section(
                "Webhooks",
                "v1/webhooks",
                &format!("{text} It carries a signature."),
            ),
        ],
    );
    assert_eq!(
        answer.matches("HTTP call Acme makes").count(),
        1,
        "{answer}"
    );
    assert!(answer.contains("(/v3/webhooks)"), "{answer}");
}

#[test]
fn code_is_never_quoted_as_prose() {
    // A renderer that does not fence code leaves it in the prose.
    let answer = ask(
        "How do I add the get_forecast tool to the server?",
        vec![section(
            "Tools",
            "tools",
            "mcp.AddTool(server, &mcp.Tool{Name: \"get_forecast\"}, nil) // Add get_forecast tool mcp. Tools are added to the server with AddTool, one call per tool.",
        )],
    );
    assert!(!answer.contains("nil)"), "{answer}");
    assert!(
        answer.contains("> Tools are added to the server with AddTool"),
        "{answer}"
    );
}

#[test]
fn how_to_answers_show_the_code_of_the_quoted_section() {
    let answer = ask(
        "How do I install the Acme CLI?",
        vec![section(
            "Install",
            "cli/install",
            "Install the Acme CLI with npm, then log in once.\n```bash\nnpm install -g acme-cli\nacme login\n```\n",
        )],
    );
    assert!(
        answer.contains("> Install the Acme CLI with npm, then log in once."),
        "{answer}"
    );
    assert!(
        answer.contains("```bash\nnpm install -g acme-cli\nacme login\n```"),
        "{answer}"
    );
    assert!(!answer.contains("> npm install"), "{answer}");
}

#[test]
fn weak_evidence_lists_the_closest_pages_instead_of_quoting() {
    let answer = ask(
        "Can I export my billing invoices to a spreadsheet?",
        vec![
            section(
                "Billing",
                "billing",
                "Invoices are sent by email each month to the account owner.",
            ),
            section(
                "Billing",
                "billing",
                "Plans can be changed at any time from the dashboard.",
            ),
            section(
                "Exports",
                "exports",
                "Static exports render the site into an archive.",
            ),
        ],
    );
    assert!(
        answer.starts_with("The Acme documentation does not seem to answer that directly"),
        "{answer}"
    );
    assert_eq!(answer.matches("(/billing)").count(), 1, "{answer}");
    assert!(answer.contains("- [Exports](/exports)"), "{answer}");
    assert!(!answer.contains("> "), "{answer}");
}

#[test]
fn the_kind_of_question_picks_the_sentence_that_answers_it() {
    // Which sentence is chosen first is tested in `choice`; here, that it is quoted.
    let answer = ask(
        "What is a workspace?",
        vec![section(
            "Workspaces",
            "workspaces",
            "You can rename a workspace from its settings page at any time. A workspace is a shared space where a team keeps its projects and members.",
        )],
    );
    assert!(answer.contains("A workspace is a shared space"), "{answer}");
    let answer = ask(
        "Where does the CLI keep my token?",
        vec![
            section(
                "Sessions",
                "sessions",
                "The CLI keeps your token until you sign out.",
            ),
            section(
                "Files",
                "files",
                "The CLI keeps your token in ~/.config/acme/auth.toml.",
            ),
        ],
    );
    assert!(answer.contains("~/.config/acme/auth.toml"), "{answer}");
    let answer = ask(
        "Can the bot speak while the user speaks?",
        vec![
            section(
                "Voices",
                "voices",
                "The bot can speak in many voices while the user listens.",
            ),
            section(
                "Turns",
                "turns",
                "The bot cannot speak while the user speaks: it waits for its turn.",
            ),
        ],
    );
    assert!(answer.contains("cannot speak"), "{answer}");
}

/// Not only "how do I" answers show code: the block whose words cover most of the question (a
/// flag, here) is shown when it covers enough of it, and a long one only around its match.
#[test]
fn shows_the_code_that_answers_and_only_its_matching_part_when_long() {
    let mut script: Vec<String> = (1..=40).map(|i| format!("echo step {i}")).collect();
    script[30] = "acme export --format json > out.json".into();
    let content = format!(
        "The export command writes your data out in any of several formats.\n```bash\n{}\n```\n",
        script.join("\n")
    );
    let answer = ask(
        "Which format flag exports JSON?",
        vec![section("Export", "cli/export", &content)],
    );
    assert!(answer.contains("```bash\n"), "{answer}");
    assert!(answer.contains("acme export --format json"), "{answer}");
    assert!(!answer.contains("echo step 1\n"), "{answer}");
    assert!(
        answer
            .lines()
            .filter(|l| l.starts_with("echo step"))
            .count()
            < 12
    );
}

#[test]
fn the_words_of_the_question_form_are_not_what_it_asks_about() {
    // "mean" is the question's form: the section under the error's heading answers it.
    let mut error = section(
        "Error codes",
        "errors",
        "Attempt to start an agent without a public API key.",
    );
    error.heading_trail = vec!["Error codes".into(), "AC-1002".into()];
    let other = section(
        "Glossary",
        "glossary",
        "A region means the data center your agents run in.",
    );
    let answer = ask("What does error AC-1002 mean?", vec![error, other]);
    assert!(
        answer.contains("> Attempt to start an agent without a public API key."),
        "{answer}"
    );
    assert!(!answer.contains("region"), "{answer}");
}

#[test]
fn a_quoted_sentence_ending_in_a_colon_brings_its_code() {
    let answer = ask(
        "How do I change how often webhook deliveries are retried?",
        vec![section(
            "Webhooks",
            "guides/webhooks",
            "Endpoints are listed by the command line tool.\n```bash\nacme webhooks list\n```\nFailed webhook deliveries are retried, and you choose how often in your configuration file:\n```yaml\nwebhooks:\n  attempts: 5\n```\n",
        )],
    );
    assert!(
        answer.contains("> Failed webhook deliveries are retried, and you choose how often in your configuration file:"),
        "{answer}"
    );
    assert!(
        answer.contains("```yaml\nwebhooks:\n  attempts: 5\n```"),
        "{answer}"
    );
    // The other block covers the question as much ("webhooks"), and comes first.
    assert!(!answer.contains("acme webhooks list"), "{answer}");
}

#[test]
fn a_sentence_that_runs_into_its_code_brings_it_and_one_that_ends_does_not() {
    let answer = ask(
        "How do I check that the server is running and see its logs?",
        vec![section(
            "Self-host › Checking the logs",
            "self-host",
            "If at any point you want to check that the server is running and see its logs, run\n```bash\ndocker compose logs\n```\n",
        )],
    );
    assert!(
        answer.contains("see its logs, run\n\n```bash\ndocker compose logs\n```"),
        "{answer}"
    );
    let split = crate::text::split("The server keeps its logs.\n```bash\nls logs\n```\n");
    assert_eq!(
        split.introduced_code(0),
        None,
        "a whole sentence introduces nothing"
    );
}

#[test]
fn each_quote_shows_the_code_it_introduces_and_one_that_cannot_is_not_quoted() {
    let answer = ask(
        "How do I verify the installation of the Acme CLI?",
        vec![section(
            "Install",
            "install",
            "Install the Acme CLI with npm:\n```bash\nnpm i -g acme\n```\nVerify the installation of the Acme CLI:\n```bash\nacme --version\n```\nThe Acme CLI installation is verified by these screens:\n",
        )],
    );
    let verify = answer
        .find("> Verify the installation of the Acme CLI:")
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(
        answer[verify..].contains(":\n\n```bash\nacme --version\n```"),
        "the code comes right after its quote: {answer}"
    );
    // What the last sentence introduces (screenshots) is not in the text: it is not quoted.
    assert!(!answer.contains("verified by these screens"), "{answer}");
}

#[test]
fn sentences_that_leave_out_what_the_question_is_about_do_not_answer_it() {
    let sections = || {
        vec![
            section(
                "Install",
                "install",
                "Select Plugins on the sidebar and search for Acme in the marketplace.",
            ),
            section(
                "Editors",
                "editors",
                "Acme has a plugin for VS Code and one for JetBrains IDEs.",
            ),
            section(
                "Changelog",
                "changelog",
                "The plugin for Vim was added in 2.0.",
            ),
        ]
    };
    // "Emacs" is what the question is about, and no quote says it.
    let answer = ask("Does Acme have a plugin for Emacs?", sections());
    assert!(
        answer.starts_with("The Acme documentation does not seem to answer that directly"),
        "{answer}"
    );
    // The same sentences answer the question whose subject they name.
    let answer = ask("Does Acme have a plugin for JetBrains?", sections());
    assert!(
        answer.contains("> Acme has a plugin for VS Code and one for JetBrains IDEs."),
        "{answer}"
    );
}

#[test]
fn a_quote_brings_the_sentence_that_reads_on_and_the_list_it_introduces() {
    let answer = ask(
        "How quickly are deleted traces removed?",
        vec![section(
            "Deleting traces",
            "traces",
            "Deleted traces are removed in the background. This takes a few hours.\nOther text.",
        )],
    );
    assert!(
        answer
            .contains("> Deleted traces are removed in the background. This takes a few hours.\n"),
        "{answer}"
    );
    let answer = ask(
        "Which Kubernetes distributions are tested?",
        vec![section(
            "Kubernetes",
            "kubernetes",
            "We have tested these Kubernetes distributions:\nGoogle Kubernetes Engine (GKE)\nAmazon EKS\n",
        )],
    );
    assert!(
        answer.contains(
            "> We have tested these Kubernetes distributions:\n> - Google Kubernetes Engine (GKE)\n> - Amazon EKS\n"
        ),
        "{answer}"
    );
}

#[test]
fn how_much_questions_are_answered_by_the_sentence_with_the_number() {
    let sections = vec![section(
        "Machines",
        "machines",
        "Tasks that need more memory can run on a larger machine.\nEach machine has 0.5 GB of memory by default.",
    )];
    let answer = ask("How much memory does a machine have?", sections.clone());
    assert!(answer.contains("0.5 GB"), "{answer}");
    // Asked otherwise, the first sentence that covers the question is quoted.
    let other = ask("Which memory does a machine have?", sections);
    assert!(other.contains("larger machine"), "{other}");
}

#[test]
fn a_short_step_is_quoted_with_the_code_it_introduces() {
    let sections = vec![section(
        "Quickstart",
        "quickstart",
        "Install the CLI with npm.\nCheck the version:\n```bash\ncn --version\n```",
    )];
    let answer = ask("How do I check which version is installed?", sections);
    // Three words are too few for a sentence of its own, but as a step it says what the code does.
    assert!(answer.contains("> Check the version:"), "{answer}");
    assert!(answer.contains("```bash\ncn --version\n```"), "{answer}");
}

#[test]
fn the_best_ranked_section_is_quoted_beyond_its_best_sentence() {
    let sections = vec![
        section(
            "Create an API key",
            "keys",
            "Click Create API Key to see your new key.\n```bash\nacme keys create\n```\nOpen Settings and scroll to API Keys.\nThe key is shown only once, so store it in a safe place.",
        ),
        section(
            "Experiments",
            "experiments",
            "Query again in a few seconds and you will see all the stats.",
        ),
    ];
    let answer = ask("Can I see my API key again after creating it?", sections);
    // The sentence sharing most words with the question is not the one that answers it.
    assert!(answer.contains("Click Create API Key"), "{answer}");
    assert!(answer.contains("shown only once"), "{answer}");
}

/// Whether a quoted line carries code punctuation, web addresses aside (as the evaluation on
/// real sites counts code quoted as prose).
fn has_code_marks(line: &str) -> bool {
    let without_urls: Vec<&str> = line
        .split_whitespace()
        .filter(|w| !w.contains("://"))
        .collect();
    let without_urls = without_urls.join(" ");
    ["();", "=>", "{", "}", " = ", "//", "nil)"]
        .iter()
        .any(|mark| without_urls.contains(mark))
}

/// The fragments section texts are made of in the property below: prose, list items,
/// colons, sentences that point back, code fences, table rows, URLs, numbers, non-ASCII text.
const SECTION_TEXT: &str = "(Deploy the app to a region\\. |This keeps the key safe\\. |It runs daily\\. |Install the CLI:|\n|\n```bash\ncn --version\n```\n|\n```\n|Memory: 0\\.5 GB\\. |Flag: --silent; Effect: quiet\\. |See https://example\\.com/docs\\. |let x = f\\(y\\);|- Create, edit, or delete files|Übersicht der Schlüssel\\. |配置文件\\. |e\\.g\\. |\\$10/month per 1,000 schedules\\. |   ){0,14}";

proptest::proptest! {
    /// Whatever the sections say and however the question is asked: no panic, sources are real
    /// sections listed once, no sentence quoted twice, and no quoted line reads as code.
    #[test]
    fn any_retrieval_gives_a_safe_answer(
        question in "(How do I |How many |What is |Which flag |another |key |region |memory |deploy |CLI |\\? ){0,8}",
        texts in proptest::collection::vec(SECTION_TEXT, 0..5),
    ) {
        let sections: Vec<_> = texts
            .iter()
            .enumerate()
            .map(|(i, text)| section("Keys › Regions", &format!("page{i}"), text))
            .collect();
        let count = sections.len();
        let answer = answer(&question, sections);
        let mut unique = answer.cited.clone();
        unique.sort_unstable();
        unique.dedup();
        proptest::prop_assert_eq!(unique.len(), answer.cited.len());
        proptest::prop_assert!(answer.cited.iter().all(|&i| i < count));
        let quoted: Vec<&str> = answer
            .text
            .lines()
            .filter_map(|l| l.strip_prefix("> "))
            .map(|l| l.strip_prefix("- ").unwrap_or(l))
            .collect();
        // The sources are the sections the text links, in the order it links them.
        let mut linked: Vec<String> = Vec::new();
        for url in answer.text.split("](/").skip(1).filter_map(|p| p.split(')').next()) {
            let url = format!("/{url}");
            if !linked.contains(&url) {
                linked.push(url);
            }
        }
        let cited: Vec<String> = answer.cited.iter().map(|i| format!("/page{i}")).collect();
        proptest::prop_assert_eq!(&linked, &cited, "{}", answer.text);
        // Each source is first linked by the line that ends where the answer says it is cited:
        // a stream sends the source right after what it supports.
        proptest::prop_assert_eq!(answer.cited_at.len(), answer.cited.len());
        proptest::prop_assert!(answer.cited_at.windows(2).all(|w| w[0] <= w[1]));
        for (section, &at) in answer.cited.iter().zip(&answer.cited_at) {
            let link = format!("](/page{section})");
            let first = answer.text.find(&link);
            proptest::prop_assert!(first.is_some_and(|i| i < at), "{link} not before {at}: {}", answer.text);
            let line_end = first.and_then(|i| answer.text[i..].find('\n').map(|n| i + n)).unwrap_or(answer.text.len());
            proptest::prop_assert!(at >= line_end && answer.text[line_end..at].trim().is_empty(), "{link} cited at {at}: {}", answer.text);
        }
        // A quote that introduces something is followed by it: a list item or code.
        let lines: Vec<&str> = answer.text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("> ") && !line.starts_with("> - ") && line.trim_end().ends_with(':') {
                let next = lines[i + 1..].iter().find(|l| !l.trim().is_empty());
                proptest::prop_assert!(
                    next.is_some_and(|l| l.starts_with("> - ") || l.starts_with("```")),
                    "{line} introduces nothing shown\n{}",
                    answer.text
                );
            }
        }
        let mut seen = std::collections::HashSet::new();
        for line in &quoted {
            proptest::prop_assert!(seen.insert(*line), "quoted twice: {line}\n{}", answer.text);
            proptest::prop_assert!(
                !has_code_marks(line),
                "code quoted as prose: {line}\n{}",
                answer.text
            );
        }
    }
}

#[test]
fn a_definition_question_is_answered_first_by_the_sentence_that_defines_its_subject() {
    // The search ranks the section that mentions the subject most above the one defining it.
    let sections = vec![
        section(
            "Invoices",
            "billing",
            "Workers are invoiced monthly on the first of the month. Additional workers added mid-month are invoiced within one day of being added.",
        ),
        section(
            "What is a worker?",
            "billing",
            "A worker is a running process that takes jobs from your queues. Paused processes are not counted as workers on an invoice.",
        ),
    ];
    let text = ask("What counts as a worker on an invoice?", sections);
    let defined = text.find("A worker is a running process").expect(&text);
    let invoiced = text
        .find("Workers are invoiced monthly")
        .unwrap_or(usize::MAX);
    assert!(defined < invoiced, "{text}");
}
