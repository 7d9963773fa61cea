// Opens an exported bundle in headless Chromium (Debian's package, driven by playwright-core)
// the way a reader would: from file:// and from a sub-path of a local HTTP server. It walks the
// sidebar, tabs and previous/next links, switches version, language and dark mode, searches,
// opens tabs and accordions, and uses "Try it" against a local test API. Any console error,
// failed or 4xx/5xx request, request to a host other than the bundle's (the test API aside,
// while "Try it" runs) or broken link fails the test. Screenshots go to $QUIRE_ARTIFACTS.
//
// Environment: QUIRE_BUNDLE_DIR (the unpacked bundle), QUIRE_ARTIFACTS (screenshot folder),
// QUIRE_ASSISTANT_ENDPOINT and QUIRE_ASSISTANT_KEY (a running API host's v1 assistant endpoint
// and a public assistant key, for the widget test).

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { launch } from "./chromium.mjs";

const bundle = process.env.QUIRE_BUNDLE_DIR;
const artifacts = process.env.QUIRE_ARTIFACTS || path.join(bundle, "..", "screenshots");
fs.mkdirSync(artifacts, { recursive: true });

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css",
  ".svg": "image/svg+xml", ".json": "application/json", ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8", ".md": "text/markdown; charset=utf-8",
};

/** Serves the bundle under /docs/site/ (a sub-path), with its 404 page for anything else. */
function bundleServer() {
  return http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const prefix = "/docs/site/";
    let file = null;
    if (url.pathname.startsWith(prefix)) {
      const rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
      const candidate = path.join(bundle, rel);
      if (candidate.startsWith(bundle) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) file = candidate;
    }
    if (!file) {
      res.writeHead(404, { "Content-Type": TYPES[".html"] });
      res.end(fs.readFileSync(path.join(bundle, "404.html")));
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] || "application/octet-stream" });
    res.end(fs.readFileSync(file));
  });
}

/** A small widgets API for "Try it", allowing requests from any origin (file:// sends "null"). */
function testApi(calls) {
  return http.createServer((req, res) => {
    const cors = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "content-type, authorization",
      "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    calls.push(`${req.method} ${req.url}`);
    const match = req.url.match(/^\/v1\/widgets\/([^/?]+)/);
    if (req.method === "GET" && match) {
      res.writeHead(200, { ...cors, "Content-Type": "application/json" });
      res.end(JSON.stringify({ id: decodeURIComponent(match[1]), name: "first-widget", state: "active" }));
      return;
    }
    res.writeHead(404, { ...cors, "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "not found" }));
  });
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

let browser;
let site;
let api;
let sitePort;
let apiPort;
const apiCalls = [];

before(async () => {
  site = bundleServer();
  api = testApi(apiCalls);
  sitePort = await listen(site);
  apiPort = await listen(api);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  site?.close();
  api?.close();
});

/** A fresh browser context that records every problem a reader would meet. */
async function reader(base, label) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  const state = { allowApi: false };
  const baseUrl = new URL(base);
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error on ${page.url()}: ${msg.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`script error on ${page.url()}: ${error.message}`));
  page.on("requestfailed", (request) => {
    const reason = request.failure()?.errorText;
    // A click that leaves the page cancels what it was still loading; that is not a failure.
    if (reason === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${request.url()} (${reason})`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} for ${response.url()}`);
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    const ownOrigin = baseUrl.protocol === "file:" ? url.protocol === "file:" : url.host === baseUrl.host;
    const isApi = url.host === `127.0.0.1:${apiPort}`;
    const allowed = state.allowHost && url.host === state.allowHost;
    if (url.protocol === "data:" || ownOrigin || (isApi && state.allowApi) || allowed) return;
    problems.push(`request to another host: ${request.url()}`);
  });
  return { context, page, problems, state, label };
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });
}

/** Every local link and asset of every page of the bundle exists. */
function brokenLinks() {
  const broken = [];
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
  for (const file of walk(bundle).filter((f) => f.endsWith(".html"))) {
    const html = fs.readFileSync(file, "utf8");
    for (const match of html.matchAll(/(?:href|src)="([^"]+)"/g)) {
      const link = match[1].replaceAll("&amp;", "&");
      if (/^(#|mailto:|https?:|data:)/.test(link)) {
        if (/^https?:/.test(link) && !/^https:\/\/api\.acme\.test/.test(link)) {
          // External links are the author's; none should be loaded as assets.
        }
        continue;
      }
      const target = path.resolve(path.dirname(file), link.split("#")[0].split("?")[0]);
      if (!fs.existsSync(target)) broken.push(`${path.relative(bundle, file)} -> ${link}`);
    }
  }
  return broken;
}

test("every local link and asset in the bundle resolves", () => {
  assert.deepEqual(brokenLinks(), []);
});

for (const mode of ["file", "http"]) {
  test(`a reader browses the exported site over ${mode}`, async () => {
    const base = mode === "file"
      ? pathToFileURL(bundle + path.sep).href
      : `http://127.0.0.1:${sitePort}/docs/site/`;
    const r = await reader(base, mode);
    const { page, problems } = r;
    const at = (suffix) => assert.ok(page.url().split("#")[0].endsWith(suffix), `expected ${suffix}, at ${page.url()}`);

    // Home: the sidebar is drawn from the shared navigation script.
    await page.goto(base + "index.html");
    await page.waitForSelector("#sidebar-tree a");
    assert.ok(await page.locator("#sidebar-tree a").count() >= 5, "sidebar links");
    assert.equal(await page.locator("#sidebar-tree a.active").count(), 1);
    // The site's own stylesheet styles its pages; its own script stays inert, as this bundle's
    // feature file names no deployment that lets the site's code run (docs_server.rs checks
    // that it runs where one does).
    assert.equal(await page.locator(".acme-status").evaluate((e) => getComputedStyle(e).borderLeftStyle), "solid");
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-acme-status")), null);
    // A page's frontmatter tag stands beside its entry.
    assert.equal(await page.locator("#sidebar-tree a[href$='guides/webhooks.html'] .nav-tag").textContent(), "BETA");
    await shot(page, `${mode}-home`);

    // The contextual menu offers assistants only where the page has a web address; so are
    // custom options that name the page, while a custom plain link is one everywhere.
    const assistants = await page.locator(".contextual a[data-contextual=chatgpt]").count();
    const share = page.locator(".contextual a >> text=Share");
    if (mode === "http") {
      assert.match(await page.locator(".contextual a[data-contextual=chatgpt]").getAttribute("href"), /^https:\/\/chatgpt\.com\/\?hints=search&q=Read%20http/);
      assert.match(await share.getAttribute("href"), /^https:\/\/share\.acme\.test\/new\?url=http%3A%2F%2F127\.0\.0\.1/);
    } else {
      assert.equal(assistants, 0, "no assistant links from file://");
      assert.equal(await share.count(), 0, "no page-naming option from file://");
    }
    assert.equal(
      await page.locator(".contextual [data-contextual=mcp], .contextual [data-contextual=cursor], .contextual [data-contextual=vscode]").count(),
      0,
      "no MCP options where nothing serves MCP",
    );
    assert.equal(await page.locator(".contextual a >> text=Docs for models").getAttribute("href"), "llms-full.txt");

    // The banner's Markdown link leads to a page; closed, it stays closed on the next page.
    assert.equal(await page.locator(".banner a").getAttribute("href"), "quickstart.html");
    assert.equal(await page.locator(".banner strong").textContent(), "v2");
    await page.click(".banner-close");
    assert.equal(await page.locator(".banner").isVisible(), false, "closed");

    // Sidebar, then previous/next.
    await page.click("#sidebar-tree >> text=Quickstart");
    at("quickstart.html");
    if (mode === "http") {
      // quire.js hides it once it has run: wait for that rather than read it before.
      await page.locator(".banner").waitFor({ state: "hidden", timeout: 10000 })
        .catch(() => assert.fail("a closed banner stays closed"));
    }
    await page.click("a.pager-next");
    at("concepts.html");
    await page.click("a.pager-prev");
    at("quickstart.html");

    // interaction.drilldown: opening a closed group opens its first page ("Deploying" is
    // `expanded`: the first click closes it, staying on the page).
    await page.click("#sidebar-tree summary >> text=Deploying");
    at("quickstart.html");
    await page.click("#sidebar-tree summary >> text=Deploying");
    at("guides/deploy/docker.html");
    assert.match(await page.locator("#sidebar-tree a.active").textContent(), /Docker/);
    await page.goto(base + "quickstart.html");

    // Section tabs.
    await page.click(".tabs-bar >> text=API reference");
    at("api-reference/overview.html");
    await page.waitForSelector("#sidebar-tree >> text=Get a widget");
    assert.equal(await page.locator("#sidebar-tree >> text=Quickstart").count(), 0, "only the API tab's pages");

    // Version and language switchers.
    await page.goto(base + "quickstart.html");
    await page.click(".switcher-version summary");
    await page.click(".switcher-version a[data-version=v1]");
    at("v1/quickstart.html");
    assert.match(await page.textContent("h1"), /1\.x/);
    await page.click(".switcher-version summary");
    await page.click(".switcher-version a[data-version=v2]");
    at("quickstart.html");
    await page.click(".switcher-language summary");
    await page.click(".switcher-language a[data-language=fr]");
    at("fr/quickstart.html");
    assert.equal(await page.getAttribute("html", "lang"), "fr");
    await page.waitForSelector("#sidebar-tree a.active");
    assert.match(await page.textContent("#sidebar-tree"), /Démarrage rapide/);

    // Dark mode, remembered across pages.
    await page.goto(base + "guides/components.html");
    const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    assert.equal(await dark(), false);
    await page.click(".theme-toggle");
    assert.equal(await dark(), true);
    await shot(page, `${mode}-components-dark`);
    await page.reload();
    assert.equal(await dark(), true, "dark mode survives a reload");
    await page.click(".theme-toggle");

    // Tabs (synced with the code group of the same titles) and an accordion.
    await page.click(".tabs .tab-button >> text=pip");
    assert.ok(await page.isVisible(".tabs >> text=pip install acme-widgets"));
    assert.ok(!(await page.isVisible(".tabs >> text=npm install @acme/widgets")));
    assert.ok(await page.isVisible(".code-group >> text=from acme_widgets import Widgets"), "code group follows the tab");
    const accordion = page.locator("details.accordion", { hasText: "Can I rename a widget?" });
    assert.equal(await accordion.evaluate((d) => d.open), false);
    await accordion.locator("summary").click();
    assert.equal(await accordion.evaluate((d) => d.open), true);
    assert.ok(await page.isVisible("text=send an update with a new"));
    assert.ok(await page.locator(".code-block .line.highlighted").count() >= 1, "line highlight");
    assert.ok(await page.locator(".code-block .copy-button").count() >= 3, "copy buttons");
    assert.ok(await page.locator("svg[data-icon=bolt]").count() === 1, "inline icon");
    assert.match(await page.textContent("article"), /version 2\.4\.1/, "snippet constant");
    assert.match(await page.textContent("article"), /Questions about components\?/, "snippet component");
    await shot(page, `${mode}-components`);

    // Offline search: the first query's payload, then open a result.
    await page.goto(base + "index.html");
    await page.waitForSelector(".search-button:not([hidden])");
    await page.keyboard.press("/");
    await page.waitForSelector(".search-input");
    await page.fill(".search-input", "webhook signatures");
    await page.waitForSelector(".search-result");
    const first = await page.locator(".search-result").first().getAttribute("href");
    assert.match(first, /guides\/webhooks\.html/);
    await shot(page, `${mode}-search`);
    await page.locator(".search-result").first().click();
    at("guides/webhooks.html");
    // Results stay in the reader's version: the legacy CLI exists only in v1's pages.
    await page.waitForSelector(".search-button:not([hidden])");
    await page.keyboard.press("/");
    await page.fill(".search-input", "acmectl");
    await page.waitForSelector(".search-status:has-text('No results')");
    await page.goto(base + "v1/index.html");
    await page.waitForSelector(".search-button:not([hidden])");
    await page.keyboard.press("/");
    await page.fill(".search-input", "acmectl");
    await page.waitForSelector(".search-result");
    assert.match(await page.locator(".search-result").first().getAttribute("href"), /v1\//);

    // "Try it" against the local test API.
    await page.goto(base + "api-reference/endpoint/get-widget.html");
    await page.waitForSelector("form.playground:not([hidden])");
    await page.fill("form.playground input[name=server]", `http://127.0.0.1:${apiPort}/v1`);
    await page.fill("form.playground input[data-name=id]", "wid_42");
    r.state.allowApi = true;
    await page.click("form.playground button[type=submit]");
    await page.waitForSelector(".playground-response[data-status]");
    r.state.allowApi = false;
    assert.equal(await page.getAttribute(".playground-response", "data-status"), "200");
    assert.match(await page.textContent(".playground-response"), /wid_42/);
    assert.ok(apiCalls.includes("GET /v1/widgets/wid_42"), apiCalls.join(", "));
    await shot(page, `${mode}-playground`);
    // The request and response examples sit in the side column, beside the reference.
    const side = await page.locator("aside.api-side").boundingBox();
    const article = await page.locator("article").boundingBox();
    assert.ok(side && article && side.x >= article.x + article.width, "examples right of the reference");
    assert.ok(await page.isVisible("aside.api-side .request-example >> text=curl -X GET"));
    // The request in the site's other languages, as tabs.
    await page.click("aside.api-side .request-example .tab-button >> text=Python");
    assert.ok(await page.isVisible("aside.api-side .request-example >> text=import requests"));
    assert.ok(!(await page.isVisible("aside.api-side .request-example >> text=curl -X GET")));

    // An AsyncAPI channel, generated from the navigation's `asyncapi` document.
    await page.click("#sidebar-tree >> text=Widget updates");
    at("api-reference/events/widgetupdates.html");
    assert.match(await page.textContent(".api-endpoint"), /WSS\s*wss:\/\/events\.acme\.test\/v1\/widgets\/\{widgetId\}/);
    assert.match(await page.textContent("article"), /Receive: Follow a widget/);
    // A JSON string is one token: its quotes are part of the text.
    assert.ok(await page.isVisible("aside.api-side >> text='\"live\"'"), "the message's own example");
    await shot(page, `${mode}-asyncapi`);

    // Every link the scripts drew on a page resolves, too.
    for (const href of await page.$$eval("#sidebar-tree a", (as) => as.map((a) => a.href))) {
      if (href.startsWith("file:")) assert.ok(fs.existsSync(new URL(href)), `sidebar link ${href}`);
    }

    await r.context.close();
    assert.deepEqual(problems, [], `problems over ${mode}`);
  });
}

test("a missing page gets the bundle's 404 page with status 404 and suggestions", async () => {
  const r = await reader(`http://127.0.0.1:${sitePort}/docs/site/`, "404");
  // Two folders deep under the sub-path: the page finds the bundle's root by itself.
  const response = await r.page.goto(`http://127.0.0.1:${sitePort}/docs/site/old/pages/quickstart.html`);
  assert.equal(response.status(), 404);
  assert.match(await r.page.textContent("h1"), /This page has moved, or never was/);
  await r.page.waitForSelector("#suggestions a");
  const suggestions = await r.page.$$eval("#suggestions a", (links) => links.map((a) => a.href));
  assert.ok(suggestions.includes(`http://127.0.0.1:${sitePort}/docs/site/quickstart.html`), suggestions.join(", "));
  // The description's Markdown link and the way home lead from the root, not from /old/pages/.
  assert.equal(await r.page.getAttribute("main p strong a", "href"), "/docs/site/quickstart.html");
  assert.match(await r.page.getAttribute("#home", "href"), /^\/docs\/site\/[^/]+\.html$/);
  await r.context.close();
});

test("with errors.404.redirect left on, a missing page sends the reader home", async () => {
  const r = await reader(`http://127.0.0.1:${sitePort}/docs/site/`, "404-redirect");
  const home = /data-home="([^"]+)"/.exec(fs.readFileSync(path.join(bundle, "404.html"), "utf8"))[1];
  // The example site turns the redirect off; this page is the one a site that leaves it on gets.
  await r.page.route("**/gone/page.html", async (route) => {
    const original = await route.fetch();
    const body = (await original.text()).replace('data-redirect="false"', 'data-redirect="true"');
    await route.fulfill({ response: original, body });
  });
  await r.page.goto(`http://127.0.0.1:${sitePort}/docs/site/gone/page.html`);
  await r.page.waitForURL(`http://127.0.0.1:${sitePort}/docs/site/${home}.html`);
  await r.context.close();
});

test("the assistant widget and the analytics beacon talk to the API host", { skip: !process.env.QUIRE_ASSISTANT_ENDPOINT }, async () => {
  const endpoint = process.env.QUIRE_ASSISTANT_ENDPOINT;
  const featuresFile = path.join(bundle, "quire-features.js");
  const original = fs.readFileSync(featuresFile, "utf8");
  const features = {
    search: true,
    playground: true,
    assistant: { enabled: true, endpoint, key: process.env.QUIRE_ASSISTANT_KEY },
    analytics: {
      enabled: true,
      endpoint: endpoint.replace(/\/discovery\/v1\/assistant\/([^/]+)\/message$/, "/discovery/v1/analytics/$1/events"),
      key: process.env.QUIRE_ASSISTANT_KEY,
    },
  };
  fs.writeFileSync(featuresFile, `window.QUIRE_FEATURES = ${JSON.stringify(features)};\n`);
  try {
    const base = `http://127.0.0.1:${sitePort}/docs/site/`;
    const r = await reader(base, "assistant");
    r.state.allowHost = new URL(endpoint).host;
    await r.page.goto(base + "guides/webhooks.html");
    // The feedback prompt shows only where analytics is on; answering it sends an event.
    await r.page.click(".feedback button[data-feedback=yes]");
    await r.page.waitForSelector(".feedback:has-text('Thank you')");
    await r.page.click(".assistant-button");
    await r.page.fill(".assistant-form input", "How do I verify webhook signatures?");
    await r.page.click(".assistant-form button");
    await r.page.waitForSelector(".assistant-sources a", { timeout: 20000 });
    const answer = await r.page.textContent(".assistant-assistant");
    assert.match(answer, /signature/i);
    const sources = await r.page.$$eval(".assistant-sources a", (as) => as.map((a) => a.getAttribute("href")));
    assert.ok(sources.some((href) => /webhooks\.html/.test(href)), sources.join(", "));
    await shot(r.page, "assistant-widget");
    // A follow-up keeps the thread.
    await r.page.fill(".assistant-form input", "And how are deliveries retried?");
    await r.page.click(".assistant-form button");
    await r.page.waitForFunction(() => document.querySelectorAll(".assistant-sources").length === 2, null, { timeout: 20000 });
    await r.context.close();
    assert.deepEqual(r.problems, []);
  } finally {
    fs.writeFileSync(featuresFile, original);
  }
});
