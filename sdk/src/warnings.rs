//! Problems in a page that did not stop rendering, reported with file and line so the site's
//! author can find them. The host shows them on the export job.

/// A problem worth telling the site's author about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The source file, relative to the site root.
    pub file: String,
    /// One-based line, when known.
    pub line: Option<u32>,
    pub message: String,
}

/// Collects one page's warnings.
#[derive(Debug, Clone)]
pub struct Warnings {
    file: String,
    /// Lines before the part of the file being parsed (the frontmatter), added to every line.
    line_offset: u32,
    found: Vec<Warning>,
}

impl Warnings {
    /// Warnings about `file`.
    pub fn new(file: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line_offset: 0,
            found: Vec::new(),
        }
    }

    /// Lines are counted from `offset` lines into the file (after frontmatter).
    pub fn with_line_offset(mut self, offset: u32) -> Self {
        self.line_offset = offset;
        self
    }

    /// A warning at one-based `line` of the parsed text.
    pub fn at(&mut self, line: u32, message: impl Into<String>) {
        self.found.push(Warning {
            file: self.file.clone(),
            line: Some(line + self.line_offset),
            message: message.into(),
        });
    }

    /// A warning about the whole file.
    pub fn file(&mut self, message: impl Into<String>) {
        self.found.push(Warning {
            file: self.file.clone(),
            line: None,
            message: message.into(),
        });
    }

    /// A warning at byte `offset` of `text` (the parsed text).
    pub fn at_offset(&mut self, text: &str, offset: usize, message: impl Into<String>) {
        self.at(line_of(text, offset), message);
    }

    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    pub fn into_vec(self) -> Vec<Warning> {
        self.found
    }
}

/// The one-based line of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> u32 {
    let end = offset.min(text.len());
    let newlines = text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    u32::try_from(newlines + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_from_the_frontmatter() {
        let body = "one\ntwo\n[bad](x)";
        let mut warnings = Warnings::new("guides/a.md").with_line_offset(4);
        warnings.at_offset(body, body.find("[bad]").unwrap(), "broken link");
        let found = warnings.into_vec();
        assert_eq!(found[0].line, Some(7));
        assert_eq!(found[0].file, "guides/a.md");
    }
}
