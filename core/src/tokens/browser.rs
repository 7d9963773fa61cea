//! The tokens of an exported bundle's search index. The bundle's search script tokenizes the
//! reader's query in the browser, in JavaScript, so this rule is kept small enough to repeat
//! exactly there: words split at anything not a letter or digit, lower-cased, plural endings
//! removed (Harman's "S" stemmer). The multilingual tokenizer of server-side search is
//! [`super::Tokenizer`].

/// Words of `text`, lower-cased, with plural endings removed (Harman's "S" stemmer, which the
/// search script repeats exactly).
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
}

fn stem(word: &str) -> String {
    let chars = word.chars().count();
    if chars <= 3 {
        return word.to_string();
    }
    if word.ends_with("ies") && !word.ends_with("eies") && !word.ends_with("aies") {
        return format!("{}y", &word[..word.len() - 3]);
    }
    if word.ends_with("es")
        && !(word.ends_with("aes") || word.ends_with("ees") || word.ends_with("oes"))
    {
        return word[..word.len() - 1].to_string();
    }
    if word.ends_with('s') && !(word.ends_with("us") || word.ends_with("ss")) {
        return word[..word.len() - 1].to_string();
    }
    word.to_string()
}
