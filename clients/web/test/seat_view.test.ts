// The live page as one seat sees it: given the seat's token, Gridiron's hidden roster choices
// show in its own event log, while a spectator's and the other seat's do not show them. A credential that holds no seat is refused with the server's reason, and the token
// never enters the URL.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { boardAtVersion, drawnPieces, openPage, screenshot } from "./browser.js";
import { expectedPieces, playFirst, seatedMatch } from "./players.js";
import { serverAndBrowser } from "./fixture.js";

const at = serverAndBrowser();

/** The page's log lines of actions, in order. */
async function actionLines(page: Page): Promise<string[]> {
  return page.$$eval("ol.log li.actionTaken", (items) =>
    items.map((li) => (li.textContent ?? "").replace(/^\s*\d+\s*/, "").trim()));
}

async function seeAs(page: Page, credential: string): Promise<void> {
  await page.fill("input[name=credential]", credential);
  await page.click("form.viewer button[type=submit]");
}

test("a seat's own hidden choices show only on its page", async () => {
  // Gridiron opens with both rosters picked in secret; the first seat to act is home.
  const seated = await seatedMatch(at.matches, "gridiron", 7n);
  for (let i = 0; i < 4; i++) assert.ok(await playFirst(at.matches, seated), `action ${i} played`);
  const home = seated.tokens.get("home")!;
  const away = seated.tokens.get("away")!;
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const homeSees = await at.matches.getMatch({ matchId: seated.matchId }, bearer(home));
  // Each viewer's events are numbered in its own stream: home's has its private ones too.
  const lastSeq = homeSees.match!.lastSeq;
  const spectatorLastSeq = (await at.matches.getMatch({ matchId: seated.matchId })).match!.lastSeq;
  const awayLastSeq = (await at.matches.getMatch({ matchId: seated.matchId }, bearer(away))).match!.lastSeq;
  const homeView = homeSees.view!;
  assert.equal(homeView.viewerSeat, "home");

  // What home did, in its own notation, from the events only home's stream carries.
  const homeActions: string[] = [];
  for await (const item of at.matches.streamMatchEvents({ matchId: seated.matchId, afterSeq: 0n }, bearer(home))) {
    if (item.item.case !== "event") continue;
    const kind = item.item.value.kind;
    if (kind.case === "actionTaken") homeActions.push(`${kind.value.seat}: ${kind.value.notation}`);
    if (item.item.value.seq >= lastSeq) break;
  }
  assert.equal(homeActions.length, 4);
  // Others learn of a hidden choice only when the seat commits: no action line at all.
  const hidden: string[] = [];

  const { page, errors } = await openPage(at.browser);
  await page.goto(`${at.server.url}/#/match/${seated.matchId}`);
  await page.waitForSelector(`.match-page[data-last-seq="${spectatorLastSeq}"]`);
  await page.waitForSelector(`.viewer[data-viewer-seat=""]`);
  assert.deepEqual(await actionLines(page), hidden, "a spectator sees that home chose, not what");

  // Not a credential of this match: refused with the server's reason, still a spectator.
  await seeAs(page, "not-a-token");
  await page.waitForSelector(".viewer .error");
  assert.ok(((await page.locator(".viewer .error").textContent()) ?? "").length > 0);
  assert.deepEqual(await actionLines(page), hidden);

  await seeAs(page, home);
  await page.waitForSelector(`.viewer[data-viewer-seat="home"]`);
  await page.waitForSelector(`.match-page[data-last-seq="${lastSeq}"]`);
  await boardAtVersion(page, homeView.version);
  assert.deepEqual(await actionLines(page), homeActions, "home sees its own choices");
  assert.deepEqual(await drawnPieces(page), expectedPieces(homeView));
  assert.ok(!page.url().includes(home), "the token is not in the URL");
  await screenshot(page, "live-as-a-seat");

  // The tab remembers the seat; leaving it shows the spectator's page again.
  await page.reload();
  await page.waitForSelector(`.viewer[data-viewer-seat="home"]`);
  await page.click("button[name=spectate]");
  await page.waitForSelector(`.viewer[data-viewer-seat=""]`);
  await page.waitForSelector(`.match-page[data-last-seq="${spectatorLastSeq}"]`);
  assert.deepEqual(await actionLines(page), hidden);

  // The other seat sees home's choices as hidden too.
  await seeAs(page, away);
  await page.waitForSelector(`.viewer[data-viewer-seat="away"]`);
  await page.waitForSelector(`.match-page[data-last-seq="${awayLastSeq}"]`);
  assert.deepEqual(await actionLines(page), hidden, "away does not see home's choices");
  assert.deepEqual(errors, []);
  await page.close();
});
