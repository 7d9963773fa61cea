//! Schema fields as the reference shows them: name, type, where it goes, required, default and
//! description, with nested objects in an expandable. Shared by OpenAPI parameters and bodies
//! and AsyncAPI message payloads.

use serde_json::Value;

use crate::api::schema::{MAX_DEPTH, Schemas, schema_type};
use crate::markup::Markup;
use quire_sdk::escape;

/// One field to show.
pub struct Field<'s> {
    pub name: &'s str,
    /// Where a parameter goes (`path`, `query`, `header`, `cookie`), if it is one.
    pub location: Option<&'s str>,
    pub schema: &'s Value,
    pub required: bool,
    pub description: Option<&'s str>,
}

/// The properties of an object schema (or of an array's items) as fields.
pub fn properties(m: &mut Markup<'_>, schemas: Schemas<'_>, schema: &Value, depth: usize) {
    let schema = schemas.resolve(schema);
    let schema = match schema_type(schema) {
        "array" => schemas.resolve(schema.get("items").unwrap_or(&Value::Null)),
        _ => schema,
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            let description = schemas
                .resolve(prop)
                .get("description")
                .and_then(Value::as_str);
            field(
                m,
                schemas,
                &Field {
                    name,
                    location: None,
                    schema: prop,
                    required: required.contains(&name.as_str()),
                    description,
                },
                depth,
            );
        }
    }
}

/// One field, and its nested properties below it.
pub fn field(m: &mut Markup<'_>, schemas: Schemas<'_>, f: &Field<'_>, depth: usize) {
    let resolved = schemas.resolve(f.schema);
    m.html
        .push_str("<div class=\"field\"><div class=\"field-head\"><code class=\"field-name\">");
    m.label(f.name);
    m.html.push_str("</code>");
    m.html.push_str(&format!(
        "<span class=\"field-type\">{}</span>",
        escape::html(&schemas.type_label(f.schema))
    ));
    if let Some(location) = f.location {
        m.html.push_str(&format!(
            "<span class=\"field-in\">{}</span>",
            escape::html(location)
        ));
    }
    if f.required {
        m.html
            .push_str("<span class=\"field-required\">required</span>");
    }
    if let Some(default) = resolved.get("default") {
        m.html.push_str("<span class=\"field-default\">default: ");
        escape::push_html(&mut m.html, &default.to_string());
        m.html.push_str("</span>");
    }
    m.html.push_str("</div>");
    if let Some(d) = f.description {
        m.html.push_str("<div class=\"field-body\"><p>");
        m.text(d);
        m.html.push_str("</p></div>");
    }
    let nested = match schema_type(resolved) {
        "array" => schemas.resolve(resolved.get("items").unwrap_or(&Value::Null)),
        _ => resolved,
    };
    if depth < MAX_DEPTH && nested.get("properties").is_some() {
        // `api.params.expanded: "all"` draws nested fields open.
        let open = if m.site.settings.api.params_expanded {
            " open"
        } else {
            ""
        };
        m.html.push_str(&format!(
            "<details class=\"expandable\"{open}><summary>Properties</summary><div class=\"expandable-body\">"
        ));
        properties(m, schemas, nested, depth + 1);
        m.html.push_str("</div></details>");
    }
    m.html.push_str("</div>\n");
}
