// An MCP endpoint over Streamable HTTP (QUIRE_MCP_URL, with the key QUIRE_KEY if it takes
// one): the suite every server passes, through the official client's Streamable HTTP
// transport, then what the transport itself must refuse, asked with raw requests.

import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { docsSuite } from "./suite.mjs";

const url = process.env.QUIRE_MCP_URL;
const key = process.env.QUIRE_KEY;
const auth = key ? { Authorization: `Bearer ${key}` } : {};

async function connect() {
  const client = new Client({ name: "quire-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: auth },
  });
  await client.connect(transport);
  return client;
}

docsSuite("streamable HTTP", connect);

const jsonRpc = (body, headers = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...auth,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

test("a 2025-06-18 client initializes and lists the tools", async () => {
  const init = await jsonRpc({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "old-client", version: "0.1" },
    },
  });
  assert.equal(init.status, 200);
  const initialized = await init.json();
  assert.equal(initialized.result.protocolVersion, "2025-06-18");
  const listed = await jsonRpc(
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    { "mcp-protocol-version": "2025-06-18" },
  );
  assert.equal(listed.status, 200);
  const tools = (await listed.json()).result.tools.map((t) => t.name).sort();
  assert.deepEqual(tools, ["get_page", "list_pages", "search"]);
});

test("malformed JSON-RPC gets a JSON-RPC error, not a server error", async () => {
  const broken = await jsonRpc("{not json", { "mcp-protocol-version": "2025-11-25" });
  assert.ok(broken.status >= 400 && broken.status < 500, `status ${broken.status}`);
  const body = await broken.json();
  assert.equal(body.error.code, -32700, JSON.stringify(body));

  const notRpc = await jsonRpc({ hello: "world" }, { "mcp-protocol-version": "2025-11-25" });
  assert.ok(notRpc.status >= 400 && notRpc.status < 500, `status ${notRpc.status}`);
  assert.equal((await notRpc.json()).error.code, -32600);
});

test("an unknown method is a JSON-RPC method-not-found error", async () => {
  const response = await jsonRpc(
    { jsonrpc: "2.0", id: 7, method: "prompts/get", params: { name: "x" } },
    { "mcp-protocol-version": "2025-11-25" },
  );
  const body = await response.json();
  assert.equal(body.id, 7);
  assert.equal(body.error.code, -32601, JSON.stringify(body));
});

test("a body over the discovery endpoints' 256 KiB is refused with 413", async () => {
  const huge = {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "search", arguments: { query: "x".repeat(300 * 1024) } },
  };
  const response = await jsonRpc(huge, { "mcp-protocol-version": "2025-11-25" });
  assert.equal(response.status, 413);
});

test("a request from a foreign Host is refused (DNS rebinding)", async () => {
  const target = new URL(url);
  const status = await new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: {
          host: "evil.example.com",
          origin: "http://evil.example.com",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...auth,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
  });
  assert.ok(status >= 400 && status < 500, `status ${status}`);
});

const ping = (target, headers) =>
  fetch(target, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });

// The API host's endpoints are per site (`/mcp/{domain}`) and rate-limited; a docs server
// has one site at `/mcp`.
const perSite = /\/mcp\/[^/]+$/.test(url);
if (perSite) {
  test("another site's endpoint is not found; answers carry the rate limit", async () => {
    const other = url.replace(/\/mcp\/[^/]+$/, "/mcp/docs.other.test");
    const unknown = await ping(other, auth);
    if (key) {
      assert.equal(unknown.status, 404);
      assert.match(await unknown.text(), /docs\.other\.test/);
    } else {
      // Only the open site answers without a key.
      assert.equal(unknown.status, 401);
    }
    const answered = await ping(url, auth);
    assert.equal(answered.status, 200);
    assert.ok(answered.headers.get("x-ratelimit-remaining"), "rate limit headers");
  });
}

if (key) {
  test("without the site's key, or with a wrong one, the endpoint answers 401", async () => {
    assert.equal((await ping(url, {})).status, 401);
    assert.equal((await ping(url, { Authorization: "Bearer qk_wrong" })).status, 401);
  });
}
