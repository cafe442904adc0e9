// The matches list pages through many matches (20 a page, older and newer) and filters by
// status: a finished match is listed with its result and a replay link, a waiting one is not.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { openPage } from "./browser.js";
import { seatedMatch } from "./players.js";
import { serverAndBrowser } from "./fixture.js";

const at = serverAndBrowser();

async function listedIds(page: Page): Promise<string[]> {
  return page.$$eval("table.matches tbody tr", (rows) => rows.map((r) => r.getAttribute("data-match-id") ?? ""));
}

test("the list pages through matches and filters by status", async () => {
  const waiting: string[] = [];
  for (let i = 0; i < 25; i++) {
    waiting.push((await at.matches.createMatch({ variantId: "chessyball" })).match!.matchId);
  }
  const finished = await seatedMatch(at.matches, "chessyball", 3n);
  const firstSeat = [...finished.tokens.keys()][0];
  await at.matches.resign(
    { matchId: finished.matchId },
    { headers: { authorization: `Bearer ${finished.tokens.get(firstSeat)}` } },
  );

  const { page, errors } = await openPage(at.browser);
  await page.goto(`${at.server.url}/#/matches?status=waiting&variant=chessyball`);
  await page.waitForSelector("table.matches tbody tr");
  const first = await listedIds(page);
  assert.equal(first.length, 20, "20 a page");
  await page.click("a.next");
  await page.waitForFunction(() => document.querySelectorAll("table.matches tbody tr").length === 5);
  const second = await listedIds(page);
  assert.deepEqual([...first, ...second].sort(), [...waiting].sort(), "the two pages hold every waiting match once");
  assert.equal(await page.locator("a.next").count(), 0, "nothing older");
  await page.click("a.previous");
  await page.waitForFunction(() => document.querySelectorAll("table.matches tbody tr").length === 20);
  assert.deepEqual(await listedIds(page), first, "newer goes back to the first page");

  await page.selectOption("select[name=status]", "finished");
  await page.waitForFunction(() => document.querySelectorAll("table.matches tbody tr").length === 1);
  assert.deepEqual(await listedIds(page), [finished.matchId]);
  const row = page.locator(`tr[data-match-id="${finished.matchId}"]`);
  assert.match((await row.textContent()) ?? "", /resignation/);
  assert.equal(await row.locator(`a[href="#/replay/${finished.matchId}/0"]`).count(), 1, "a replay link");
  assert.deepEqual(errors, []);
  await page.close();
});
