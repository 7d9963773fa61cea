// Opens a site served by `quire docs-server` (QUIRE_SITE_URL) whose docs.json names a font on
// another host and a Google Analytics integration, and checks that the page uses them (and the
// site's own script) exactly as its deployment allows: QUIRE_EXPECT_FONTS and
// QUIRE_EXPECT_ANALYTICS are "yes" or "no".
// Requests to other hosts are answered here, never sent, so the test needs no network.

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./chromium.mjs";

const site = process.env.QUIRE_SITE_URL.replace(/\/?$/, "/");
const expectFonts = process.env.QUIRE_EXPECT_FONTS === "yes";
const expectAnalytics = process.env.QUIRE_EXPECT_ANALYTICS === "yes";
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test("fonts and analytics from other hosts follow the deployment", async () => {
  const origin = new URL(site).origin;
  const context = await browser.newContext();
  const outside = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin || url.protocol === "data:") return route.continue();
    outside.push(url.origin + url.pathname);
    return route.fulfill({ status: 204, body: "" });
  });
  const page = await context.newPage();
  await page.goto(site + "quickstart");
  await page.waitForSelector("#sidebar-tree a");
  const seen = await page.evaluate(() => ({
    fontRule: !!document.querySelector("style.quire-external-fonts"),
    gtag: !!document.querySelector('script[src^="https://www.googletagmanager.com/gtag/js?id=G-QUIRETEST"]'),
    family: getComputedStyle(document.body).fontFamily,
  }));
  assert.equal(seen.fontRule, expectFonts, `font rule: ${JSON.stringify(seen)}`);
  assert.equal(seen.gtag, expectAnalytics, `analytics script: ${JSON.stringify(seen)}`);
  assert.match(seen.family, /^"?Acme Sans"?,/, "the family is named either way; the browser falls back");
  if (expectAnalytics) {
    await page.waitForFunction(() => Array.isArray(window.dataLayer) && window.dataLayer.length >= 2);
  }
  // The site's own script (the example site's status.js) runs where fonts from other hosts
  // load: the deployment lets the site's code reach them. Elsewhere it is never fetched.
  if (expectFonts) {
    await page.waitForFunction(() => document.documentElement.getAttribute("data-acme-status") === "checked");
  } else {
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-acme-status")), null);
  }
  if (!expectFonts && !expectAnalytics) assert.deepEqual(outside, [], "nothing requested off the server");
  await context.close();
});
