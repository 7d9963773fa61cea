//! The "Try it" form of an API page: plain inputs that the theme's script sends with `fetch`
//! when the playground is switched on in the bundle's feature file; hidden otherwise, so a
//! bundle without the feature shows nothing that does not work.

use serde_json::Value;

use crate::api::Schemas;
use crate::api::request_examples::value_text;
use crate::markup::Markup;
use quire_sdk::escape;

/// What the form sends.
pub struct Request<'r> {
    pub method: &'r str,
    pub path: &'r str,
    pub server: &'r str,
    /// The operation's parameters, references followed.
    pub parameters: &'r [&'r Value],
    /// The request body's example, when the operation takes a JSON body.
    pub body: Option<&'r Value>,
}

/// Writes the form for `request` into the page.
pub fn form(m: &mut Markup<'_>, request: &Request<'_>, schemas: Schemas<'_>) {
    let mut html = format!(
        "<form class=\"playground\" hidden data-method=\"{}\" data-path=\"{}\">\
         <div class=\"playground-title\">Try it</div>\
         <label>Server <input name=\"server\" value=\"{}\" spellcheck=\"false\"></label>",
        escape::html(request.method),
        escape::html(request.path),
        escape::html(request.server)
    );
    for p in request.parameters {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        let location = p.get("in").and_then(Value::as_str).unwrap_or("query");
        let example = p
            .get("example")
            .cloned()
            .or_else(|| {
                p.get("schema")
                    .and_then(|s| schemas.resolve(s).get("example").cloned())
            })
            .map(|v| value_text(&v))
            .unwrap_or_default();
        // A credential's input is empty, its placeholder saying what to type.
        let placeholder = p
            .get("x-placeholder")
            .and_then(Value::as_str)
            .map(|text| format!(" placeholder=\"{}\"", escape::html(text)))
            .unwrap_or_default();
        html.push_str(&format!(
            "<label><span>{} <span class=\"field-in\">{}</span></span><input data-in=\"{}\" data-name=\"{}\" value=\"{}\"{placeholder}></label>",
            escape::html(name),
            escape::html(location),
            escape::html(location),
            escape::html(name),
            escape::html(&example)
        ));
    }
    if let Some(body) = request.body {
        html.push_str(&format!(
            "<label>Body <textarea name=\"body\" rows=\"6\" spellcheck=\"false\">{}</textarea></label>",
            escape::html(&serde_json::to_string_pretty(body).unwrap_or_default())
        ));
    }
    html.push_str(
        "<button type=\"submit\">Send</button><pre class=\"playground-response\" aria-live=\"polite\"></pre></form>\n",
    );
    m.html.push_str(&html);
}
