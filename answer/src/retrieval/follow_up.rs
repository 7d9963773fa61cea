//! Follow-up questions without a model. "And how do I verify them?" says nothing of what "them"
//! is: such a question is searched steered by the conversation (the reader's previous question
//! and, apart, the headings of the sections the previous answer quoted), and the assistant fuses
//! those searches with the question searched alone (`fusion`). A question that stands on its
//! own is not steered: the previous turn's subject would only pull in pages it no longer asks
//! about. The host reads the conversation from the stored thread or from the turns a client that keeps
//! it sends; the exported site's assistant keeps it in the page.

/// Characters of the previous question added to a follow-up's query.
const PREVIOUS_QUESTION_CHARS: usize = 200;
/// Headings of the previous answer's citations added to a follow-up's query.
const CITED_HEADINGS: usize = 2;
/// A question with at most this many words that carry meaning leans on what came before.
const SHORT_QUESTION_TERMS: usize = 2;

/// Openings of a question that continues the last one.
const CONTINUATIONS: &[&str] = &[
    "and ",
    "but ",
    "also ",
    "so ",
    "then ",
    "what about ",
    "how about ",
    "what if ",
    "same ",
    "or ",
];

/// Words that point back at something said before.
const POINTING_WORDS: &[&str] = &[
    "it", "its", "it's", "they", "them", "their", "theirs", "that", "those", "these", "this",
    "there", "one", "ones", "same", "above", "previous", "former", "latter",
];

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `question` leans on the conversation before it: it continues it ("And ...", "What
/// about ..."), points back at it ("it", "those"), or is too short to say what it is about.
pub fn is_follow_up(question: &str) -> bool {
    let lower = question.trim_start().to_lowercase();
    if CONTINUATIONS.iter().any(|c| lower.starts_with(c)) {
        return true;
    }
    let words = words(question);
    if words.iter().any(|w| POINTING_WORDS.contains(&w.as_str())) {
        return true;
    }
    // The words that say what it is about, as the built-in answer weighs a question.
    crate::terms(question).len() <= SHORT_QUESTION_TERMS
}

/// The headings of the sections an answer quoted, each once, in order: the built-in answer
/// names each quoted section as `From [Page › Section](/page#section)`. The closest pages a
/// refusal lists were not used, so they are not taken; nor are links to other sites.
pub fn cited_headings(answer: &str) -> Vec<String> {
    let mut headings: Vec<String> = Vec::new();
    for line in answer.lines() {
        let Some(link) = line.trim().strip_prefix("From [") else {
            continue;
        };
        let Some((label, target)) = link.split_once("](") else {
            continue;
        };
        let label = label.trim();
        if target.starts_with('/') && !label.is_empty() && !headings.iter().any(|h| h == label) {
            headings.push(label.to_string());
        }
    }
    headings
}

/// The queries a follow-up is searched with, besides the question alone: steered by the
/// previous question, and steered by the headings the previous answer quoted. They are searched
/// apart and fused, so that a previous answer that quoted the wrong section pulls one ranking
/// of three, not the only one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Steering {
    /// The question and the previous question: what the stream shows as searched.
    pub by_question: String,
    /// The question and the headings the previous answer quoted, when it quoted any.
    pub by_citations: Option<String>,
}

/// How `question` is steered by the conversation before it (`history`, oldest first, as
/// (role, text)); `None` when it stands alone or there is nothing before it.
pub fn steering(question: &str, history: &[(String, String)]) -> Option<Steering> {
    if !is_follow_up(question) {
        return None;
    }
    let (_, previous_question) = history.iter().rev().find(|(role, _)| role == "user")?;
    let mut by_question = question.to_string();
    by_question.push(' ');
    by_question.extend(previous_question.chars().take(PREVIOUS_QUESTION_CHARS));
    let headings = history
        .iter()
        .rev()
        .find(|(role, _)| role == "assistant")
        .map(|(_, answer)| cited_headings(answer))
        .unwrap_or_default();
    let by_citations = (!headings.is_empty()).then(|| {
        let mut query = question.to_string();
        for heading in headings.iter().take(CITED_HEADINGS) {
            query.push(' ');
            query.push_str(&heading.replace(" › ", " "));
        }
        query
    });
    Some(Steering {
        by_question,
        by_citations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(role: &str, text: &str) -> (String, String) {
        (role.to_string(), text.to_string())
    }

    #[test]
    fn follow_ups_are_told_from_questions_that_stand_alone() {
        for question in [
            "And how do I verify them?",
            "What about Python?",
            "Does it retry?",
            "Which one is faster?",
            "Timeouts?",
            "and on Windows",
        ] {
            assert!(is_follow_up(question), "{question}");
        }
        for question in [
            "How do I configure webhook retries?",
            "What machine sizes are available for tasks?",
            "How do I install the CLI on Windows?",
        ] {
            assert!(!is_follow_up(question), "{question}");
        }
    }

    #[test]
    fn cited_headings_are_those_of_the_quoted_sections() {
        let answer = "Here is what the Acme documentation says:\n\n> Retries back off.\n\n\
                      From [Webhooks › Retries](/guides/webhooks#retries)\n\n\
                      > Sign them.\n\nFrom [Webhooks › Retries](/guides/webhooks#retries)\n\n\
                      From [Elsewhere](https://example.com)\n\n\
                      From [Signing](/guides/signing)";
        assert_eq!(
            cited_headings(answer),
            ["Webhooks › Retries", "Signing"],
            "site links only, each once"
        );
        let refusal = "The Acme documentation does not seem to answer that directly. The closest \
                       pages:\n\n- [Billing](/billing)\n- [Teams](/teams)";
        assert!(
            cited_headings(refusal).is_empty(),
            "closest pages were not used"
        );
    }

    #[test]
    fn a_follow_up_is_steered_by_the_previous_turn_and_its_citations() {
        let history = [
            turn("user", "How are failed webhook deliveries retried?"),
            turn(
                "assistant",
                "> Failed deliveries are retried.\n\nFrom [Webhooks › Retries](/guides/webhooks#retries)",
            ),
        ];
        let steered = steering("And how do I verify their signatures?", &history).unwrap();
        assert_eq!(
            steered.by_question,
            "And how do I verify their signatures? How are failed webhook deliveries retried?"
        );
        assert_eq!(
            steered.by_citations.as_deref(),
            Some("And how do I verify their signatures? Webhooks Retries")
        );
        assert_eq!(
            steering("How do I rotate my API keys?", &history),
            None,
            "a question that stands alone is searched alone"
        );
        assert_eq!(steering("And then?", &[]), None, "nothing to lean on");
        let refused = [
            history[0].clone(),
            turn(
                "assistant",
                "The docs do not seem to answer that. The closest pages:\n\n- [Billing](/billing)",
            ),
        ];
        let after_refusal = steering("And then?", &refused).unwrap();
        assert_eq!(after_refusal.by_citations, None, "a refusal quoted nothing");
    }

    proptest::proptest! {
        /// Whatever a reader or a client sends as the conversation: no panic, and a steered
        /// query always starts with the question itself.
        #[test]
        fn any_conversation_is_steered_safely(
            question in "\\PC{0,40}",
            earlier in "(From \\[|\\]\\(/|\\PC{0,8}|\n| › ){0,16}",
        ) {
            let history = [turn("user", &earlier), turn("assistant", &earlier)];
            let _ = cited_headings(&earlier);
            if let Some(steered) = steering(&question, &history) {
                proptest::prop_assert!(steered.by_question.starts_with(&question));
                if let Some(by_citations) = steered.by_citations {
                    proptest::prop_assert!(by_citations.starts_with(&question));
                }
            }
        }
    }
}
