//! A model's citations: the `[n]` marks by which its answer names the numbered sections of its
//! prompt. An answer is supported when it cites at least one section and every number it cites
//! is one of them; a mark inside code (`items[0]`) is code, not a citation.

/// Why an answer is not supported by its sections.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    #[error("it cites no section")]
    NoCitation,
    #[error("it cites [{0}], but the prompt had {1} sections")]
    NoSuchSection(usize, usize),
}

/// One citation mark in an answer: the byte range of `[...]` and the numbers it holds.
struct Mark {
    start: usize,
    end: usize,
    numbers: Vec<usize>,
}

/// The citation marks of `answer`, outside code: `[2]`, `[1, 3]`; a bracket right after a
/// word (`items[1]`) or followed by `(` (a Markdown link) is not one.
fn marks(answer: &str) -> Vec<Mark> {
    let mut found = Vec::new();
    let mut in_fence = false;
    let mut offset = 0;
    for line in answer.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut in_code = false;
        let mut previous: Option<char> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '`' => in_code = !in_code,
                '[' if !in_code => {
                    let after_word =
                        previous.is_some_and(|p| p.is_alphanumeric() || p == '_' || p == ')');
                    let after_mark = found.last().is_some_and(|m: &Mark| m.end == line_start + i);
                    let rest = &line[i + 1..];
                    if let Some(close) = rest.find(']')
                        && (!after_word || after_mark)
                        && !rest[close + 1..].starts_with('(')
                        && let Some(numbers) = numbers(&rest[..close])
                    {
                        found.push(Mark {
                            start: line_start + i,
                            end: line_start + i + close + 2,
                            numbers,
                        });
                        // Skip to the closing bracket.
                        while chars.peek().is_some_and(|&(j, _)| j < i + close + 2) {
                            chars.next();
                        }
                        previous = Some(']');
                        continue;
                    }
                }
                _ => {}
            }
            previous = Some(c);
        }
    }
    found
}

/// `1`, `1, 3` or `1,3`: the numbers; anything else is not a citation.
fn numbers(inside: &str) -> Option<Vec<usize>> {
    let numbers: Option<Vec<usize>> = inside
        .split(',')
        .map(|n| {
            let n = n.trim();
            (!n.is_empty() && n.len() <= 4 && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| n.parse().ok())
                .flatten()
        })
        .collect();
    numbers.filter(|n| !n.is_empty())
}

/// The sections `answer` cites, as indexes into the prompt's `sections` sections (its `[1]` is
/// index 0), each once in the order first cited; or why it is not supported.
pub fn check(answer: &str, sections: usize) -> Result<Vec<usize>, Unsupported> {
    let mut cited = Vec::new();
    for number in marks(answer).into_iter().flat_map(|m| m.numbers) {
        if number == 0 || number > sections {
            return Err(Unsupported::NoSuchSection(number, sections));
        }
        if !cited.contains(&(number - 1)) {
            cited.push(number - 1);
        }
    }
    if cited.is_empty() {
        return Err(Unsupported::NoCitation);
    }
    Ok(cited)
}

/// `answer` with each citation linked to its section (`[2]` becomes `[[2]](url)`), and where
/// each section is first cited: its index (the `[1]` is index 0) with the byte offset in the
/// linked text right after that mark, in order. Call it on an answer `check` accepted.
pub fn link(answer: &str, urls: &[&str]) -> (String, Vec<(usize, usize)>) {
    let mut linked = String::with_capacity(answer.len());
    let mut first_cited = Vec::new();
    let mut copied = 0;
    for mark in marks(answer) {
        linked.push_str(&answer[copied..mark.start]);
        let mut new: Vec<usize> = Vec::new();
        for number in mark.numbers {
            match number
                .checked_sub(1)
                .and_then(|i| urls.get(i).map(|url| (i, url)))
            {
                Some((i, url)) => {
                    linked.push_str(&format!("[[{number}]]({url})"));
                    if !new.contains(&i) && !first_cited.iter().any(|&(s, _)| s == i) {
                        new.push(i);
                    }
                }
                None => linked.push_str(&format!("[{number}]")),
            }
        }
        // Cited once the whole mark is read: `[1, 2]` supports what comes before it.
        let end = linked.len();
        first_cited.extend(new.into_iter().map(|i| (i, end)));
        copied = mark.end;
    }
    linked.push_str(&answer[copied..]);
    (linked, first_cited)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_are_checked_against_the_sections() {
        assert_eq!(
            check("Retries back off [2]. Signing [1][2].", 3),
            Ok(vec![1, 0])
        );
        assert_eq!(check("Both [1, 3].", 3), Ok(vec![0, 2]));
        assert_eq!(check("Retries back off.", 3), Err(Unsupported::NoCitation));
        assert_eq!(
            check("Retries back off [4].", 3),
            Err(Unsupported::NoSuchSection(4, 3))
        );
        assert_eq!(check("See [0].", 3), Err(Unsupported::NoSuchSection(0, 3)));
    }

    #[test]
    fn code_links_and_indexing_are_not_citations() {
        let answer = "Read `items[7]` or:\n\n```js\nconst x = rows[9];\n[5]\n```\n\n\
                      See [the guide](/guide) and items[8], then [2].";
        assert_eq!(check(answer, 2), Ok(vec![1]));
        assert_eq!(
            check("[see above] and [x]", 2),
            Err(Unsupported::NoCitation)
        );
    }

    #[test]
    fn citations_become_links_to_their_sections() {
        let urls = ["/a#one", "/b"];
        let (text, cited) = link("Retries back off [2]. Both [1, 2]; `v[1]` stays.", &urls);
        assert_eq!(
            text,
            "Retries back off [[2]](/b). Both [[1]](/a#one)[[2]](/b); `v[1]` stays."
        );
        // Each section is cited right after its first mark.
        assert_eq!(cited, [(1, 26), (0, 55)]);
        assert_eq!(&text[..26], "Retries back off [[2]](/b)");
        assert_eq!(link("é [1][2]", &urls).0, "é [[1]](/a#one)[[2]](/b)");
    }

    /// Found by the property test below: a mark of two sections after fences, both cited where
    /// the mark ends.
    #[test]
    fn a_mark_of_two_sections_cites_both_where_it_ends() {
        let (text, cited) = link("a```\n```\n```\n[1,2]", &["/s0", "/s1"]);
        assert_eq!(text, "a```\n```\n```\n[[1]](/s0)[[2]](/s1)");
        assert_eq!(cited, [(0, text.len()), (1, text.len())]);
    }

    proptest::proptest! {
        /// Whatever a model writes: no panic, cited sections are real and listed once, and every
        /// one of them is linked.
        #[test]
        fn any_answer_is_checked_and_linked_safely(
            answer in "([a-z ]{0,6}|\\[[0-9, ]{0,4}\\]?|`|```\n|\\(|é|\n){0,24}",
            sections in 0usize..5,
        ) {
            let urls: Vec<String> = (0..sections).map(|i| format!("/s{i}")).collect();
            let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
            let (linked, first_cited) = link(&answer, &urls);
            if let Ok(cited) = check(&answer, sections) {
                proptest::prop_assert!(!cited.is_empty());
                let mut unique = cited.clone();
                unique.sort_unstable();
                unique.dedup();
                proptest::prop_assert_eq!(unique.len(), cited.len());
                proptest::prop_assert_eq!(
                    first_cited.iter().map(|&(i, _)| i).collect::<Vec<_>>(),
                    cited.clone()
                );
                // A section is cited where the mark holding it ends (`[1, 2]` supports what
                // comes before it), so its link is before that point and a link ends there.
                for &(i, at) in &first_cited {
                    let mark = format!("]({})", urls[i]);
                    proptest::prop_assert!(linked.is_char_boundary(at));
                    proptest::prop_assert!(linked[..at].ends_with(')'));
                    proptest::prop_assert!(linked[..at].contains(&mark));
                }
                for i in cited {
                    proptest::prop_assert!(i < sections);
                    let url = format!("]({})", urls[i]);
                    proptest::prop_assert!(linked.contains(&url));
                }
            }
        }
    }
}
