//! Headings and search sections. A section is the text under one heading (or before the first
//! one), with the trail of titles that leads to it; the host indexes sections for search and
//! the assistant quotes them. Feed a page's headings and text in document order.

use std::collections::HashMap;

/// A heading of a rendered page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    pub text: String,
    /// The heading's `id` in the HTML.
    pub anchor: String,
}

/// A searchable slice of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The `id` of the heading that starts it; empty for the opening text.
    pub anchor: String,
    /// Titles from the page title down to this section's heading.
    pub heading_trail: Vec<String>,
    /// Plain text, markup removed.
    pub text: String,
}

/// Collects headings and sections as a page is rendered, and gives each heading a unique
/// anchor.
#[derive(Debug)]
pub struct SectionBuilder {
    title: String,
    /// Open headings: (level, text), outermost first.
    trail: Vec<(u8, String)>,
    current: Section,
    sections: Vec<Section>,
    headings: Vec<Heading>,
    anchors: Anchors,
}

impl SectionBuilder {
    /// Starts the page titled `title`.
    pub fn new(title: impl Into<String>) -> Self {
        let title = title.into();
        Self {
            current: Section {
                anchor: String::new(),
                heading_trail: vec![title.clone()],
                text: String::new(),
            },
            title,
            trail: Vec::new(),
            sections: Vec::new(),
            headings: Vec::new(),
            anchors: Anchors::default(),
        }
    }

    /// A heading starts a new section; returns its anchor (unique within the page).
    pub fn heading(&mut self, level: u8, text: &str) -> String {
        let anchor = self.anchors.next(text);
        self.trail.retain(|(l, _)| *l < level);
        self.trail.push((level, text.to_string()));
        let finished = std::mem::replace(
            &mut self.current,
            Section {
                anchor: anchor.clone(),
                // A top heading repeating the title would only say it twice.
                heading_trail: std::iter::once(self.title.clone())
                    .chain(
                        self.trail
                            .iter()
                            .filter(|(l, t)| !(*l == 1 && *t == self.title))
                            .map(|(_, t)| t.clone()),
                    )
                    .collect(),
                text: String::new(),
            },
        );
        self.push_section(finished);
        self.headings.push(Heading {
            level: level.clamp(1, 6),
            text: text.to_string(),
            anchor: anchor.clone(),
        });
        anchor
    }

    /// Text of the current section (whitespace is collapsed).
    pub fn text(&mut self, text: &str) {
        for word in text.split_whitespace() {
            if !self.current.text.is_empty() {
                self.current.text.push(' ');
            }
            self.current.text.push_str(word);
        }
    }

    /// Adds a code block to the current section, fenced (see [`push_code`]).
    pub fn code(&mut self, language: &str, code: &str) {
        push_code(&mut self.current.text, language, code);
    }

    /// The page's headings and its non-empty sections.
    pub fn finish(mut self) -> (Vec<Heading>, Vec<Section>) {
        let last = std::mem::replace(
            &mut self.current,
            Section {
                anchor: String::new(),
                heading_trail: Vec::new(),
                text: String::new(),
            },
        );
        self.push_section(last);
        (self.headings, self.sections)
    }

    fn push_section(&mut self, mut section: Section) {
        section.text = tidy(&section.text);
        if !section.text.is_empty() {
            self.sections.push(section);
        }
    }
}

/// Appends a code block to a section's text as a Markdown fence on lines of its own (the
/// language after the opening backticks), so that whoever reads the text (the host's search, the
/// docs assistant) can tell code from prose: the assistant shows code as code and never quotes
/// it as a sentence. A line of the code that would close the fence early is left out.
pub fn push_code(text: &mut String, language: &str, code: &str) {
    let language: String = language
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '`')
        .collect();
    text.push_str("\n```");
    text.push_str(&language);
    text.push('\n');
    for line in code.trim_end().lines() {
        if !line.trim_start().starts_with("```") {
            text.push_str(line);
            text.push('\n');
        }
    }
    text.push_str("```\n");
}

/// A section's text tidied: white space in prose collapsed to single spaces, a blank line
/// (the end of a block: a paragraph, a list item, a table row) kept as one line break, so that
/// blocks without a full stop still end their sentence; code blocks fenced by [`push_code`]
/// kept line for line.
pub fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut prose = String::new();
    let mut in_code = false;
    // Whether a blank line came since the last words went out.
    let mut block_ended = false;
    let flush = |prose: &mut String, out: &mut String, block_ended: &mut bool| {
        let words = prose.split_whitespace().collect::<Vec<_>>().join(" ");
        if !words.is_empty() {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push(if *block_ended { '\n' } else { ' ' });
            }
            out.push_str(&words);
            *block_ended = false;
        }
        prose.clear();
    };
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```");
        if in_code {
            out.push_str(if fence { "```" } else { line });
            out.push('\n');
            in_code = !fence;
        } else if fence {
            flush(&mut prose, &mut out, &mut block_ended);
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(line.trim());
            out.push('\n');
            in_code = true;
        } else if line.trim().is_empty() {
            flush(&mut prose, &mut out, &mut block_ended);
            block_ended = true;
        } else {
            prose.push_str(line);
            prose.push(' ');
        }
    }
    flush(&mut prose, &mut out, &mut block_ended);
    out.trim_end().to_string()
}

/// A heading's anchor as GitHub and docs.json sites spell it, so links written against the
/// published site (`#whats-new`, `#api_key`) keep working: letters and digits lowercased, each
/// space or `-` a `-`, `_` kept, everything else dropped; `section` when nothing is left.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if c == ' ' || c == '-' {
            out.push('-');
        } else if c == '_' {
            out.push('_');
        }
    }
    if out.is_empty() {
        "section".to_string()
    } else {
        out
    }
}

/// The anchors given out on one page, so each is unique: the second "Usage" heading is
/// `usage-1`, the third `usage-2`, as GitHub numbers them.
#[derive(Debug, Default, Clone)]
pub struct Anchors {
    used: HashMap<String, usize>,
}

impl Anchors {
    /// The anchor for a heading reading `text`.
    pub fn next(&mut self, text: &str) -> String {
        let base = slug(text);
        let seen = self.used.entry(base.clone()).or_insert(0);
        *seen += 1;
        match *seen {
            1 => base,
            n => format!("{base}-{}", n - 1),
        }
    }

    /// Records an anchor the page set itself (an explicit `id`), kept as written; a later
    /// heading with the same text is numbered after it.
    pub fn reserve(&mut self, anchor: &str) {
        *self.used.entry(anchor.to_string()).or_insert(0) += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_follow_headings_with_their_trail() {
        let mut page = SectionBuilder::new("Webhooks");
        page.text("Intro  text.");
        assert_eq!(page.heading(2, "Signatures"), "signatures");
        page.text("Verify them.");
        page.heading(3, "Rotating keys");
        page.text("Rotate.");
        assert_eq!(page.heading(2, "Signatures"), "signatures-1");
        let (headings, sections) = page.finish();
        assert_eq!(headings.len(), 3);
        assert_eq!(sections[0].text, "Intro text.");
        assert_eq!(sections[0].anchor, "");
        assert_eq!(
            sections[2].heading_trail,
            ["Webhooks", "Signatures", "Rotating keys"]
        );
        assert_eq!(sections.len(), 3, "the empty last section is dropped");
    }

    #[test]
    fn slugs_are_spelled_as_github_spells_them() {
        assert_eq!(slug("Hello, World!"), "hello-world");
        assert_eq!(slug("What's new?"), "whats-new");
        assert_eq!(slug("api_key and  more"), "api_key-and--more");
        assert_eq!(slug("Schnellstart für Ärzte"), "schnellstart-für-ärzte");
        assert_eq!(slug("???"), "section");
    }

    #[test]
    fn code_is_fenced_on_lines_of_its_own() {
        let mut page = SectionBuilder::new("Install");
        page.text("Run this:");
        page.code("bash", "npm i acme\n```\nacme login\n");
        page.text("Done.");
        let (_, sections) = page.finish();
        assert_eq!(
            sections[0].text,
            "Run this:\n```bash\nnpm i acme\nacme login\n```\nDone."
        );
    }

    #[test]
    fn tidying_collapses_prose_and_keeps_code_lines() {
        let mut text = String::from("  Run\n this: ");
        push_code(&mut text, "bash", "npm i  acme\n  acme login");
        text.push_str("  and   done. ");
        assert_eq!(
            tidy(&text),
            "Run this:\n```bash\nnpm i  acme\n  acme login\n```\nand done."
        );
    }

    #[test]
    fn tidying_keeps_the_end_of_a_block_as_a_line_break() {
        let text = "First item\n\nSecond item,\nwrapped\n\n\nThird.";
        assert_eq!(tidy(text), "First item\nSecond item, wrapped\nThird.");
    }

    #[test]
    fn repeated_headings_are_numbered_after_explicit_ids() {
        let mut anchors = Anchors::default();
        assert_eq!(anchors.next("Usage"), "usage");
        assert_eq!(anchors.next("Usage"), "usage-1");
        anchors.reserve("setup");
        assert_eq!(anchors.next("Setup"), "setup-1");
    }
}
