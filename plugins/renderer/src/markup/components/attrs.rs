//! A JSX element's attributes as components read them: literal strings, simple literals in
//! braces, raw expressions and flags.

use markdown::mdast::{AttributeContent, AttributeValue};

/// The string attributes of a JSX element.
pub(crate) struct Attrs<'a>(pub(super) &'a [AttributeContent]);

impl Attrs<'_> {
    /// A literal string attribute (`title="x"`), or a simple literal in braces (`cols={3}`).
    pub(crate) fn string(&self, key: &str) -> Option<String> {
        self.0.iter().find_map(|a| match a {
            AttributeContent::Property(p) if p.name == key => match &p.value {
                Some(AttributeValue::Literal(s)) => Some(s.clone()),
                Some(AttributeValue::Expression(e)) => {
                    let v = e.value.trim().trim_matches(['"', '\'', '`']);
                    Some(v.to_string())
                }
                None => Some(String::new()),
            },
            _ => None,
        })
    }

    /// A list of strings (`tags={["a", "b"]}`), or one string as a list of one.
    pub(super) fn list(&self, key: &str) -> Vec<String> {
        let Some(raw) = self.raw_expression(key) else {
            return self
                .string(key)
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect();
        };
        raw.trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split(',')
            .map(|item| item.trim().trim_matches(['"', '\'', '`']).to_string())
            .filter(|item| !item.is_empty())
            .collect()
    }

    /// The source of an attribute written as an expression (`cols={3}` gives `3`).
    pub(super) fn raw_expression(&self, key: &str) -> Option<&str> {
        self.0.iter().find_map(|a| match a {
            AttributeContent::Property(p) if p.name == key => match &p.value {
                Some(AttributeValue::Expression(e)) => Some(e.value.as_str()),
                _ => None,
            },
            _ => None,
        })
    }

    /// `className` as extra classes (a leading space included), keeping only characters class
    /// names are made of, so nothing can leave the attribute.
    pub(super) fn class_names(&self) -> String {
        self.string("className")
            .map(|c| {
                c.split_whitespace()
                    .filter(|w| {
                        w.chars()
                            .all(|ch| ch.is_ascii_alphanumeric() || "-_:/.[]#%".contains(ch))
                    })
                    .fold(String::new(), |mut out, w| {
                        out.push(' ');
                        out.push_str(w);
                        out
                    })
            })
            .unwrap_or_default()
    }

    /// Every attribute with a string value, for a snippet's variables.
    pub(crate) fn all(&self) -> std::collections::HashMap<String, String> {
        self.0
            .iter()
            .filter_map(|a| match a {
                AttributeContent::Property(p) => Some((p.name.clone(), self.string(&p.name)?)),
                _ => None,
            })
            .collect()
    }

    /// The source of every attribute written as an expression (`rows={callbacks()}`), for
    /// evaluating a component's props.
    pub(crate) fn expressions(&self) -> std::collections::HashMap<String, String> {
        self.0
            .iter()
            .filter_map(|a| match a {
                AttributeContent::Property(p) => match &p.value {
                    Some(AttributeValue::Expression(e)) => Some((p.name.clone(), e.value.clone())),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    /// A boolean attribute: present without a value, or `={true}`.
    pub(crate) fn flag(&self, key: &str) -> bool {
        self.string(key)
            .is_some_and(|v| v.is_empty() || v == "true")
    }
}
