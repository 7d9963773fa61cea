//! The chat SDK's generation-4 data stream protocol: one `CODE:JSON` part per line. Only the
//! codes the SDK knows are ever written; an unknown code is a parse error in the client.

use serde::Serialize;
use serde_json::{Value, json};

use super::Usage;

/// Response headers that mark a data stream.
pub const HEADERS: [(&str, &str); 2] = [
    ("content-type", "text/plain; charset=utf-8"),
    ("x-vercel-ai-data-stream", "v1"),
];

fn part(code: char, value: &impl Serialize) -> String {
    // These values are plain strings, numbers and maps: serializing cannot fail.
    format!(
        "{code}:{}\n",
        serde_json::to_string(value).unwrap_or_default()
    )
}

/// `0:` a piece of the answer text.
pub fn text(delta: &str) -> String {
    part('0', &delta)
}

/// `3:` an error after the stream started.
pub fn error(message: &str) -> String {
    part('3', &message)
}

/// `8:` message annotations.
pub fn annotations(values: &[Value]) -> String {
    part('8', &values)
}

/// `9:` a complete tool call.
pub fn tool_call(id: &str, name: &str, args: &Value) -> String {
    part(
        '9',
        &json!({"toolCallId": id, "toolName": name, "args": args}),
    )
}

/// `a:` the result of a tool call (after its `9:`).
pub fn tool_result(id: &str, result: &Value) -> String {
    part('a', &json!({"toolCallId": id, "result": result}))
}

/// `f:` the start of a step.
pub fn start_step(message_id: &str) -> String {
    part('f', &json!({"messageId": message_id}))
}

/// `e:` the end of a step.
pub fn finish_step(reason: &str, usage: Usage, is_continued: bool) -> String {
    part(
        'e',
        &json!({"finishReason": reason, "usage": usage.json(), "isContinued": is_continued}),
    )
}

/// `h:` a source the answer used.
pub fn source(id: &str, url: &str, title: &str) -> String {
    part(
        'h',
        &json!({"sourceType": "url", "id": id, "url": url, "title": title}),
    )
}

/// `d:` the end of the message: always the last part. It carries `threadId`, which continues the thread.
pub fn finish_message(reason: &str, usage: Usage, thread_id: &str) -> String {
    part(
        'd',
        &json!({"finishReason": reason, "usage": usage.json(), "threadId": thread_id}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_code_colon_json_lines() {
        assert_eq!(text("he said \"hi\"\n"), "0:\"he said \\\"hi\\\"\\n\"\n");
        assert_eq!(start_step("msg-1"), "f:{\"messageId\":\"msg-1\"}\n");
        let usage = Usage {
            prompt_tokens: 3,
            completion_tokens: 4,
        };
        let d = finish_message("stop", usage, "th_1");
        assert!(d.starts_with("d:{") && d.ends_with("}\n"));
        let value: Value = serde_json::from_str(&d[2..]).unwrap();
        assert_eq!(
            value,
            json!({"finishReason": "stop", "usage": {"promptTokens": 3, "completionTokens": 4}, "threadId": "th_1"})
        );
    }
}
