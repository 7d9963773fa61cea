// Opens a page of `quire dev` (QUIRE_SITE_URL) in headless Chromium, saves a new title into
// its source (QUIRE_PAGE_FILE), and checks that the open page reloads by itself with it.

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { launch } from "./chromium.mjs";

const site = process.env.QUIRE_SITE_URL.replace(/\/?$/, "/");
const file = process.env.QUIRE_PAGE_FILE;
let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test("a saved page reloads in the open browser", async () => {
  const page = await browser.newPage();
  await page.goto(site + "concepts");
  await page.waitForFunction(() => window.QUIRE_FEATURES !== undefined);
  const before = await page.textContent("h1");
  // The listener is open once the feature file ran; give the connection a moment.
  await page.waitForTimeout(300);
  const source = fs.readFileSync(file, "utf8");
  const reloaded = page.waitForEvent("load", { timeout: 60000 });
  fs.writeFileSync(file, source.replace(/^title: .*$/m, "title: Saved and reloaded"));
  await reloaded;
  assert.notEqual(before, "Saved and reloaded");
  assert.equal((await page.textContent("h1")).trim(), "Saved and reloaded");
  await page.close();
});
