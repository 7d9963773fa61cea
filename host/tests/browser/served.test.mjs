// Opens a site served by `quire docs-server` (QUIRE_SITE_URL) in headless Chromium and checks
// that browsing it, searching it, opening its API reference and, where QUIRE_EXPECT_BUNDLE_ASSISTANT
// is "on", asking the bundle's own assistant (under the server's Content-Security-Policy) makes
// no request outside its own origin and logs no error: what an air-gapped deployment must
// guarantee.

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./chromium.mjs";

const site = process.env.QUIRE_SITE_URL.replace(/\/?$/, "/");
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test("the served site stays within its own origin", async () => {
  const origin = new URL(site).origin;
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console: ${msg.text()}`); });
  page.on("pageerror", (e) => problems.push(`script: ${e.message}`));
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol !== "data:" && url.origin !== origin) problems.push(`outside request: ${r.url()}`);
  });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });

  await page.goto(site);
  await page.waitForSelector("#sidebar-tree a");
  const features = await page.evaluate(() => window.QUIRE_FEATURES);
  assert.equal(features.deployment, process.env.QUIRE_EXPECT_DEPLOYMENT);
  const bundled = process.env.QUIRE_EXPECT_BUNDLE_ASSISTANT === "on";
  assert.equal(features.assistant.offline, bundled, "the bundle's own assistant follows its switch");
  if (bundled) await page.waitForSelector(".assistant-button");
  else assert.equal(await page.locator(".assistant-button").count(), 0, "no assistant widget");
  assert.ok(await page.isHidden(".feedback"), "no feedback prompt without analytics");
  await page.click("#sidebar-tree >> text=Quickstart");
  await page.waitForURL(/quickstart/);
  await page.waitForSelector(".search-button:not([hidden])");
  await page.keyboard.press("/");
  await page.fill(".search-input", "webhook");
  await page.waitForSelector(".search-result");
  await page.locator(".search-result").first().click();
  await page.waitForURL(/webhooks/);
  if (bundled) {
    await page.click(".assistant-button");
    await page.fill(".assistant-form input", "How do I verify webhook signatures?");
    await page.press(".assistant-form input", "Enter");
    const answer = page.locator('.assistant-message[data-state="done"]');
    await answer.waitFor({ timeout: 30000 });
    const text = await answer.getAttribute("data-text");
    assert.match(text, /signature/i, text);
    assert.ok(await page.locator(".assistant-sources a").count() > 0, "the answer's sources");
  }
  await page.goto(site + "api-reference/endpoint/get-widget");
  assert.equal(
    await page.locator("form.playground:not([hidden])").count(),
    features.playground ? 1 : 0,
    "the playground follows its switch",
  );
  await context.close();
  assert.deepEqual(problems, []);
});

test("the contextual menu connects editors to the server's MCP endpoint, where it has one", async () => {
  const page = await browser.newPage();
  await page.goto(site + "quickstart");
  await page.waitForSelector(".contextual");
  const options = ".contextual [data-contextual=mcp], .contextual [data-contextual=cursor], .contextual [data-contextual=vscode]";
  if (process.env.QUIRE_EXPECT_MCP !== "on") {
    assert.equal(await page.locator(options).count(), 0);
    await page.close();
    return;
  }
  const endpoint = new URL("/mcp", site).href;
  const copy = page.locator(".contextual [data-contextual=mcp]");
  assert.ok(await copy.isVisible());
  assert.equal(await copy.getAttribute("data-url"), endpoint);
  const cursor = new URL(await page.locator(".contextual a[data-contextual=cursor]").getAttribute("href"));
  assert.equal(cursor.protocol + "//" + cursor.host + cursor.pathname, "cursor://anysphere.cursor-deeplink/mcp/install");
  assert.equal(cursor.searchParams.get("name"), "Acme Widgets");
  assert.deepEqual(JSON.parse(Buffer.from(cursor.searchParams.get("config"), "base64").toString()), { url: endpoint });
  const vscode = await page.locator(".contextual a[data-contextual=vscode]").getAttribute("href");
  assert.ok(vscode.startsWith("vscode:mcp/install?"), vscode);
  assert.deepEqual(JSON.parse(decodeURIComponent(vscode.slice("vscode:mcp/install?".length))), { name: "Acme Widgets", type: "http", url: endpoint });
  assert.ok(await page.locator(".contextual a[data-contextual=vscode]").isVisible());
  // The endpoint the links name answers MCP.
  const answer = await page.evaluate(async (url) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    return response.json();
  }, endpoint);
  assert.deepEqual(answer, { jsonrpc: "2.0", id: 1, result: {} });
  await page.close();
});
