//! Follow-up questions without a model. "And how do I verify them?" says nothing of what "them"
//! is: such a question is searched steered by the conversation (the reader's previous question
//! and the headings of the sections the previous answer cited), and the assistant fuses that
//! search with the question searched alone (`fusion`). A question that stands on its own is not
//! steered: the previous turn's subject would only pull in pages it no longer asks about.

/// Characters of the previous question added to a follow-up's query.
const PREVIOUS_QUESTION_CHARS: usize = 200;
/// Headings of the previous answer's citations added to a follow-up's query.
const CITED_HEADINGS: usize = 3;
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

/// Words too common to say what a question is about (for `SHORT_QUESTION_TERMS`).
const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "and", "are", "can", "do", "does", "for", "how", "i", "in", "is", "of", "on", "or",
    "the", "to", "what", "when", "where", "which", "who", "why", "with", "you", "my", "me", "we",
    "should", "would", "could", "about", "be",
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
    words
        .iter()
        .filter(|w| !FUNCTION_WORDS.contains(&w.as_str()))
        .count()
        <= SHORT_QUESTION_TERMS
}

/// The headings an answer cited, from its Markdown links (`[Page › Section](/page#section)`),
/// each once, in order.
pub fn cited_headings(answer: &str) -> Vec<String> {
    let mut headings: Vec<String> = Vec::new();
    let mut rest = answer;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find("](") else { break };
        let label = &rest[..close];
        let after = &rest[close + 2..];
        // A link to a page of the site: its label is a page title or "Page › Section".
        if after.starts_with('/') && !label.contains('[') && !label.trim().is_empty() {
            let label = label.trim().to_string();
            if !headings.contains(&label) {
                headings.push(label);
            }
        }
        rest = after;
    }
    headings
}

/// The query a follow-up is searched with: the question, the previous question and the
/// headings the previous answer cited. `None` when `question` stands alone or there is
/// nothing before it. `history` is the conversation before the question, oldest first, as
/// (role, text).
pub fn steered_query(question: &str, history: &[(String, String)]) -> Option<String> {
    if !is_follow_up(question) {
        return None;
    }
    let previous_question = history.iter().rev().find(|(role, _)| role == "user");
    let previous_answer = history.iter().rev().find(|(role, _)| role == "assistant");
    if previous_question.is_none() && previous_answer.is_none() {
        return None;
    }
    let mut query = question.to_string();
    if let Some((_, text)) = previous_question {
        query.push(' ');
        query.extend(text.chars().take(PREVIOUS_QUESTION_CHARS));
    }
    if let Some((_, text)) = previous_answer {
        for heading in cited_headings(text).into_iter().take(CITED_HEADINGS) {
            query.push(' ');
            query.push_str(&heading.replace(" › ", " "));
        }
    }
    Some(query)
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
    fn cited_headings_are_read_from_the_answer_links() {
        let answer = "Here is what the Acme documentation says:\n\n> Retries back off.\n\n\
                      From [Webhooks › Retries](/guides/webhooks#retries)\n\n\
                      See [the site](https://example.com) and [Webhooks › Retries](/guides/webhooks#retries) \
                      and [Signing](/guides/signing).";
        assert_eq!(
            cited_headings(answer),
            ["Webhooks › Retries", "Signing"],
            "site links only, each once"
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
        let query = steered_query("And how do I verify their signatures?", &history).unwrap();
        assert!(query.starts_with("And how do I verify their signatures?"));
        assert!(query.contains("failed webhook deliveries"), "{query}");
        assert!(query.contains("Webhooks Retries"), "{query}");
        assert_eq!(
            steered_query("How do I rotate my API keys?", &history),
            None,
            "a question that stands alone is searched alone"
        );
        assert_eq!(steered_query("And then?", &[]), None, "nothing to lean on");
    }
}
