// Opens each component page of the exported example site (components/*.html) from file:// in
// headless Chromium, in light and in dark mode, and checks that each component is drawn as its
// author meant: icons, Mermaid diagrams, MathML, views, light/dark image pairs, inline styles,
// embeds (loaded lazily; requests off the bundle are answered by a stub and recorded), with no
// console error and no component left unknown. A screenshot of each page and mode goes to
// $QUIRE_ARTIFACTS.
//
// Environment: QUIRE_BUNDLE_DIR (the unpacked bundle), QUIRE_ARTIFACTS (screenshot folder).

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { launch } from "./chromium.mjs";

const bundle = process.env.QUIRE_BUNDLE_DIR;
const artifacts = process.env.QUIRE_ARTIFACTS || path.join(bundle, "..", "screenshots");
fs.mkdirSync(artifacts, { recursive: true });
const pages = fs.readdirSync(path.join(bundle, "components"))
  .filter((f) => f.endsWith(".html"))
  .map((f) => f.replace(/\.html$/, ""))
  .sort();

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Opens a component page in `mode`; returns the page, its problems and off-bundle requests. */
async function open(slug, mode) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: mode });
  const page = await context.newPage();
  const problems = [];
  const outside = [];
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console error: ${msg.text()}`); });
  page.on("pageerror", (error) => problems.push(`script error: ${error.message}`));
  await context.route(/^https?:/, (route) => {
    outside.push(route.request().url());
    route.fulfill({ status: 204, body: "" });
  });
  await page.goto(pathToFileURL(path.join(bundle, "components", `${slug}.html`)).href);
  await page.waitForLoadState("load");
  return { context, page, problems, outside };
}

const visible = (page, selector) => page.locator(selector).first().isVisible();
const luminance = (rgb) => {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) || [0, 0, 0]).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** What each page must show, beyond what every page must. */
const checks = {
  async icons({ page }) {
    assert.ok(await page.locator("article svg.icon").count() >= 5, "icons drawn as SVG");
    assert.ok(await page.locator("article img.icon").count() >= 1, "an icon from a site path");
  },
  async "code-blocks"({ page }) {
    const first = page.locator(".code-block").first();
    assert.match(await first.locator(".code-title").textContent(), /quickstart\.py/);
    assert.equal(await first.locator(".code-title svg.icon").count(), 1, "the fence's icon");
    const number = await first.locator(".line").nth(1).evaluate((l) => getComputedStyle(l, "::before").content);
    assert.equal(number, "counter(line)", "line numbers");
    assert.equal(await page.locator(".code-block:not(.numbered) .line").first().evaluate((l) => getComputedStyle(l, "::before").content), "none", "only where asked");
    assert.equal(await first.locator(".line.highlighted").count(), 2);
    const focus = page.locator(".code-block.has-focus");
    const dimmed = await focus.locator(".line").first().evaluate((l) => Number(getComputedStyle(l).opacity));
    const focused = await focus.locator(".line.focused").evaluate((l) => Number(getComputedStyle(l).opacity));
    assert.ok(dimmed < 0.6 && focused === 1, `focus dims the rest: ${dimmed} ${focused}`);
    assert.equal(await page.locator(".line.diff-add").count(), 1);
    assert.equal(await page.locator(".line.diff-remove").count(), 1);
    assert.ok(!(await page.textContent("article")).includes("[!code"), "notation comments removed");
    const wrapped = page.locator(".code-block.wrap pre");
    const box = await wrapped.evaluate((p) => [p.scrollWidth, p.clientWidth]);
    assert.ok(box[0] <= box[1] + 1, `a wrapped block does not scroll: ${box}`);
    const folded = page.locator(".code-block.expandable");
    assert.ok(await folded.evaluate((b) => b.classList.contains("collapsed")), "folded at first");
    await folded.locator(".expand-button").click();
    assert.ok(!(await folded.evaluate((b) => b.classList.contains("collapsed"))), "unfolds on request");
  },
  async mermaid({ page }) {
    await page.waitForFunction(() => document.querySelectorAll(".mermaid-diagram svg").length === 2, null, { timeout: 20000 });
    assert.equal(await visible(page, ".mermaid-block pre"), false, "the source hides once drawn");
  },
  async latex({ page }) {
    assert.ok(await page.locator("article math").count() >= 3, "MathML");
    const box = await page.locator("article math").first().boundingBox();
    assert.ok(box && box.width > 10 && box.height > 5, "the formula takes space");
    assert.match(await page.textContent("article"), /\$5 and \$10/, "prices stay text");
  },
  async views({ page }) {
    assert.equal(await page.locator(".view-select option").count(), 2);
    assert.equal(await page.locator("section.view:visible").count(), 1, "one view at a time");
    await page.selectOption(".view-select", "Python");
    assert.ok(await visible(page, "section.view[data-view=Python]"));
    assert.equal(await visible(page, "section.view[data-view=JavaScript]"), false);
  },
  async visibility({ page }) {
    const text = await page.textContent("article");
    assert.match(text, /You are reading the web page/);
    assert.doesNotMatch(text, /Agents reading the Markdown/);
  },
  async "html-and-styles"({ page, outside }, mode) {
    const light = await visible(page, "img[alt='Logo for light mode']");
    const dark = await visible(page, "img[alt='Logo for dark mode']");
    assert.deepEqual([light, dark], mode === "light" ? [true, false] : [false, true], "one logo per mode");
    const color = await page.locator("article p[style]").evaluate((p) => getComputedStyle(p).color);
    assert.equal(color, "rgb(13, 147, 115)", "the style object applies");
    assert.equal(await page.locator("article [class~='flex']").evaluate((d) => getComputedStyle(d).display), "flex");
    assert.equal(await page.locator("#custom-anchor").count(), 1, "{#custom-anchor}");
    const frame = page.locator("article iframe");
    assert.equal(await frame.getAttribute("loading"), "lazy");
    assert.ok((await frame.getAttribute("title")).length > 0, "the frame has a title");
    assert.match(await frame.getAttribute("src"), /^https:\/\/www\.youtube\.com\/embed\//);
    await page.waitForTimeout(300);
    assert.ok(outside.some((u) => u.startsWith("https://www.youtube.com/")), "the embed loads where allowed");
  },
  async "raw-html"({ page }, mode) {
    const dot = page.locator("article svg.schema-dot");
    const box = await dot.boundingBox();
    assert.ok(box && Math.round(box.width) === 24 && Math.round(box.height) === 24, `the SVG takes its size: ${JSON.stringify(box)}`);
    const drawn = await dot.locator("use").evaluate((u) => { const b = u.getBBox(); return { width: b.width, height: b.height }; });
    assert.ok(drawn.width > 5 && drawn.height > 5, `<use> draws the symbol: ${drawn.width}x${drawn.height}`);
    const color = await dot.evaluate((s) => getComputedStyle(s).color);
    assert.ok(mode === "light" ? luminance(color) < 120 : luminance(color) > 150, `currentColor follows the ${mode} text: ${color}`);
    assert.equal(await page.locator("article stop").first().getAttribute("stop-color"), "#0D9373");
    const bar = await page.locator("article svg.schema-bar rect").boundingBox();
    assert.ok(bar && bar.width > 100, "the gradient bar is drawn");
    assert.match(await page.locator("article aside.schema-aside").textContent(), /Objects nest & repeat \{like this\}\./);
    assert.ok(await visible(page, "article button.schema-button"), "the button shows");
    assert.equal(await page.locator("article [onclick], article [onload], article script").count(), 0, "no handlers or scripts");
    assert.equal(await page.locator("article a:has-text('Not a link')").getAttribute("href"), null, "no javascript: link");
    const math = await page.locator("article math").boundingBox();
    assert.ok(math && math.width > 60 && math.height > 20, "the MathML formula is laid out");
  },
  async "element-props"({ page }) {
    const icons = page.locator("article .card-icon svg.icon");
    assert.equal(await icons.count(), 2, "both icons drawn as SVG");
    for (const icon of await icons.all()) {
      const box = await icon.boundingBox();
      assert.ok(box && Math.round(box.width) === 20, `an icon at its size: ${JSON.stringify(box)}`);
      assert.equal(await icon.locator("circle, rect").count(), 1, "the prop's drawing is inside");
      const shape = await icon.locator("circle, rect").evaluate((s) => [getComputedStyle(s).fill, getComputedStyle(s).stroke]);
      assert.equal(shape[0], "none", `drawn as its author wrote it, an outline: ${shape}`);
      assert.notEqual(shape[1], "none", `with a stroke: ${shape}`);
    }
    assert.equal(await page.locator("article .card-title b").textContent(), "SVG", "the title's element");
    assert.match(await page.locator("article .card-title").first().innerText(), /Inline SVG icon/, "its words apart");
    const hrefs = await page.locator("article a").evaluateAll((links) => links.map((a) => a.getAttribute("href") || ""));
    assert.ok(hrefs.every((h) => !/svg|%3C/i.test(h)), `no link made of SVG code: ${hrefs}`);
  },
  async "legacy-snippets"({ page }) {
    assert.equal(await page.locator("article strong:has-text('Acme community forum')").count(), 1, "the snippet's text");
  },
  async columns({ page }) {
    const columns = page.locator("article .card-group.cols-2 > .column");
    assert.equal(await columns.count(), 2, "two Column parts");
    const [a, b] = await Promise.all([columns.nth(0).boundingBox(), columns.nth(1).boundingBox()]);
    assert.ok(a && b && Math.abs(a.y - b.y) < 2 && b.x > a.x + a.width - 1, "side by side");
    assert.equal(await columns.nth(0).locator(".code-block").count(), 1, "with their code");
  },
  async computed({ page }) {
    const titles = await page.locator("article .card-title").allInnerTexts();
    assert.deepEqual(titles.map((t) => t.trim()), ["teal 500", "amber 300"], "titles from template literals and defaults");
    const images = page.locator("article img.card-image");
    assert.equal(await images.count(), 2);
    for (const image of await images.all()) {
      const width = await image.evaluate((i) => i.complete ? i.naturalWidth : 0);
      assert.ok(width > 0, `the image its template literal names loads: ${await image.getAttribute("src")}`);
    }
    assert.match(await page.locator("article p.counter").innerText(), /Widgets in stock: 3/, "the initial state");
    const rows = await page.locator("article table.plans tbody tr").evaluateAll((trs) => trs.map((tr) => tr.innerText.replace(/\s+/g, " ").trim()));
    assert.deepEqual(rows, ["Team €20 a month 10 seats", "Enterprise Contact us 1000 seats"], "rows mapped and filtered from the page's data");
  },
  async colors({ page }) {
    const swatches = await page.locator(".swatch").evaluateAll((s) => s.map((e) => getComputedStyle(e).backgroundColor));
    assert.equal(swatches.length, 6);
    assert.ok(swatches.every((c) => c !== "rgba(0, 0, 0, 0)"), `${swatches}`);
  },
  async prompts({ page }) {
    assert.match(await page.locator(".prompt-cursor").getAttribute("href"), /^cursor:\/\/anysphere\.cursor-deeplink\/prompt\?text=You%20are/);
    assert.ok(await visible(page, ".prompt-copy"));
  },
  async cards({ page }) {
    assert.ok(await page.locator(".card-horizontal").count() === 1);
    assert.ok(await visible(page, ".card-image"));
    assert.match(await page.textContent(".card-cta"), /Read the guide/);
  },
  async badges({ page }, mode) {
    const bg = await page.locator(".badge-blue").evaluate((b) => getComputedStyle(b).backgroundColor);
    assert.ok(mode === "light" ? luminance(bg) > 180 : luminance(bg) < 100, `blue badge in ${mode}: ${bg}`);
  },
};

for (const slug of pages) {
  for (const mode of ["light", "dark"]) {
    test(`components/${slug} in ${mode} mode`, async () => {
      const opened = await open(slug, mode);
      const { page, problems, context } = opened;
      try {
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.ok(mode === "light" ? luminance(background) > 200 : luminance(background) < 60, `${mode} background: ${background}`);
        assert.equal(await page.locator("[data-component]").count(), 0, "no unknown component");
        assert.ok((await page.locator("article").innerText()).trim().length > 0, "the page has content");
        // The contextual menu (docs.json `contextual`): the Markdown beside the page, and no
        // assistant links on a page opened from file:// (they need the page's web address).
        const markdown = await page.locator(".contextual [data-contextual=view]").getAttribute("href");
        assert.ok(fs.existsSync(path.join(bundle, "components", markdown)), `${markdown} is in the bundle`);
        assert.equal(await page.locator(".contextual [data-contextual=chatgpt]").count(), 0);
        assert.match(await page.textContent(".search-button span"), /Search the Acme docs/);
        if (checks[slug]) await checks[slug](opened, mode);
        await page.screenshot({ path: path.join(artifacts, `${slug}-${mode}.png`), fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
}

test("every component page was checked", () => {
  assert.ok(pages.length >= 20, `component pages: ${pages}`);
});
