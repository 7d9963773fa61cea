//! The feature file every bundle carries: a script setting `window.QUIRE_FEATURES`, the
//! switches the bundle's pages read (offline search, the playground, the assistant and
//! analytics endpoints). The renderer writes the default; an export for a deployment type, and
//! a docs server at start-up, write it again for theirs. A script rather than JSON, so it loads
//! from `file://` too.

/// The path of the feature file in a bundle.
pub const FILE: &str = "quire-features.js";

/// The switches a bundle starts with: the offline search box and the playground on, the
/// assistant and analytics off, so the bundle makes no request to any other host, and no MCP
/// endpoint (only a server that answers MCP for the site can name one). The assistant's
/// `offline` switch turns on the assistant the bundle carries, where an export ships one.
pub const DEFAULT: &str = r#"{"search":true,"playground":true,"assistant":{"enabled":false,"endpoint":"","key":"","offline":false},"analytics":{"enabled":false,"endpoint":"","key":""},"mcp":{"enabled":false,"endpoint":"","name":""}}"#;

/// `DEFAULT` with the bundle's own assistant on: what an export that ships it writes.
pub fn default_with_offline_assistant() -> String {
    DEFAULT.replace(r#""offline":false"#, r#""offline":true"#)
}

/// The feature file for the switches in `json` (a JSON object).
pub fn script(json: &str) -> String {
    format!(
        "// Feature switches of this copy of the site; a docs server rewrites this file for its deployment type.\nwindow.QUIRE_FEATURES = {};\n",
        crate::escape::script_json(json)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_switches_cannot_end_the_script() {
        let script = super::script(r#"{"key":"</script><script>alert(1)"}"#);
        assert!(!script.contains("</script>"));
        assert!(script.starts_with("// Feature switches"));
        assert!(super::script(super::DEFAULT).contains(r#""search":true"#));
        assert!(super::default_with_offline_assistant().contains(r#""offline":true"#));
    }
}
