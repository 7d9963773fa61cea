//! A section's text as the built-in answer reads it: prose cut into sentences by the Unicode
//! sentence rules (UAX #29, `unicode-segmentation`), and code kept apart. Renderers on contract
//! 0.3 fence code blocks in a section's text (a line of three backticks, the language after the
//! opening one); text from other renderers is all prose, so a sentence that reads as code is
//! also recognised by its shape and never quoted as prose.

use unicode_segmentation::UnicodeSegmentation;

/// A code block of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    pub language: String,
    pub code: String,
    /// The index of the sentence just before the block, if any: a sentence ending in a colon
    /// introduces it ("Add this to your config:").
    pub after_sentence: Option<usize>,
}

/// A section's text, split.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Sentences of prose, in order, trimmed.
    pub sentences: Vec<String>,
    /// For each sentence, the number of the block (a paragraph, a list item, a table row) it
    /// is in: sentences of one block read on from each other.
    pub blocks: Vec<usize>,
    pub code: Vec<CodeBlock>,
}

impl Split {
    /// Whether a code block comes right after sentence `position`.
    pub fn code_after(&self, position: usize) -> bool {
        self.code.iter().any(|b| b.after_sentence == Some(position))
    }

    /// The code block sentence `position` introduces: the one right after it, not empty, when
    /// the sentence ends in a colon ("Add this to your config:") or runs into the block without
    /// ending ("To see the logs, run" and then the command).
    pub fn introduced_code(&self, position: usize) -> Option<&CodeBlock> {
        let sentence = self.sentences.get(position)?.trim_end();
        let runs_into_it = sentence.ends_with(':') || sentence.ends_with(char::is_alphanumeric);
        if !runs_into_it {
            return None;
        }
        self.code
            .iter()
            .find(|b| b.after_sentence == Some(position) && !b.code.trim().is_empty())
    }
}

/// Splits `text` into prose sentences and code blocks.
pub fn split(text: &str) -> Split {
    let mut out = Split::default();
    let mut prose = String::new();
    let mut code: Option<CodeBlock> = None;
    for line in text.split_inclusive('\n') {
        let fence = line.trim().strip_prefix("```");
        match (&mut code, fence) {
            (None, Some(language)) => {
                sentences_into(&prose, &mut out);
                prose.clear();
                code = Some(CodeBlock {
                    language: language.trim().to_string(),
                    code: String::new(),
                    after_sentence: out.sentences.len().checked_sub(1),
                });
            }
            (Some(_), Some(_)) => {
                if let Some(mut block) = code.take() {
                    block.code.truncate(block.code.trim_end().len());
                    out.code.push(block);
                }
            }
            (Some(block), None) => block.code.push_str(line),
            (None, None) => prose.push_str(line),
        }
    }
    // An unclosed fence: what followed it is code all the same.
    if let Some(mut block) = code {
        block.code.truncate(block.code.trim_end().len());
        out.code.push(block);
    }
    sentences_into(&prose, &mut out);
    out
}

/// Adds the sentences of `prose`, a block per line (the renderer ends a block with a line
/// break), to `out`.
fn sentences_into(prose: &str, out: &mut Split) {
    for block in prose.lines() {
        let number = out.blocks.last().map_or(0, |b| b + 1);
        let mut pending = String::new();
        for sentence in block.unicode_sentences() {
            let sentence = sentence.split_whitespace().collect::<Vec<_>>().join(" ");
            if sentence.is_empty() {
                continue;
            }
            // UAX #29 ends a sentence after "e.g." or "approx." followed by a capital; the
            // abbreviation's sentence goes on.
            if !pending.is_empty() {
                pending.push(' ');
            }
            pending.push_str(&sentence);
            if !ends_with_abbreviation(&pending) {
                out.sentences.push(std::mem::take(&mut pending));
                out.blocks.push(number);
            }
        }
        if !pending.is_empty() {
            out.sentences.push(pending);
            out.blocks.push(number);
        }
    }
}

/// Abbreviations after which a full stop does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "e.g.", "i.e.", "etc.", "vs.", "approx.", "incl.", "cf.", "fig.", "no.", "mr.", "ms.", "dr.",
    "z.b.", "bzw.", "p.ex.",
];

fn ends_with_abbreviation(text: &str) -> bool {
    let last = text
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or("")
        .trim_start_matches(['(', '"', '\'']);
    let lower = last.to_lowercase();
    ABBREVIATIONS.contains(&lower.as_str())
}

/// Whether a sentence reads as code rather than prose: many code symbols, code operators,
/// few words, or more identifiers (`snake_case`, `camelCase`, calls) than plain words.
pub fn looks_like_code(sentence: &str) -> bool {
    let chars = sentence.chars().count().max(1);
    let symbols = sentence
        .chars()
        .filter(|c| {
            matches!(
                c,
                '{' | '}' | '(' | ')' | '[' | ']' | ';' | '=' | '<' | '>' | '|' | '\\' | '$'
            )
        })
        .count();
    if symbols * 100 / chars >= 6 {
        return true;
    }
    const OPERATORS: &[&str] = &[
        "=>", "->", "::", "();", "){", ") {", "!=", "==", "&&", "||", "}}", "{{", "\", }", "nil)",
        " = ",
    ];
    if OPERATORS.iter().any(|op| sentence.contains(op)) {
        return true;
    }
    let tokens: Vec<&str> = sentence.split_whitespace().collect();
    // A run of `name: value` pairs is a listing (arguments, settings), not a sentence.
    let pairs = tokens.iter().filter(|t| t.ends_with(':')).count();
    if pairs >= 4 && pairs * 8 >= tokens.len() {
        return true;
    }
    let words = tokens
        .iter()
        .filter(|t| {
            let t = t.trim_matches(|c: char| !c.is_alphanumeric());
            let plain_word =
                !t.is_empty() && t.chars().all(char::is_alphabetic) && !is_identifier(t);
            plain_word || is_quantity(t)
        })
        .count();
    let identifiers = tokens
        .iter()
        .filter(|t| {
            is_identifier(t.trim_matches(|c: char| matches!(c, ',' | '.' | ':' | '"' | '\'')))
        })
        .count();
    words < 3 || identifiers * 2 > words
}

/// A number, or an amount with its unit or a range of them (`8GB`, `1.5B-3B`, `100ms`, `50%`):
/// a word of prose ("7B models: ~8GB RAM"), not code.
fn is_quantity(token: &str) -> bool {
    !token.is_empty()
        && token.split('-').all(|part| {
            let unit =
                part.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
            part.starts_with(|c: char| c.is_ascii_digit())
                && unit.len() <= 4
                && unit.chars().all(|c| c.is_alphabetic() || c == '%')
        })
}

/// `snake_case`, `camelCase`, `dotted.path` or a call: names from code, not prose words.
fn is_identifier(token: &str) -> bool {
    let inner = token.trim_end_matches("()");
    if token.ends_with("()") && !inner.is_empty() {
        return true;
    }
    let has_underscore = inner.contains('_') && inner.chars().any(char::is_alphabetic);
    let camel = inner
        .chars()
        .zip(inner.chars().skip(1))
        .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    let dotted = inner.contains('.')
        && !inner.ends_with('.')
        && inner
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'));
    has_underscore || camel || dotted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_and_fenced_code_come_apart() {
        let text = "Install the CLI. Then log in, e.g. with a token.\n```bash\nnpm i -g acme\nacme login\n```\nDone! It works.";
        let split = split(text);
        assert_eq!(
            split.sentences,
            [
                "Install the CLI.",
                "Then log in, e.g. with a token.",
                "Done!",
                "It works."
            ]
        );
        assert_eq!(split.blocks, [0, 0, 1, 1]);
        assert_eq!(
            split.code,
            [CodeBlock {
                language: "bash".into(),
                code: "npm i -g acme\nacme login".into(),
                after_sentence: Some(1),
            }]
        );
    }

    #[test]
    fn each_line_is_a_block_of_its_own() {
        let split = split("Supported systems:\nLinux and macOS\nWindows 11. Not Windows 10.");
        assert_eq!(
            split.sentences,
            [
                "Supported systems:",
                "Linux and macOS",
                "Windows 11.",
                "Not Windows 10."
            ]
        );
        assert_eq!(split.blocks, [0, 1, 2, 2]);
    }

    #[test]
    fn urls_versions_and_abbreviations_do_not_end_sentences() {
        let split =
            split("See docs.acme.com/setup for v1.2 details, i.e. The full list. Next one.");
        assert_eq!(
            split.sentences,
            [
                "See docs.acme.com/setup for v1.2 details, i.e. The full list.",
                "Next one."
            ]
        );
    }

    #[test]
    fn code_read_as_prose_is_recognised() {
        for code in [
            "0\", }, nil) // Add get_forecast tool mcp.",
            "const client = new Client({ apiKey });",
            "result = compute(1, \"value\")",
            "server.add_tool(get_forecast, schema)",
            "qwen2.5-coder:7b 8GB",
            "import { useChat } from \"ai/react\"",
            "This would result in .10 * 7,800,000 = 780,000.",
            "Runner Arguments: room_name: the room to join url: the server to connect to token: a token for the room body: the request data",
        ] {
            assert!(looks_like_code(code), "{code}");
        }
        for prose in [
            "Failed deliveries are retried with exponential backoff for up to 24 hours.",
            "Set the `apiKey` option to your key before calling the client.",
            "Use get_forecast to read the weather for a place, as shown below.",
            "Webhooks (outgoing HTTP calls) tell your server when something happens.",
            // Amounts and their units are words of prose, not code.
            "7B models: ~8GB RAM",
            "1.5B-3B models: ~4GB RAM",
        ] {
            assert!(!looks_like_code(prose), "{prose}");
        }
    }
}
