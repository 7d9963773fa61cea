//! JSON Schema as API documents use it (OpenAPI 3 schemas, AsyncAPI payloads): following local
//! `$ref`s, naming a schema's type, and building an example value from a schema's shape.

use serde_json::{Map, Value, json};

/// Deepest schema nesting shown or turned into an example; deeper is cut (and cycles end).
pub const MAX_DEPTH: usize = 6;

/// The schemas of one document, whose `#/...` references they resolve against.
#[derive(Debug, Clone, Copy)]
pub struct Schemas<'a> {
    pub document: &'a Value,
}

impl<'a> Schemas<'a> {
    /// Follows a local `$ref` (`#/components/...`); an unresolvable one is `null`.
    pub fn resolve<'v>(&self, value: &'v Value) -> &'v Value
    where
        'a: 'v,
    {
        let mut value = value;
        for _ in 0..MAX_DEPTH {
            match value.get("$ref").and_then(Value::as_str) {
                Some(reference) => match reference
                    .strip_prefix('#')
                    .and_then(|p| self.document.pointer(p))
                {
                    Some(target) => value = target,
                    None => return &Value::Null,
                },
                None => return value,
            }
        }
        value
    }

    /// An example value for `schema`: its own `example` (or first of `examples`), else one
    /// built from its shape.
    pub fn example(&self, schema: &Value, depth: usize) -> Value {
        let schema = self.resolve(schema);
        if let Some(example) = schema
            .get("example")
            .or_else(|| schema.pointer("/examples/0"))
        {
            return example.clone();
        }
        if let Some(first) = schema.pointer("/enum/0").or_else(|| schema.get("const")) {
            return first.clone();
        }
        if depth >= MAX_DEPTH {
            return Value::Null;
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = Map::new();
            for part in all {
                if let Value::Object(m) = self.example(part, depth + 1) {
                    merged.extend(m);
                }
            }
            return Value::Object(merged);
        }
        if let Some(first) = schema
            .pointer("/oneOf/0")
            .or_else(|| schema.pointer("/anyOf/0"))
        {
            return self.example(first, depth + 1);
        }
        match schema_type(schema) {
            "object" => {
                let mut out = Map::new();
                if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                    for (name, prop) in props {
                        out.insert(name.clone(), self.example(prop, depth + 1));
                    }
                }
                Value::Object(out)
            }
            "array" => match schema.get("items") {
                Some(items) => json!([self.example(items, depth + 1)]),
                None => json!([]),
            },
            "integer" => json!(0),
            "number" => json!(0.0),
            "boolean" => json!(true),
            _ => match schema.get("format").and_then(Value::as_str) {
                Some("date-time") => json!("2024-01-01T00:00:00Z"),
                Some("date") => json!("2024-01-01"),
                Some("email") => json!("user@example.com"),
                Some("uuid") => json!("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
                Some("uri") => json!("https://example.com"),
                _ => json!("string"),
            },
        }
    }

    /// The type shown beside a field: `string`, `integer (int64)`, `Widget[]`-style arrays.
    pub fn type_label(&self, schema: &Value) -> String {
        let schema = self.resolve(schema);
        match schema_type(schema) {
            "array" => {
                let items = schema.get("items").map(|i| self.type_label(i));
                format!("{}[]", items.unwrap_or_else(|| "any".into()))
            }
            "" => "any".into(),
            t => match schema.get("format").and_then(Value::as_str) {
                Some(format) => format!("{t} ({format})"),
                None => t.to_string(),
            },
        }
    }
}

/// The schema's type: its `type` (the first that is not `null` of a list), else inferred from
/// `properties` or `items`, else empty.
pub fn schema_type(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ if schema.get("properties").is_some() => "object",
        _ if schema.get("items").is_some() => "array",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_follow_refs_and_stop_on_cycles() {
        let document = json!({"components": {"schemas": {"Widget": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "example": "w_1"},
                "size": {"type": "integer"},
                "kind": {"const": "widget"},
                "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Widget"}}
            }
        }}}});
        let schemas = Schemas {
            document: &document,
        };
        let schema = json!({"$ref": "#/components/schemas/Widget"});
        let example = schemas.example(&schema, 0);
        assert_eq!(example["id"], "w_1");
        assert_eq!(example["size"], 0);
        assert_eq!(example["kind"], "widget");
        assert!(example["parts"].is_array());
        assert_eq!(schemas.type_label(&json!({"$ref": "#/nowhere"})), "any");
        assert_eq!(
            schemas.type_label(
                &json!({"type": "array", "items": {"type": "integer", "format": "int64"}})
            ),
            "integer (int64)[]"
        );
    }
}
