// The clocks beside the board: with a Fischer clock, the seat to act counts down from the
// deadline its turn started with, while the other shows the time it has left.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { openPage, screenshot } from "./browser.js";
import { playFirst } from "./players.js";
import { serverAndBrowser } from "./fixture.js";

const at = serverAndBrowser();

/** A clock's text (`m:ss`) in seconds. */
async function clockSeconds(page: Page, seat: string): Promise<number> {
  const text = ((await page.locator(`tr[data-seat="${seat}"] td.clock`).textContent()) ?? "").trim();
  const match = /^(\d+):(\d\d)$/.exec(text);
  assert.ok(match, `${seat}'s clock shows m:ss, not ${JSON.stringify(text)}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

test("the seat to act counts down; the other shows what it has left", async () => {
  const created = await at.matches.createMatch({
    variantId: "kings-goal",
    timeControl: { kind: { case: "fischer", value: { base: { seconds: 300n }, increment: { seconds: 0n } } } },
  });
  const matchId = created.match!.matchId;
  const tokens = new Map<string, string>();
  for (const name of ["north-bot", "south-bot"]) {
    const joined = await at.matches.joinMatch({ matchId, playerName: name });
    tokens.set(joined.seat, joined.seatToken);
  }
  // One action each way: both clocks have run.
  for (let i = 0; i < 2; i++) assert.ok(await playFirst(at.matches, { matchId, tokens }), `action ${i}`);
  const got = await at.matches.getMatch({ matchId });
  const toAct = got.view!.turn!.toAct;
  assert.equal(toAct.length, 1);
  const [acting] = toAct;
  const waiting = got.match!.seats.map((s) => s.seat).find((s) => s !== acting)!;

  const { page, errors } = await openPage(at.browser);
  await page.goto(`${at.server.url}/#/match/${matchId}`);
  await page.waitForSelector(`.match-page[data-last-seq="${got.match!.lastSeq}"]`);
  await page.waitForSelector(`tr.to-act[data-seat="${acting}"] td.clock:not(:empty)`);
  const first = await clockSeconds(page, acting);
  const idle = await clockSeconds(page, waiting);
  assert.ok(first <= 300 && first > 250, `${acting} has most of its 5 minutes: ${first} s`);
  assert.ok(idle <= 300 && idle > 250, `${waiting} kept most of its 5 minutes: ${idle} s`);
  // Two seconds later the acting seat's clock has run down; the waiting one's has not.
  await page.waitForTimeout(2200);
  const later = await clockSeconds(page, acting);
  assert.ok(later < first && later >= first - 4, `${acting}'s clock ran from ${first} s to ${later} s`);
  assert.equal(await clockSeconds(page, waiting), idle);
  await screenshot(page, "live-clocks");
  assert.deepEqual(errors, []);
  await page.close();
});
