// What every Quire MCP server answers for the example site (docs.acme.test), whichever way it
// is reached: the official TypeScript client connects (`connect` returns a connected Client),
// lists and calls each tool, reads a resource, goes on in the same session, filters a search by
// version, and gets tool errors for bad arguments. The client checks each structured result
// against the tool's output schema itself.

import assert from "node:assert/strict";
import { test } from "node:test";

export function docsSuite(name, connect) {
  test(`${name}: initialize names the site and offers tools and resources`, async () => {
    const client = await connect();
    try {
      const info = client.getServerVersion();
      assert.match(info.name, /Acme Widgets/);
      const capabilities = client.getServerCapabilities();
      assert.ok(capabilities.tools, "tools capability");
      assert.ok(capabilities.resources, "resources capability");
      assert.match(client.getInstructions() ?? "", /search/);
      await client.ping();
    } finally {
      await client.close();
    }
  });

  test(`${name}: the three tools have input and output schemas and are read-only`, async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      assert.deepEqual(names, ["get_page", "list_pages", "search"]);
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, "object", tool.name);
        assert.equal(tool.outputSchema?.type, "object", tool.name);
        assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
        assert.ok(tool.description.length > 20, tool.name);
      }
      const search = tools.find((t) => t.name === "search");
      assert.deepEqual(search.inputSchema.required, ["query"]);
    } finally {
      await client.close();
    }
  });

  test(`${name}: search finds sections, and get_page reads one in the same session`, async () => {
    const client = await connect();
    try {
      const found = await client.callTool({
        name: "search",
        arguments: { query: "install the client npm", pageSize: 5 },
      });
      assert.notEqual(found.isError, true, JSON.stringify(found));
      const results = found.structuredContent.results;
      assert.ok(results.length > 0 && results.length <= 5, JSON.stringify(results));
      for (const hit of results) {
        assert.ok(hit.title && hit.text && hit.path, JSON.stringify(hit));
        assert.ok(Array.isArray(hit.headingTrail), JSON.stringify(hit));
        assert.match(hit.url, /^https?:\/\//);
      }
      // The text content is the same results as Markdown, for the model to read.
      assert.equal(found.content[0].type, "text");
      for (const hit of results) assert.ok(found.content[0].text.includes(hit.url), hit.url);
      const quickstart = results.find((hit) => hit.path === "quickstart");
      assert.ok(quickstart, `quickstart among ${results.map((r) => r.path)}`);
      assert.match(quickstart.url, /\/quickstart#/);

      // A follow-up in the same session: the page of the result, by its URL.
      const page = await client.callTool({
        name: "get_page",
        arguments: { path: quickstart.url },
      });
      assert.notEqual(page.isError, true, JSON.stringify(page));
      assert.equal(page.structuredContent.path, "quickstart");
      assert.equal(page.structuredContent.title, "Quickstart");
      assert.match(page.structuredContent.markdown, /npm install @acme\/widgets/);
      assert.equal(page.content[0].type, "text");
      assert.equal(page.content[0].text, page.structuredContent.markdown);
    } finally {
      await client.close();
    }
  });

  test(`${name}: a search filtered by version keeps to that version`, async () => {
    const client = await connect();
    try {
      const v1 = await client.callTool({
        name: "search",
        arguments: { query: "install", version: "v1" },
      });
      const hits = v1.structuredContent.results;
      assert.ok(hits.length > 0, JSON.stringify(v1));
      for (const hit of hits) assert.equal(hit.version, "v1", JSON.stringify(hit));
      assert.ok(hits.some((hit) => hit.path === "v1/quickstart"), JSON.stringify(hits));

      const v2 = await client.callTool({
        name: "search",
        arguments: { query: "install", version: "v2", language: "en" },
      });
      for (const hit of v2.structuredContent.results) {
        assert.equal(hit.version, "v2", JSON.stringify(hit));
        assert.equal(hit.language, "en", JSON.stringify(hit));
      }
    } finally {
      await client.close();
    }
  });

  test(`${name}: list_pages walks the navigation with cursors`, async () => {
    const client = await connect();
    try {
      const seen = [];
      let cursor;
      let calls = 0;
      do {
        const listed = await client.callTool({
          name: "list_pages",
          arguments: cursor ? { cursor, pageSize: 10 } : { pageSize: 10 },
        });
        assert.notEqual(listed.isError, true, JSON.stringify(listed));
        assert.ok(listed.structuredContent.pages.length <= 10);
        seen.push(...listed.structuredContent.pages.map((p) => p.path));
        cursor = listed.structuredContent.nextCursor;
        calls += 1;
      } while (cursor && calls < 100);
      assert.ok(calls > 1, "more than one page of pages");
      assert.equal(new Set(seen).size, seen.length, "no page twice");
      assert.equal(seen[0], "index", "navigation order starts with the first page");
      assert.ok(seen.indexOf("quickstart") < seen.indexOf("guides/webhooks"));
      assert.ok(seen.includes("v1/quickstart"));

      const v1 = await client.callTool({ name: "list_pages", arguments: { version: "v1" } });
      assert.deepEqual(
        v1.structuredContent.pages.map((p) => p.path),
        ["v1/index", "v1/quickstart"],
      );
    } finally {
      await client.close();
    }
  });

  test(`${name}: pages are resources, read as Markdown`, async () => {
    const client = await connect();
    try {
      const { resources } = await client.listResources();
      assert.ok(resources.length > 10);
      const quickstart = resources.find((r) => r.name === "quickstart");
      assert.ok(quickstart, JSON.stringify(resources.slice(0, 3)));
      assert.equal(quickstart.uri, "docs://docs.acme.test/quickstart");
      assert.equal(quickstart.mimeType, "text/markdown");
      const read = await client.readResource({ uri: quickstart.uri });
      assert.equal(read.contents[0].uri, quickstart.uri);
      assert.match(read.contents[0].text, /## Install the client/);
      await assert.rejects(
        client.readResource({ uri: "docs://docs.acme.test/no/such/page" }),
        /no page/,
      );
    } finally {
      await client.close();
    }
  });

  test(`${name}: bad arguments are tool errors that say what is wrong`, async () => {
    const client = await connect();
    try {
      const unknown = await client.callTool({
        name: "get_page",
        arguments: { path: "guides/webhook" },
      });
      assert.equal(unknown.isError, true);
      assert.match(unknown.content[0].text, /no page "guides\/webhook".*guides\/webhooks/);

      const empty = await client.callTool({ name: "search", arguments: { query: "  " } });
      assert.equal(empty.isError, true);
      assert.match(empty.content[0].text, /query must not be empty/);

      const tooMany = await client.callTool({
        name: "search",
        arguments: { query: "widgets", pageSize: 51 },
      });
      assert.equal(tooMany.isError, true);
      assert.match(tooMany.content[0].text, /pageSize must be from 1 to 50/);

      const long = await client.callTool({
        name: "search",
        arguments: { query: "w".repeat(4001) },
      });
      assert.equal(long.isError, true);
      assert.match(long.content[0].text, /at most 4000/);

      const cursor = await client.callTool({
        name: "list_pages",
        arguments: { cursor: "not-a-cursor" },
      });
      assert.equal(cursor.isError, true);
      assert.match(cursor.content[0].text, /cursor/);

      await assert.rejects(
        client.callTool({ name: "delete_everything", arguments: {} }),
        /-32602.*tool not found/,
      );
      // Arguments that do not match the input schema: a tool error (the 2025-11-25 rule) or a
      // JSON-RPC invalid-params error, naming what is wrong either way.
      const mistyped = await client
        .callTool({ name: "search", arguments: { query: 42 } })
        .catch((error) => ({ isError: true, content: [{ text: error.message }] }));
      assert.equal(mistyped.isError, true, JSON.stringify(mistyped));
      assert.match(mistyped.content[0].text, /query|invalid type/i);
    } finally {
      await client.close();
    }
  });
}
