//! The allow-list raw HTML, SVG and MathML pass through (ammonia, on html5ever's parser): the
//! vocabularies' elements less those that run code or load documents, attributes that only
//! describe or draw, and URLs of schemes that navigate or show an image. What the page's own
//! components render inside raw elements is trusted markup: it is held out of the sanitiser as
//! a numbered slot and put back after.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

use super::vocabulary;

/// Marks a slot in text: private-use characters that no escaping changes.
const SLOT_OPEN: char = '\u{E000}';
const SLOT_CLOSE: char = '\u{E001}';

/// Attributes of the three vocabularies that describe, lay out or draw. Event handlers
/// (`on*`), `srcdoc`, `formaction` and the like are not among them.
#[rustfmt::skip]
const ATTRIBUTES: &[&str] = &[
    // HTML
    "abbr", "accept", "accesskey", "action", "align", "allow", "allowfullscreen", "alt",
    "autocomplete", "autoplay", "bgcolor", "border", "cellpadding", "cellspacing", "checked",
    "cite", "class", "color", "cols", "colspan", "controls", "coords", "datetime", "decoding",
    "default", "dir", "disabled", "download", "draggable", "face", "for", "frameborder",
    "headers", "height", "hidden", "high", "href", "hreflang", "id", "inputmode", "ismap",
    "kind", "label", "lang", "list", "loading", "loop", "low", "max", "maxlength", "media",
    "method", "min", "minlength", "multiple", "muted", "name", "nowrap", "open", "optimum",
    "pattern", "placeholder", "playsinline", "popover", "popovertarget", "popovertargetaction",
    "poster", "preload", "readonly", "referrerpolicy", "rel", "required", "reversed", "role",
    "rows", "rowspan", "sandbox", "scope", "selected", "shape", "size", "sizes", "span",
    "spellcheck", "src", "srclang", "srcset", "start", "step", "style", "summary", "tabindex",
    "target", "title", "translate", "type", "usemap", "valign", "value", "width", "wrap",
    // SVG
    "accumulate", "additive", "alignment-baseline", "amplitude", "attributeName",
    "attributeType", "azimuth", "baseFrequency", "baseline-shift", "begin", "bias", "by",
    "calcMode", "clip-path", "clip-rule", "clipPathUnits", "color-interpolation",
    "color-interpolation-filters", "cx", "cy", "d", "diffuseConstant", "direction", "display",
    "divisor", "dominant-baseline", "dur", "dx", "dy", "edgeMode", "elevation", "end",
    "exponent", "fill", "fill-opacity", "fill-rule", "filter", "filterUnits", "flood-color",
    "flood-opacity", "font-family", "font-size", "font-size-adjust", "font-stretch",
    "font-style", "font-variant", "font-weight", "fr", "from", "fx", "fy", "gradientTransform",
    "gradientUnits", "image-rendering", "in", "in2", "intercept", "k", "k1", "k2", "k3", "k4",
    "kernelMatrix", "kernelUnitLength", "keyPoints", "keySplines", "keyTimes", "lengthAdjust",
    "letter-spacing", "lighting-color", "limitingConeAngle", "marker-end", "marker-mid",
    "marker-start", "markerHeight", "markerUnits", "markerWidth", "mask", "mask-type",
    "maskContentUnits", "maskUnits", "mode", "numOctaves", "offset", "opacity", "operator",
    "order", "orient", "overflow", "paint-order", "path", "pathLength", "patternContentUnits",
    "patternTransform", "patternUnits", "pointer-events", "points", "pointsAtX", "pointsAtY",
    "pointsAtZ", "preserveAlpha", "preserveAspectRatio", "primitiveUnits", "r", "radius",
    "refX", "refY", "repeatCount", "repeatDur", "restart", "result", "rotate", "rx", "ry",
    "scale", "seed", "shape-rendering", "side", "slope", "spacing", "specularConstant",
    "specularExponent", "spreadMethod", "startOffset", "stdDeviation", "stitchTiles",
    "stop-color", "stop-opacity", "stroke", "stroke-dasharray", "stroke-dashoffset",
    "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-opacity", "stroke-width",
    "surfaceScale", "tableValues", "targetX", "targetY", "text-anchor", "text-decoration",
    "text-rendering", "textLength", "to", "transform", "transform-origin", "values",
    "vector-effect", "viewBox", "visibility", "word-spacing", "writing-mode", "x", "x1", "x2",
    "xChannelSelector", "y", "y1", "y2", "yChannelSelector", "z",
    // MathML
    "accent", "accentunder", "bevelled", "close", "columnalign", "columnlines", "columnspacing",
    "columnspan", "denomalign", "depth", "displaystyle", "encoding", "fence", "form", "frame",
    "framespacing", "largeop", "linethickness", "lspace", "mathbackground", "mathcolor",
    "mathsize", "mathvariant", "maxsize", "minsize", "movablelimits", "notation", "numalign",
    "rowalign", "rowlines", "rowspacing", "rspace", "scriptlevel", "separator", "separators",
    "stretchy", "symmetric", "voffset",
];

/// Schemes a link or source may use; `data:` only for images (see `attribute_value`).
const URL_SCHEMES: &[&str] = &["http", "https", "mailto", "tel", "data"];

fn builder() -> &'static ammonia::Builder<'static> {
    static BUILDER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    BUILDER.get_or_init(|| {
        let mut builder = ammonia::Builder::empty();
        builder
            .tags(vocabulary::allowed_elements().collect())
            .clean_content_tags(vocabulary::LEFT_OUT.iter().copied().collect())
            .tag_attributes(Default::default())
            .generic_attributes(ATTRIBUTES.iter().copied().collect())
            .generic_attribute_prefixes(HashSet::from(["data-", "aria-"]))
            .url_schemes(URL_SCHEMES.iter().copied().collect())
            .url_relative(ammonia::UrlRelative::PassThrough)
            .link_rel(None)
            .strip_comments(true)
            .attribute_filter(attribute_value);
        builder
    })
}

/// The last word on a value the allow-list let through: `data:` URLs only for images (never
/// `data:text/html`), and inline styles only when no declaration can load or run anything.
fn attribute_value<'u>(_element: &str, attribute: &str, value: &'u str) -> Option<Cow<'u, str>> {
    let lower = value.trim_start().to_ascii_lowercase();
    match attribute {
        "style" => {
            let escapes = value.contains(['\\', '<', '>', '{', '}'])
                || lower.contains("url(")
                || lower.contains("expression(")
                || lower.contains("@import");
            (!escapes).then_some(Cow::Borrowed(value))
        }
        "href" | "src" | "xlink:href" | "action" | "poster" | "cite"
            if lower.starts_with("data:") =>
        {
            let image = lower.starts_with("data:image/") && !lower.starts_with("data:image/svg");
            image.then_some(Cow::Borrowed(value))
        }
        _ => Some(Cow::Borrowed(value)),
    }
}

/// `html` with every element, attribute and URL outside the allow-list removed.
pub fn clean(html: &str) -> String {
    builder().clean(html).to_string()
}

/// The text that stands for slot `index` while the sanitiser reads the markup around it.
pub(crate) fn slot_marker(index: usize) -> String {
    format!("{SLOT_OPEN}{index}{SLOT_CLOSE}")
}

/// Appends `cleaned` to `out` with each slot marker replaced by its slot's markup. A marker
/// the sanitiser removed (inside a left-out element) takes its slot with it.
pub(crate) fn fill_slots(cleaned: &str, slots: &[String], out: &mut String) {
    let mut rest = cleaned;
    while let Some(open) = rest.find(SLOT_OPEN) {
        out.push_str(&rest[..open]);
        let after = &rest[open + SLOT_OPEN.len_utf8()..];
        let slot = after.find(SLOT_CLOSE).and_then(|close| {
            let index: usize = after[..close].parse().ok()?;
            Some((slots.get(index)?, close))
        });
        match slot {
            Some((markup, close)) => {
                out.push_str(markup);
                rest = &after[close + SLOT_CLOSE.len_utf8()..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawings_pass_and_code_does_not() {
        let svg = clean(
            "<svg viewBox=\"0 0 24 24\" onload=\"alert(1)\"><defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"red\"/></linearGradient></defs><use href=\"#g\"/><path d=\"M0 0\" fill=\"url(#g)\" stroke-width=\"2\"/><script>alert(1)</script><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>",
        );
        assert!(svg.contains("<svg viewBox=\"0 0 24 24\">"), "{svg}");
        assert!(svg.contains("<linearGradient id=\"g\">"), "{svg}");
        assert!(svg.contains("stop-color=\"red\""), "{svg}");
        assert!(svg.contains("<use href=\"#g\">"), "{svg}");
        assert!(svg.contains("stroke-width=\"2\""), "{svg}");
        for hostile in [
            "onload",
            "script",
            "alert",
            "foreignObject",
            "onerror",
            "<img",
        ] {
            assert!(!svg.contains(hostile), "{hostile} in {svg}");
        }
    }

    #[test]
    fn urls_that_run_or_show_documents_go() {
        let html = clean(
            "<a href=\"javascript:alert(1)\">a</a><a href=\"data:text/html,<b>x</b>\">b</a><img src=\"data:image/png;base64,AA\"><a href=\"guides/a.html\">c</a><p style=\"background:url(x)\">d</p><p style=\"color:red\">e</p>",
        );
        assert!(
            !html.contains("javascript") && !html.contains("text/html"),
            "{html}"
        );
        assert!(html.contains("src=\"data:image/png;base64,AA\""), "{html}");
        assert!(html.contains("href=\"guides/a.html\""), "{html}");
        assert!(
            html.contains("<p>d</p>") && html.contains("style=\"color:red\""),
            "{html}"
        );
    }

    #[test]
    fn mathml_passes_and_cannot_switch_to_html() {
        let math = clean(
            "<math display=\"block\"><mfrac><mi>a</mi><mn>2</mn></mfrac><mi><img src=x onerror=alert(1)></mi></math>",
        );
        assert!(
            math.contains("<math display=\"block\"><mfrac><mi>a</mi><mn>2</mn></mfrac>"),
            "{math}"
        );
        assert!(!math.contains("onerror"), "{math}");
    }

    #[test]
    fn slots_come_back_where_their_markers_were() {
        let slots = vec![
            "<div class=\"card\">A</div>".to_string(),
            "<b>B</b>".to_string(),
        ];
        let cleaned = clean(&format!(
            "<div>{}<script>{}</script></div>",
            slot_marker(0),
            slot_marker(1)
        ));
        let mut out = String::new();
        fill_slots(&cleaned, &slots, &mut out);
        assert_eq!(out, "<div><div class=\"card\">A</div></div>");
    }
}
