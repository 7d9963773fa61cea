//! Search tokens, in one place for every search Quire runs. [`Tokenizer`] is the rule of
//! server-side search (the default retriever's index and queries); [`browser`] is the smaller
//! rule an exported bundle's search script repeats in JavaScript; [`stem_english`] is the stem
//! answers compare words by.
//!
//! [`Tokenizer`]: lower-cased words stemmed in the page's language (Snowball,
//! English when the language is not given or has no stemmer), code identifiers kept whole as
//! well as split into their parts (`retrievalPageSize` is found by `retrievalpagesize`, by
//! `page size`, and by `pages`), and overlapping character pairs for scripts written without
//! spaces (Chinese, Japanese, Thai, ...), where a word cannot be told from its neighbours.

pub mod browser;

use rust_stemmers::{Algorithm, Stemmer};

/// A word's English stem (Snowball), as server-side search stems English pages.
pub fn stem_english(word: &str) -> String {
    static STEMMER: std::sync::LazyLock<Stemmer> =
        std::sync::LazyLock::new(|| Stemmer::create(Algorithm::English));
    STEMMER.stem(word).into_owned()
}

/// English words too common to tell sections apart.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
    "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "that", "the", "their",
    "then", "there", "these", "this", "to", "was", "we", "what", "when", "where", "which", "who",
    "why", "will", "with", "you", "your",
];

/// The Snowball stemmer for a language code as docs.json writes it (`fr`, `pt-BR`, `zh-Hans`):
/// by its primary subtag. `None`: the language has no stemmer (its words are kept as written).
fn algorithm(language: &str) -> Option<Algorithm> {
    let primary = language.split(['-', '_']).next().unwrap_or_default();
    Some(match primary.to_ascii_lowercase().as_str() {
        "ar" => Algorithm::Arabic,
        "da" => Algorithm::Danish,
        "nl" => Algorithm::Dutch,
        "en" => Algorithm::English,
        "fi" => Algorithm::Finnish,
        "fr" => Algorithm::French,
        "de" => Algorithm::German,
        "el" => Algorithm::Greek,
        "hu" => Algorithm::Hungarian,
        "it" => Algorithm::Italian,
        "no" | "nb" | "nn" => Algorithm::Norwegian,
        "pt" => Algorithm::Portuguese,
        "ro" => Algorithm::Romanian,
        "ru" => Algorithm::Russian,
        "es" => Algorithm::Spanish,
        "sv" => Algorithm::Swedish,
        "ta" => Algorithm::Tamil,
        "tr" => Algorithm::Turkish,
        _ => return None,
    })
}

/// Whether `c` belongs to a script written without spaces between words.
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Unified Ideographs Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F  // CJK Extensions B-F and Compatibility Supplement
        | 0x0E00..=0x0EFF    // Thai, Lao
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
    )
}

/// How a text's words are reduced: the language's stemmer, if it has one.
enum Stemming {
    English,
    Other(Stemmer),
    None,
}

/// Turns text into search tokens.
pub struct Tokenizer {
    english: Stemmer,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Tokenizer {
    pub fn new() -> Self {
        Self {
            english: Stemmer::create(Algorithm::English),
        }
    }

    /// Calls `emit` for every token of `text`, in order (a token may repeat), as English.
    pub fn tokens(&self, text: &str, emit: impl FnMut(String)) {
        self.tokens_in(text, None, emit);
    }

    /// Calls `emit` for every token of `text` written in `language` (a docs.json language
    /// code; English when `None`).
    pub fn tokens_in(&self, text: &str, language: Option<&str>, mut emit: impl FnMut(String)) {
        let stemming = match language.map(|l| (l, algorithm(l))) {
            None | Some((_, Some(Algorithm::English))) => Stemming::English,
            Some((_, Some(other))) => Stemming::Other(Stemmer::create(other)),
            Some((_, None)) => Stemming::None,
        };
        for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if word.is_empty() {
                continue;
            }
            if word.chars().any(unspaced) {
                self.mixed(word, &stemming, &mut emit);
                continue;
            }
            let parts = identifier_parts(word);
            let whole = word.to_lowercase();
            if parts.len() > 1 {
                // An identifier: searchable whole, and by its parts.
                emit(whole);
                for part in parts {
                    self.word(&part.to_lowercase(), &stemming, &mut emit);
                }
            } else {
                self.word(&whole, &stemming, &mut emit);
            }
        }
    }

    /// All tokens of `text`, as English, collected.
    pub fn collect(&self, text: &str) -> Vec<String> {
        self.collect_in(text, None)
    }

    /// All tokens of `text` written in `language`, collected.
    pub fn collect_in(&self, text: &str, language: Option<&str>) -> Vec<String> {
        let mut out = Vec::new();
        self.tokens_in(text, language, |t| out.push(t));
        out
    }

    /// A word with characters of an unspaced script: those runs become overlapping pairs of
    /// characters (a lone character stays itself), the rest are words as usual.
    fn mixed(&self, word: &str, stemming: &Stemming, emit: &mut impl FnMut(String)) {
        let chars: Vec<char> = word.chars().collect();
        let mut start = 0;
        while start < chars.len() {
            let kind = unspaced(chars[start]);
            let end = chars[start..]
                .iter()
                .position(|&c| unspaced(c) != kind)
                .map_or(chars.len(), |n| start + n);
            let run = &chars[start..end];
            if kind {
                if run.len() == 1 {
                    emit(run[0].to_string());
                }
                for pair in run.windows(2) {
                    emit(pair.iter().collect());
                }
            } else {
                let text: String = run.iter().collect();
                self.word(&text.to_lowercase(), stemming, emit);
            }
            start = end;
        }
    }

    fn word(&self, word: &str, stemming: &Stemming, emit: &mut impl FnMut(String)) {
        if word.is_empty() || (matches!(stemming, Stemming::English) && STOPWORDS.contains(&word)) {
            return;
        }
        if word.chars().all(|c| c.is_ascii_digit()) || word.chars().count() < 3 {
            emit(word.to_string());
            return;
        }
        match stemming {
            Stemming::English => emit(self.english.stem(word).into_owned()),
            Stemming::Other(stemmer) => emit(stemmer.stem(word).into_owned()),
            Stemming::None => emit(word.to_string()),
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

    #[test]
    fn words_are_stemmed_in_the_page_language() {
        let t = Tokenizer::new();
        // Spanish: "configuraciones" and "configurar" meet; as English they would not.
        let spanish = t.collect_in("Las configuraciones", Some("es"));
        let query = t.collect_in("configurar", Some("es-MX"));
        assert!(spanish.contains(&query[0]), "{spanish:?} {query:?}");
        let as_english = t.collect("configuraciones configurar");
        assert_ne!(as_english[0], as_english[1]);
        // German compounds' endings too.
        assert_eq!(
            t.collect_in("Einstellungen", Some("de")),
            t.collect_in("Einstellung", Some("de"))
        );
        // English stop words are not dropped from other languages ("a" is Portuguese "the").
        assert_eq!(t.collect_in("a documentação", Some("pt-BR"))[0], "a");
        // A language without a stemmer keeps its words as written, lower-cased.
        assert_eq!(t.collect_in("Ποιότητα", Some("xx")), ["ποιότητα"]);
    }

    #[test]
    fn unspaced_scripts_become_character_pairs() {
        let t = Tokenizer::new();
        assert_eq!(t.collect("检索文档"), ["检索", "索文", "文档"]);
        // A query word finds the text it is part of, by its pair.
        let text = t.collect_in("快速检索所有文档", Some("zh"));
        assert!(
            t.collect_in("文档", Some("zh"))
                .iter()
                .all(|p| text.contains(p))
        );
        // Mixed with Latin letters, each part as its own; a lone character stays itself.
        assert_eq!(t.collect("API鍵 の"), ["api", "鍵", "の"]);
        assert_eq!(
            t.collect("ウィジェットexports"),
            ["ウィ", "ィジ", "ジェ", "ェッ", "ット", "export"]
        );
    }
}
