//! BERT's uncased tokenisation: lower case without accents, words split at white space and
//! punctuation, then each word into the longest vocabulary pieces from its start (`##` marks a
//! piece inside a word). Words with no pieces are left out rather than counted as unknown.

use unicode_normalization::UnicodeNormalization;

use crate::table::Table;

/// A word longer than this is not split (BERT's own limit).
const MAX_WORD_CHARS: usize = 100;

/// The token ids of `text`.
pub fn ids(table: &Table, text: &str) -> Vec<u32> {
    let folded: String = text
        .to_lowercase()
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .collect();
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<u32>| {
        if !word.is_empty() {
            pieces(table, word, out);
            word.clear();
        }
    };
    for c in folded.chars() {
        if c.is_whitespace() || c.is_control() {
            flush(&mut word, &mut out);
        } else if c.is_ascii_punctuation() || (!c.is_alphanumeric() && !c.is_whitespace()) {
            flush(&mut word, &mut out);
            let mut buf = [0u8; 4];
            out.extend(table.id(c.encode_utf8(&mut buf)));
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn pieces(table: &Table, word: &str, out: &mut Vec<u32>) {
    let chars: Vec<char> = word.chars().collect();
    if chars.len() > MAX_WORD_CHARS {
        return;
    }
    let mut found = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let mut end = chars.len();
        let mut piece = None;
        while end > start {
            let text: String = chars[start..end].iter().collect();
            let text = if start > 0 { format!("##{text}") } else { text };
            if let Some(id) = table.id(&text) {
                piece = Some(id);
                break;
            }
            end -= 1;
        }
        match piece {
            Some(id) => {
                found.push(id);
                start = end;
            }
            None => return,
        }
    }
    out.extend(found);
}
