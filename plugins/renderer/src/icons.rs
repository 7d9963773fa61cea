//! The embedded icon set: Lucide icons (from the `icondata_lu` crate) as inline SVG, named by
//! their Lucide names and by the Font Awesome names documentation sites commonly use.

use icondata_core::IconData;

use crate::escape::escaped;

/// Icon names and their drawings, sorted by name for binary search.
const ICONS: &[(&str, &IconData)] = &[
    ("activity", icondata_lu::LuActivity),
    ("arrow-right", icondata_lu::LuArrowRight),
    ("arrow-up-right-from-square", icondata_lu::LuExternalLink),
    ("bars", icondata_lu::LuMenu),
    ("bell", icondata_lu::LuBell),
    ("bolt", icondata_lu::LuZap),
    ("book", icondata_lu::LuBook),
    ("book-open", icondata_lu::LuBookOpen),
    ("bot", icondata_lu::LuBot),
    ("box", icondata_lu::LuBox),
    ("boxes", icondata_lu::LuBoxes),
    ("braces", icondata_lu::LuBraces),
    ("brackets-curly", icondata_lu::LuBraces),
    ("calendar", icondata_lu::LuCalendar),
    ("chart", icondata_lu::LuChartBar),
    ("chart-bar", icondata_lu::LuChartBar),
    ("check", icondata_lu::LuCheck),
    ("chevron-down", icondata_lu::LuChevronDown),
    ("chevron-right", icondata_lu::LuChevronRight),
    ("circle-alert", icondata_lu::LuCircleAlert),
    ("circle-check", icondata_lu::LuCircleCheck),
    ("circle-exclamation", icondata_lu::LuCircleAlert),
    ("circle-info", icondata_lu::LuInfo),
    ("circle-question", icondata_lu::LuCircleHelp),
    ("circle-x", icondata_lu::LuCircleX),
    ("circle-xmark", icondata_lu::LuCircleX),
    ("clock", icondata_lu::LuClock),
    ("cloud", icondata_lu::LuCloud),
    ("code", icondata_lu::LuCode),
    ("code-branch", icondata_lu::LuGitBranch),
    ("cog", icondata_lu::LuSettings),
    ("comment", icondata_lu::LuMessageSquare),
    ("comments", icondata_lu::LuMessageCircle),
    ("compass", icondata_lu::LuCompass),
    ("container", icondata_lu::LuContainer),
    ("copy", icondata_lu::LuCopy),
    ("cpu", icondata_lu::LuCpu),
    ("credit-card", icondata_lu::LuCreditCard),
    ("cube", icondata_lu::LuBox),
    ("database", icondata_lu::LuDatabase),
    ("desktop", icondata_lu::LuMonitor),
    ("diagram-project", icondata_lu::LuWorkflow),
    ("docker", icondata_lu::LuContainer),
    ("download", icondata_lu::LuDownload),
    ("earth", icondata_lu::LuGlobe),
    ("envelope", icondata_lu::LuMail),
    ("external-link", icondata_lu::LuExternalLink),
    ("eye", icondata_lu::LuEye),
    ("file", icondata_lu::LuFile),
    ("file-lines", icondata_lu::LuFileText),
    ("file-text", icondata_lu::LuFileText),
    ("flag", icondata_lu::LuFlag),
    ("folder", icondata_lu::LuFolder),
    ("folder-open", icondata_lu::LuFolderOpen),
    ("gauge", icondata_lu::LuGauge),
    ("gear", icondata_lu::LuSettings),
    ("git-branch", icondata_lu::LuGitBranch),
    ("github", icondata_lu::LuGithub),
    ("globe", icondata_lu::LuGlobe),
    ("grid", icondata_lu::LuLayoutGrid),
    ("hammer", icondata_lu::LuHammer),
    ("heart", icondata_lu::LuHeart),
    ("help", icondata_lu::LuCircleHelp),
    ("home", icondata_lu::LuHouse),
    ("house", icondata_lu::LuHouse),
    ("info", icondata_lu::LuInfo),
    ("key", icondata_lu::LuKey),
    ("language", icondata_lu::LuLanguages),
    ("languages", icondata_lu::LuLanguages),
    ("layer-group", icondata_lu::LuLayers),
    ("layers", icondata_lu::LuLayers),
    ("layout-grid", icondata_lu::LuLayoutGrid),
    ("lightbulb", icondata_lu::LuLightbulb),
    ("lightning", icondata_lu::LuZap),
    ("link", icondata_lu::LuLink),
    ("list", icondata_lu::LuList),
    ("lock", icondata_lu::LuLock),
    ("magnifying-glass", icondata_lu::LuSearch),
    ("mail", icondata_lu::LuMail),
    ("map", icondata_lu::LuMap),
    ("menu", icondata_lu::LuMenu),
    ("message", icondata_lu::LuMessageSquare),
    ("message-circle", icondata_lu::LuMessageCircle),
    ("message-square", icondata_lu::LuMessageSquare),
    ("microchip", icondata_lu::LuCpu),
    ("mobile", icondata_lu::LuSmartphone),
    ("monitor", icondata_lu::LuMonitor),
    ("moon", icondata_lu::LuMoon),
    ("newspaper", icondata_lu::LuNewspaper),
    ("octagon-alert", icondata_lu::LuOctagonAlert),
    ("octagon-exclamation", icondata_lu::LuOctagonAlert),
    ("package", icondata_lu::LuPackage),
    ("paper-plane", icondata_lu::LuSend),
    ("pen", icondata_lu::LuPencil),
    ("pencil", icondata_lu::LuPencil),
    ("play", icondata_lu::LuPlay),
    ("plug", icondata_lu::LuPlug),
    ("plus", icondata_lu::LuPlus),
    ("puzzle", icondata_lu::LuPuzzle),
    ("puzzle-piece", icondata_lu::LuPuzzle),
    ("robot", icondata_lu::LuBot),
    ("rocket", icondata_lu::LuRocket),
    ("search", icondata_lu::LuSearch),
    ("send", icondata_lu::LuSend),
    ("server", icondata_lu::LuServer),
    ("settings", icondata_lu::LuSettings),
    ("shield", icondata_lu::LuShield),
    ("shield-halved", icondata_lu::LuShield),
    ("smartphone", icondata_lu::LuSmartphone),
    ("sparkles", icondata_lu::LuSparkles),
    ("star", icondata_lu::LuStar),
    ("sun", icondata_lu::LuSun),
    ("table-cells", icondata_lu::LuLayoutGrid),
    ("tag", icondata_lu::LuTag),
    ("terminal", icondata_lu::LuTerminal),
    ("trash", icondata_lu::LuTrash2),
    ("trash-can", icondata_lu::LuTrash2),
    ("triangle-alert", icondata_lu::LuTriangleAlert),
    ("triangle-exclamation", icondata_lu::LuTriangleAlert),
    ("upload", icondata_lu::LuUpload),
    ("user", icondata_lu::LuUser),
    ("users", icondata_lu::LuUsers),
    ("wand-magic-sparkles", icondata_lu::LuSparkles),
    ("warning", icondata_lu::LuTriangleAlert),
    ("wave-pulse", icondata_lu::LuActivity),
    ("webhook", icondata_lu::LuWebhook),
    ("workflow", icondata_lu::LuWorkflow),
    ("wrench", icondata_lu::LuWrench),
    ("x", icondata_lu::LuX),
    ("xmark", icondata_lu::LuX),
    ("zap", icondata_lu::LuZap),
];

fn lookup(name: &str) -> Option<&'static IconData> {
    let name = name.trim().to_ascii_lowercase();
    let name = name.strip_prefix("fa-").unwrap_or(&name);
    ICONS
        .binary_search_by(|(n, _)| n.cmp(&name))
        .ok()
        .map(|i| ICONS[i].1)
}

/// The icon as an inline `<svg>` that takes the text colour, or `None` for an unknown name.
/// `size` is in pixels.
pub fn svg(name: &str, size: u32) -> Option<String> {
    let icon = lookup(name)?;
    Some(format!(
        "<svg class=\"icon\" data-icon=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"{}\" stroke-linejoin=\"{}\" aria-hidden=\"true\">{}</svg>",
        escaped(name),
        icon.view_box.unwrap_or("0 0 24 24"),
        icon.fill.unwrap_or("none"),
        icon.stroke.unwrap_or("currentColor"),
        icon.stroke_width.unwrap_or("2"),
        icon.stroke_linecap.unwrap_or("round"),
        icon.stroke_linejoin.unwrap_or("round"),
        icon.data
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_names_resolve() {
        assert!(
            ICONS.windows(2).all(|w| w[0].0 < w[1].0),
            "ICONS must be sorted and unique"
        );
        let rocket = svg("rocket", 16).unwrap();
        assert!(rocket.starts_with("<svg") && rocket.contains("<path"));
        assert!(svg("fa-house", 16).is_some());
        assert!(svg("no-such-icon", 16).is_none());
    }
}
