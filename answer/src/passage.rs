//! How a chosen sentence is quoted: a sentence alone often leaves its point to the next one
//! ("Deleted traces are removed in the background." / "This takes a few hours."), and one that
//! ends in a colon says nothing without the list after it. So a quote carries the sentence
//! that reads on from it (in its paragraph, or opening the next), or the items of the list it
//! introduces.

use super::text::{Split, looks_like_code};

/// A following sentence of the paragraph is added when it is at most this long (words).
const NEXT_SENTENCE_WORDS: usize = 40;
/// A list introduced by a colon is quoted up to this many items and words.
const LIST_ITEMS: usize = 8;
const LIST_WORDS: usize = 120;
/// A list item chosen on its own brings the rest of its list when the list is at most this
/// long (words): a short list is read whole ("in this order:"), a long one would crowd out
/// the rest of the answer.
const WHOLE_LIST_WORDS: usize = 40;
/// A block longer than this is a paragraph, not a list item.
const LIST_ITEM_WORDS: usize = 30;

/// A quote: the chosen sentence, what reads on from it, and the positions it took.
#[derive(Debug, PartialEq, Eq)]
pub struct Passage {
    /// The chosen sentence, with the next one of its paragraph when that reads on.
    pub lead: String,
    /// The items of the list the sentence introduces.
    pub items: Vec<String>,
    /// The positions of the sentences quoted after the chosen one.
    pub taken: Vec<usize>,
}

impl Passage {
    /// The quote as Markdown block-quote lines.
    pub fn markdown(&self) -> String {
        let mut out = format!("> {}\n", self.lead);
        for item in &self.items {
            out.push_str(&format!("> - {item}\n"));
        }
        out.push('\n');
        out
    }
}

/// The passage for sentence `position` of `split`. `free` says whether another sentence may
/// be taken (it is not quoted on its own already); a code block right after the sentence ends
/// the passage, since the answer shows code as code.
pub fn passage(split: &Split, position: usize, free: impl Fn(usize) -> bool) -> Passage {
    let sentence = &split.sentences[position];
    let mut out = Passage {
        lead: sentence.clone(),
        items: Vec::new(),
        taken: Vec::new(),
    };
    // A list item is quoted under the sentence that introduces its list ("But you cannot:"),
    // which it does not make sense without, and with the other items when the list is short
    // enough to quote whole: one item of "in this order:" is not the order.
    if let Some(intro) = list_intro(split, position)
        && free(intro)
    {
        let mut whole = Passage {
            lead: split.sentences[intro].clone(),
            items: Vec::new(),
            taken: vec![intro],
        };
        take_list(
            split,
            intro,
            &|i| i == position || free(i),
            true,
            &mut whole,
        );
        let words: usize = whole
            .items
            .iter()
            .map(|i| i.split_whitespace().count())
            .sum();
        if whole.taken.contains(&position) && words <= WHOLE_LIST_WORDS {
            whole.taken.retain(|&i| i != position);
            return whole;
        }
        return Passage {
            lead: split.sentences[intro].clone(),
            items: vec![sentence.clone()],
            taken: vec![intro],
        };
    }
    // A sentence that points back ("This will stop Continue from ...") is quoted with the one
    // it points to: the one before, in its paragraph or ending the paragraph before (a list
    // item, say), unless code stands between them.
    if let Some(previous) = position.checked_sub(1)
        && refers_back(sentence)
        && !split.code_after(previous)
        && free(previous)
    {
        let before = &split.sentences[previous];
        if before.split_whitespace().count() <= NEXT_SENTENCE_WORDS
            && plain_prose(before)
            && !before.trim_end().ends_with(':')
        {
            out.lead = format!("{before} {sentence}");
            out.taken.push(previous);
        }
    }
    let sentence = out.lead.clone();
    let code_follows = split.code_after(position);
    let next = position + 1;
    if code_follows || next >= split.sentences.len() || !free(next) {
        return out;
    }
    let block = split.blocks[position];
    if sentence.trim_end().ends_with(':') {
        take_list(split, position, &free, false, &mut out);
        return out;
    }
    // The next sentence reads on: in the paragraph, or opening the next one when it is a
    // whole sentence ("... let the user talk over the bot." / "Interruptions are enabled by
    // default."), not a list item or a label. One that ends in a colon introduces what the
    // quote would not show.
    let following = &split.sentences[next];
    let reads_on = split.blocks[next] == block || following.trim_end().ends_with(['.', '!', '?']);
    if reads_on
        && following.split_whitespace().count() <= NEXT_SENTENCE_WORDS
        && plain_prose(following)
        && !following.trim_end().ends_with(':')
    {
        out.lead = format!("{sentence} {following}");
        out.taken.push(next);
    }
    out
}

/// Adds to `out` the list that sentence `position` (ending in a colon) introduces: the blocks
/// that follow, one item each, until the budget, a code block or a sentence not `free`; with
/// `items_only`, also until a block that is not shaped as an item (a paragraph after the list,
/// where the text carries no list markers).
fn take_list(
    split: &Split,
    position: usize,
    free: &impl Fn(usize) -> bool,
    items_only: bool,
    out: &mut Passage,
) {
    let mut words = 0;
    let mut last_block = split.blocks[position];
    for (i, item) in split.sentences.iter().enumerate().skip(position + 1) {
        let item_block = split.blocks[i];
        let item_words = item.split_whitespace().count();
        let goes_on = item_block == last_block;
        if (goes_on && out.items.is_empty())
            || (!goes_on && out.items.len() == LIST_ITEMS)
            || words + item_words > LIST_WORDS
            || !free(i)
            || split.code_after(i - 1)
            || (items_only && !goes_on && !looks_like_item(item))
        {
            break;
        }
        // An item that introduces code or a list of its own would be quoted without it.
        if item_is_code(item) || item.trim_end().ends_with(':') {
            continue;
        }
        words += item_words;
        match out.items.last_mut() {
            // A second sentence of the same item.
            Some(last) if goes_on => {
                last.push(' ');
                last.push_str(item);
            }
            _ => out.items.push(item.clone()),
        }
        last_block = item_block;
        out.taken.push(i);
    }
}

/// The sentence introducing the list whose item is sentence `position`: the nearest earlier
/// sentence ending in a colon, with only items between them (at most `LIST_ITEMS`), no code.
fn list_intro(split: &Split, position: usize) -> Option<usize> {
    let own_block = split.blocks[position];
    if (position > 0 && split.blocks[position - 1] == own_block)
        || !looks_like_item(&split.sentences[position])
    {
        return None;
    }
    let (mut block, mut items) = (own_block, 0);
    for i in (0..position).rev() {
        let sentence = &split.sentences[i];
        if split.code_after(i) {
            return None;
        }
        if split.blocks[i] != block {
            (block, items) = (split.blocks[i], items + 1);
        }
        if sentence.trim_end().ends_with(':') {
            return (items <= LIST_ITEMS && plain_prose(sentence)).then_some(i);
        }
        if items > LIST_ITEMS || !looks_like_item(sentence) {
            return None;
        }
    }
    None
}

/// Whether a block is shaped as a list item. Without list markers in the text, an item is told
/// from a paragraph by its shape: a short block that does not end a sentence ("Create, edit,
/// or delete files"). One ending in a colon introduces something of its own, and is quoted with
/// that, not as an item.
fn looks_like_item(sentence: &str) -> bool {
    sentence.split_whitespace().count() <= LIST_ITEM_WORDS
        && !sentence.trim_end().ends_with(['.', '!', '?', ':'])
}

/// Whether a sentence quoted on the side of the chosen one is prose: held to more than the
/// chosen one, no code punctuation at all, not even a sum or a path with a `{parameter}`.
fn plain_prose(sentence: &str) -> bool {
    // A web address's "//" is prose's too ("it uses https://api.example.com").
    let without_schemes = sentence.replace("://", ":");
    !looks_like_code(sentence) && !CODE_MARKS.iter().any(|mark| without_schemes.contains(mark))
}

/// Punctuation that prose does not use.
const CODE_MARKS: &[&str] = &["{", "}", ";", " = ", "=>", "()", "//", "=="];

/// Whether `sentence` opens with a word that points back to the one before it.
fn refers_back(sentence: &str) -> bool {
    let first = sentence
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    matches!(
        first.as_str(),
        "this" | "that" | "these" | "those" | "it" | "they" | "such" | "then"
    )
}

/// Whether a list item is code. Items are short ("Amazon EKS", "Python 3.10+"), too short for
/// the word counts `looks_like_code` weighs sentences by, so a short item is code only when
/// it carries code punctuation.
fn item_is_code(item: &str) -> bool {
    if item.split_whitespace().count() >= 6 {
        return looks_like_code(item);
    }
    CODE_MARKS.iter().any(|mark| item.contains(mark))
}

#[cfg(test)]
mod tests {
    use super::super::text::split;
    use super::*;

    #[test]
    fn the_next_sentence_of_the_paragraph_comes_along() {
        let s = split(
            "Deleted traces are removed in the background. This takes a few hours.\nOther block.",
        );
        let p = passage(&s, 0, |_| true);
        assert_eq!(
            p.lead,
            "Deleted traces are removed in the background. This takes a few hours."
        );
        assert_eq!(p.taken, [1]);
        // The last sentence of a section stands alone.
        let last = split("Traces are deleted. Deletion takes a few hours.");
        assert_eq!(
            passage(&last, 1, |_| true).lead,
            "Deletion takes a few hours."
        );
        // Nor does one followed by code, a sum included.
        let sum = split("Keep 10% of the traces. This gives .10 * 7,800,000 = 780,000.");
        assert!(passage(&sum, 0, |_| true).taken.is_empty());
        // A sentence quoted on its own is not taken twice.
        assert!(passage(&s, 0, |i| i != 1).taken.is_empty());
        // A whole sentence opening the next paragraph reads on too; a list item or a label
        // does not, nor a sentence ending in a colon, whose list or code the quote leaves out.
        let paragraphs = split(
            "Interruptions let the user talk over the bot.\nThey are enabled by default.\nMore.",
        );
        assert_eq!(
            passage(&paragraphs, 0, |_| true).lead,
            "Interruptions let the user talk over the bot. They are enabled by default."
        );
        let item = split("You can run tasks in three ways.\nFrom the dashboard\nOther.");
        assert!(passage(&item, 0, |_| true).taken.is_empty());
        let colon = split("A waiting run frees its slot. This means that:\nOthers can run.");
        assert!(passage(&colon, 0, |_| true).taken.is_empty());
        // A web address is prose: its "//" is no comment marker.
        let url =
            split("Override the default API URL. If not set, it uses https://api.example.com.");
        assert_eq!(
            passage(&url, 0, |_| true).lead,
            "Override the default API URL. If not set, it uses https://api.example.com."
        );
    }

    #[test]
    fn a_sentence_that_points_back_brings_the_one_before() {
        let s = split(
            "Turn off telemetry in the settings. This stops requests to PostHog.\nIt is a new block.",
        );
        // (The next paragraph reads on too, unless it is quoted on its own.)
        let p = passage(&s, 1, |i| i != 2);
        assert_eq!(
            p.lead,
            "Turn off telemetry in the settings. This stops requests to PostHog."
        );
        assert_eq!(p.taken, [0]);
        // A paragraph that opens by pointing back brings the end of the one before ("When an
        // instance is not ready, it gets no new sessions." / "This makes readiness a way to
        // drain an instance."), but not across code, nor when that is quoted on its own.
        assert_eq!(
            passage(&s, 2, |_| true).lead,
            "This stops requests to PostHog. It is a new block."
        );
        let after_code =
            split("Install the CLI.\n```bash\nnpm i cn\n```\nThis adds cn to your path.");
        assert!(passage(&after_code, 1, |_| true).taken.is_empty());
        assert!(!passage(&s, 1, |i| i != 0).taken.contains(&0));
        // Nor when the one before is code run into prose.
        let path = split(
            "/api/v1/queues/{queue}/concurrencyOverride the limit of a queue. This is useful when scaling.",
        );
        assert!(passage(&path, 1, |_| true).taken.is_empty());
    }

    #[test]
    fn a_list_item_comes_under_its_introduction() {
        let s = split(
            "Plan mode lets you read code. But you cannot:\nCreate, edit, or delete files\nRun commands\nAfter the list.",
        );
        // With the rest of its list, which it is one of.
        let p = passage(&s, 3, |_| true);
        assert_eq!(p.lead, "But you cannot:");
        assert_eq!(p.items, ["Create, edit, or delete files", "Run commands"]);
        assert_eq!(p.taken, [1, 2]);
        // Only itself when another item is quoted on its own.
        let p = passage(&s, 3, |i| i != 2);
        assert_eq!(p.items, ["Run commands"]);
        assert_eq!(p.taken, [1]);
        // Not a paragraph after the list, nor an item whose introduction is quoted already.
        assert!(passage(&s, 4, |_| true).items.is_empty());
        assert!(passage(&s, 2, |i| i != 1).items.is_empty());
    }

    #[test]
    fn a_sentence_ending_in_a_colon_is_no_list_item() {
        // Found by `any_retrieval_gives_a_safe_answer`: the second line was quoted as an item
        // of the first, the same words twice, and without the code it introduces.
        let s = split("Install the CLI:\nInstall the CLI:\n```bash\ncn --version\n```\n");
        let p = passage(&s, 1, |_| true);
        assert_eq!(p.lead, "Install the CLI:");
        assert!(p.items.is_empty() && p.taken.is_empty(), "{p:?}");
    }

    #[test]
    fn a_colon_brings_its_list() {
        let s = split(
            "We test on these distributions:\nGoogle Kubernetes Engine (GKE)\nAmazon EKS. Any version.\nAzure AKS\n```bash\nkubectl version\n```\nAfter the code.",
        );
        let p = passage(&s, 0, |_| true);
        assert_eq!(
            p.items,
            [
                "Google Kubernetes Engine (GKE)",
                "Amazon EKS. Any version.",
                "Azure AKS"
            ]
        );
        assert_eq!(
            p.markdown(),
            "> We test on these distributions:\n> - Google Kubernetes Engine (GKE)\n> - Amazon EKS. Any version.\n> - Azure AKS\n\n"
        );
    }

    #[test]
    fn code_right_after_the_colon_is_left_to_the_code_block() {
        let s = split("Add this to your config:\n```yaml\nkey: value\n```\nThen restart.");
        let p = passage(&s, 0, |_| true);
        assert!(p.items.is_empty() && p.taken.is_empty(), "{p:?}");
    }
}
