//! What every API page with an HTTP endpoint draws alike, whether an OpenAPI operation or a
//! page written by hand: the method and path bar, and the request example's tabs.

use crate::api::request_examples::{ExampleRequest, Language};
use crate::code;
use crate::markup::Markup;

/// The endpoint bar: the method, then the path (after its server with `api.url: "full"`).
pub fn bar(m: &mut Markup<'_>, method: &str, server: &str, path: &str) {
    m.html.push_str("<div class=\"api-endpoint\">");
    m.html.push_str(&format!(
        "<span class=\"method method-{}\">{}</span>",
        method.to_ascii_lowercase(),
        method
    ));
    m.html.push_str("<code class=\"api-path\">");
    if m.site.settings.api.full_url {
        m.text(server.trim_end_matches('/'));
    }
    // A block of its own in the search text, not run into the description after it.
    m.label(path);
    m.html.push_str("</code></div>\n");
}

/// A code sample an author wrote for an endpoint: (fence language, tab title, code).
pub type Sample = (String, String, String);

/// The request example: the author's samples first (their SDK, say), then `request` written in
/// each of the site's `languages`, as tabs when there are several. Nothing when there are none
/// (`api.examples.autogenerate: false` and no samples).
pub fn request_tabs(
    m: &mut Markup<'_>,
    samples: Vec<Sample>,
    request: &ExampleRequest,
    languages: &[Language],
) {
    let mut blocks = samples;
    blocks.extend(languages.iter().map(|language| {
        (
            language.fence().to_string(),
            language.label().to_string(),
            language.request(request),
        )
    }));
    if blocks.is_empty() {
        return;
    }
    m.html.push_str("<div class=\"request-example\">");
    match blocks.as_slice() {
        [(fence, _, code)] => m
            .html
            .push_str(&code::block(Some(fence), Some("Request"), code)),
        _ => {
            m.html.push_str("<div class=\"code-group\">");
            for (fence, label, code) in &blocks {
                m.html
                    .push_str(&code::block(Some(fence), Some(label), code));
            }
            m.html.push_str("</div>");
        }
    }
    m.html.push_str("</div>");
}
