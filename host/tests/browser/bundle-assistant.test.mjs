// The assistant an exported bundle carries, in headless Chromium from file://: every case of
// $QUIRE_ASSISTANT_CASES (`cases`, a list of {messages, expected}: the server's answers to the
// same conversations) is asked through the page's assistant and must get the server's answer,
// word for word. `widget` ({question, expected}: the server's answer to a reader on the home
// page) is asked as that reader asks it: typed in the search dialog, then "Ask". Any request
// that is not a file of the bundle, any script error, and any file of the assistant's that
// fails to load fails the test. Prints the module's and data's sizes, the time from the first
// question to its answer (loading included) and the time per answer after it, as JSON on a
// line starting "bundle-assistant:".
//
// Environment: QUIRE_BUNDLE_DIR (the unpacked bundle), QUIRE_ASSISTANT_CASES (the cases file),
// QUIRE_ARTIFACTS (where a screenshot of the widget goes).

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { launch } from "./chromium.mjs";

const bundle = process.env.QUIRE_BUNDLE_DIR;
const { cases, widget } = JSON.parse(fs.readFileSync(process.env.QUIRE_ASSISTANT_CASES, "utf8"));
const artifacts = process.env.QUIRE_ARTIFACTS || path.join(bundle, "..", "screenshots");
fs.mkdirSync(artifacts, { recursive: true });

function size(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((total, entry) => {
    const file = path.join(dir, entry.name);
    return total + (entry.isDirectory() ? size(file) : fs.statSync(file).size);
  }, 0);
}

test("the bundle's assistant answers as the server does, from file://", async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("request", (request) => {
      if (!request.url().startsWith("file://")) problems.push(`request off the bundle: ${request.url()}`);
    });
    // The shared corpora are snapshots that lack some images and favicons their pages name
    // (bundle.test.mjs checks the pages): here, a file of the assistant's that fails to load,
    // or an error that is not a missing file, is a problem.
    page.on("requestfailed", (request) => {
      if (/\/assets\/assistant\.js$|\/assistant\//.test(request.url())) problems.push(`failed: ${request.url()}`);
    });
    page.on("console", (message) => {
      const missingFile = message.text().startsWith("Failed to load resource");
      if (message.type() === "error" && !missingFile) problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await page.goto(pathToFileURL(path.join(bundle, "index.html")).href);
    await page.waitForFunction(() => window.QuireAssistant, null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => window.QuireAssistant.mode), "bundled");

    const started = Date.now();
    const first = await page.evaluate((messages) => window.QuireAssistant.ask({ messages }), cases[0].messages);
    const firstAnswerMs = Date.now() - started;
    assert.equal(first.text, cases[0].expected, "the first answer");

    const mismatches = [];
    const askedAt = Date.now();
    for (const [i, c] of cases.entries()) {
      const reply = await page.evaluate((messages) => window.QuireAssistant.ask({ messages }), c.messages);
      if (reply.text !== c.expected) {
        const question = c.messages[c.messages.length - 1].content;
        mismatches.push(`case ${i} (${question}):\n--- server\n${c.expected}\n--- bundle\n${reply.text}`);
      }
      for (const source of reply.sources) {
        assert.ok(reply.text.includes(`](${source.url})`), `a source the answer does not link: ${source.url}`);
      }
    }
    const perAnswerMs = (Date.now() - askedAt) / cases.length;
    assert.deepEqual(mismatches, [], `${mismatches.length} of ${cases.length} answers differ`);

    // As a reader asks: the question typed in the search dialog, then its "Ask", the answer
    // shown in the widget with its sources.
    await page.keyboard.press("/");
    await page.fill(".search-input", widget.question);
    await page.click(".search-ask");
    const shown = page.locator('.assistant-message[data-state="done"]').last();
    await shown.waitFor({ timeout: 30000 });
    const text = await shown.getAttribute("data-text");
    assert.equal(text, widget.expected, "the widget's answer");
    // Drawn as the reader reads it: quotes, and links that open this copy's pages.
    const quotes = (text.match(/^> /gm) || []).length > 0;
    assert.equal(await shown.locator("blockquote").count() > 0, quotes, "quotes drawn as quotes");
    const links = await shown.locator(":scope > :not(.assistant-sources) a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    assert.ok(links.length > 0 && links.every((href) => /\.html(#|$)/.test(href) && !href.startsWith("/")), links.join(", "));
    await page.screenshot({ path: path.join(artifacts, "bundle-assistant.png") });

    assert.deepEqual(problems, []);
    const figures = {
      cases: cases.length,
      moduleBytes: fs.statSync(path.join(bundle, "assistant/answerer.js")).size,
      dataBytes: size(path.join(bundle, "assistant")) - fs.statSync(path.join(bundle, "assistant/answerer.js")).size,
      firstAnswerMs,
      perAnswerMs: Math.round(perAnswerMs * 10) / 10,
    };
    console.log(`bundle-assistant: ${JSON.stringify(figures)}`);
  } finally {
    await browser.close();
  }
});
