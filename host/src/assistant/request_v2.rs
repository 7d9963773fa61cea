//! The v2 assistant request: the same top-level fields as v1 (`request`), with generation-5 UI
//! messages `{id, role, parts, metadata?}`, and `filter.groups`.

use serde_json::Value;

use super::request::{
    AssistantRequest, ChatMessage, object, optional_string, parse_with, required_array,
    required_string,
};

/// Checks a v2 request body (generation-5 UI messages). The error names the field.
pub fn parse(body: &Value) -> Result<AssistantRequest, String> {
    let request = parse_with(body, ui_message)?;
    if let Some(Value::Object(filter)) = body.get("filter") {
        match filter.get("groups") {
            None | Some(Value::Null) => {}
            Some(Value::Array(groups)) if groups.iter().all(Value::is_string) => {}
            Some(_) => return Err("filter.groups must be an array of strings".into()),
        }
    }
    Ok(request)
}

/// A generation-5 UI message: `{id, role, parts, metadata?}`.
fn ui_message(value: &Value, at: &str) -> Result<ChatMessage, String> {
    let m = object(value, at)?;
    let id = required_string(m, "id", &format!("{at}.id"))?;
    let role = required_string(m, "role", &format!("{at}.role"))?;
    if !["system", "assistant", "user"].contains(&role.as_str()) {
        return Err(format!(
            "{at}.role must be one of system, assistant, user; got {role:?}"
        ));
    }
    let parts = required_array(m, "parts", &format!("{at}.parts"))?;
    let mut texts = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        let here = format!("{at}.parts[{i}]");
        let p = object(p, &here)?;
        let kind = required_string(p, "type", &format!("{here}.type"))?;
        match kind.as_str() {
            "text" => texts.push(required_string(p, "text", &format!("{here}.text"))?),
            "reasoning" => {
                required_string(p, "text", &format!("{here}.text"))?;
            }
            "source-url" => {
                required_string(p, "sourceId", &format!("{here}.sourceId"))?;
                required_string(p, "url", &format!("{here}.url"))?;
                optional_string(p, "title", &format!("{here}.title"))?;
            }
            "file" => {
                required_string(p, "mediaType", &format!("{here}.mediaType"))?;
                required_string(p, "url", &format!("{here}.url"))?;
                optional_string(p, "filename", &format!("{here}.filename"))?;
            }
            "step-start" => {}
            // Parts other generation-5 clients keep in their messages: accepted, not used.
            other
                if other.starts_with("tool-")
                    || other.starts_with("data-")
                    || other == "dynamic-tool"
                    || other == "source-document" => {}
            other => {
                return Err(format!(
                    "{here}.type must be one of text, reasoning, source-url, file, step-start; got {other:?}"
                ));
            }
        }
    }
    Ok(ChatMessage {
        id,
        role,
        text: texts.join("\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn generation_5_messages_parse() {
        let body = json!({"fp": "a", "id": "chat", "trigger": "submit-message", "messages": [
            {"id": "u", "role": "user", "parts": [{"type": "text", "text": "retries?"}, {"type": "file", "mediaType": "image/png", "url": "data:,"}]},
            {"id": "a", "role": "assistant", "metadata": {"threadId": "th_1"}, "parts": [{"type": "step-start"}, {"type": "reasoning", "text": "r"}, {"type": "source-url", "sourceId": "s", "url": "/x"}, {"type": "text", "text": "ok", "state": "done"}, {"type": "tool-search", "toolCallId": "c"}]},
            {"id": "u2", "role": "user", "parts": [{"type": "text", "text": "and signatures?"}]}
        ], "filter": {"groups": ["admins"]}});
        let r = parse(&body).unwrap();
        assert_eq!(r.question(), Some("and signatures?"));
        for (bad, needle) in [
            (
                json!({"fp": "a", "messages": [{"id": "u", "role": "data", "parts": []}]}),
                "messages[0].role",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "u", "role": "user", "parts": [{"type": "source-url", "url": "/x"}]}]}),
                "parts[0].sourceId is required",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "u", "role": "user", "parts": [{"type": "file", "url": "/x"}]}]}),
                "parts[0].mediaType is required",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "u", "role": "user", "parts": [{"type": "video"}]}]}),
                "parts[0].type must be one of",
            ),
            (
                json!({"fp": "a", "messages": [], "filter": {"groups": "admins"}}),
                "filter.groups",
            ),
        ] {
            let err = parse(&bad).unwrap_err();
            assert!(err.contains(needle), "{bad}: {err}");
        }
    }
}
