//! The docs assistant an exported site carries. It answers as the API host's assistant does
//! with its built-in answer: the same searches for a question and its follow-ups
//! (`quire_answer::retrieval`), over the same index the host's default retriever built at
//! publish, searched by the same retriever code, and the same answer (`quire_answer`). Only
//! where the code runs differs: compiled for `wasm32-unknown-unknown`, a page of the bundle loads
//! it when the reader opens the assistant (see `wasm`), from `file://`, a static host or an
//! air-gapped docs server, with no request leaving the bundle.
//!
//! What it cannot do as the host does: a site whose retriever is not the default one ships an
//! index this crate cannot read (`Assistant::load` says so, and the export leaves the assistant
//! out), and nothing is stored: the page keeps the conversation.

pub mod segments;
#[cfg(target_arch = "wasm32")]
mod wasm;

use std::collections::BTreeMap;

use quire_answer::retrieval::{
    DEFAULT_RETRIEVAL_PAGE_SIZE, MAX_RETRIEVAL_PAGE_SIZE, Ranked, Searches, fetch_size,
};
use quire_answer::vocabulary::Vocabulary;
use quire_answer::{RetrievedSection, compose};
pub use quire_retriever::SegmentFacts;
use quire_retriever::{Index, Query, check_together};
use serde::{Deserialize, Serialize};

/// Why the assistant cannot load or answer.
#[derive(Debug, thiserror::Error)]
pub enum AssistantError {
    #[error("the site's search index is not the default retriever's: {0}")]
    Index(String),
    #[error("the site's vocabulary is unreadable: {0}")]
    Vocabulary(String),
    #[error("the site description is unreadable: {0}")]
    Site(String),
    #[error("{0}")]
    Request(String),
}

/// What the assistant knows of the site beyond its index: its name, and the version and
/// language of each page, which keep an answer to the reader's page's version and language.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SiteFacts {
    /// The site's name, as answers name its documentation.
    pub name: String,
    /// Each page's version and language, by page path (sorted, so that one site's facts are
    /// always the same bytes and an export's chunks of them too).
    #[serde(default)]
    pub scopes: BTreeMap<String, Scope>,
    /// The scope of a reader on no known page: the first page's.
    #[serde(default)]
    pub default_scope: Scope,
}

/// A page's version and language.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Scope {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// A question, with the conversation before it, as the page sends it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskRequest {
    /// The conversation, oldest first; the last user message is the question.
    pub messages: Vec<Message>,
    /// The page the reader is on (`/guides/webhooks`): its sections rank higher, and the
    /// answer keeps to its version and language unless `filter` says otherwise.
    #[serde(default)]
    pub current_path: Option<String>,
    #[serde(default)]
    pub filter: Scope,
    /// Sections the answer draws from, 1 to 50 (default 5).
    #[serde(default)]
    pub retrieval_page_size: Option<u32>,
}

/// One message of the conversation.
#[derive(Debug, Clone, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

/// An answer: its Markdown, and the sections it quotes, in the order it quotes them.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Reply {
    pub text: String,
    pub sources: Vec<Source>,
}

/// A section an answer quotes.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    pub path: String,
    pub anchor: String,
    pub title: String,
    pub heading_trail: Vec<String>,
    /// Site-relative link (`/guides/webhooks#retries`).
    pub url: String,
}

/// A loaded site: its index, its word counts and its facts.
pub struct Assistant {
    index: Index,
    vocabulary: Option<Vocabulary>,
    site: SiteFacts,
}

impl Assistant {
    /// The assistant over `index` (the bytes the default retriever built at publish),
    /// `vocabulary` (the version's word counts, if it has them) and `site` (a `SiteFacts` as
    /// JSON).
    pub fn load(
        index: &[u8],
        vocabulary: Option<&[u8]>,
        site: &[u8],
    ) -> Result<Self, AssistantError> {
        let index = match segments::split(index) {
            Some(segments) => Index::from_segments(&segments.map_err(AssistantError::Index)?),
            None => Index::from_bytes(index),
        }
        .map_err(AssistantError::Index)?;
        Ok(Self {
            index,
            vocabulary: read_vocabulary(vocabulary)?,
            site: read_site(site)?,
        })
    }

    /// Checks that `load` would take these bytes, without loading the index: each of its
    /// segments is checked by `check_segment` (`SegmentFacts::check`, or what an earlier check
    /// of the same bytes found), then the segments together.
    pub fn check(
        index: &[u8],
        vocabulary: Option<&[u8]>,
        site: &[u8],
        mut check_segment: impl FnMut(&[u8]) -> Result<SegmentFacts, String>,
    ) -> Result<(), AssistantError> {
        let segments = match segments::split(index) {
            Some(segments) => segments.map_err(AssistantError::Index)?,
            None => vec![index],
        };
        let facts = segments
            .into_iter()
            .map(&mut check_segment)
            .collect::<Result<Vec<_>, String>>()
            .map_err(AssistantError::Index)?;
        check_together(&facts).map_err(AssistantError::Index)?;
        read_vocabulary(vocabulary)?;
        read_site(site)?;
        Ok(())
    }

    /// Answers `request` (a JSON `AskRequest`), as JSON: a `Reply`.
    pub fn ask_json(&self, request: &[u8]) -> Result<Vec<u8>, AssistantError> {
        let request: AskRequest = serde_json::from_slice(request)
            .map_err(|e| AssistantError::Request(format!("the request is unreadable: {e}")))?;
        let reply = self.ask(&request)?;
        serde_json::to_vec(&reply).map_err(|e| AssistantError::Request(e.to_string()))
    }

    /// Answers `request`.
    pub fn ask(&self, request: &AskRequest) -> Result<Reply, AssistantError> {
        let last_question = request
            .messages
            .iter()
            .rposition(|m| m.role == "user" && !m.content.trim().is_empty())
            .ok_or_else(|| AssistantError::Request("messages hold no question".into()))?;
        let question = request.messages[last_question].content.as_str();
        quire_answer::check_question_length("the question", question)
            .map_err(AssistantError::Request)?;
        let limit = match request.retrieval_page_size {
            None => DEFAULT_RETRIEVAL_PAGE_SIZE,
            Some(n) if (1..=MAX_RETRIEVAL_PAGE_SIZE).contains(&n) => n,
            Some(n) => {
                return Err(AssistantError::Request(format!(
                    "retrievalPageSize must be from 1 to {MAX_RETRIEVAL_PAGE_SIZE}; got {n}"
                )));
            }
        };
        let history: Vec<(String, String)> = request.messages[..last_question]
            .iter()
            .filter(|m| matches!(m.role.as_str(), "user" | "assistant"))
            .filter(|m| !m.content.trim().is_empty())
            .map(|m| (m.role.clone(), m.content.clone()))
            .collect();
        let searches = Searches::plan(question, &history, "");
        let reader_page = request
            .current_path
            .as_deref()
            .map(|p| quire_core::paths::page_key(p).to_string());
        let scope = self.scope(request, reader_page.as_deref());
        let rankings = searches
            .queries()
            .into_iter()
            .map(|query| self.search(&query, fetch_size(limit), &scope, &reader_page))
            .collect();
        let sections: Vec<RetrievedSection> = searches
            .merge(rankings, limit as usize)
            .into_iter()
            .map(|hit| {
                let s = self.index.section(hit.section);
                RetrievedSection::new(
                    s.path.clone(),
                    s.anchor.clone(),
                    s.title.clone(),
                    s.heading_trail.clone(),
                    s.text.clone(),
                )
            })
            .collect();
        let answer = compose(&quire_answer::Question {
            site_name: &self.site.name,
            question,
            sections: &sections,
            vocabulary: self.vocabulary.as_ref(),
        });
        let sources = answer
            .cited
            .iter()
            .filter_map(|&i| sections.get(i))
            .map(|s| Source {
                path: s.path.clone(),
                anchor: s.anchor.clone(),
                title: s.title.clone(),
                heading_trail: s.heading_trail.clone(),
                url: s.url.clone(),
            })
            .collect();
        Ok(Reply {
            text: answer.text,
            sources,
        })
    }

    /// The version and language an answer keeps to: the request's filter, else the reader's
    /// page's, else the site's first page's (as the host's assistant searches).
    fn scope(&self, request: &AskRequest, reader_page: Option<&str>) -> Scope {
        let mut scope = request.filter.clone();
        let page = reader_page
            .and_then(|p| self.site.scopes.get(p))
            .unwrap_or(&self.site.default_scope);
        scope.version = scope.version.or_else(|| page.version.clone());
        scope.language = scope.language.or_else(|| page.language.clone());
        scope
    }

    fn search(
        &self,
        text: &str,
        limit: u32,
        scope: &Scope,
        reader_page: &Option<String>,
    ) -> Vec<Hit<'_>> {
        let query = Query {
            text: text.to_string(),
            limit: limit as usize,
            version: scope.version.clone(),
            language: scope.language.clone(),
            boost_paths: reader_page.iter().cloned().collect(),
        };
        self.index
            .rank(&query)
            .into_iter()
            .map(|ranked| Hit {
                index: &self.index,
                section: ranked.section,
            })
            .collect()
    }
}

/// A section the index ranked, as the retrieval merges it.
struct Hit<'a> {
    index: &'a Index,
    section: usize,
}

impl Ranked for Hit<'_> {
    fn path(&self) -> &str {
        &self.index.section(self.section).path
    }
    fn anchor(&self) -> &str {
        &self.index.section(self.section).anchor
    }
    fn text(&self) -> &str {
        &self.index.section(self.section).text
    }
    fn set_score(&mut self, _score: f32) {}
}

/// The version's word counts, when it has them.
fn read_vocabulary(bytes: Option<&[u8]>) -> Result<Option<Vocabulary>, AssistantError> {
    bytes
        .map(|bytes| Vocabulary::from_bytes(bytes).map_err(|e| e.to_string()))
        .transpose()
        .map_err(AssistantError::Vocabulary)
}

/// The site's facts, from their JSON.
fn read_site(bytes: &[u8]) -> Result<SiteFacts, AssistantError> {
    serde_json::from_slice(bytes).map_err(|e| AssistantError::Site(e.to_string()))
}

#[cfg(test)]
mod tests;
