//! TeX math (`$...$`, `$$...$$`, `<Latex>`) to MathML at export, which browsers draw with no
//! script. pulldown-latex follows MathML Core, the part of MathML every current browser draws.

use pulldown_latex::config::DisplayMode;
use pulldown_latex::{Parser, RenderConfig, Storage, push_mathml};

/// The MathML for `latex`, and the first problem in it if any (the rest of the formula is
/// still drawn, the bad part marked in red).
pub fn mathml(latex: &str, display: bool) -> (String, Option<String>) {
    let storage = Storage::new();
    let events: Vec<_> = Parser::new(latex, &storage).collect();
    let problem = events.iter().find_map(|event| match event {
        Err(error) => Some(error.to_string()),
        Ok(_) => None,
    });
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        annotation: Some(latex),
        ..RenderConfig::default()
    };
    let mut html = String::with_capacity(latex.len() * 8);
    if push_mathml(&mut html, events.into_iter(), config).is_err() {
        html.clear();
    }
    (html, problem)
}

/// Whether the text between two single dollar signs is a formula rather than prose between two
/// prices. Pandoc's rule (no space inside either dollar sign), plus: a formula's brackets
/// balance, and it does not run two plain words together unless it is TeX (`\text{...}`).
pub fn looks_like_math(inner: &str) -> bool {
    if inner.is_empty()
        || inner.starts_with(char::is_whitespace)
        || inner.ends_with(char::is_whitespace)
    {
        return false;
    }
    let mut depth = 0i32;
    for c in inner.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    if depth != 0 {
        return false;
    }
    let is_word = |w: &str| w.len() >= 3 && w.chars().all(|c| c.is_alphabetic());
    let words: Vec<&str> = inner.split_whitespace().collect();
    let prose = words
        .windows(2)
        .any(|pair| is_word(pair[0]) && is_word(pair[1]));
    !prose || inner.contains('\\')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_mathml() {
        let (inline, problem) = mathml("E = mc^2", false);
        assert!(
            inline.starts_with("<math") && inline.contains("<msup>"),
            "{inline}"
        );
        assert!(problem.is_none());
        let (block, _) = mathml(r"\frac{a}{b}", true);
        assert!(
            block.contains("display=\"block\"") && block.contains("<mfrac>"),
            "{block}"
        );
    }

    #[test]
    fn prices_in_prose_are_not_math() {
        assert!(looks_like_math("E = mc^2"));
        assert!(looks_like_math(r"\text{total cost} = n \times p"));
        assert!(looks_like_math("x"));
        assert!(!looks_like_math("5 and "));
        assert!(!looks_like_math("0.10, not on the invoice). It prices"));
        assert!(!looks_like_math("/token), TTS ("));
    }

    #[test]
    fn a_bad_formula_is_drawn_with_a_problem() {
        let (html, problem) = mathml(r"\frac{a", false);
        assert!(html.starts_with("<math"));
        assert!(problem.is_some());
        let (_, unknown) = mathml(r"\notacommand x", false);
        assert!(unknown.is_some());
    }
}
