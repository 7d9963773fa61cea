//! The docs assistant: checks the conversation, retrieves sections (steered by the page the
//! reader is on, their context and the thread's history), generates an answer, and emits it as
//! protocol-neutral events that `stream_v1` (and later protocols) encode.

mod citations;
mod extractive;
mod follow_up;
mod generator;
mod openai;
pub mod request;
pub mod request_v2;
pub mod stream_v1;
pub mod stream_v2;
mod turns;

use std::sync::Arc;

use rand::Rng;
use serde_json::{Value, json};
use time::OffsetDateTime;
use tokio::sync::mpsc;

pub use extractive::ExtractiveGenerator;
pub use generator::{GenerationInput, Generator, Piece};
pub use openai::{OpenAiGenerator, OpenAiSettings};
pub use quire_answer::RetrievedSection;
use quire_answer::retrieval::{Ranked, Searches, fetch_size};
pub use request::AssistantRequest;

use crate::plugins::SearchFilter;
use crate::search::{SearchRequest, SearchService};
use crate::store::{SharedStore, StoreError, Thread, ThreadMessage};

/// Characters of the search query the stream's tool call shows: enough to see what was searched,
/// never the whole of a long question sent back to the browser that sent it.
const ECHOED_QUERY_CHARS: usize = 500;

/// The query as the stream shows it: at most `ECHOED_QUERY_CHARS` characters, `…` when cut.
fn echoed(query: &str) -> String {
    match query.char_indices().nth(ECHOED_QUERY_CHARS) {
        Some((cut, _)) => format!("{}…", &query[..cut]),
        None => query.to_string(),
    }
}

/// Characters of each context item added to the search query.
const STEERING_CHARS: usize = 200;
/// Earlier thread messages a generator sees.
const HISTORY_MESSAGES: usize = 6;

/// Token counts as the protocol reports them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Usage {
    pub fn json(self) -> Value {
        json!({"promptTokens": self.prompt_tokens, "completionTokens": self.completion_tokens})
    }
}

/// The shape of a hit in the `search` tool result: `{path, content, metadata: {title, ...}}`.
pub fn tool_result_json(section: &RetrievedSection) -> Value {
    json!({
        "path": section.path,
        "content": section.content,
        "metadata": {"title": section.title, "anchor": section.anchor, "headingTrail": section.heading_trail, "url": section.url},
    })
}

/// What the assistant emits, in order.
#[derive(Debug, Clone)]
pub enum Event {
    StepStart {
        message_id: String,
    },
    SearchCall {
        call_id: String,
        query: String,
    },
    SearchResult {
        call_id: String,
        sections: Vec<RetrievedSection>,
    },
    StepFinish {
        reason: &'static str,
        usage: Usage,
    },
    Source {
        id: String,
        url: String,
        title: String,
    },
    Text(String),
    Error(String),
    Finish {
        reason: &'static str,
        usage: Usage,
        thread_id: String,
    },
}

/// Why a conversation cannot start (answered with a status, before any stream).
#[derive(Debug, thiserror::Error)]
pub enum AssistantError {
    #[error("no site {0:?} in this organization")]
    UnknownSite(String),
    #[error("no thread {0:?} for this user on this site")]
    UnknownThread(String),
    #[error("messages must hold at least one user message with text")]
    NoQuestion,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A checked conversation, ready to answer.
pub struct Conversation {
    domain: String,
    organization: String,
    thread: Thread,
    /// The question and the queries it is searched with.
    searches: Searches,
    boost_paths: Vec<String>,
    filter: SearchFilter,
    /// The page the reader is on, whose version and language the answer keeps to.
    current_path: Option<String>,
    /// The conversation before the question, oldest first, as (role, text).
    history: Vec<(String, String)>,
    limit: u32,
}

impl Conversation {
    pub fn thread_id(&self) -> &str {
        &self.thread.id
    }
}

/// The assistant service.
pub struct Assistant {
    store: SharedStore,
    search: Arc<SearchService>,
    generator: Arc<dyn Generator>,
    turns: turns::TurnWriter,
}

impl Assistant {
    pub fn new(
        store: SharedStore,
        search: Arc<SearchService>,
        generator: Arc<dyn Generator>,
    ) -> Self {
        let turns = turns::TurnWriter::start(store.clone());
        Self {
            store,
            search,
            generator,
            turns,
        }
    }

    /// Checks the site and thread and works out the search. A new thread is stored with its
    /// first turn.
    pub async fn prepare(
        &self,
        organization: &str,
        domain: &str,
        request: AssistantRequest,
    ) -> Result<Conversation, AssistantError> {
        self.store
            .site_of(organization, domain)
            .await?
            .ok_or_else(|| AssistantError::UnknownSite(domain.to_string()))?;
        let question = request
            .question()
            .ok_or(AssistantError::NoQuestion)?
            .to_string();
        let now = OffsetDateTime::now_utc();
        let thread = match &request.thread_id {
            Some(id) => self
                .store
                .thread_of(organization, id)
                .await?
                .filter(|t| t.domain == domain && t.fp == request.fp)
                .ok_or_else(|| AssistantError::UnknownThread(id.clone()))?,
            // A new thread is stored with its first turn, in the same commit.
            None => Thread {
                id: format!("th_{}", hex::encode(rand::rng().random::<[u8; 12]>())),
                organization: organization.to_string(),
                domain: domain.to_string(),
                fp: request.fp.clone(),
                messages: Vec::new(),
                created_at: now,
                updated_at: now,
            },
        };

        let history = follow_up::conversation_before(&thread, &request);
        // The reader's selection steers every search; the conversation steers follow-ups.
        let mut context = String::new();
        let mut boost_paths = Vec::new();
        for item in &request.context {
            context.push(' ');
            context.extend(item.value.chars().take(STEERING_CHARS));
            boost_paths.extend(item.path.as_deref().map(page_path));
        }
        let searches = Searches::plan(&question, &history, &context);
        boost_paths.extend(request.current_path.as_deref().map(page_path));
        let current_path = request.current_path.as_deref().map(page_path);
        Ok(Conversation {
            history,
            current_path,
            domain: domain.to_string(),
            organization: organization.to_string(),
            thread,
            searches,
            boost_paths,
            filter: SearchFilter {
                version: request.filter_version,
                language: request.filter_language,
            },
            limit: request.retrieval_page_size,
        })
    }

    /// The sections to answer from, searched and merged as `Searches` plans them.
    async fn retrieve(
        &self,
        conversation: &Conversation,
    ) -> Result<Vec<crate::plugins::SearchHit>, crate::search::SearchError> {
        let mut rankings = Vec::new();
        for query in conversation.searches.queries() {
            let ranking = self
                .search
                .search(SearchRequest {
                    organization: conversation.organization.clone(),
                    domain: conversation.domain.clone(),
                    query: query.to_string(),
                    limit: fetch_size(conversation.limit),
                    filter: conversation.filter.clone(),
                    boost_paths: conversation.boost_paths.clone(),
                    reader: Some(conversation.current_path.clone()),
                })
                .await?;
            rankings.push(ranking.into_iter().map(Hit).collect());
        }
        let merged = conversation
            .searches
            .merge(rankings, conversation.limit as usize);
        Ok(merged.into_iter().map(|Hit(hit)| hit).collect())
    }

    /// Answers the conversation, sending events to `events`; persists the thread at the end.
    /// Failures after the start become an `Error` event followed by a clean `Finish`.
    pub async fn answer(&self, conversation: Conversation, events: mpsc::Sender<Event>) {
        let thread_id = conversation.thread.id.clone();
        let send = |event: Event| {
            let events = events.clone();
            async move { events.send(event).await.is_ok() }
        };
        let mut conversation = conversation;
        // A generator that can (a model) rewrites a question asked in a conversation so that it
        // stands alone; it is searched as steered searches are, fused with the question itself.
        if !conversation.history.is_empty()
            && let Some(rewritten) = self
                .generator
                .standalone_query(&conversation.searches.question, &conversation.history)
                .await
        {
            let searches = &mut conversation.searches;
            searches.query = format!("{rewritten}{}", searches.context);
        }
        let call_id = format!("call_{}", hex::encode(rand::rng().random::<[u8; 8]>()));
        send(Event::StepStart {
            message_id: message_id(),
        })
        .await;
        send(Event::SearchCall {
            call_id: call_id.clone(),
            query: echoed(&conversation.searches.query),
        })
        .await;
        let hits = self.retrieve(&conversation).await;
        let sections: Vec<RetrievedSection> = match hits {
            Ok(hits) => hits
                .into_iter()
                .map(|h| {
                    let s = h.section;
                    RetrievedSection::new(s.path, s.anchor, s.title, s.heading_trail, s.text)
                })
                .collect(),
            Err(e) => {
                tracing::warn!(domain = %conversation.domain, "assistant search failed: {e}");
                send(Event::Error(format!(
                    "searching the documentation failed: {e}"
                )))
                .await;
                send(Event::Finish {
                    reason: "error",
                    usage: Usage::default(),
                    thread_id,
                })
                .await;
                return;
            }
        };
        let prompt_tokens = words(&conversation.searches.query)
            + sections.iter().map(|s| words(&s.content)).sum::<u64>();
        let search_usage = Usage {
            prompt_tokens,
            completion_tokens: 0,
        };
        send(Event::SearchResult {
            call_id,
            sections: sections.clone(),
        })
        .await;
        send(Event::StepFinish {
            reason: "tool-calls",
            usage: search_usage,
        })
        .await;

        send(Event::StepStart {
            message_id: message_id(),
        })
        .await;
        let (site_name, vocabulary) = self
            .search
            .loaded_site(&conversation.domain)
            .unwrap_or_else(|| (conversation.domain.clone(), None));
        let mut answer = String::new();
        let mut reason = "stop";
        let history = conversation
            .history
            .iter()
            .rev()
            .take(HISTORY_MESSAGES)
            .rev()
            .cloned()
            .collect();
        // Only what the answer cites becomes a source, each section once.
        let cited_sections = sections.clone();
        let mut sourced = std::collections::HashSet::new();
        let mut pieces = self.generator.generate(GenerationInput {
            site_name,
            question: conversation.searches.question.clone(),
            sections,
            history,
            vocabulary,
        });
        use futures::StreamExt;
        while let Some(piece) = pieces.next().await {
            let event = match piece {
                Ok(Piece::Text(text)) => {
                    answer.push_str(&text);
                    Event::Text(text)
                }
                Ok(Piece::Cite(i)) => match cited_sections.get(i) {
                    Some(section) if sourced.insert(section.url.clone()) => Event::Source {
                        id: format!("src-{}", i + 1),
                        url: section.url.clone(),
                        title: section.label(),
                    },
                    _ => continue,
                },
                Err(e) => {
                    send(Event::Error(e.to_string())).await;
                    reason = "error";
                    break;
                }
            };
            if !send(event).await {
                break; // the client went away; the thread still records what was said
            }
        }
        let answer_usage = Usage {
            prompt_tokens,
            completion_tokens: words(&answer),
        };
        send(Event::StepFinish {
            reason,
            usage: answer_usage,
        })
        .await;
        let now = OffsetDateTime::now_utc();
        let record = vec![
            ThreadMessage {
                role: "user".into(),
                content: conversation.searches.question.clone(),
                created_at: now,
            },
            ThreadMessage {
                role: "assistant".into(),
                content: answer,
                created_at: now,
            },
        ];
        if let Err(e) = self.turns.record(conversation.thread.clone(), record).await {
            tracing::error!(thread = %thread_id, "cannot save the thread: {e}");
        }
        let total = Usage {
            prompt_tokens: prompt_tokens * 2,
            completion_tokens: answer_usage.completion_tokens,
        };
        send(Event::Finish {
            reason,
            usage: total,
            thread_id,
        })
        .await;
    }
}

fn message_id() -> String {
    format!("msg-{}", hex::encode(rand::rng().random::<[u8; 12]>()))
}

fn words(text: &str) -> u64 {
    text.split_whitespace().count() as u64
}

/// A page path as the index stores it, from a reader's URL path (`/guides/auth/?x#y`).
fn page_path(path: &str) -> String {
    quire_core::paths::page_key(path).to_string()
}

/// A hit of the site's retriever, as the assistant's retrieval merges it.
struct Hit(crate::plugins::SearchHit);

impl Ranked for Hit {
    fn path(&self) -> &str {
        &self.0.section.path
    }
    fn anchor(&self) -> &str {
        &self.0.section.anchor
    }
    fn text(&self) -> &str {
        &self.0.section.text
    }
    fn set_score(&mut self, score: f32) {
        self.0.score = score;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_paths_become_page_paths() {
        assert_eq!(page_path("/guides/auth/?tab=1#keys"), "guides/auth");
        assert_eq!(page_path("quickstart.html"), "quickstart");
        assert_eq!(page_path("/"), "");
    }
}
