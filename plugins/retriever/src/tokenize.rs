//! Tokens for documentation search: lower-cased words, English stems, and code identifiers
//! kept whole as well as split into their parts (`retrievalPageSize` is found by
//! `retrievalpagesize`, by `page size`, and by `pages`).

use rust_stemmers::{Algorithm, Stemmer};

/// Words too common to tell sections apart.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
    "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "that", "the", "their",
    "then", "there", "these", "this", "to", "was", "we", "what", "when", "where", "which", "who",
    "why", "will", "with", "you", "your",
];

/// Turns text into search tokens.
pub struct Tokenizer {
    stemmer: Stemmer,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Tokenizer {
    pub fn new() -> Self {
        Self {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }

    /// Calls `emit` for every token of `text`, in order (a token may repeat).
    pub fn tokens(&self, text: &str, mut emit: impl FnMut(String)) {
        for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if word.is_empty() {
                continue;
            }
            let parts = identifier_parts(word);
            let whole = word.to_lowercase();
            if parts.len() > 1 {
                // An identifier: searchable whole, and by its parts.
                emit(whole);
                for part in parts {
                    self.word(&part.to_lowercase(), &mut emit);
                }
            } else {
                self.word(&whole, &mut emit);
            }
        }
    }

    /// All tokens of `text`, collected.
    pub fn collect(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.tokens(text, |t| out.push(t));
        out
    }

    fn word(&self, word: &str, emit: &mut impl FnMut(String)) {
        if word.is_empty() || STOPWORDS.contains(&word) {
            return;
        }
        if word.chars().all(|c| c.is_ascii_digit()) || word.len() < 3 {
            emit(word.to_string());
        } else {
            emit(self.stemmer.stem(word).into_owned());
        }
    }
}

/// The parts of `snake_case`, `camelCase`, `PascalCase` and `HTTPServer`-style words.
fn identifier_parts(word: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for piece in word.split('_').filter(|p| !p.is_empty()) {
        let chars: Vec<(usize, char)> = piece.char_indices().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (pos, c) = chars[i];
            let prev = chars[i - 1].1;
            let next_is_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase() && c.is_uppercase() && next_is_lower)
                || (prev.is_alphabetic() && c.is_ascii_digit())
                || (prev.is_ascii_digit() && c.is_alphabetic());
            if boundary {
                parts.push(&piece[start..pos]);
                start = pos;
            }
        }
        parts.push(&piece[start..]);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_folded_stemmed_and_filtered() {
        let t = Tokenizer::new();
        assert_eq!(
            t.collect("The Widgets are MOVING between warehouses"),
            ["widget", "move", "between", "warehous"]
        );
    }

    #[test]
    fn identifiers_are_kept_whole_and_split() {
        let t = Tokenizer::new();
        assert_eq!(
            t.collect("retrievalPageSize"),
            ["retrievalpagesize", "retriev", "page", "size"]
        );
        assert_eq!(
            t.collect("max_attempts"),
            ["max_attempts", "max", "attempt"]
        );
        assert_eq!(t.collect("HTTPServer"), ["httpserver", "http", "server"]);
    }

    #[test]
    fn paths_and_versions_split_into_words() {
        let t = Tokenizer::new();
        assert_eq!(
            t.collect("/v1/static-export/jobs"),
            ["v1", "v", "1", "static", "export", "job"]
        );
    }
}
