//! `sitemap.xml` with extensionless canonical URLs (what the docs server resolves), and a
//! `robots.txt` that points to it.

/// The canonical URL of a page: `https://{domain}/{path}`, with `index` pages as their folder.
pub fn canonical(domain: &str, path: &str) -> String {
    let path = if path == "index" {
        ""
    } else {
        path.strip_suffix("/index").unwrap_or(path)
    };
    format!("https://{domain}/{path}")
}

pub fn sitemap(domain: &str, pages: &[(&str, &str, Option<&str>)]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (path, _, _) in pages {
        xml.push_str("  <url><loc>");
        xml.push_str(&xml_escape(&canonical(domain, path)));
        xml.push_str("</loc></url>\n");
    }
    xml.push_str("</urlset>\n");
    xml
}

pub fn robots(domain: &str) -> String {
    format!("User-agent: *\nAllow: /\n\nSitemap: https://{domain}/sitemap.xml\n")
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_urls_have_no_extension() {
        assert_eq!(
            canonical("docs.acme.test", "index"),
            "https://docs.acme.test/"
        );
        assert_eq!(
            canonical("docs.acme.test", "guides/index"),
            "https://docs.acme.test/guides"
        );
        assert_eq!(
            canonical("docs.acme.test", "a/b"),
            "https://docs.acme.test/a/b"
        );
        let xml = sitemap("d.test", &[("a&b", "A", None)]);
        assert!(xml.contains("<loc>https://d.test/a&amp;b</loc>"));
        assert!(robots("d.test").contains("Sitemap: https://d.test/sitemap.xml"));
    }
}
