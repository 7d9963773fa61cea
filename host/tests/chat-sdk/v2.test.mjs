// Quire's v2 assistant stream (UI message stream, server-sent events), consumed by the real
// chat SDK generation 5 as `useChat` does: `DefaultChatTransport.sendMessages` posts the UI
// messages and `readUIMessageStream` assembles the reply. Run against the latest ai@5.0 and
// against ai@5.0.0, whose chunk schemas reject unknown keys.
//
// Run by host/tests/chat_sdk.rs, which starts the server and sets QUIRE_URL, QUIRE_KEY,
// QUIRE_DOMAIN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as latest from 'ai-v5';
import * as first from 'ai-v5-0-0';

const base = process.env.QUIRE_URL;
const key = process.env.QUIRE_KEY;
const domain = process.env.QUIRE_DOMAIN;
const api = `${base}/discovery/v2/assistant/${domain}/message`;

function userMessage(id, text) {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** One turn as useChat does it; resolves with the assembled assistant message. */
async function chat(sdk, messages, body = {}) {
  const transport = new sdk.DefaultChatTransport({ api, headers: { Authorization: `Bearer ${key}` }, body: { fp: 'anonymous' } });
  const stream = await transport.sendMessages({
    chatId: 'chat-1',
    messages,
    abortSignal: undefined,
    trigger: 'submit-message',
    messageId: undefined,
    body,
  });
  let message;
  const errors = [];
  for await (const m of sdk.readUIMessageStream({ stream, onError: (e) => errors.push(e) })) {
    message = m;
  }
  assert.deepEqual(errors, []);
  return message;
}

function textOf(message) {
  return message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
}

for (const [name, sdk] of [['ai@5 (latest 5.0)', latest], ['ai@5.0.0', first]]) {
  test(`${name}: the answer, its sources and the thread id`, async () => {
    const message = await chat(sdk, [userMessage('u1', 'How are failed webhook deliveries retried?')]);
    assert.equal(message.role, 'assistant');
    assert.match(textOf(message), /exponential backoff/);
    const sources = message.parts.filter((p) => p.type === 'source-url');
    assert.ok(sources.length > 0, 'source-url parts');
    assert.ok(sources.every((s) => s.url.startsWith('/') && typeof s.title === 'string'));
    // Each source sits right after the text part that first links it, as the parts came.
    for (const source of sources) {
      const at = message.parts.indexOf(source);
      const before = message.parts.slice(0, at).filter((p) => p.type === 'text').map((p) => p.text).join('');
      assert.ok(before.includes(`](${source.url})`), `${source.url} is linked before its source part`);
      const previous = message.parts[at - 1];
      assert.ok(previous.type === 'text' || previous.type === 'source-url', previous.type);
      if (previous.type === 'text') {
        assert.ok(previous.text.trimEnd().endsWith(`](${source.url})`), `${source.url} ends the text part before it`);
      }
    }
    assert.equal(message.parts.findIndex((p) => p.type === 'text') < message.parts.indexOf(sources[0]), true);
    assert.ok(message.parts.some((p) => p.type === 'step-start'));
    assert.match(message.metadata.threadId, /^th_/);
  });

  test(`${name}: a follow-up continues the thread`, async () => {
    const question = userMessage('u1', 'How are failed webhook deliveries retried?');
    const answer = await chat(sdk, [question]);
    const threadId = answer.metadata.threadId;
    const followUp = await chat(sdk, [question, answer, userMessage('u2', 'And how do I check their signatures?')], { threadId });
    assert.equal(followUp.metadata.threadId, threadId);
    assert.match(textOf(followUp), /signature/i);
  });
}

test('the stream is server-sent events ending with [DONE]', async () => {
  const response = await fetch(api, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [userMessage('u1', 'rotate API keys')] }),
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  assert.equal(response.headers.get('x-vercel-ai-ui-message-stream'), 'v1');
  assert.equal(response.headers.get('cache-control'), 'no-cache');
  const raw = await response.text();
  assert.ok(raw.endsWith('data: [DONE]\n\n'));
  const finish = raw.split('\n\n').filter((c) => c.startsWith('data: {')).map((c) => JSON.parse(c.slice(6))).at(-1);
  assert.deepEqual(Object.keys(finish).sort(), ['messageMetadata', 'type']);
  assert.equal(finish.type, 'finish');
});
