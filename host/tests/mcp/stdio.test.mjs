// `quire mcp` over stdio, started by the official client's stdio transport as an agent starts
// it: the suite every server passes on an exported bundle (QUIRE_BUNDLE), and a site folder
// (QUIRE_SITE), which it builds first. QUIRE_BIN is the quire binary, QUIRE_DATA_DIR its data
// folder (compiled plugins).

import assert from "node:assert/strict";
import { test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { docsSuite } from "./suite.mjs";

function connectTo(path, extra = []) {
  return async () => {
    const client = new Client({ name: "quire-tests", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.env.QUIRE_BIN,
      args: ["--data-dir", process.env.QUIRE_DATA_DIR, "mcp", path, ...extra],
      stderr: "inherit",
    });
    await client.connect(transport);
    return client;
  };
}

docsSuite("stdio, bundle", connectTo(process.env.QUIRE_BUNDLE));

test("stdio, site folder: built, then searched and read", async () => {
  const client = await connectTo(process.env.QUIRE_SITE, ["--domain", "docs.acme.test"])();
  try {
    assert.match(client.getServerVersion().name, /Acme Widgets/);
    const found = await client.callTool({
      name: "search",
      arguments: { query: "webhook signature", pageSize: 3 },
    });
    assert.ok(found.structuredContent.results.length > 0, JSON.stringify(found));
    const page = await client.callTool({ name: "get_page", arguments: { path: "guides/webhooks" } });
    assert.notEqual(page.isError, true, JSON.stringify(page));
    assert.match(page.structuredContent.markdown, /webhook/i);
  } finally {
    await client.close();
  }
});
