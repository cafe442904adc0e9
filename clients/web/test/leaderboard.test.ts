// The leaderboard page names the pool it shows and follows the game and speed chosen.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { launch, openPage, screenshot } from "./browser.js";
import { Server } from "./server.js";

let server: Server;
let browser: Browser;

before(async () => {
  server = new Server();
  await server.start();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.remove();
});

test("the leaderboard shows the pool chosen", async () => {
  const { page, errors } = await openPage(browser, true);
  await page.goto(`${server.url}/#/leaderboard?variant=xfutebol&speed=blitz`);
  await page.waitForSelector("h1 code");
  assert.equal(await page.locator("h1 code").textContent(), "xfutebol/blitz/rated");
  // No rated results on a fresh server: nobody is on it.
  assert.equal(await page.locator("p.empty").count(), 1);
  await page.selectOption("select[name=variant]", "gridiron");
  await page.waitForSelector("h1 code >> text=gridiron/blitz/rated");
  await screenshot(page, "leaderboard-phone");
  assert.deepEqual(errors, []);
  await page.close();
});
