//! The tokens of an exported bundle's search index. The bundle's search script tokenizes the
//! reader's query in the browser, in JavaScript, so this rule is kept small enough to repeat
//! exactly there: words split at anything not a letter or digit, lower-cased, plural endings
//! removed (Harman's "S" stemmer). The multilingual tokenizer of server-side search is
//! [`super::Tokenizer`].

/// Words of `text`, lower-cased, with plural endings removed (Harman's "S" stemmer, which the
/// search script repeats exactly).
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    words(text).map(|word| {
        let mut token = String::with_capacity(word.len());
        lower_and_stem(word, &mut token);
        token
    })
}

/// Calls `each` with every token of `text`, as [`tokens`] gives them, made in one buffer
/// rather than a string each: an export tokenizes every section of a site.
pub fn each_token(text: &str, mut each: impl FnMut(&str)) {
    let mut token = String::new();
    for word in words(text) {
        lower_and_stem(word, &mut token);
        each(&token);
    }
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// `word` lower-cased and stemmed, into `token` (cleared first).
fn lower_and_stem(word: &str, token: &mut String) {
    token.clear();
    if word
        .bytes()
        .all(|b| !b.is_ascii_uppercase() && b.is_ascii())
    {
        token.push_str(word);
    } else {
        // As `str::to_lowercase`, whose final-sigma rule only `to_lowercase` itself knows.
        token.push_str(&word.to_lowercase());
    }
    stem(token);
}

/// Harman's "S" stemmer, in place.
fn stem(word: &mut String) {
    if word.chars().count() <= 3 {
        return;
    }
    if word.ends_with("ies") && !word.ends_with("eies") && !word.ends_with("aies") {
        word.truncate(word.len() - 3);
        word.push('y');
    } else if (word.ends_with("es")
        && !(word.ends_with("aes") || word.ends_with("ees") || word.ends_with("oes")))
        || (word.ends_with('s') && !(word.ends_with("us") || word.ends_with("ss")))
    {
        word.truncate(word.len() - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stemmer as first written, one string per step: the rule the search script repeats.
    fn reference(text: &str) -> Vec<String> {
        fn stem(word: &str) -> String {
            if word.chars().count() <= 3 {
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
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| stem(&w.to_lowercase()))
            .collect()
    }

    #[test]
    fn tokens_fold_case_and_plurals() {
        let text = "Queries, BOXES and Buses: the ΣΟΦΟΣ caches' 42 Ünïcode ΌΣΟΣ aies eies glass";
        let expected = reference(text);
        assert_eq!(tokens(text).collect::<Vec<_>>(), expected);
        let mut each = Vec::new();
        each_token(text, |t| each.push(t.to_string()));
        assert_eq!(each, expected);
        assert_eq!(expected[0], "query");
        assert_eq!(expected[1], "boxe");
    }

    proptest::proptest! {
        #[test]
        fn tokens_are_the_reference_rules(text in "\\PC{0,80}") {
            let mut each = Vec::new();
            each_token(&text, |t| each.push(t.to_string()));
            proptest::prop_assert_eq!(&each, &reference(&text));
            proptest::prop_assert_eq!(tokens(&text).collect::<Vec<_>>(), reference(&text));
        }

        #[test]
        fn plural_endings_are_the_reference_rules(
            text in "([a-zA-Zé]{1,6}(ies|IES|es|s|S|us|ss|aes|eies)? ?){0,12}",
        ) {
            let mut each = Vec::new();
            each_token(&text, |t| each.push(t.to_string()));
            proptest::prop_assert_eq!(&each, &reference(&text));
        }
    }
}
