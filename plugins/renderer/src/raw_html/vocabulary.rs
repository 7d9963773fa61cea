//! The element names of HTML, SVG and MathML, which MDX writes as lowercase JSX tags, and how
//! JSX spells their attributes (`className`, `strokeWidth`, `xlinkHref`) against how HTML and
//! SVG do (`class`, `stroke-width`, `xlink:href`).

/// HTML elements (the WHATWG living standard, and the obsolete ones pages still carry).
#[rustfmt::skip]
const HTML: &[&str] = &[
    "a", "abbr", "acronym", "address", "applet", "area", "article", "aside", "audio", "b",
    "base", "basefont", "bdi", "bdo", "big", "blink", "blockquote", "body", "br", "button",
    "canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "datalist", "dd",
    "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed", "fieldset",
    "figcaption", "figure", "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3",
    "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "img", "input",
    "ins", "kbd", "label", "legend", "li", "link", "main", "map", "mark", "marquee", "menu",
    "meta", "meter", "nav", "nobr", "noembed", "noframes", "noscript", "object", "ol",
    "optgroup", "option", "output", "p", "param", "picture", "plaintext", "pre", "progress",
    "q", "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "script", "search", "section", "select",
    "slot", "small", "source", "span", "strike", "strong", "style", "sub", "summary", "sup",
    "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title",
    "tr", "track", "tt", "u", "ul", "var", "video", "wbr", "xmp",
];

/// SVG 2 elements, with SVG 1.1's that browsers still draw.
#[rustfmt::skip]
const SVG: &[&str] = &[
    "a", "animate", "animateMotion", "animateTransform", "circle", "clipPath", "defs", "desc",
    "ellipse", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite",
    "feConvolveMatrix", "feDiffuseLighting", "feDisplacementMap", "feDistantLight",
    "feDropShadow", "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur",
    "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset", "fePointLight",
    "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence", "filter", "foreignObject",
    "g", "image", "line", "linearGradient", "marker", "mask", "metadata", "mpath", "path",
    "pattern", "polygon", "polyline", "radialGradient", "rect", "script", "set", "stop",
    "style", "svg", "switch", "symbol", "text", "textPath", "title", "tspan", "use", "view",
];

/// MathML Core elements, with MathML 3's presentation elements.
#[rustfmt::skip]
const MATHML: &[&str] = &[
    "annotation", "annotation-xml", "maction", "maligngroup", "malignmark", "math", "menclose",
    "merror", "mfenced", "mfrac", "mglyph", "mi", "mlabeledtr", "mlongdiv", "mmultiscripts",
    "mn", "mo", "mover", "mpadded", "mphantom", "mprescripts", "mroot", "mrow", "ms",
    "mscarries", "mscarry", "msgroup", "msline", "mspace", "msqrt", "msrow", "mstack", "mstyle",
    "msub", "msubsup", "msup", "mtable", "mtd", "mtext", "mtr", "munder", "munderover", "none",
    "semantics",
];

/// Elements of the vocabularies that a page never carries: they run code, load other
/// documents, or belong to the document's head. They are reported and left out with their
/// content (`foreignObject` would let HTML back in from inside an SVG drawing).
#[rustfmt::skip]
pub(crate) const LEFT_OUT: &[&str] = &[
    "applet", "base", "basefont", "body", "embed", "foreignObject", "frame", "frameset", "head",
    "html", "link", "meta", "noembed", "noframes", "noscript", "object", "param", "plaintext",
    "script", "style", "template", "xmp",
];

/// Elements written without content or end tag.
#[rustfmt::skip]
pub(crate) const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
];

/// SVG attributes spelled in camelCase by SVG itself (the HTML parser restores them from
/// lowercase); every other camelCase JSX name on an SVG element is a hyphenated one.
#[rustfmt::skip]
const SVG_CAMEL_CASE: &[&str] = &[
    "attributeName", "attributeType", "baseFrequency", "baseProfile", "calcMode",
    "clipPathUnits", "diffuseConstant", "edgeMode", "filterUnits", "glyphRef",
    "gradientTransform", "gradientUnits", "kernelMatrix", "kernelUnitLength", "keyPoints",
    "keySplines", "keyTimes", "lengthAdjust", "limitingConeAngle", "markerHeight",
    "markerUnits", "markerWidth", "maskContentUnits", "maskUnits", "numOctaves", "pathLength",
    "patternContentUnits", "patternTransform", "patternUnits", "pointsAtX", "pointsAtY",
    "pointsAtZ", "preserveAlpha", "preserveAspectRatio", "primitiveUnits", "refX", "refY",
    "repeatCount", "repeatDur", "requiredExtensions", "requiredFeatures", "specularConstant",
    "specularExponent", "spreadMethod", "startOffset", "stdDeviation", "stitchTiles",
    "surfaceScale", "systemLanguage", "tableValues", "targetX", "targetY", "textLength",
    "viewBox", "viewTarget", "xChannelSelector", "yChannelSelector", "zoomAndPan",
];

/// The vocabulary an element name belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vocabulary {
    Html,
    Svg,
    MathMl,
}

/// Whether `name` is an element of HTML, SVG or MathML (not a component).
pub fn is_element(name: &str) -> bool {
    HTML.contains(&name) || SVG.contains(&name) || MATHML.contains(&name)
}

/// Every element name of the three vocabularies, for tests that try them all.
pub fn all_elements() -> impl Iterator<Item = &'static str> {
    HTML.iter().chain(SVG).chain(MATHML).copied()
}

/// The vocabularies' element names a page may carry (those not `LEFT_OUT`), for the sanitiser.
pub(crate) fn allowed_elements() -> impl Iterator<Item = &'static str> {
    all_elements().filter(|name| !LEFT_OUT.contains(name))
}

/// The vocabulary `name` is read in, given the vocabulary of the element around it (`a`,
/// `title` and `style` are both HTML and SVG; inside `<svg>` they are SVG's).
pub(crate) fn of(name: &str, around: Vocabulary) -> Vocabulary {
    match name {
        "svg" => Vocabulary::Svg,
        "math" => Vocabulary::MathMl,
        _ if around == Vocabulary::Svg && SVG.contains(&name) => Vocabulary::Svg,
        _ if around == Vocabulary::MathMl && MATHML.contains(&name) => Vocabulary::MathMl,
        _ if HTML.contains(&name) => Vocabulary::Html,
        _ if SVG.contains(&name) => Vocabulary::Svg,
        _ => Vocabulary::MathMl,
    }
}

/// A JSX attribute name as the element's vocabulary spells it, or `None` for a name that is
/// not an attribute name at all.
pub(crate) fn attribute_name(jsx: &str, vocabulary: Vocabulary) -> Option<String> {
    if jsx.is_empty()
        || !jsx
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
    {
        return None;
    }
    let name = match jsx {
        "className" => "class".to_string(),
        "htmlFor" => "for".to_string(),
        "acceptCharset" => "accept-charset".to_string(),
        "httpEquiv" => "http-equiv".to_string(),
        _ if jsx.starts_with("data-") || jsx.starts_with("aria-") => jsx.to_ascii_lowercase(),
        // `xlinkHref` → `xlink:href`, `xmlLang` → `xml:lang`.
        _ if jsx.starts_with("xlink") && jsx.len() > 5 => {
            format!("xlink:{}", jsx[5..].to_ascii_lowercase())
        }
        _ if jsx.starts_with("xml") && jsx.len() > 3 && !jsx.starts_with("xmlns") => {
            format!("xml:{}", jsx[3..].to_ascii_lowercase())
        }
        _ => match vocabulary {
            Vocabulary::Svg if SVG_CAMEL_CASE.contains(&jsx) => jsx.to_string(),
            Vocabulary::Svg => hyphenated(jsx),
            Vocabulary::Html | Vocabulary::MathMl => jsx.to_ascii_lowercase(),
        },
    };
    Some(name)
}

/// SVG code written with JSX's attribute names (`<svg strokeWidth="2" className="x">`, an
/// icon given as a string) with each attribute named as SVG names it; attribute values are
/// left as they are.
pub(crate) fn svg_source(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut quote: Option<char> = None;
    let mut in_tag = false;
    let mut rest = code;
    while let Some(c) = rest.chars().next() {
        let name_len = rest
            .find(|ch: char| !(ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | ':')))
            .unwrap_or(rest.len());
        let is_attribute = in_tag
            && quote.is_none()
            && name_len > 0
            && out.ends_with(char::is_whitespace)
            && rest[name_len..].trim_start().starts_with('=');
        if is_attribute {
            let jsx = &rest[..name_len];
            out.push_str(&attribute_name(jsx, Vocabulary::Svg).unwrap_or_else(|| jsx.to_string()));
            rest = &rest[name_len..];
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') if in_tag => quote = Some(c),
            (None, '<') => in_tag = true,
            (None, '>') => in_tag = false,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `strokeWidth` → `stroke-width`; a leading capital is a vendor prefix (`WebkitMask` →
/// `-webkit-mask`).
pub(crate) fn hyphenated(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsx_attribute_names_become_the_vocabularys() {
        let svg = |n| attribute_name(n, Vocabulary::Svg).unwrap();
        let html = |n| attribute_name(n, Vocabulary::Html).unwrap();
        assert_eq!(svg("strokeWidth"), "stroke-width");
        assert_eq!(svg("stopColor"), "stop-color");
        assert_eq!(svg("fillRule"), "fill-rule");
        assert_eq!(svg("clipPath"), "clip-path");
        assert_eq!(svg("viewBox"), "viewBox");
        assert_eq!(svg("gradientUnits"), "gradientUnits");
        assert_eq!(svg("xlinkHref"), "xlink:href");
        assert_eq!(svg("className"), "class");
        assert_eq!(html("tabIndex"), "tabindex");
        assert_eq!(html("allowFullScreen"), "allowfullscreen");
        assert_eq!(html("htmlFor"), "for");
        assert_eq!(html("data-Tab"), "data-tab");
        assert_eq!(attribute_name("on click", Vocabulary::Html), None);
        assert_eq!(attribute_name("a\"b", Vocabulary::Html), None);
        assert_eq!(
            svg_source(
                "<svg viewBox=\"0 0 1 1\" className=\"a strokeWidth=x\"><path strokeLinecap=\"round\" d=\"M0 0\"/></svg>"
            ),
            "<svg viewBox=\"0 0 1 1\" class=\"a strokeWidth=x\"><path stroke-linecap=\"round\" d=\"M0 0\"/></svg>"
        );
    }

    #[test]
    fn names_are_read_in_the_vocabulary_around_them() {
        assert_eq!(of("a", Vocabulary::Html), Vocabulary::Html);
        assert_eq!(of("a", Vocabulary::Svg), Vocabulary::Svg);
        assert_eq!(of("linearGradient", Vocabulary::Html), Vocabulary::Svg);
        assert_eq!(of("mi", Vocabulary::Html), Vocabulary::MathMl);
        assert!(is_element("annotation-xml") && is_element("feGaussianBlur"));
        assert!(!is_element("Card") && !is_element("motion.div"));
    }
}
