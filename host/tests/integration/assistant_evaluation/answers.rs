//! Reading an answer of the built-in assistant: what it links, quotes and refuses, whether a
//! quote introduces what it does not show, and where a fact sits in a page's source.

/// The URLs the answer's text links, each once, in the order first linked.
pub fn linked_urls(answer: &str) -> Vec<String> {
    let mut urls = Vec::new();
    for piece in answer.split("](").skip(1) {
        if let Some(url) = piece.split(')').next()
            && !urls.iter().any(|u| u == url)
        {
            urls.push(url.to_string());
        }
    }
    urls
}

/// Quoted lines ending in a colon whose next non-blank line is not what they introduce: a code
/// fence, a list item or a table row.
pub fn dangling_colons(answer: &str) -> Vec<&str> {
    let lines: Vec<&str> = answer.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let quote = line.strip_prefix("> ")?;
            if !quote.trim_end().ends_with(':') {
                return None;
            }
            let next = lines[i + 1..]
                .iter()
                .map(|l| l.trim_start_matches("> ").trim())
                .find(|l| !l.is_empty() && !l.starts_with("From ["));
            let introduced = next.is_some_and(|l| {
                l.starts_with("```")
                    || l.starts_with("- ")
                    || l.starts_with("* ")
                    || l.starts_with('|')
                    || l.split_once(". ")
                        .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            });
            (!introduced).then_some(quote)
        })
        .collect()
}

/// Whether `question` asks how to do something ("How do I ...", "How can I ...").
pub fn is_how_to(question: &str) -> bool {
    let lower = question.to_lowercase();
    [
        "how do i ",
        "how can i ",
        "how should i ",
        "how do we ",
        "how can we ",
    ]
    .iter()
    .any(|start| lower.starts_with(start))
}

/// Whether `fact` is in a fenced code block of the page at `page` in the site folder `root`.
pub fn fact_in_code(root: &std::path::Path, page: &str, fact: &str) -> bool {
    let Some(source) = page_source(root, page) else {
        return false;
    };
    let fact = fact.to_lowercase();
    let mut in_fence = false;
    source.lines().any(|line| {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            return false;
        }
        in_fence && line.to_lowercase().contains(&fact)
    })
}

/// The source of the page at `page` in the site folder `root` (`.mdx`, else `.md`).
pub fn page_source(root: &std::path::Path, page: &str) -> Option<String> {
    ["mdx", "md"]
        .iter()
        .find_map(|ext| std::fs::read_to_string(root.join(format!("{page}.{ext}"))).ok())
}

/// Said by the built-in answer when the documentation does not answer.
pub fn is_refusal(answer: &str) -> bool {
    answer.starts_with("I could not find anything")
        || answer.contains("documentation does not seem to answer")
}

/// The answer's quoted lines (`> ...`).
pub fn quotes(answer: &str) -> Vec<&str> {
    answer
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .collect()
}

/// A quote that is code rather than a sentence: code punctuation a sentence does not carry.
pub fn is_code(quote: &str) -> bool {
    let without_urls: String = quote
        .split_whitespace()
        .filter(|w| !w.contains("://"))
        .collect::<Vec<_>>()
        .join(" ");
    ["();", "=>", "{", "}", " = ", "//", "nil)"]
        .iter()
        .any(|mark| without_urls.contains(mark))
}
