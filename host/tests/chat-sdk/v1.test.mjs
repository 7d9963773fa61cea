// Quire's v1 assistant stream, consumed by the real chat SDK (generation 4) exactly as
// `useChat({ streamProtocol: 'data', sendExtraMessageFields: true })` does: `callChatApi`
// posts `{id, messages, ...body}` and assembles the message; `processDataStream` and
// `parseDataStreamPart` (strict: a malformed line throws) check every part.
//
// Run by host/tests/chat_sdk.rs, which starts the server and sets QUIRE_URL, QUIRE_KEY,
// QUIRE_DOMAIN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callChatApi, parseDataStreamPart, processDataStream } from '@ai-sdk/ui-utils';

const base = process.env.QUIRE_URL;
const key = process.env.QUIRE_KEY;
const domain = process.env.QUIRE_DOMAIN;
const api = `${base}/discovery/v1/assistant/${domain}/message`;
let counter = 0;
const generateId = () => `gen-${++counter}`;

function userMessage(text) {
  return { id: generateId(), role: 'user', content: text, createdAt: new Date(), parts: [{ type: 'text', text }] };
}

/** What useChat does for one turn: post, stream, assemble. Resolves with the final message. */
async function chat(messages, extraBody = {}) {
  let response;
  let finished;
  await callChatApi({
    api,
    body: { id: 'chat-1', messages, data: undefined, fp: 'anonymous', ...extraBody },
    streamProtocol: 'data',
    credentials: undefined,
    headers: { Authorization: `Bearer ${key}` },
    abortController: () => new AbortController(),
    restoreMessagesOnFailure() {},
    onResponse(r) { response = r; },
    onUpdate() {},
    onFinish(message, details) { finished = { message, ...details }; },
    onToolCall: undefined,
    generateId,
    fetch: undefined,
    lastMessage: messages[messages.length - 1],
    requestType: 'generate',
  });
  return { response, ...finished };
}

function threadIdOf(message) {
  return (message.annotations ?? []).find((a) => a && a.threadId)?.threadId;
}

test('useChat assembles the answer, its search tool call and its sources', async () => {
  const question = userMessage('How are failed webhook deliveries retried?');
  const { response, message, finishReason } = await chat([question]);
  assert.equal(response.headers.get('x-vercel-ai-data-stream'), 'v1');
  assert.equal(finishReason, 'stop');
  assert.equal(message.role, 'assistant');
  assert.match(message.content, /exponential backoff/);

  const search = message.parts.find((p) => p.type === 'tool-invocation');
  assert.ok(search, 'a search tool invocation');
  assert.equal(search.toolInvocation.toolName, 'search');
  assert.equal(search.toolInvocation.state, 'result');
  assert.equal(typeof search.toolInvocation.args.query, 'string');
  const hits = search.toolInvocation.result;
  assert.ok(hits.length > 0 && hits.length <= 5, `retrievalPageSize defaults to 5: ${hits.length}`);
  for (const hit of hits) {
    assert.equal(typeof hit.path, 'string');
    assert.equal(typeof hit.content, 'string');
    assert.equal(typeof hit.metadata.title, 'string');
  }
  assert.equal(hits[0].path, 'guides/webhooks');

  const sources = message.parts.filter((p) => p.type === 'source').map((p) => p.source);
  assert.ok(sources.length > 0, 'source parts');
  assert.ok(sources.every((s) => s.sourceType === 'url' && s.url.startsWith('/')));
  // The sources are the sections the answer links, not everything the search returned.
  for (const s of sources) assert.ok(message.content.includes(`(${s.url})`), `${s.url} is linked`);
  assert.ok(sources.length < hits.length || hits.every((h) => message.content.includes(`(/${h.path}`)));
  assert.ok(message.parts.some((p) => p.type === 'text'));

  const threadId = threadIdOf(message);
  assert.match(threadId, /^th_/);
  assert.equal(response.headers.get('x-thread-id'), threadId);
});

test('every line parses, the finish part is last and carries threadId', async () => {
  const body = JSON.stringify({ fp: 'anonymous', messages: [userMessage('How do I rotate API keys?')], retrievalPageSize: 2 });
  const response = await fetch(api, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body });
  assert.equal(response.status, 200);
  const raw = await response.text();
  const lines = raw.split('\n').filter((l) => l.length > 0);
  const parsed = lines.map((line) => parseDataStreamPart(line));
  assert.equal(parsed.at(-1).type, 'finish_message');
  assert.match(JSON.parse(lines.at(-1).slice(2)).threadId, /^th_/, 'd: carries threadId');
  assert.deepEqual(parsed.slice(0, 4).map((p) => p.type), ['start_step', 'tool_call', 'tool_result', 'finish_step']);
  assert.equal(parsed.filter((p) => p.type === 'tool_result')[0].value.result.length, 2);

  const seen = [];
  let textSoFar = '';
  await processDataStream({
    stream: new Response(raw).body,
    onTextPart: (text) => {
      textSoFar += text;
      seen.push('text');
    },
    // A citation comes right after the text it supports: the line that first links it.
    onSourcePart: (source) => {
      assert.ok(textSoFar.includes(`](${source.url})`), `${source.url} is linked before its source part`);
      seen.push('source');
    },
    onToolCallPart: () => seen.push('tool_call'),
    onToolResultPart: () => seen.push('tool_result'),
    onStartStepPart: () => seen.push('start_step'),
    onFinishStepPart: () => seen.push('finish_step'),
    onMessageAnnotationsPart: () => seen.push('annotations'),
    onFinishMessagePart: () => seen.push('finish_message'),
    onErrorPart: (e) => assert.fail(`error part: ${e}`),
  });
  assert.equal(seen.at(-1), 'finish_message');
  for (const kind of ['text', 'source', 'tool_call', 'tool_result', 'annotations']) {
    assert.ok(seen.includes(kind), `${kind} part`);
  }
  assert.equal(seen.indexOf('text') < seen.indexOf('source'), true, 'text comes before its first source');
});

test('a follow-up with threadId continues the thread, history and all', async () => {
  const first = userMessage('How are failed webhook deliveries retried?');
  const turn1 = await chat([first]);
  const threadId = threadIdOf(turn1.message);
  // useChat sends the whole conversation back, the assembled assistant message included
  // (its step-start, tool-invocation, source and text parts, and its annotations).
  const followUp = userMessage('And how do I check their signatures?');
  const turn2 = await chat([first, turn1.message, followUp], { threadId });
  assert.equal(threadIdOf(turn2.message), threadId);
  assert.equal(turn2.response.headers.get('x-thread-id'), threadId);
  assert.match(turn2.message.content, /HMAC-SHA256|signature/i);
});

test('unknown threads and bad bodies are refused before streaming', async () => {
  await assert.rejects(
    chat([userMessage('hello')], { threadId: 'th_does_not_exist' }),
    /no thread/,
  );
  await assert.rejects(chat([userMessage('hello')], { currentPath: 'x'.repeat(201) }), /currentPath must be at most 200/);
});
