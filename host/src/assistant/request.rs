//! The v1 assistant request (fp, messages, threadId, retrievalPageSize, filter, context, currentPath), checked field by field so that a 400 names the
//! exact place at fault (`messages[0].parts[1].toolInvocation.state`). Unknown top-level fields
//! (`id`, `data`, which `useChat` adds) are ignored. The top-level rules are shared with v2
//! (`request_v2`), which differs in its messages.

use serde_json::{Map, Value};

/// `currentPath` may be at most this many characters.
pub const MAX_CURRENT_PATH: usize = 200;
/// A user message (a question) may be at most this many characters; `retrievalPageSize`'s
/// default and bounds. The exported site's assistant takes the same.
pub use quire_answer::MAX_QUESTION_CHARS;
pub use quire_answer::retrieval::{DEFAULT_RETRIEVAL_PAGE_SIZE, MAX_RETRIEVAL_PAGE_SIZE};
/// Any other message of the history may be at most this many characters (an earlier answer).
pub const MAX_MESSAGE_CHARS: usize = 32_000;
/// The history may hold at most this many messages.
pub const MAX_MESSAGES: usize = 100;
/// `context` may hold at most this many items, each at most `MAX_CONTEXT_CHARS` characters.
pub const MAX_CONTEXT_ITEMS: usize = 20;
pub const MAX_CONTEXT_CHARS: usize = 8_000;

/// A checked assistant request: what the assistant needs of it.
#[derive(Debug, Clone, PartialEq)]
pub struct AssistantRequest {
    pub fp: String,
    pub messages: Vec<ChatMessage>,
    pub thread_id: Option<String>,
    pub retrieval_page_size: u32,
    pub filter_version: Option<String>,
    pub filter_language: Option<String>,
    pub context: Vec<ContextItem>,
    pub current_path: Option<String>,
}

/// A message of the conversation, reduced to what retrieval and threads use.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatMessage {
    pub id: String,
    pub role: String,
    /// The message's text: `content`, or its text parts when `content` is empty.
    pub text: String,
}

/// Context the reader's page supplied.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextItem {
    pub kind: String,
    pub value: String,
    pub path: Option<String>,
}

impl AssistantRequest {
    /// The text of the last user message, if any.
    pub fn question(&self) -> Option<&str> {
        self.messages
            .iter()
            .rev()
            .find(|m| m.role == "user" && !m.text.trim().is_empty())
            .map(|m| m.text.as_str())
    }
}

/// Checks a v1 request body (generation-4 messages). The error names the field.
pub fn parse(body: &Value) -> Result<AssistantRequest, String> {
    parse_with(body, message)
}

/// The top-level rules both versions share; `message` checks one message.
pub(super) fn parse_with(
    body: &Value,
    message: fn(&Value, &str) -> Result<ChatMessage, String>,
) -> Result<AssistantRequest, String> {
    let root = object(body, "the request body")?;
    let fp = required_string(root, "fp", "fp")?;
    if fp.trim().is_empty() {
        return Err("fp must not be empty (use \"anonymous\" for anonymous users)".into());
    }
    let messages_value = root.get("messages").ok_or("messages is required")?;
    let Value::Array(items) = messages_value else {
        return Err("messages must be an array".into());
    };
    if items.len() > MAX_MESSAGES {
        return Err(format!(
            "messages may hold at most {MAX_MESSAGES} messages; got {}",
            items.len()
        ));
    }
    let mut messages = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let parsed = message(item, &format!("messages[{i}]"))?;
        let (limit, what) = if parsed.role == "user" {
            (MAX_QUESTION_CHARS, "a user message")
        } else {
            (MAX_MESSAGE_CHARS, "a message")
        };
        let length = parsed.text.chars().count();
        if length > limit {
            return Err(format!(
                "messages[{i}] is {length} characters long; {what} may be at most {limit}"
            ));
        }
        messages.push(parsed);
    }
    let thread_id = optional_string(root, "threadId", "threadId")?;
    let retrieval_page_size = match root.get("retrievalPageSize") {
        None | Some(Value::Null) => DEFAULT_RETRIEVAL_PAGE_SIZE,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f)
                if f.fract() == 0.0 && (1.0..=f64::from(MAX_RETRIEVAL_PAGE_SIZE)).contains(&f) =>
            {
                f as u32
            }
            _ => {
                return Err(format!(
                    "retrievalPageSize must be a whole number from 1 to {MAX_RETRIEVAL_PAGE_SIZE}; got {n}"
                ));
            }
        },
        Some(_) => return Err("retrievalPageSize must be a number".into()),
    };
    let (filter_version, filter_language) = match root.get("filter") {
        None | Some(Value::Null) => (None, None),
        Some(value) => {
            let filter = object(value, "filter")?;
            (
                optional_string(filter, "version", "filter.version")?,
                optional_string(filter, "language", "filter.language")?,
            )
        }
    };
    let context = match root.get("context") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) if items.len() > MAX_CONTEXT_ITEMS => {
            return Err(format!(
                "context may hold at most {MAX_CONTEXT_ITEMS} items; got {}",
                items.len()
            ));
        }
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let item = context_item(item, &format!("context[{i}]"))?;
                let length = item.value.chars().count();
                if length > MAX_CONTEXT_CHARS {
                    return Err(format!(
                        "context[{i}].value is {length} characters long; it may be at most {MAX_CONTEXT_CHARS}"
                    ));
                }
                Ok(item)
            })
            .collect::<Result<_, String>>()?,
        Some(_) => return Err("context must be an array".into()),
    };
    let current_path = optional_string(root, "currentPath", "currentPath")?;
    if let Some(path) = &current_path
        && path.chars().count() > MAX_CURRENT_PATH
    {
        return Err(format!(
            "currentPath must be at most {MAX_CURRENT_PATH} characters; got {}",
            path.chars().count()
        ));
    }
    Ok(AssistantRequest {
        fp,
        messages,
        thread_id,
        retrieval_page_size,
        filter_version,
        filter_language,
        context,
        current_path,
    })
}

fn message(value: &Value, at: &str) -> Result<ChatMessage, String> {
    let m = object(value, at)?;
    let id = required_string(m, "id", &format!("{at}.id"))?;
    let role = required_string(m, "role", &format!("{at}.role"))?;
    if !["system", "assistant", "data", "user"].contains(&role.as_str()) {
        return Err(format!(
            "{at}.role must be one of system, assistant, data, user; got {role:?}"
        ));
    }
    let content = required_string(m, "content", &format!("{at}.content"))?;
    let parts = required_array(m, "parts", &format!("{at}.parts"))?;
    let mut texts = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if let Some(text) = part(p, &format!("{at}.parts[{i}]"))? {
            texts.push(text);
        }
    }
    if let Some(created) = optional_string(m, "createdAt", &format!("{at}.createdAt"))?
        && time::OffsetDateTime::parse(&created, &time::format_description::well_known::Rfc3339)
            .is_err()
    {
        return Err(format!(
            "{at}.createdAt must be an RFC 3339 date-time; got {created:?}"
        ));
    }
    if let Some(annotations) = m.get("annotations")
        && !annotations.is_array()
    {
        return Err(format!("{at}.annotations must be an array"));
    }
    match m.get("experimental_attachments") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, a) in items.iter().enumerate() {
                let here = format!("{at}.experimental_attachments[{i}]");
                let a = object(a, &here)?;
                required_string(a, "url", &format!("{here}.url"))?;
                optional_string(a, "name", &format!("{here}.name"))?;
                optional_string(a, "contentType", &format!("{here}.contentType"))?;
            }
        }
        Some(_) => return Err(format!("{at}.experimental_attachments must be an array")),
    }
    let text = if content.trim().is_empty() {
        texts.join("\n")
    } else {
        content
    };
    Ok(ChatMessage { id, role, text })
}

/// Checks a part; returns its text for `text` parts.
fn part(value: &Value, at: &str) -> Result<Option<String>, String> {
    let p = object(value, at)?;
    let kind = required_string(p, "type", &format!("{at}.type"))?;
    match kind.as_str() {
        "text" => Ok(Some(required_string(p, "text", &format!("{at}.text"))?)),
        "reasoning" => {
            required_string(p, "reasoning", &format!("{at}.reasoning"))?;
            let details = required_array(p, "details", &format!("{at}.details"))?;
            for (i, d) in details.iter().enumerate() {
                let here = format!("{at}.details[{i}]");
                let d = object(d, &here)?;
                match required_string(d, "type", &format!("{here}.type"))?.as_str() {
                    "text" => {
                        required_string(d, "text", &format!("{here}.text"))?;
                        optional_string(d, "signature", &format!("{here}.signature"))?;
                    }
                    "redacted" => {
                        required_string(d, "data", &format!("{here}.data"))?;
                    }
                    other => {
                        return Err(format!(
                            "{here}.type must be text or redacted; got {other:?}"
                        ));
                    }
                }
            }
            Ok(None)
        }
        "step-start" => Ok(None),
        "source" => {
            let here = format!("{at}.source");
            let s = required_object(p, "source", &here)?;
            let source_type = required_string(s, "sourceType", &format!("{here}.sourceType"))?;
            if source_type != "url" {
                return Err(format!(
                    "{here}.sourceType must be \"url\"; got {source_type:?}"
                ));
            }
            required_string(s, "id", &format!("{here}.id"))?;
            required_string(s, "url", &format!("{here}.url"))?;
            optional_string(s, "title", &format!("{here}.title"))?;
            Ok(None)
        }
        "tool-invocation" => {
            let here = format!("{at}.toolInvocation");
            let t = required_object(p, "toolInvocation", &here)?;
            let state = required_string(t, "state", &format!("{here}.state"))?;
            if !["partial-call", "call", "result"].contains(&state.as_str()) {
                return Err(format!(
                    "{here}.state must be one of partial-call, call, result; got {state:?}"
                ));
            }
            required_string(t, "toolCallId", &format!("{here}.toolCallId"))?;
            required_string(t, "toolName", &format!("{here}.toolName"))?;
            if !t.contains_key("args") {
                return Err(format!("{here}.args is required"));
            }
            if let Some(step) = t.get("step")
                && !step.is_number()
            {
                return Err(format!("{here}.step must be a number"));
            }
            if state == "result" && !t.contains_key("result") {
                return Err(format!("{here}.result is required when state is result"));
            }
            Ok(None)
        }
        other => Err(format!(
            "{at}.type must be one of text, reasoning, step-start, source, tool-invocation; got {other:?}"
        )),
    }
}

fn context_item(value: &Value, at: &str) -> Result<ContextItem, String> {
    let c = object(value, at)?;
    let kind = required_string(c, "type", &format!("{at}.type"))?;
    if kind != "code" && kind != "textSelection" {
        return Err(format!(
            "{at}.type must be code or textSelection; got {kind:?}"
        ));
    }
    let value = required_string(c, "value", &format!("{at}.value"))?;
    let path = optional_string(c, "path", &format!("{at}.path"))?;
    optional_string(c, "elementId", &format!("{at}.elementId"))?;
    Ok(ContextItem { kind, value, path })
}

pub(super) fn object<'a>(value: &'a Value, at: &str) -> Result<&'a Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{at} must be an object"))
}

/// The object at `key`, required.
pub(super) fn required_object<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'a Map<String, Value>, String> {
    object(map.get(key).ok_or_else(|| format!("{at} is required"))?, at)
}

/// The array at `key`, required.
pub(super) fn required_array<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'a Vec<Value>, String> {
    match map.get(key) {
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(format!("{at} must be an array")),
        None => Err(format!("{at} is required")),
    }
}

pub(super) fn required_string(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<String, String> {
    match map.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("{at} must be a string")),
        None => Err(format!("{at} is required")),
    }
}

pub(super) fn optional_string(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<String>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{at} must be a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn user(text: &str) -> Value {
        json!({"id": "m1", "role": "user", "content": text, "parts": [{"type": "text", "text": text}]})
    }

    #[test]
    fn a_use_chat_request_parses_with_defaults() {
        let r = parse(&json!({"id": "chat", "fp": "anonymous", "messages": [user("How do webhooks retry?")], "data": {}})).unwrap();
        assert_eq!(r.retrieval_page_size, 5);
        assert_eq!(r.question(), Some("How do webhooks retry?"));
        assert!(r.thread_id.is_none() && r.context.is_empty());
    }

    #[test]
    fn every_part_variant_is_accepted() {
        let parts = json!([
            {"type": "text", "text": "hi"},
            {"type": "reasoning", "reasoning": "r", "details": [{"type": "text", "text": "t", "signature": "s"}, {"type": "redacted", "data": "x"}]},
            {"type": "step-start"},
            {"type": "source", "source": {"sourceType": "url", "id": "s1", "url": "https://x", "title": "X"}},
            {"type": "tool-invocation", "toolInvocation": {"state": "partial-call", "toolCallId": "c", "toolName": "search", "args": {}}},
            {"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c", "toolName": "search", "args": null, "step": 1}},
            {"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "c", "toolName": "search", "args": {}, "result": []}}
        ]);
        let body = json!({"fp": "u1", "messages": [{"id": "a", "role": "assistant", "content": "", "parts": parts, "createdAt": "2026-11-21T10:00:00Z", "annotations": [], "experimental_attachments": [{"url": "https://x/y.png", "name": "y", "contentType": "image/png"}]}, user("next")]});
        assert!(parse(&body).is_ok(), "{:?}", parse(&body));
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (json!({"messages": []}), "fp is required"),
            (json!({"fp": 1, "messages": []}), "fp must be a string"),
            (json!({"fp": "a"}), "messages is required"),
            (
                json!({"fp": "a", "messages": [{"role": "user", "content": "", "parts": []}]}),
                "messages[0].id is required",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "robot", "content": "", "parts": []}]}),
                "messages[0].role must be one of",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": ""}]}),
                "messages[0].parts is required",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "", "parts": [{"type": "text"}]}]}),
                "messages[0].parts[0].text is required",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "", "parts": [{"type": "tool-invocation", "toolInvocation": {"state": "done", "toolCallId": "c", "toolName": "t", "args": {}}}]}]}),
                "messages[0].parts[0].toolInvocation.state",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "", "parts": [{"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "c", "toolName": "t", "args": {}}}]}]}),
                "toolInvocation.result is required",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "", "parts": [{"type": "source", "source": {"sourceType": "file", "id": "1", "url": "u"}}]}]}),
                "parts[0].source.sourceType",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "", "parts": [{"type": "reasoning", "reasoning": "r", "details": [{"type": "redacted"}]}]}]}),
                "details[0].data is required",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "", "parts": [], "createdAt": "yesterday"}]}),
                "messages[0].createdAt",
            ),
            (
                json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "", "parts": [], "experimental_attachments": [{"name": "x"}]}]}),
                "experimental_attachments[0].url is required",
            ),
            (
                json!({"fp": "a", "messages": [], "retrievalPageSize": 0}),
                "retrievalPageSize",
            ),
            (
                json!({"fp": "a", "messages": [], "retrievalPageSize": 51}),
                "retrievalPageSize",
            ),
            (
                json!({"fp": "a", "messages": [], "filter": {"version": 2}}),
                "filter.version must be a string",
            ),
            (
                json!({"fp": "a", "messages": [], "context": [{"type": "image", "value": "x"}]}),
                "context[0].type",
            ),
            (
                json!({"fp": "a", "messages": [], "context": [{"type": "code"}]}),
                "context[0].value is required",
            ),
            (
                json!({"fp": "a", "messages": [], "currentPath": "x".repeat(201)}),
                "currentPath must be at most 200",
            ),
        ];
        for (body, needle) in cases {
            let err = parse(&body).unwrap_err();
            assert!(
                err.contains(needle),
                "{body}: {err:?} should contain {needle:?}"
            );
        }
        assert!(parse(&json!({"fp": "a", "messages": [], "currentPath": "x".repeat(200)})).is_ok());
    }
}
