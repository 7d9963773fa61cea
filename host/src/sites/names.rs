//! The names a site is known by: its domain and its version labels, checked where they enter
//! (the API, the command line).

/// A domain is a hostname-like identifier: lower-case letters, digits, `-` and `.`, no
/// protocol, no path.
pub fn validate_domain(domain: &str) -> Result<(), String> {
    let hint =
        "domain must be a hostname-like identifier such as docs.example.com (no protocol, no path)";
    if domain.is_empty() {
        return Err("domain is required".into());
    }
    if domain.contains("://") || domain.contains('/') {
        return Err(format!("{hint}; got {domain:?}"));
    }
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if domain.len() > 253 || !domain.split('.').all(label_ok) {
        return Err(format!("{hint}; got {domain:?}"));
    }
    Ok(())
}

/// A version label: 1 to 64 of letters, digits, `.`, `_` and `-`, starting with a letter or
/// digit.
pub fn validate_label(label: &str) -> Result<(), String> {
    let ok = !label.is_empty()
        && label.len() <= 64
        && label.starts_with(|c: char| c.is_ascii_alphanumeric())
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "version must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit; got {label:?}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains() {
        for ok in ["docs.example.com", "acme", "a-b.c1"] {
            assert!(validate_domain(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "https://docs.example.com",
            "docs.example.com/x",
            "Docs.com",
            "-a.com",
            "a..b",
        ] {
            assert!(validate_domain(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn labels() {
        assert!(validate_label("v1.2_beta-3").is_ok());
        assert!(validate_label("").is_err());
        assert!(validate_label("../x").is_err());
        assert!(validate_label(&"a".repeat(65)).is_err());
    }
}
