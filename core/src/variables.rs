//! docs.json `variables`: values a site names once (`"variables": {"version": "2.4.0"}`) and
//! writes into its pages as `{{version}}` (spaces inside the braces allowed). A placeholder is
//! replaced in the page's source before anything reads it, so it works in prose, code, links,
//! component attributes and frontmatter alike. One that names no variable is left as written:
//! an MDX renderer then reports it as an expression it cannot evaluate.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::Value;

use crate::config::SiteConfig;

/// A site's variables by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variables(HashMap<String, String>);

impl Variables {
    /// The site's `variables` (strings, and numbers or booleans as written; other values are
    /// not variables).
    pub fn of(config: &SiteConfig) -> Self {
        let map = config
            .variables
            .iter()
            .filter_map(|(name, value)| {
                let text = match value {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    _ => return None,
                };
                Some((name.clone(), text))
            })
            .collect();
        Self(map)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every variable as (name, value), in name order: what a key that depends on the
    /// variables takes, the same however the site listed them.
    pub fn in_order(&self) -> Vec<(&str, &str)> {
        let mut pairs: Vec<(&str, &str)> = self
            .0
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// `text` with every `{{name}}` of a variable replaced by its value.
    pub fn substitute<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.0.is_empty() || !text.contains("{{") {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let replaced = after.find("}}").and_then(|end| {
                let name = after[..end].trim();
                let value = self.0.get(name)?;
                Some((value, end + 2))
            });
            match replaced {
                Some((value, consumed)) => {
                    out.push_str(value);
                    rest = &after[consumed..];
                }
                None => {
                    out.push_str("{{");
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variables() -> Variables {
        Variables::of(&SiteConfig::of(&serde_json::json!({"variables": {
            "product": "Acme", "version": "2.4.0", "seats": 5, "nested": {"a": "b"}
        }})))
    }

    #[test]
    fn placeholders_of_variables_are_replaced_and_others_kept() {
        let vars = variables();
        assert_eq!(
            vars.substitute("{{product}} {{ version }} for {{seats}} seats"),
            "Acme 2.4.0 for 5 seats"
        );
        assert_eq!(
            vars.substitute("{{unknown}}, {{nested}}, {{ {a: 1} }} and {{product"),
            "{{unknown}}, {{nested}}, {{ {a: 1} }} and {{product"
        );
        assert_eq!(
            vars.substitute("npm i acme@{{version}}}"),
            "npm i acme@2.4.0}"
        );
        assert_eq!(vars.substitute("no braces"), "no braces");
        assert_eq!(
            Variables::default().substitute("{{product}}"),
            "{{product}}"
        );
    }

    proptest::proptest! {
        /// Text without placeholders comes back unchanged, and any text is replaced without a
        /// panic on any character boundary.
        #[test]
        fn any_text_is_substituted_safely(text in "\\PC{0,80}") {
            let vars = variables();
            let out = vars.substitute(&text);
            if !text.contains("{{") {
                proptest::prop_assert_eq!(out.as_ref(), text.as_str());
            }
        }
    }
}
