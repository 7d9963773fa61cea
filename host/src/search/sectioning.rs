//! How a page's sections, as the renderer cut them at its headings, become the units the search
//! index holds. A long section (a reference page's one heading over thousands of words) is cut
//! into windows of a few hundred words, each carrying the section's heading trail and anchor,
//! so that a search finds the part that answers and an answer reads from it. A section with no
//! text of its own (a heading right over its sub-headings) is folded into the next one of its
//! page as a line, so that a search result never holds a heading alone. Cuts fall between
//! lines, never inside a code block.
//!
//! Measured on the assistant evaluation (BENCHMARKS.md): windows of 300 words leave hit@5 and
//! answers as they were (150 lowers hit@5), and folding every section under 12 words into the
//! next lowers one site's hit@5 from 0.85 to 0.83 (the folded heading no longer weighs as a
//! heading), so only headings alone are folded.

use crate::plugins::Section;

/// A window holds at most about this many words (a code block is never cut, so one longer than
/// this is a window of its own).
pub const WINDOW_WORDS: usize = 300;

/// The units to index for a page's `sections`, in order. The page's `description`
/// (frontmatter), which the renderer shows under the title but leaves out of the sections, is
/// the last line of its opening text: readers search for a page by what it says it is about.
/// Last, because the body often says the same more fully ("Hidden tasks are tasks that ...,
/// only accessible to other tasks within the same file"), and an answer choosing between two
/// such sentences takes the earlier.
pub fn index_units(
    title: &str,
    description: Option<&str>,
    mut sections: Vec<Section>,
) -> Vec<Section> {
    if let Some(description) = description.map(str::trim).filter(|d| !d.is_empty()) {
        match sections.iter_mut().find(|s| s.anchor.is_empty()) {
            Some(opening) => opening.text = format!("{}\n{description}", opening.text),
            None => sections.insert(
                0,
                Section {
                    anchor: String::new(),
                    heading_trail: vec![title.to_string()],
                    text: description.to_string(),
                },
            ),
        }
    }
    windows(fold_tiny(sections))
}

/// Sections with no text of their own folded, with their heading, into the section after
/// them; the last one of a page stays.
fn fold_tiny(sections: Vec<Section>) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::with_capacity(sections.len());
    let mut carried = String::new();
    let count = sections.len();
    for (i, mut section) in sections.into_iter().enumerate() {
        let heading = heading_of(&section);
        if section.text.split_whitespace().next().is_none() && i + 1 < count {
            carried = [carried.as_str(), heading, section.text.as_str()]
                .iter()
                .filter(|part| !part.trim().is_empty())
                .map(|part| part.trim())
                .collect::<Vec<_>>()
                .join("\n");
            continue;
        }
        if !carried.is_empty() {
            section.text = format!("{}\n{}", std::mem::take(&mut carried), section.text);
        }
        out.push(section);
    }
    out
}

/// Each section cut into windows of at most `WINDOW_WORDS` words, between lines outside code.
fn windows(sections: Vec<Section>) -> Vec<Section> {
    let mut out = Vec::with_capacity(sections.len());
    for section in sections {
        // Counted only as far as it takes to tell: every page of a site passes here.
        if section.text.split_whitespace().nth(WINDOW_WORDS).is_none() {
            out.push(section);
            continue;
        }
        let mut window = String::new();
        let mut window_words = 0;
        let mut in_code = false;
        for line in section.text.lines() {
            let line_words = words(line);
            if !in_code && window_words > 0 && window_words + line_words > WINDOW_WORDS {
                out.push(Section {
                    text: std::mem::take(&mut window),
                    ..section.clone()
                });
                window_words = 0;
            }
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            window.push_str(line);
            window.push('\n');
            window_words += line_words;
        }
        if !window.trim().is_empty() {
            out.push(Section {
                text: window,
                ..section
            });
        }
    }
    out
}

/// The section's own heading: the last of its trail, none for a page's opening text.
fn heading_of(section: &Section) -> &str {
    if section.anchor.is_empty() {
        ""
    } else {
        section.heading_trail.last().map_or("", String::as_str)
    }
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(anchor: &str, trail: &[&str], text: &str) -> Section {
        Section {
            anchor: anchor.into(),
            heading_trail: trail.iter().map(|s| s.to_string()).collect(),
            text: text.into(),
        }
    }

    #[test]
    fn a_long_section_is_cut_into_windows_that_keep_its_heading() {
        let paragraph = "word ".repeat(100);
        let text = [paragraph.as_str(); 7].join("\n");
        let units = index_units(
            "Page",
            None,
            vec![section("limits", &["Page", "Limits"], &text)],
        );
        assert_eq!(units.len(), 3, "{units:?}");
        for unit in &units {
            assert_eq!(unit.anchor, "limits");
            assert_eq!(unit.heading_trail, ["Page", "Limits"]);
            assert!(words(&unit.text) <= WINDOW_WORDS);
        }
        let total: usize = units.iter().map(|u| words(&u.text)).sum();
        assert_eq!(total, 700, "no word lost");
    }

    #[test]
    fn code_blocks_are_never_cut() {
        let code_lines: Vec<String> = (0..200).map(|i| format!("step {i} of the code")).collect();
        let text = format!(
            "{}\n```bash\n{}\n```\nAfter the code.",
            "intro ".repeat(250),
            code_lines.join("\n")
        );
        let units = index_units("Page", None, vec![section("a", &["Page", "A"], &text)]);
        let fences: Vec<usize> = units
            .iter()
            .map(|u| u.text.matches("```").count())
            .collect();
        assert!(fences.iter().all(|&f| f % 2 == 0), "{fences:?}");
        assert!(
            units
                .iter()
                .any(|u| u.text.contains("step 0") && u.text.contains("step 199"))
        );
    }

    #[test]
    fn the_description_ends_the_opening_text() {
        let units = index_units(
            "Machines",
            Some("Choose how much CPU and memory a task gets."),
            vec![section("", &["Machines"], "Presets are listed below.")],
        );
        assert_eq!(
            units[0].text,
            "Presets are listed below.\nChoose how much CPU and memory a task gets."
        );
        let units = index_units(
            "Machines",
            Some("Choose how much CPU and memory a task gets."),
            vec![section(
                "presets",
                &["Machines", "Presets"],
                "small-1x has 0.5 GB.",
            )],
        );
        assert_eq!(units.len(), 2);
        assert_eq!(units[0].anchor, "");
        assert_eq!(units[0].heading_trail, ["Machines"]);
    }

    #[test]
    fn a_heading_alone_is_folded_into_the_next_section() {
        let units = index_units(
            "Page",
            None,
            vec![
                section("", &["Machines"], ""),
                section("presets", &["Machines", "Presets"], " \n"),
                section(
                    "override",
                    &["Machines", "Override"],
                    "Set the machine option when you trigger a task to override the preset for one run.",
                ),
            ],
        );
        assert_eq!(units.len(), 1, "{units:?}");
        assert_eq!(units[0].anchor, "override");
        assert!(
            units[0].text.starts_with("Presets\nSet the machine"),
            "{:?}",
            units[0].text
        );
    }

    proptest::proptest! {
        /// Whatever a page's text: no word is lost (a folded heading adds its own), no unit
        /// but one holding a code block passes the cap, and a page whose fences are balanced
        /// is cut into units whose fences are too.
        #[test]
        fn any_page_is_cut_without_losing_or_breaking_anything(
            texts in proptest::collection::vec(
                "(word |```rust\n|```\n|\n|x = 1;\n|\\PC{0,6}){0,400}",
                1..5,
            ),
        ) {
            let sections: Vec<Section> = texts
                .iter()
                .enumerate()
                .map(|(i, text)| {
                    let heading = format!("Heading {i}");
                    section(&format!("h{i}"), &["Page", &heading], text)
                })
                .collect();
            let folded_headings: usize = sections
                .iter()
                .take(sections.len() - 1)
                .filter(|s| words(&s.text) == 0)
                .map(|s| words(heading_of(s)))
                .sum();
            let before: usize = sections.iter().map(|s| words(&s.text)).sum();
            let units = index_units("Page", None, sections.clone());
            let after: usize = units.iter().map(|u| words(&u.text)).sum();
            proptest::prop_assert_eq!(after, before + folded_headings);
            for unit in &units {
                proptest::prop_assert!(
                    words(&unit.text) <= WINDOW_WORDS || unit.text.contains("```"),
                    "{} words", words(&unit.text)
                );
            }
            let balanced = |text: &str| {
                text.lines().filter(|l| l.trim_start().starts_with("```")).count() % 2 == 0
            };
            if sections.iter().all(|s| balanced(&s.text)) {
                for unit in &units {
                    proptest::prop_assert!(balanced(&unit.text), "{:?}", unit.text);
                }
            }
        }
    }

    #[test]
    fn short_sections_and_a_last_heading_alone_stay() {
        let units = index_units(
            "Page",
            None,
            vec![
                section("", &["Page"], "Pick one."),
                section("default", &["Page", "Default"], "small-1x."),
                section("see-also", &["Page", "See also"], ""),
            ],
        );
        assert_eq!(units.len(), 3);
    }
}
