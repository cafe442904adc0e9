// The match page follows a match live: an action played elsewhere appears in the log and on
// the board; when the server goes away the page says it is reconnecting and behind, and once
// the server is back it resumes from the last event it had and is live again.
import assert from "node:assert/strict";
import { test } from "node:test";
import { boardAtVersion, drawnPieces, openPage, screenshot } from "./browser.js";
import { expectedPieces, matchesAt, playFirst, seatedMatch, viewOf } from "./players.js";
import { serverAndBrowser } from "./fixture.js";

const at = serverAndBrowser();

test("live updates arrive, and the page resumes after the server comes back", async () => {
  let matches = matchesAt(at.server.url);
  // Past the setup, so every action moves a piece on the board.
  const seated = await seatedMatch(matches, "soccer-chess", 7n);
  for (let i = 0; i < 12; i++) assert.ok(await playFirst(matches, seated));
  const { page, errors } = await openPage(at.browser);
  await page.goto(`${at.server.url}/#/match/${seated.matchId}`);
  const opened = await viewOf(matches, seated.matchId);
  await boardAtVersion(page, opened.view.version);
  await page.waitForSelector(".match-page[data-connection=live]");

  // An action played by a seat shows up on the open page.
  assert.ok(await playFirst(matches, seated));
  const moved = await viewOf(matches, seated.matchId);
  await page.waitForSelector(`.match-page[data-last-seq="${moved.lastSeq}"]`);
  await boardAtVersion(page, moved.view.version);
  assert.notDeepEqual(expectedPieces(moved.view), expectedPieces(opened.view), "the action moved a piece");
  assert.deepEqual(await drawnPieces(page), expectedPieces(moved.view));
  await screenshot(page, "live-soccer-chess");

  // The server stops: the page says it is behind.
  await at.server.stop();
  await page.waitForSelector(".match-page[data-connection=reconnecting]");
  const indicator = await page.locator(".connection").textContent();
  assert.match(indicator ?? "", /reconnecting/);
  assert.match(indicator ?? "", new RegExp(`showing event ${moved.lastSeq}`));
  await screenshot(page, "live-reconnecting");

  // Back on the same port: the page catches up with what was played meanwhile.
  await at.server.start();
  matches = matchesAt(at.server.url);
  assert.ok(await playFirst(matches, seated));
  assert.ok(await playFirst(matches, seated));
  const resumed = await viewOf(matches, seated.matchId);
  assert.notDeepEqual(expectedPieces(resumed.view), expectedPieces(moved.view), "pieces moved meanwhile");
  await page.waitForSelector(".match-page[data-connection=live]");
  await page.waitForSelector(`.match-page[data-last-seq="${resumed.lastSeq}"]`);
  await boardAtVersion(page, resumed.view.version);
  assert.deepEqual(await drawnPieces(page), expectedPieces(resumed.view));
  // Every event once: the log has no number twice and none missing.
  const seqs = await page.$$eval("ol.log li", (lines) => lines.map((l) => Number(l.getAttribute("data-seq"))));
  assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b), "no event twice, in order");
  await screenshot(page, "live-resumed");
  assert.deepEqual(errors, []);
  await page.close();
});
