// Opens sample pages of an exported site, served by an air-gapped docs server, in headless
// Chromium (Debian's package, driven by playwright-core): each page's own link must be marked
// current in the sidebar the page script draws, its Mermaid diagrams (if any) must be drawn, its
// embeds from other sites shown as link cards (the server is air-gapped), and
// no request may leave the docs server. A screenshot of the first page, and of each page with a
// diagram, goes to $QUIRE_ARTIFACTS.
//
// Environment: QUIRE_DOCS_BASE (the docs server's URL), QUIRE_PAGES (JSON list of page paths
// without extension), QUIRE_ARTIFACTS (screenshot folder).

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { launch } from "./chromium.mjs";

const base = process.env.QUIRE_DOCS_BASE;
const pages = JSON.parse(process.env.QUIRE_PAGES || "[]");
const artifacts = process.env.QUIRE_ARTIFACTS;
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test("sample pages are in their sidebar and load nothing from elsewhere", async () => {
  assert.ok(base && pages.length, "QUIRE_DOCS_BASE and QUIRE_PAGES are required");
  const origin = new URL(base).origin;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const elsewhere = [];
  const failures = [];
  page.on("response", (response) => {
    const url = response.url();
    if (!url.startsWith(origin) && !url.startsWith("data:")) elsewhere.push(url);
  });
  page.on("pageerror", (error) => failures.push(`${page.url()}: ${error.message}`));
  for (const [i, path_] of pages.entries()) {
    const response = await page.goto(`${base}/${path_}`, { waitUntil: "load" });
    assert.equal(response.status(), 200, `${path_} answered ${response.status()}`);
    await page.waitForSelector("#sidebar-tree ul", { timeout: 10000 });
    const current = await page.locator('#sidebar-tree a[aria-current="page"]').count();
    if (current < 1) failures.push(`${path_}: its own link is not in its sidebar`);
    // Embeds from other sites become link cards on an air-gapped server.
    const frames = await page.locator("[data-quire-embed]").count();
    const cards = await page.locator("a.embed-link").count();
    if (frames > 0) failures.push(`${path_}: ${frames} embeds left in the page on an air-gapped server`);
    if (cards > 0 && artifacts) {
      fs.mkdirSync(artifacts, { recursive: true });
      await page.locator("a.embed-link").first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(artifacts, `embed-${path_.replaceAll("/", "_")}.png`), fullPage: false });
    }
    const diagrams = await page.locator(".mermaid-block").count();
    if (diagrams > 0) {
      try {
        await page.waitForFunction((n) => document.querySelectorAll(".mermaid-diagram svg").length === n, diagrams, { timeout: 20000 });
      } catch {
        failures.push(`${path_}: ${diagrams} Mermaid diagrams, ${await page.locator(".mermaid-diagram svg").count()} drawn`);
      }
    }
    if (artifacts && (i === 0 || diagrams > 0)) {
      fs.mkdirSync(artifacts, { recursive: true });
      const name = i === 0 ? "sidebar" : `diagram-${path_.replaceAll("/", "_")}`;
      if (i > 0) await page.locator(".mermaid-diagram").first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });
    }
  }
  await context.close();
  assert.deepEqual(failures, [], failures.join("\n"));
  assert.deepEqual(elsewhere, [], `requests off the docs server:\n${elsewhere.join("\n")}`);
});
