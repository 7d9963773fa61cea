//! Icons as inline SVG: Font Awesome Free (solid, regular, brands), Lucide and Tabler (outline
//! and filled), from their npm packages (compiled in by build.rs), plus icons given as an image URL or a path in the site.
//! A page carries only the icons it uses; the theme's own chrome always draws from Lucide.

use quire_sdk::escape;

mod sets {
    include!(concat!(env!("OUT_DIR"), "/icon_sets.rs"));
}

/// The icon library a site names in docs.json (`icons.library`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Library {
    /// Font Awesome, docs.json's default.
    #[default]
    FontAwesome,
    /// Lucide.
    Lucide,
    /// Tabler.
    Tabler,
}

impl Library {
    /// `icons.library` as docs.json spells it; anything else is the default.
    pub fn parse(name: Option<&str>) -> Self {
        match name.map(str::trim) {
            Some(n) if n.eq_ignore_ascii_case("lucide") => Self::Lucide,
            Some(n) if n.eq_ignore_ascii_case("tabler") => Self::Tabler,
            _ => Self::FontAwesome,
        }
    }
}

/// An icon as a page names it: a name (`rocket`, `fa-rocket`, `fa-solid fa-rocket`), a URL or
/// a site path to an image, with the Font Awesome style (`iconType`) if given.
#[derive(Debug, Clone, Copy)]
pub struct IconRef<'a> {
    pub name: &'a str,
    pub style: Option<&'a str>,
}

impl<'a> IconRef<'a> {
    pub fn named(name: &'a str) -> Self {
        Self { name, style: None }
    }
}

/// What an icon reference draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Drawn {
    /// An inline `<svg>` that takes the text colour.
    Svg(String),
    /// An image: a URL, or a path in the site (the caller makes it relative to the page).
    Image(String),
}

/// Draws `icon` from `library` at `size` pixels; `None` for a name neither set knows.
pub fn draw(library: Library, icon: IconRef<'_>, size: u32) -> Option<Drawn> {
    let name = icon.name.trim();
    if name.is_empty() {
        return None;
    }
    if name.starts_with("<svg") {
        return inline_svg(name, size).map(Drawn::Svg);
    }
    if is_image_reference(name) {
        return Some(Drawn::Image(name.to_string()));
    }
    let (style, name) = split_style(name, icon.style);
    let exact = |name: &str| {
        let lucide = || lucide_svg(name, size);
        let font_awesome = || font_awesome_svg(name, style, size);
        let tabler = || tabler_svg(name, style, size);
        match library {
            Library::Lucide => lucide().or_else(font_awesome).or_else(tabler),
            Library::FontAwesome => font_awesome().or_else(lucide).or_else(tabler),
            Library::Tabler => tabler().or_else(lucide).or_else(font_awesome),
        }
    };
    exact(name)
        .or_else(|| pro_alias(name).and_then(exact))
        .or_else(|| nearest_free(name).find_map(|candidate| exact(&candidate)))
        .or_else(|| ending_with(name, size))
        .map(|svg| Drawn::Svg(tagged(&svg, icon.name)))
}

/// Font Awesome Pro names whose nearest free drawing does not share their words.
fn pro_alias(name: &str) -> Option<&'static str> {
    const ALIASES: &[(&str, &str)] = &[
        ("anthropic", "claude"),
        ("browser", "window-maximize"),
        ("chart-mixed", "chart-column"),
        ("diagram-subtask", "diagram-project"),
        ("flow", "workflow"),
        ("pipe", "grip-lines-vertical"),
        ("snake", "worm"),
        ("wave-pulse", "heart-pulse"),
    ];
    ALIASES
        .binary_search_by(|(pro, _)| (*pro).cmp(name))
        .ok()
        .map(|i| ALIASES[i].1)
}

/// Names to try for an icon neither free set has, nearest first. Sites name Font Awesome Pro
/// icons (`circle-1`, `books`, `phone-arrow-down-left`); the closest free drawing is the name
/// in the singular, then with its trailing parts dropped (`phone-arrow-down`, ..., `phone`),
/// then its last part (`arrows-repeat` → `repeat`).
fn nearest_free(name: &str) -> impl Iterator<Item = String> + '_ {
    let parts: Vec<&str> = name.split('-').filter(|p| !p.is_empty()).collect();
    let singular = name
        .strip_suffix('s')
        .filter(|stem| stem.len() > 2)
        .map(str::to_string);
    let shorter = (1..parts.len()).rev().map(move |n| parts[..n].join("-"));
    let last = name.rsplit_once('-').map(|(_, last)| last.to_string());
    singular.into_iter().chain(shorter).chain(last)
}

/// The Lucide icon whose name ends with `-{name}` (`waveform` → `audio-waveform`), if any.
fn ending_with(name: &str, size: u32) -> Option<String> {
    let suffix = format!("-{}", name.to_ascii_lowercase());
    let (found, _) = sets::LUCIDE_NAMES
        .iter()
        .find(|(n, _)| n.ends_with(&suffix))?;
    lucide_svg(found, size)
}

/// One of the theme's own icons (search, sun, moon, ...), from Lucide. Empty for an unknown
/// name, which a unit test rules out for the names the theme uses.
pub fn ui(name: &str, size: u32) -> String {
    lucide_svg(name, size)
        .map(|svg| tagged(&svg, name))
        .unwrap_or_default()
}

/// SVG code given as the icon as a string (`icon="<svg ...>...</svg>"`), sanitised like every
/// raw SVG in a page; JSX's camelCase attribute names become SVG's.
fn inline_svg(code: &str, size: u32) -> Option<String> {
    let svg = crate::raw_html::vocabulary::svg_source(code.trim());
    let clean = crate::raw_html::sanitize::clean(&svg);
    (clean.starts_with("<svg") && clean.ends_with("</svg>")).then(|| sized(&clean, size))
}

/// A rendered icon given as markup (SVG code, or an element given as the `icon` prop) at
/// `size` pixels, carrying what every icon carries.
pub fn sized(markup: &str, size: u32) -> String {
    match markup.strip_prefix("<svg") {
        Some(rest) => {
            let rest = without_size(rest);
            format!(
                "<svg class=\"icon icon-own\" aria-hidden=\"true\" width=\"{size}\" height=\"{size}\"{rest}"
            )
        }
        None => format!("<span class=\"icon icon-own\" aria-hidden=\"true\">{markup}</span>"),
    }
}

/// The rest of a sanitised `<svg` start tag and its content without the tag's own `width` and
/// `height` (the icon's size replaces them).
fn without_size(rest: &str) -> String {
    let tag_end = rest.find('>').unwrap_or(rest.len());
    let (mut tag, content) = (rest[..tag_end].to_string(), &rest[tag_end..]);
    for attribute in [" width=\"", " height=\""] {
        if let Some(start) = tag.find(attribute) {
            let value_start = start + attribute.len();
            if let Some(length) = tag[value_start..].find('"') {
                tag.replace_range(start..value_start + length + 1, "");
            }
        }
    }
    tag + content
}

/// Whether an icon value is an image rather than a name: a URL, a site path or a file name,
/// made only of the characters URLs are. Anything else (`"); -webkit-mask-image: url(...)`)
/// is looked up as a name, and an unknown name draws nothing.
fn is_image_reference(name: &str) -> bool {
    let url_characters = name
        .chars()
        .all(|c| c.is_alphanumeric() || "-._~:/?#[]@!$&+,=%".contains(c));
    let lower = name.to_ascii_lowercase();
    let scheme = lower.split_once(':').map(|(scheme, _)| scheme);
    url_characters
        && matches!(scheme, None | Some("http" | "https"))
        && (name.contains('/')
            || [".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp"]
                .iter()
                .any(|ext| lower.ends_with(ext)))
}

/// The Font Awesome style and the bare name from `fa-solid fa-house`, `fa-house`, `house`.
fn split_style<'a>(name: &'a str, style: Option<&'a str>) -> (Option<&'a str>, &'a str) {
    let mut style = style.map(str::trim).filter(|s| !s.is_empty());
    let mut bare = name;
    for word in name.split_whitespace() {
        let word = word.strip_prefix("fa-").unwrap_or(word);
        match word {
            "fa" | "fas" => style = style.or(Some("solid")),
            "far" => style = style.or(Some("regular")),
            "fab" => style = style.or(Some("brands")),
            "solid" | "regular" | "brands" | "light" | "thin" | "duotone" | "sharp-solid" => {
                style = style.or(Some(word));
            }
            _ => bare = word,
        }
    }
    (style, bare)
}

fn lookup(names: &[(&str, u16)], key: &str) -> Option<usize> {
    names
        .binary_search_by(|(n, _)| (*n).cmp(key))
        .ok()
        .map(|i| usize::from(names[i].1))
}

/// A Font Awesome icon in the asked style, else the free style that has it: regular, solid,
/// brands. The Pro styles (light, thin, duotone, sharp) fall back the same way.
fn font_awesome_svg(name: &str, style: Option<&str>, size: u32) -> Option<String> {
    let name = name.to_ascii_lowercase();
    let asked = style.map(|s| match s {
        "brands" => "brands",
        "solid" | "sharp-solid" | "duotone" => "solid",
        _ => "regular",
    });
    let index = asked
        .into_iter()
        .chain(["regular", "solid", "brands"])
        .find_map(|style| lookup(sets::FONT_AWESOME_NAMES, &format!("{style}/{name}")))?;
    let (view_box, path) = sets::FONT_AWESOME[index];
    // Filled in the text's colour by the stylesheet's `.icon` rule; no `xmlns`, which inline
    // SVG in HTML does without.
    Some(format!(
        "<svg width=\"{size}\" height=\"{size}\" viewBox=\"{view_box}\"><path d=\"{path}\"/></svg>"
    ))
}

fn lucide_svg(name: &str, size: u32) -> Option<String> {
    let name = name.to_ascii_lowercase();
    let name = name.strip_prefix("lucide-").unwrap_or(&name);
    let body = sets::LUCIDE[lookup(sets::LUCIDE_NAMES, name)?];
    // Stroked the way Lucide draws (2px, round ends) by the stylesheet's `.icon.ls` rule.
    Some(format!(
        "<svg class=\"ls\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 24 24\">{body}</svg>"
    ))
}

/// A Tabler icon: outline, or filled for `iconType: "filled"` or a `-filled` name (the outline
/// when there is no filled drawing).
fn tabler_svg(name: &str, style: Option<&str>, size: u32) -> Option<String> {
    let name = name.to_ascii_lowercase();
    let name = name
        .strip_prefix("tabler-")
        .or_else(|| name.strip_prefix("ti-"))
        .unwrap_or(&name);
    let (name, filled) = match name.strip_suffix("-filled") {
        Some(outline) => (outline, true),
        None => (name, style == Some("filled")),
    };
    if filled && let Some(i) = lookup(sets::TABLER_FILLED_NAMES, name) {
        // Filled in the text's colour by the stylesheet's `.icon` rule.
        return Some(format!(
            "<svg width=\"{size}\" height=\"{size}\" viewBox=\"0 0 24 24\">{}</svg>",
            sets::TABLER_FILLED[i]
        ));
    }
    let body = sets::TABLER[lookup(sets::TABLER_NAMES, name)?];
    // Tabler strokes as Lucide does (2px, round ends): the same `.icon.ls` rule.
    Some(format!(
        "<svg class=\"ls\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 24 24\">{body}</svg>"
    ))
}

/// Adds the classes and attributes every icon carries to a bare `<svg ...>` (whose own
/// classes, if it starts with them, stay).
fn tagged(svg: &str, name: &str) -> String {
    let rest = svg.strip_prefix("<svg").unwrap_or(svg);
    let (own, rest) = rest
        .strip_prefix(" class=\"")
        .and_then(|r| r.split_once('"'))
        .map_or(("", rest), |(class, rest)| (class, rest));
    let class = if own.is_empty() {
        "icon".to_string()
    } else {
        format!("icon {own}")
    };
    format!(
        "<svg class=\"{class}\" data-icon=\"{}\" aria-hidden=\"true\"{rest}",
        escape::html(name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(library: Library, name: &str, style: Option<&str>) -> Option<String> {
        match draw(library, IconRef { name, style }, 16)? {
            Drawn::Svg(svg) => Some(svg),
            Drawn::Image(_) => None,
        }
    }

    #[test]
    fn the_tables_are_sorted() {
        assert!(sets::FONT_AWESOME_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(sets::LUCIDE_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(sets::FONT_AWESOME.len() > 2000, "solid, regular and brands");
        assert!(sets::LUCIDE_NAMES.len() > 1500);
    }

    #[test]
    fn font_awesome_names_styles_and_aliases_resolve() {
        let house = svg(Library::FontAwesome, "house", None).unwrap();
        // Filled by the stylesheet; no namespace, which inline SVG does without.
        assert!(
            house.starts_with("<svg class=\"icon\" data-icon=\"house\""),
            "{house}"
        );
        assert!(
            house.contains("<path d=\"") && !house.contains("xmlns"),
            "{house}"
        );
        // `home` is Font Awesome's alias of `house`.
        let home = svg(Library::FontAwesome, "home", None).unwrap();
        assert_eq!(home.replace("\"home\"", "\"house\""), house);
        // Regular is the default style; solid when asked, or when regular has no such icon.
        let solid = svg(Library::FontAwesome, "house", Some("solid")).unwrap();
        assert_ne!(house, solid);
        assert!(svg(Library::FontAwesome, "rocket", None).is_some());
        assert!(
            svg(Library::FontAwesome, "github", None).is_some(),
            "brands"
        );
        assert!(svg(Library::FontAwesome, "fa-solid fa-rocket", None).is_some());
        assert!(svg(Library::FontAwesome, "zzqx", None).is_none());
    }

    #[test]
    fn lucide_is_used_when_the_site_picks_it_and_as_the_fallback() {
        let lucide = svg(Library::Lucide, "house", None).unwrap();
        // Stroked by the stylesheet's `.icon.ls` rule.
        assert!(
            lucide.starts_with("<svg class=\"icon ls\" data-icon=\"house\""),
            "{lucide}"
        );
        assert!(
            !lucide.contains(" />") && !lucide.contains("stroke="),
            "{lucide}"
        );
        // A Lucide-only name still draws on a Font Awesome site.
        assert!(svg(Library::FontAwesome, "square-dashed-bottom-code", None).is_some());
    }

    #[test]
    fn tabler_sites_draw_tabler_outline_and_filled_icons() {
        assert_eq!(Library::parse(Some("Tabler")), Library::Tabler);
        assert!(sets::TABLER_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(sets::TABLER_NAMES.len() > 4000 && sets::TABLER_FILLED_NAMES.len() > 500);
        // `brand-github` is Tabler's own name: Font Awesome and Lucide do not have it.
        let outline = svg(Library::Tabler, "brand-github", None).expect("outline");
        assert!(outline.starts_with("<svg class=\"icon ls\""), "{outline}");
        let filled = svg(Library::Tabler, "star", Some("filled")).expect("filled");
        assert!(!filled.contains("class=\"icon ls\""), "{filled}");
        assert_eq!(
            svg(Library::Tabler, "star-filled", None),
            Some(filled.replace("data-icon=\"star\"", "data-icon=\"star-filled\""))
        );
        // A Tabler name draws on the other libraries' sites too, and theirs on a Tabler site.
        assert!(svg(Library::FontAwesome, "brand-github", None).is_some());
        assert!(svg(Library::Tabler, "house", None).is_some());
    }

    #[test]
    fn pro_names_draw_the_nearest_free_icon() {
        let phone = svg(Library::FontAwesome, "phone", None).unwrap();
        let pro = svg(Library::FontAwesome, "phone-arrow-down-left", None).unwrap();
        assert_eq!(pro.replace("phone-arrow-down-left", "phone"), phone);
        assert!(svg(Library::FontAwesome, "books", None).is_some());
        assert!(svg(Library::FontAwesome, "arrows-repeat", None).is_some());
        assert!(svg(Library::FontAwesome, "waveform", None).is_some());
        assert!(svg(Library::FontAwesome, "browser", None).is_some());
    }

    #[test]
    fn svg_code_is_inlined_without_what_could_run() {
        let code = "<svg viewBox=\"0 0 10 10\"><path strokeWidth=\"2\" d=\"M0 0L10 10\"/></svg>";
        let Some(Drawn::Svg(svg)) = draw(Library::FontAwesome, IconRef::named(code), 16) else {
            panic!("inline SVG")
        };
        assert!(svg.contains("stroke-width=\"2\"") && svg.contains("class=\"icon icon-own\""));
        for bad in [
            "<svg><script>alert(1)</script></svg>",
            "<svg onload=\"x()\"><path/></svg>",
            "<svg><a href=\"javascript:x\"><path/></a></svg>",
        ] {
            let Some(Drawn::Svg(svg)) = draw(Library::FontAwesome, IconRef::named(bad), 16) else {
                panic!("{bad} draws its drawing")
            };
            for hostile in ["script", "alert", "onload", "javascript"] {
                assert!(!svg.contains(hostile), "{hostile} in {svg}");
            }
        }
    }

    #[test]
    fn urls_and_paths_are_images() {
        assert_eq!(
            draw(Library::FontAwesome, IconRef::named("/icons/x.svg"), 16),
            Some(Drawn::Image("/icons/x.svg".into()))
        );
        assert_eq!(
            draw(
                Library::FontAwesome,
                IconRef::named("https://e.com/i.png"),
                16
            ),
            Some(Drawn::Image("https://e.com/i.png".into()))
        );
    }

    #[test]
    fn the_themes_own_icons_exist() {
        for name in [
            "search",
            "sun",
            "moon",
            "folder",
            "file",
            "info",
            "lightbulb",
            "triangle-alert",
            "circle-check",
            "octagon-alert",
            "external-link",
            "chevron-right",
            "copy",
            "check",
            "link",
        ] {
            assert!(!ui(name, 16).is_empty(), "{name}");
        }
    }
}
