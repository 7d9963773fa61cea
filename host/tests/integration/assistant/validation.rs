//! Every rule of the assistant request's fields gives a 400 naming the field (sent in-process).

use super::*;

#[tokio::test]
async fn every_validation_rule_answers_400_naming_the_field() {
    let (instance, keys) = accounts("");
    let api = instance.in_process().await;
    let text_part = |p: Value| json!({"fp": "a", "messages": [{"id": "1", "role": "assistant", "content": "", "parts": [p]}, user("q")]});
    let cases = vec![
        (json!([1, 2]), "the request body must be an object"),
        (json!({"messages": [user("q")]}), "fp is required"),
        (
            json!({"fp": 7, "messages": [user("q")]}),
            "fp must be a string",
        ),
        (
            json!({"fp": "", "messages": [user("q")]}),
            "fp must not be empty",
        ),
        (json!({"fp": "a"}), "messages is required"),
        (
            json!({"fp": "a", "messages": {}}),
            "messages must be an array",
        ),
        (
            json!({"fp": "a", "messages": []}),
            "at least one user message",
        ),
        (
            json!({"fp": "a", "messages": [{"role": "user", "content": "q", "parts": []}]}),
            "messages[0].id is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "content": "q", "parts": []}]}),
            "messages[0].role is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "bot", "content": "q", "parts": []}]}),
            "messages[0].role must be one of",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "parts": []}]}),
            "messages[0].content is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q"}]}),
            "messages[0].parts is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "createdAt": "soon"}]}),
            "messages[0].createdAt",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "annotations": {}}]}),
            "messages[0].annotations must be an array",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "experimental_attachments": [{"name": "x"}]}]}),
            "experimental_attachments[0].url is required",
        ),
        (
            json!({"fp": "a", "messages": [{"id": "1", "role": "user", "content": "q", "parts": [], "experimental_attachments": [{"url": "u", "contentType": 1}]}]}),
            "experimental_attachments[0].contentType must be a string",
        ),
        (
            text_part(json!({"type": "video"})),
            "messages[0].parts[0].type must be one of",
        ),
        (
            text_part(json!({"type": "text"})),
            "messages[0].parts[0].text is required",
        ),
        (
            text_part(json!({"type": "reasoning", "details": []})),
            "parts[0].reasoning is required",
        ),
        (
            text_part(json!({"type": "reasoning", "reasoning": "r"})),
            "parts[0].details is required",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "text"}]}),
            ),
            "details[0].text is required",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "text", "text": "t", "signature": 1}]}),
            ),
            "details[0].signature must be a string",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "redacted"}]}),
            ),
            "details[0].data is required",
        ),
        (
            text_part(
                json!({"type": "reasoning", "reasoning": "r", "details": [{"type": "secret"}]}),
            ),
            "details[0].type must be text or redacted",
        ),
        (
            text_part(json!({"type": "source"})),
            "parts[0].source is required",
        ),
        (
            text_part(
                json!({"type": "source", "source": {"sourceType": "file", "id": "s", "url": "u"}}),
            ),
            "source.sourceType must be \"url\"",
        ),
        (
            text_part(json!({"type": "source", "source": {"sourceType": "url", "url": "u"}})),
            "source.id is required",
        ),
        (
            text_part(json!({"type": "source", "source": {"sourceType": "url", "id": "s"}})),
            "source.url is required",
        ),
        (
            text_part(json!({"type": "tool-invocation"})),
            "parts[0].toolInvocation is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "done", "toolCallId": "c", "toolName": "t", "args": {}}}),
            ),
            "toolInvocation.state must be one of",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolName": "t", "args": {}}}),
            ),
            "toolInvocation.toolCallId is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c", "args": {}}}),
            ),
            "toolInvocation.toolName is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c", "toolName": "t"}}),
            ),
            "toolInvocation.args is required",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "call", "toolCallId": "c", "toolName": "t", "args": {}, "step": "one"}}),
            ),
            "toolInvocation.step must be a number",
        ),
        (
            text_part(
                json!({"type": "tool-invocation", "toolInvocation": {"state": "result", "toolCallId": "c", "toolName": "t", "args": {}}}),
            ),
            "toolInvocation.result is required",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "threadId": 5}),
            "threadId must be a string",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": 0}),
            "retrievalPageSize must be a whole number from 1 to 50",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": 51}),
            "retrievalPageSize",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": 2.5}),
            "retrievalPageSize",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "retrievalPageSize": "5"}),
            "retrievalPageSize must be a number",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "filter": "v1"}),
            "filter must be an object",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "filter": {"language": 1}}),
            "filter.language must be a string",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": {}}),
            "context must be an array",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": [{"type": "code"}]}),
            "context[0].value is required",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": [{"type": "pdf", "value": "v"}]}),
            "context[0].type must be code or textSelection",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "context": [{"type": "code", "value": "v", "elementId": 3}]}),
            "context[0].elementId must be a string",
        ),
        (
            json!({"fp": "a", "messages": [user("q")], "currentPath": "/".repeat(201)}),
            "currentPath must be at most 200 characters",
        ),
    ];
    let ask = |body: String| api.send(message_request(&keys.key, "docs.acme.test", body));
    for (body, needle) in cases {
        let (status, error) = ask(body.to_string()).await;
        assert_eq!(status, 400, "{body}: {error}");
        let message = error["error"].as_str().expect("JSON error body");
        assert!(
            message.contains(needle),
            "{body}: {message:?} should contain {needle:?}"
        );
    }
    let allowed = json!({"fp": "a", "messages": [user("q")], "currentPath": "/".repeat(200), "id": "chat", "data": {"x": 1}});
    let (status, _) = ask(allowed.to_string()).await;
    assert_eq!(
        status, 200,
        "200 characters is allowed, unknown fields ignored"
    );
    let (status, error) = ask("{not json".to_string()).await;
    assert_eq!(status, 400, "{error}");
    api.stop().await;
}
