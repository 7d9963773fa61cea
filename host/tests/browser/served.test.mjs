// Opens a site served by `quire docs-server` (QUIRE_SITE_URL) in headless Chromium and checks
// that browsing it, searching it and opening its API reference makes no request outside its
// own origin and logs no error: what an air-gapped deployment must guarantee.

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
  assert.equal(await page.locator(".assistant-button").count(), 0, "no assistant widget");
  assert.ok(await page.isHidden(".feedback"), "no feedback prompt without analytics");
  await page.click("#sidebar-tree >> text=Quickstart");
  await page.waitForURL(/quickstart/);
  await page.waitForSelector(".search-button:not([hidden])");
  await page.keyboard.press("/");
  await page.fill(".search-input", "webhook");
  await page.waitForSelector(".search-result");
  await page.locator(".search-result").first().click();
  await page.waitForURL(/webhooks/);
  await page.goto(site + "api-reference/endpoint/get-widget");
  assert.equal(
    await page.locator("form.playground:not([hidden])").count(),
    features.playground ? 1 : 0,
    "the playground follows its switch",
  );
  await context.close();
  assert.deepEqual(problems, []);
});
