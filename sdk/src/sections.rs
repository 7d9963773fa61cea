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
    anchors_used: HashMap<String, usize>,
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
            anchors_used: HashMap::new(),
        }
    }

    /// A heading starts a new section; returns its anchor (unique within the page).
    pub fn heading(&mut self, level: u8, text: &str) -> String {
        let mut anchor = slug(text);
        let seen = self.anchors_used.entry(anchor.clone()).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            anchor = format!("{anchor}-{}", *seen - 1);
        }
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

    fn push_section(&mut self, section: Section) {
        if !section.text.is_empty() {
            self.sections.push(section);
        }
    }
}

/// A URL-safe anchor from heading text: lowercase letters and digits joined by `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_end_matches('-');
    if trimmed.is_empty() {
        "section".to_string()
    } else {
        trimmed.to_string()
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
    fn slugs_are_url_safe() {
        assert_eq!(slug("Hello, World!"), "hello-world");
        assert_eq!(slug("???"), "section");
    }
}
