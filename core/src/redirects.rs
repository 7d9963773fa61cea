//! docs.json `redirects`: rules that map a moved page's `source` path (with `:param` segments
//! and a `*` wildcard) to its `destination`. A renderer resolves links with them, so a link to
//! a moved page leads to where it went; the host builds a bundle's redirect pages and table from
//! the same rules. Chains are followed to their end; loops are left out. Both are warnings.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::config::SiteConfig;

/// Rules followed one after another at most this often; a longer chain is taken for a loop.
const MAX_CHAIN: usize = 16;

/// One rule as docs.json writes it (`permanent` defaults to true).
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub source: String,
    pub destination: String,
    pub permanent: bool,
}

impl Rule {
    /// The rule an entry of `redirects` describes, or why it does not.
    pub fn from_json(entry: &Value) -> Result<Self, String> {
        let text = |key: &str| {
            entry
                .get(key)
                .and_then(Value::as_str)
                .map(String::from)
                .ok_or_else(|| format!("the field {key} (a string) is required"))
        };
        Ok(Self {
            source: text("source")?,
            destination: text("destination")?,
            permanent: entry
                .get("permanent")
                .and_then(Value::as_bool)
                .unwrap_or(true),
        })
    }
}

/// A site's redirect rules, checked, and indexed: every link of every page is looked up, and a
/// site may have hundreds of rules, most of them one URL each.
#[derive(Debug, Clone, Default)]
pub struct Redirects {
    rules: Vec<Rule>,
    /// Each rule's source split into path segments.
    patterns: Vec<Vec<String>>,
    /// The first rule for each plain source (no `:param`, no `*`), by its segments joined.
    plain: HashMap<String, usize>,
    /// The rules whose source is not plain, in order.
    patterned: Vec<usize>,
}

impl Redirects {
    /// The rules of the site's settings (its `redirects` list; a `$ref` there is resolved
    /// when the site is published), less those whose source is a page of the site (`pages`
    /// says, for a path without extension), and what was wrong with them.
    pub fn of(config: &SiteConfig, pages: &dyn Fn(&str) -> bool) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let Some(listed) = &config.redirects else {
            return (Self::default(), warnings);
        };
        let Value::Array(listed) = listed else {
            warnings.push("redirects must be a list of {source, destination} objects".into());
            return (Self::default(), warnings);
        };
        let mut rules = Vec::new();
        for (i, entry) in listed.iter().enumerate() {
            match Rule::from_json(entry) {
                Ok(rule) if page_of(&rule.source).is_some_and(pages) => warnings.push(format!(
                    "redirects[{i}]: {:?} is a page of the site, which wins over the redirect",
                    rule.source
                )),
                Ok(rule) => rules.push(rule),
                Err(e) => warnings.push(format!("redirects[{i}]: {e}")),
            }
        }
        let redirects = Self::from_rules(rules);
        // Chains and loops, found from every plain source.
        let sources: Vec<String> = redirects
            .rules
            .iter()
            .filter(|r| is_plain(&r.source))
            .map(|r| r.source.clone())
            .collect();
        let mut looping = Vec::new();
        for source in sources {
            match redirects.chain(&source) {
                Chain::Loop => {
                    warnings.push(format!("redirects: {source:?} leads round in a loop; it is left out"));
                    looping.push(source);
                }
                Chain::Ends { steps, .. } if steps > 1 => warnings.push(format!(
                    "redirects: {source:?} leads through {steps} redirects; it goes straight to the last"
                )),
                _ => {}
            }
        }
        if looping.is_empty() {
            return (redirects, warnings);
        }
        let mut rules = redirects.rules;
        rules.retain(|r| !looping.contains(&r.source));
        (Self::from_rules(rules), warnings)
    }

    /// Rules as they are, for a table of them.
    pub fn from_rules(rules: Vec<Rule>) -> Self {
        let patterns: Vec<Vec<String>> = rules
            .iter()
            .map(|r| {
                r.source
                    .trim_matches('/')
                    .split('/')
                    .map(String::from)
                    .collect()
            })
            .collect();
        let (mut plain, mut patterned) = (HashMap::new(), Vec::new());
        for (i, rule) in rules.iter().enumerate() {
            if is_plain(&rule.source) {
                plain.entry(patterns[i].join("/")).or_insert(i);
            } else {
                patterned.push(i);
            }
        }
        Self {
            rules,
            patterns,
            plain,
            patterned,
        }
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Where `path` (a URL path, `/` optional at the start) finally leads, and whether every
    /// step was permanent; `None` if no rule matches it, or the rules loop.
    pub fn resolve(&self, path: &str) -> Option<(String, bool)> {
        match self.chain(path) {
            Chain::Ends {
                destination,
                permanent,
                steps,
            } if steps > 0 => Some((destination, permanent)),
            _ => None,
        }
    }

    fn chain(&self, path: &str) -> Chain {
        let mut current = normalise(path);
        let mut permanent = true;
        let mut seen = vec![current.clone()];
        for steps in 0..=MAX_CHAIN {
            let Some((next, rule_permanent)) = self.step(&current) else {
                return Chain::Ends {
                    destination: current,
                    permanent,
                    steps,
                };
            };
            permanent &= rule_permanent;
            if is_external(&next) {
                return Chain::Ends {
                    destination: next,
                    permanent,
                    steps: steps + 1,
                };
            }
            let next = normalise(&next);
            if seen.contains(&next) {
                return Chain::Loop;
            }
            seen.push(next.clone());
            current = next;
        }
        Chain::Loop
    }

    /// The first rule matching `path`, applied once: the plain rule for it, unless a rule with
    /// parameters before that one matches too.
    fn step(&self, path: &str) -> Option<(String, bool)> {
        let path = normalise(path);
        let key = path
            .split(['#', '?'])
            .next()
            .unwrap_or("")
            .trim_matches('/');
        let segments: Vec<&str> = key.split('/').collect();
        let plain = self.plain.get(key).copied();
        let before = plain.unwrap_or(self.rules.len());
        let (index, bindings) = self
            .patterned
            .iter()
            .take_while(|&&i| i < before)
            .find_map(|&i| Some((i, matches(&self.patterns[i], &segments)?)))
            .or_else(|| Some((plain?, Vec::new())))?;
        let rule = &self.rules[index];
        Some((substitute(&rule.destination, &bindings), rule.permanent))
    }
}

enum Chain {
    Ends {
        destination: String,
        permanent: bool,
        steps: usize,
    },
    Loop,
}

/// A source with no `:param` or `*`: one URL, which can have a page of its own.
pub fn is_plain(source: &str) -> bool {
    !source.contains(':') && !source.contains('*')
}

/// The page path (no leading `/`, no extension) a plain source or destination names.
pub fn page_of(source: &str) -> Option<&str> {
    let path = crate::paths::page_key(source);
    (!path.is_empty()).then_some(path)
}

pub fn is_external(destination: &str) -> bool {
    destination.contains("://") || destination.starts_with("mailto:")
}

/// `/a/b/` and `a/b.html` alike as `/a/b`.
fn normalise(path: &str) -> String {
    let (path, suffix) = match path.find(['#', '?']) {
        Some(i) => path.split_at(i),
        None => (path, ""),
    };
    let trimmed = path.trim_matches('/');
    let trimmed = trimmed.strip_suffix(".html").unwrap_or(trimmed);
    format!("/{trimmed}{suffix}")
}

/// The `:name` and `*` values of a path's `segments` under a source's `pattern` segments, if
/// it matches.
fn matches(pattern: &[String], segments: &[&str]) -> Option<Vec<(String, String)>> {
    let mut bindings = Vec::new();
    for (i, part) in pattern.iter().enumerate() {
        if part.starts_with('*') || part.ends_with('*') && part.starts_with(':') {
            let rest = segments.get(i..).map(|s| s.join("/")).unwrap_or_default();
            bindings.push((part.trim_matches(['*', ':']).to_string(), rest));
            return Some(bindings);
        }
        let segment = segments.get(i)?;
        match part.strip_prefix(':') {
            Some(name) => bindings.push((name.to_string(), segment.to_string())),
            None if part == *segment => {}
            None => return None,
        }
    }
    (pattern.len() == segments.len()).then_some(bindings)
}

/// `destination` with `:name` and `*` replaced by their values.
fn substitute(destination: &str, bindings: &[(String, String)]) -> String {
    destination
        .split('/')
        .map(|part| {
            let name = part.trim_matches(['*', ':']);
            let is_variable = part.starts_with(':') || part.starts_with('*');
            match bindings
                .iter()
                .find(|(n, _)| n == name || (name.is_empty() && n.is_empty()))
            {
                Some((_, value)) if is_variable => value.clone(),
                _ => part.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A site's pages, for where a link or a redirect lands: the page itself, its folder's
/// `index`, or the folder's first page in reading order.
#[derive(Debug, Clone, Default)]
pub struct PageIndex {
    pages: HashSet<String>,
    folders: HashMap<String, String>,
}

impl PageIndex {
    /// `pages` (paths without extension) in reading order: the first under a folder is its
    /// first page.
    pub fn new<'a>(pages: impl IntoIterator<Item = &'a str>) -> Self {
        let mut index = Self::default();
        for page in pages {
            index.pages.insert(page.to_string());
            let mut folder = page;
            while let Some((parent, _)) = folder.rsplit_once('/') {
                index
                    .folders
                    .entry(parent.to_string())
                    .or_insert_with(|| page.to_string());
                folder = parent;
            }
        }
        index
    }

    /// The page a link to `target` opens, if any.
    pub fn page(&self, target: &str) -> Option<String> {
        [target.to_string(), format!("{target}/index")]
            .into_iter()
            .find(|p| self.pages.contains(p))
            .or_else(|| self.folders.get(target).cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redirects(rules: Value, pages: &[&str]) -> (Redirects, Vec<String>) {
        let config = serde_json::json!({ "redirects": rules });
        let pages: Vec<String> = pages.iter().map(|p| p.to_string()).collect();
        Redirects::of(&SiteConfig::of(&config), &|p| pages.iter().any(|q| q == p))
    }

    #[test]
    fn the_first_matching_rule_wins_plain_or_not() {
        let (r, _) = redirects(
            serde_json::json!([
                {"source": "/docs/:page", "destination": "/v2/:page"},
                {"source": "/docs/intro", "destination": "/start"},
                {"source": "/guide/", "destination": "/guides"},
                {"source": "/guide/*", "destination": "/guides/*"},
                {"source": "/guide", "destination": "/never"},
            ]),
            &[],
        );
        assert_eq!(r.resolve("/docs/intro"), Some(("/v2/intro".into(), true)));
        assert_eq!(r.resolve("/guide"), Some(("/guides".into(), true)));
        assert_eq!(r.resolve("/guide/a/b"), Some(("/guides/a/b".into(), true)));
        assert_eq!(r.resolve("/elsewhere"), None);
    }

    #[test]
    fn params_wildcards_and_permanence() {
        let (r, warnings) = redirects(
            serde_json::json!([
                {"source": "/old/:slug", "destination": "/new/:slug"},
                {"source": "/blog/*", "destination": "https://blog.example/*", "permanent": false},
                {"source": "/a", "destination": "/b#part"},
            ]),
            &["new/x"],
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(r.resolve("/old/x"), Some(("/new/x".into(), true)));
        assert_eq!(r.resolve("old/x.html"), Some(("/new/x".into(), true)));
        assert_eq!(
            r.resolve("/blog/2024/post"),
            Some(("https://blog.example/2024/post".into(), false))
        );
        assert_eq!(r.resolve("/a"), Some(("/b#part".into(), true)));
        assert_eq!(r.resolve("/old/x/y"), None);
        assert_eq!(r.resolve("/elsewhere"), None);
    }

    #[test]
    fn chains_end_at_the_last_and_loops_are_left_out() {
        let (r, warnings) = redirects(
            serde_json::json!([
                {"source": "/one", "destination": "/two"},
                {"source": "/two", "destination": "/three"},
                {"source": "/x", "destination": "/y"},
                {"source": "/y", "destination": "/x"},
                {"source": "/home", "destination": "/index"},
            ]),
            &["three", "home"],
        );
        assert_eq!(r.resolve("/one"), Some(("/three".into(), true)));
        assert_eq!(r.resolve("/x"), None);
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("\"/home\" is a page")));
        assert!(warnings.iter().any(|w| w.contains("loop")));
        assert!(warnings.iter().any(|w| w.contains("through 2 redirects")));
    }

    #[test]
    fn malformed_rules_are_warnings() {
        let (r, warnings) = redirects(serde_json::json!([{"source": "/a"}, 3]), &[]);
        assert!(r.is_empty());
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].contains("destination"), "{warnings:?}");
    }
}
