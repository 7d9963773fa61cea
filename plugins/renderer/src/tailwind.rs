//! The Tailwind utility classes documentation pages use in their HTML and JSX (`dark:hidden`,
//! `hidden dark:block`, spacing, flex and grid, rounded corners, widths, text sizes and colours),
//! as one stylesheet shipped once per bundle. Classes outside this set are ignored, as a browser
//! ignores a class no rule names; no page is warned about them.

use std::fmt::Write as _;

/// Tailwind's spacing scale: the class suffix and its length.
const SPACING: &[(&str, &str)] = &[
    ("0", "0px"),
    ("px", "1px"),
    ("0.5", "0.125rem"),
    ("1", "0.25rem"),
    ("1.5", "0.375rem"),
    ("2", "0.5rem"),
    ("2.5", "0.625rem"),
    ("3", "0.75rem"),
    ("4", "1rem"),
    ("5", "1.25rem"),
    ("6", "1.5rem"),
    ("8", "2rem"),
    ("10", "2.5rem"),
    ("12", "3rem"),
    ("16", "4rem"),
    ("20", "5rem"),
    ("24", "6rem"),
    ("32", "8rem"),
    ("48", "12rem"),
    ("64", "16rem"),
];
/// Spacing utilities: the class prefix and the properties it sets.
const SPACED: &[(&str, &[&str])] = &[
    ("p", &["padding"]),
    ("px", &["padding-left", "padding-right"]),
    ("py", &["padding-top", "padding-bottom"]),
    ("pt", &["padding-top"]),
    ("pb", &["padding-bottom"]),
    ("pl", &["padding-left"]),
    ("pr", &["padding-right"]),
    ("m", &["margin"]),
    ("mx", &["margin-left", "margin-right"]),
    ("my", &["margin-top", "margin-bottom"]),
    ("mt", &["margin-top"]),
    ("mb", &["margin-bottom"]),
    ("ml", &["margin-left"]),
    ("mr", &["margin-right"]),
    ("gap", &["gap"]),
    ("gap-x", &["column-gap"]),
    ("gap-y", &["row-gap"]),
    ("w", &["width"]),
    ("h", &["height"]),
    ("max-h", &["max-height"]),
    ("min-h", &["min-height"]),
    ("size", &["width", "height"]),
];
/// Tailwind's palette, shades 50 to 900 of the hues docs pages use.
const HUES: &[(&str, [&str; 10])] = &[
    (
        "gray",
        [
            "#f9fafb", "#f3f4f6", "#e5e7eb", "#d1d5db", "#9ca3af", "#6b7280", "#4b5563", "#374151",
            "#1f2937", "#111827",
        ],
    ),
    (
        "zinc",
        [
            "#fafafa", "#f4f4f5", "#e4e4e7", "#d4d4d8", "#a1a1aa", "#71717a", "#52525b", "#3f3f46",
            "#27272a", "#18181b",
        ],
    ),
    (
        "red",
        [
            "#fef2f2", "#fee2e2", "#fecaca", "#fca5a5", "#f87171", "#ef4444", "#dc2626", "#b91c1c",
            "#991b1b", "#7f1d1d",
        ],
    ),
    (
        "amber",
        [
            "#fffbeb", "#fef3c7", "#fde68a", "#fcd34d", "#fbbf24", "#f59e0b", "#d97706", "#b45309",
            "#92400e", "#78350f",
        ],
    ),
    (
        "yellow",
        [
            "#fefce8", "#fef9c3", "#fef08a", "#fde047", "#facc15", "#eab308", "#ca8a04", "#a16207",
            "#854d0e", "#713f12",
        ],
    ),
    (
        "green",
        [
            "#f0fdf4", "#dcfce7", "#bbf7d0", "#86efac", "#4ade80", "#22c55e", "#16a34a", "#15803d",
            "#166534", "#14532d",
        ],
    ),
    (
        "blue",
        [
            "#eff6ff", "#dbeafe", "#bfdbfe", "#93c5fd", "#60a5fa", "#3b82f6", "#2563eb", "#1d4ed8",
            "#1e40af", "#1e3a8a",
        ],
    ),
    (
        "purple",
        [
            "#faf5ff", "#f3e8ff", "#e9d5ff", "#d8b4fe", "#c084fc", "#a855f7", "#9333ea", "#7e22ce",
            "#6b21a8", "#581c87",
        ],
    ),
];
const SHADES: [&str; 10] = [
    "50", "100", "200", "300", "400", "500", "600", "700", "800", "900",
];

/// Utilities that are one fixed rule.
const FIXED: &[(&str, &str)] = &[
    ("hidden", "display:none"),
    ("block", "display:block"),
    ("inline", "display:inline"),
    ("inline-block", "display:inline-block"),
    ("flex", "display:flex"),
    ("inline-flex", "display:inline-flex"),
    ("grid", "display:grid"),
    ("flex-row", "flex-direction:row"),
    ("flex-col", "flex-direction:column"),
    ("flex-wrap", "flex-wrap:wrap"),
    ("flex-1", "flex:1 1 0%"),
    ("shrink-0", "flex-shrink:0"),
    ("grow", "flex-grow:1"),
    ("items-center", "align-items:center"),
    ("items-start", "align-items:flex-start"),
    ("items-end", "align-items:flex-end"),
    ("justify-center", "justify-content:center"),
    ("justify-between", "justify-content:space-between"),
    ("justify-start", "justify-content:flex-start"),
    ("justify-end", "justify-content:flex-end"),
    (
        "grid-cols-1",
        "grid-template-columns:repeat(1,minmax(0,1fr))",
    ),
    (
        "grid-cols-2",
        "grid-template-columns:repeat(2,minmax(0,1fr))",
    ),
    (
        "grid-cols-3",
        "grid-template-columns:repeat(3,minmax(0,1fr))",
    ),
    (
        "grid-cols-4",
        "grid-template-columns:repeat(4,minmax(0,1fr))",
    ),
    ("w-full", "width:100%"),
    ("w-auto", "width:auto"),
    ("w-fit", "width:fit-content"),
    ("w-1/2", "width:50%"),
    ("w-1/3", "width:33.333333%"),
    ("w-2/3", "width:66.666667%"),
    ("h-full", "height:100%"),
    ("h-auto", "height:auto"),
    ("min-h-screen", "min-height:100vh"),
    ("max-w-full", "max-width:100%"),
    ("max-w-sm", "max-width:24rem"),
    ("max-w-md", "max-width:28rem"),
    ("max-w-lg", "max-width:32rem"),
    ("max-w-xl", "max-width:36rem"),
    ("max-w-2xl", "max-width:42rem"),
    ("mx-auto", "margin-left:auto;margin-right:auto"),
    ("aspect-video", "aspect-ratio:16/9"),
    ("aspect-square", "aspect-ratio:1/1"),
    ("rounded-none", "border-radius:0"),
    ("rounded-sm", "border-radius:0.125rem"),
    ("rounded", "border-radius:0.25rem"),
    ("rounded-md", "border-radius:0.375rem"),
    ("rounded-lg", "border-radius:0.5rem"),
    ("rounded-xl", "border-radius:0.75rem"),
    ("rounded-2xl", "border-radius:1rem"),
    ("rounded-full", "border-radius:9999px"),
    (
        "border",
        "border-width:1px;border-style:solid;border-color:var(--quire-border)",
    ),
    (
        "border-2",
        "border-width:2px;border-style:solid;border-color:var(--quire-border)",
    ),
    ("border-t", "border-top-width:1px;border-top-style:solid"),
    (
        "border-b",
        "border-bottom-width:1px;border-bottom-style:solid",
    ),
    ("border-transparent", "border-color:transparent"),
    ("border-t-transparent", "border-top-color:transparent"),
    ("text-left", "text-align:left"),
    ("text-center", "text-align:center"),
    ("text-right", "text-align:right"),
    ("text-xs", "font-size:0.75rem;line-height:1rem"),
    ("text-sm", "font-size:0.875rem;line-height:1.25rem"),
    ("text-base", "font-size:1rem;line-height:1.5rem"),
    ("text-lg", "font-size:1.125rem;line-height:1.75rem"),
    ("text-xl", "font-size:1.25rem;line-height:1.75rem"),
    ("text-2xl", "font-size:1.5rem;line-height:2rem"),
    ("text-3xl", "font-size:1.875rem;line-height:2.25rem"),
    ("font-normal", "font-weight:400"),
    ("font-medium", "font-weight:500"),
    ("font-semibold", "font-weight:600"),
    ("font-bold", "font-weight:700"),
    (
        "font-mono",
        "font-family:var(--quire-mono, ui-monospace, monospace)",
    ),
    ("italic", "font-style:italic"),
    ("underline", "text-decoration-line:underline"),
    ("no-underline", "text-decoration-line:none"),
    ("uppercase", "text-transform:uppercase"),
    (
        "truncate",
        "overflow:hidden;text-overflow:ellipsis;white-space:nowrap",
    ),
    ("whitespace-nowrap", "white-space:nowrap"),
    ("overflow-hidden", "overflow:hidden"),
    ("overflow-auto", "overflow:auto"),
    ("overflow-x-auto", "overflow-x:auto"),
    ("overflow-y-auto", "overflow-y:auto"),
    ("object-cover", "object-fit:cover"),
    ("object-contain", "object-fit:contain"),
    ("relative", "position:relative"),
    ("absolute", "position:absolute"),
    (
        "shadow",
        "box-shadow:0 1px 3px 0 rgb(0 0 0/0.1),0 1px 2px -1px rgb(0 0 0/0.1)",
    ),
    (
        "shadow-md",
        "box-shadow:0 4px 6px -1px rgb(0 0 0/0.1),0 2px 4px -2px rgb(0 0 0/0.1)",
    ),
    (
        "shadow-lg",
        "box-shadow:0 10px 15px -3px rgb(0 0 0/0.1),0 4px 6px -4px rgb(0 0 0/0.1)",
    ),
    ("opacity-50", "opacity:0.5"),
    ("opacity-75", "opacity:0.75"),
    ("bg-white", "background-color:#fff"),
    ("bg-black", "background-color:#000"),
    ("text-white", "color:#fff"),
    ("text-black", "color:#000"),
    ("bg-transparent", "background-color:transparent"),
    ("transition-all", "transition:all 150ms"),
    ("duration-300", "transition-duration:300ms"),
    ("animate-spin", "animation:quire-spin 1s linear infinite"),
    ("not-prose", ""),
    ("prose", ""),
];
/// Variants written before a class, and the selector or media query they wrap it in.
const VARIANTS: &[(&str, &str)] = &[("sm", "640px"), ("md", "768px"), ("lg", "1024px")];
/// Classes that docs pages use with `dark:` (light/dark image pairs, dark text colours).
const DARK: &[&str] = &[
    "hidden",
    "block",
    "inline",
    "inline-block",
    "flex",
    "bg-black",
    "bg-white",
    "text-white",
    "text-black",
];

/// The stylesheet: every utility above, its `dark:` form where pages use one, and `sm:`, `md:`,
/// `lg:` forms of the layout ones.
pub fn stylesheet() -> String {
    let mut rules: Vec<(String, String)> = Vec::new();
    for (class, css) in FIXED {
        if !css.is_empty() {
            rules.push((class.to_string(), css.to_string()));
        }
    }
    for (prefix, properties) in SPACED {
        for (step, length) in SPACING {
            let css: Vec<String> = properties.iter().map(|p| format!("{p}:{length}")).collect();
            rules.push((format!("{prefix}-{step}"), css.join(";")));
        }
    }
    for (step, length) in SPACING {
        rules.push((
            format!("space-y-{step}"),
            format!("__children:margin-top:{length}"),
        ));
        rules.push((
            format!("space-x-{step}"),
            format!("__children:margin-left:{length}"),
        ));
    }
    for (hue, shades) in HUES {
        for (shade, color) in SHADES.iter().zip(shades) {
            for (prefix, property) in [
                ("text", "color"),
                ("bg", "background-color"),
                ("border", "border-color"),
            ] {
                rules.push((
                    format!("{prefix}-{hue}-{shade}"),
                    format!("{property}:{color}"),
                ));
            }
        }
    }
    let mut css = String::with_capacity(64 * 1024);
    css.push_str("/* Tailwind utility classes used by pages */\n@keyframes quire-spin{to{transform:rotate(360deg)}}\n");
    for (class, body) in &rules {
        push_rule(&mut css, "", class, body);
    }
    for class in DARK {
        if let Some((_, body)) = rules.iter().find(|(c, _)| c == class) {
            push_rule(&mut css, "html.dark ", &format!("dark:{class}"), body);
        }
    }
    for (variant, width) in VARIANTS {
        let _ = write!(css, "@media (min-width:{width}){{");
        for (class, body) in rules.iter().filter(|(c, _)| is_layout(c)) {
            push_rule(&mut css, "", &format!("{variant}:{class}"), body);
        }
        css.push_str("}\n");
    }
    css
}

fn is_layout(class: &str) -> bool {
    [
        "hidden",
        "block",
        "flex",
        "grid",
        "grid-cols-",
        "flex-",
        "w-",
        "text-center",
        "text-left",
    ]
    .iter()
    .any(|p| class == *p || class.starts_with(p))
}

/// One rule. Class names are escaped for CSS (`w-1/2` → `.w-1\/2`, `dark:block` →
/// `.dark\:block`); `__children:` rules apply to the element's children after the first.
fn push_rule(css: &mut String, scope: &str, class: &str, body: &str) {
    let mut selector = String::from(scope);
    selector.push('.');
    for c in class.chars() {
        if matches!(c, ':' | '/' | '.') {
            selector.push('\\');
        }
        selector.push(c);
    }
    match body.strip_prefix("__children:") {
        Some(body) => {
            let _ = writeln!(css, "{selector}>:not(:first-child){{{body}}}");
        }
        None => {
            let _ = writeln!(css, "{selector}{{{body}}}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_and_dark_pairs_and_common_utilities_have_rules() {
        let css = stylesheet();
        assert!(css.contains(".hidden{display:none}"));
        assert!(css.contains("html.dark .dark\\:hidden{display:none}"));
        assert!(css.contains("html.dark .dark\\:block{display:block}"));
        assert!(css.contains(".w-1\\/2{width:50%}"));
        assert!(css.contains(".space-y-4>:not(:first-child){margin-top:1rem}"));
        assert!(css.contains(".text-gray-500{color:#6b7280}"));
        assert!(css.contains("@media (min-width:768px){"));
        assert!(
            css.len() < 80_000,
            "shipped once, but kept small: {}",
            css.len()
        );
    }
}
