//! The highlighter itself: arborium's tree-sitter grammars, one parser per thread over
//! grammars compiled once per process, and the reduction of their captures to token kinds.
//! Code seen before is answered from the process's memo (`memo.rs`) without parsing.

use std::cell::RefCell;
use std::sync::{Arc, MutexGuard, OnceLock};

use arborium::{GrammarStore, Highlighter};

use super::memo::{Memo, Runs};
use super::{MAX_CODE_BYTES, TokenKind, TokenRun};

/// The runs of `code` in `language` (a fence's language name, any case, common aliases such as
/// `ts`, `py` or `sh` included), in order and not overlapping; bytes between runs are plain.
/// `None` when there is no grammar for the language, or the code is too long.
pub fn highlight(language: &str, code: &str) -> Option<Vec<TokenRun>> {
    if code.len() > MAX_CODE_BYTES {
        return None;
    }
    let language = grammar_name(language)?;
    let kept = memo().get(&language, code);
    let runs = match kept {
        Some(runs) => runs,
        None => {
            let runs: Runs = parse(&language, code).map(Arc::from);
            memo().put(&language, code, runs.clone());
            runs
        }
    };
    runs.map(|runs| runs.to_vec())
}

/// The shared memo, locked; a thread that panicked while holding it left nothing half-done
/// (each change to it is made whole before the lock is let go), so a poisoned lock is used.
fn memo() -> MutexGuard<'static, Memo> {
    Memo::shared()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `code` parsed in `language` (a grammar name) on this thread's parser, as runs.
fn parse(language: &str, code: &str) -> Option<Vec<TokenRun>> {
    let spans = HIGHLIGHTER.with(|cell| {
        // A grammar that panics must not take the calling thread with it; the highlighter is
        // made again, in case the panic left it half-way through a parse.
        let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            cell.borrow_mut().highlight_spans(language, code).ok()
        }));
        parsed.unwrap_or_else(|_| {
            *cell.borrow_mut() = Highlighter::with_store(store());
            None
        })
    })?;
    let classified = spans
        .into_iter()
        .filter(|s| s.start < s.end && s.end as usize <= code.len())
        .map(|s| Classified {
            start: s.start,
            end: s.end,
            kind: kind_of(&s.capture).or_else(|| sigil_variable(language, &s.capture)),
            priority: s.pattern_index,
        })
        .collect();
    Some(flatten(classified))
}

/// One grammar store for the process: a grammar's queries are compiled once, on first use.
fn store() -> Arc<GrammarStore> {
    static STORE: OnceLock<Arc<GrammarStore>> = OnceLock::new();
    STORE.get_or_init(|| Arc::new(GrammarStore::new())).clone()
}

thread_local! {
    /// A parser per thread (parsing state is not shared), over the shared grammars.
    static HIGHLIGHTER: RefCell<Highlighter> = RefCell::new(Highlighter::with_store(store()));
}

/// Fence names documentation sites use that arborium's own aliases do not cover, and the
/// grammar each means. Names meaning plain text are the caller's to leave out.
const ALIASES: &[(&str, &str)] = &[
    ("py", "python"),
    ("py3", "python"),
    ("python3", "python"),
    ("pycon", "python"),
    ("ipython", "python"),
    ("sh", "bash"),
    ("shell", "bash"),
    ("shellscript", "bash"),
    ("shellsession", "bash"),
    ("console", "bash"),
    ("terminal", "bash"),
    ("curl", "bash"),
    ("js", "javascript"),
    ("jsx", "javascript"),
    ("mjs", "javascript"),
    ("cjs", "javascript"),
    ("node", "javascript"),
    ("ts", "typescript"),
    ("mts", "typescript"),
    ("cts", "typescript"),
    ("md", "markdown"),
    ("mdx", "markdown"),
    ("jsonc", "json"),
    ("json5", "json"),
    ("jsonl", "json"),
    ("yml", "yaml"),
    ("env", "ini"),
    ("dotenv", "ini"),
    ("properties", "ini"),
    ("conf", "ini"),
    ("docker", "dockerfile"),
    ("tf", "hcl"),
    ("terraform", "hcl"),
    ("gql", "graphql"),
    ("protobuf", "proto"),
    ("cs", "c-sharp"),
    ("csharp", "c-sharp"),
    ("c#", "c-sharp"),
    ("f#", "fsharp"),
    ("objective-c", "objc"),
    ("gradle", "groovy"),
    ("svg", "xml"),
    ("ps", "powershell"),
    ("ps1", "powershell"),
    ("pwsh", "powershell"),
    ("kt", "kotlin"),
    ("kts", "kotlin"),
    ("rs", "rust"),
    ("rb", "ruby"),
    ("golang", "go"),
    ("makefile", "make"),
    ("sol", "solidity"),
    ("ex", "elixir"),
    ("exs", "elixir"),
    ("erl", "erlang"),
    ("hs", "haskell"),
    ("ml", "ocaml"),
    ("jl", "julia"),
    ("pl", "perl"),
    ("clj", "clojure"),
    ("bat", "batch"),
    ("cmd", "batch"),
    ("vbnet", "vb"),
    ("c++", "cpp"),
];

/// The grammar name for a fence's language name, or `None` for an empty one.
fn grammar_name(language: &str) -> Option<String> {
    let name = language.trim().to_ascii_lowercase();
    if name.is_empty() {
        return None;
    }
    Some(
        ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name, |(_, grammar)| (*grammar).to_string()),
    )
}

/// Languages whose variables carry a sigil (`$HOME`, `$x`): there a plain `variable` capture
/// is a variable worth showing, where elsewhere it is every identifier.
const SIGIL_LANGUAGES: &[&str] = &["bash", "zsh", "fish", "powershell", "php", "perl"];

fn sigil_variable(language: &str, capture: &str) -> Option<TokenKind> {
    (capture == "variable" && SIGIL_LANGUAGES.contains(&language)).then_some(TokenKind::Variable)
}

/// Whether `capture` is `prefix` or one of its refinements (`function` covers
/// `function.method`, not `functional`).
fn within(capture: &str, prefix: &str) -> bool {
    capture
        .strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// The kind a highlight capture is shown as, or `None` for plain text. Order matters: the
/// more specific names come first (`string.special.key` is a key, `keyword.operator` an
/// operator, `tag.attribute` an attribute).
fn kind_of(capture: &str) -> Option<TokenKind> {
    let any = |prefixes: &[&str]| prefixes.iter().any(|p| within(capture, p));
    let kind = if any(&["comment"]) {
        TokenKind::Comment
    } else if any(&[
        "string.special.key",
        "property",
        "field",
        "variable.member",
        "variable.other.member",
    ]) {
        TokenKind::Property
    } else if any(&[
        "escape",
        "string.escape",
        "string.regexp",
        "string.regex",
        "string.special.regex",
    ]) {
        TokenKind::Escape
    } else if any(&["string", "character", "text.literal", "markup.raw"]) {
        TokenKind::String
    } else if any(&["number", "float", "boolean", "constant"]) {
        TokenKind::Number
    } else if any(&["keyword.operator", "operator"]) {
        TokenKind::Operator
    } else if any(&[
        "keyword",
        "include",
        "conditional",
        "repeat",
        "exception",
        "storageclass",
        "type.qualifier",
        "preproc",
    ]) {
        TokenKind::Keyword
    } else if any(&["function", "method", "macro"]) {
        TokenKind::Function
    } else if any(&["tag.attribute", "attribute"]) {
        TokenKind::Attribute
    } else if any(&["tag.delimiter"]) {
        return None;
    } else if any(&["tag"]) {
        TokenKind::Tag
    } else if any(&["type", "constructor", "namespace", "module"]) {
        TokenKind::Type
    } else if any(&["variable.parameter", "parameter", "variable.builtin"]) {
        TokenKind::Variable
    } else if any(&[
        "text.title",
        "markup.heading",
        "text.strong",
        "text.emphasis",
        "markup.strong",
        "markup.italic",
    ]) {
        TokenKind::Heading
    } else if any(&["diff.plus", "text.diff.add", "diff.addition"]) {
        TokenKind::Inserted
    } else if any(&["diff.minus", "text.diff.delete", "diff.deletion"]) {
        TokenKind::Deleted
    } else {
        return None;
    };
    Some(kind)
}

/// A capture with the kind it is shown as.
#[derive(Debug, Clone, Copy)]
struct Classified {
    start: u32,
    end: u32,
    kind: Option<TokenKind>,
    /// The query pattern's index: of two captures of one range, the earlier pattern wins, as
    /// in tree-sitter's own highlighter, which grammars' queries are written for.
    priority: u32,
}

/// Non-overlapping runs from nested captures: of captures with one range, one shown as a kind
/// beats a plain one and then the earlier pattern wins; where captures nest, the innermost wins.
/// Adjacent runs of one kind are merged.
fn flatten(mut spans: Vec<Classified>) -> Vec<TokenRun> {
    // Longer first at one start, so an enclosing capture is entered before what it holds.
    spans.sort_by(|a, b| {
        (
            a.start,
            std::cmp::Reverse(a.end),
            a.kind.is_some(),
            std::cmp::Reverse(a.priority),
        )
            .cmp(&(
                b.start,
                std::cmp::Reverse(b.end),
                b.kind.is_some(),
                std::cmp::Reverse(b.priority),
            ))
    });
    // Of captures with one range the last in that order is the winner.
    let mut chosen: Vec<Classified> = Vec::with_capacity(spans.len());
    for span in spans {
        match chosen.last_mut() {
            Some(last) if last.start == span.start && last.end == span.end => *last = span,
            _ => chosen.push(span),
        }
    }
    let chosen: Vec<(u32, u32, TokenKind)> = chosen
        .into_iter()
        .filter_map(|s| Some((s.start, s.end, s.kind?)))
        .collect();

    let mut runs: Vec<TokenRun> = Vec::new();
    // Captures entered and not yet left, outermost first.
    let mut open: Vec<(u32, TokenKind)> = Vec::new();
    let mut position = 0u32;
    for (start, end, kind) in chosen {
        // Leave the captures that end before this one starts, showing each up to its end.
        while let Some(&(open_end, open_kind)) = open.last() {
            if open_end > start {
                break;
            }
            emit(position, open_end, open_kind, &mut runs);
            position = position.max(open_end);
            open.pop();
        }
        if let Some(&(_, open_kind)) = open.last() {
            emit(position, start, open_kind, &mut runs);
        }
        position = position.max(start);
        // A capture that crosses its parent's end is cut there: captures nest.
        let end = open
            .last()
            .map_or(end, |&(parent_end, _)| end.min(parent_end));
        open.push((end, kind));
    }
    while let Some((open_end, open_kind)) = open.pop() {
        emit(position, open_end, open_kind, &mut runs);
        position = position.max(open_end);
    }
    runs
}

/// Adds bytes `from` to `to` as `kind`, merged into the last run when it is of that kind and
/// ends there.
fn emit(from: u32, to: u32, kind: TokenKind, runs: &mut Vec<TokenRun>) {
    if from >= to {
        return;
    }
    match runs.last_mut() {
        Some(last) if last.kind == kind && last.end == from => last.end = to,
        _ => runs.push(TokenRun {
            start: from,
            end: to,
            kind,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(language: &str, code: &str) -> Vec<(String, TokenKind)> {
        highlight(language, code)
            .expect("a grammar")
            .into_iter()
            .map(|r| (code[r.start as usize..r.end as usize].to_string(), r.kind))
            .collect()
    }

    fn has(found: &[(String, TokenKind)], text: &str, kind: TokenKind) -> bool {
        found.iter().any(|(t, k)| t == text && *k == kind)
    }

    #[test]
    fn python_keywords_strings_comments_and_calls() {
        let found = kinds(
            "py",
            "import os\ndef f(x):\n    return os.path.join(x, 'a\\n')  # why\n",
        );
        assert!(has(&found, "import", TokenKind::Keyword), "{found:?}");
        assert!(has(&found, "def", TokenKind::Keyword), "{found:?}");
        assert!(has(&found, "# why", TokenKind::Comment), "{found:?}");
        assert!(has(&found, "\\n", TokenKind::Escape), "{found:?}");
        assert!(has(&found, "f", TokenKind::Function), "{found:?}");
        // The string is cut around its escape, and its quotes stay string.
        assert!(has(&found, "'a", TokenKind::String), "{found:?}");
    }

    #[test]
    fn json_keys_are_properties_and_values_strings() {
        let found = kinds("jsonc", "{\"name\": \"quire\", \"n\": 2, \"ok\": true}");
        assert!(has(&found, "\"name\"", TokenKind::Property), "{found:?}");
        assert!(has(&found, "\"quire\"", TokenKind::String), "{found:?}");
        assert!(has(&found, "2", TokenKind::Number), "{found:?}");
        assert!(has(&found, "true", TokenKind::Number), "{found:?}");
    }

    #[test]
    fn runs_are_ordered_and_disjoint() {
        for (language, code) in [
            (
                "typescript",
                "const x: number = f(`a ${b}`); // c\nclass C extends D {}\n",
            ),
            ("html", "<div class=\"a\"><script>let x = 1;</script></div>"),
            ("markdown", "# Title\n\n```js\nlet a = 1;\n```\n"),
            ("bash", "curl -X POST \"$URL\" \\\n  -H 'A: b' # c\n"),
        ] {
            let runs = highlight(language, code).expect("a grammar");
            assert!(!runs.is_empty(), "{language}");
            for pair in runs.windows(2) {
                assert!(pair[0].end <= pair[1].start, "{language}: {pair:?}");
            }
            for run in &runs {
                assert!(run.start < run.end && run.end as usize <= code.len());
                assert!(code.is_char_boundary(run.start as usize));
                assert!(code.is_char_boundary(run.end as usize));
            }
        }
    }

    #[test]
    fn unknown_languages_and_oversized_code_are_none() {
        assert_eq!(highlight("no-such-language", "x"), None);
        assert_eq!(highlight("", "x"), None);
        let long = "x = 1\n".repeat(MAX_CODE_BYTES / 6 + 1);
        assert_eq!(highlight("python", &long), None);
        let knows = |language| highlight(language, "x").is_some();
        assert!(knows("TS") && knows("kotlin") && knows("powershell") && !knows("prisma"));
    }

    #[test]
    fn non_ascii_code_keeps_char_boundaries() {
        let code = "# café ünïcödé\nname = \"日本語\"  # コメント\n";
        for run in highlight("python", code).expect("a grammar") {
            assert!(code.get(run.start as usize..run.end as usize).is_some());
        }
    }

    #[test]
    fn nested_captures_innermost_wins() {
        let span = |start, end, kind| Classified {
            start,
            end,
            kind: Some(kind),
            priority: 0,
        };
        let runs = flatten(vec![
            span(0, 10, TokenKind::String),
            span(3, 5, TokenKind::Escape),
            span(12, 14, TokenKind::Keyword),
        ]);
        let got: Vec<(u32, u32, TokenKind)> =
            runs.iter().map(|r| (r.start, r.end, r.kind)).collect();
        assert_eq!(
            got,
            vec![
                (0, 3, TokenKind::String),
                (3, 5, TokenKind::Escape),
                (5, 10, TokenKind::String),
                (12, 14, TokenKind::Keyword),
            ]
        );
    }

    #[test]
    fn a_kind_beats_plain_then_the_earlier_pattern_wins() {
        let runs = flatten(vec![
            Classified {
                start: 0,
                end: 3,
                kind: Some(TokenKind::Function),
                priority: 5,
            },
            Classified {
                start: 0,
                end: 3,
                kind: None,
                priority: 0,
            },
            Classified {
                start: 0,
                end: 3,
                kind: Some(TokenKind::Type),
                priority: 7,
            },
        ]);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].kind, TokenKind::Function);
    }
}
