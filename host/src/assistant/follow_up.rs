//! The conversation before a question: the stored thread's, or the turns a client that keeps
//! it sends. How a follow-up is searched with it is `quire_answer::retrieval`'s.

use super::AssistantRequest;
use crate::store::Thread;

/// The conversation before the question, oldest first, as (role, text): the stored thread's,
/// or, for a new thread, the turns the client sent before its last question (a widget that
/// keeps the conversation itself).
pub fn conversation_before(thread: &Thread, request: &AssistantRequest) -> Vec<(String, String)> {
    if !thread.messages.is_empty() {
        return thread
            .messages
            .iter()
            .map(|m| (m.role.clone(), m.content.clone()))
            .collect();
    }
    let last_question = request
        .messages
        .iter()
        .rposition(|m| m.role == "user" && !m.text.trim().is_empty());
    request.messages[..last_question.unwrap_or(0)]
        .iter()
        .filter(|m| matches!(m.role.as_str(), "user" | "assistant") && !m.text.trim().is_empty())
        .map(|m| (m.role.clone(), m.text.clone()))
        .collect()
}
