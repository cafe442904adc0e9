// Every game's board on the match page: after a known opening (a fixed seed, the first legal
// action each time), the page draws exactly the pieces, squares and ball the server's view
// has, with the score and whose turn it is; the matches list shows the five matches.
import assert from "node:assert/strict";
import { test } from "node:test";
import { boardAtVersion, drawnPieces, openPage, screenshot } from "./browser.js";
import { expectedPieces, playFirst, seatedMatch, viewOf } from "./players.js";
import { serverAndBrowser } from "./fixture.js";

/** Each game, and the actions played before its board is checked: past its setup into play
 * (Gridiron's rosters and formations take 32 actions; its first snap is then being planned,
 * in secret). */
const OPENINGS: [string, number][] = [
  ["soccer-chess", 12],
  ["chessyball", 12],
  ["kings-goal", 12],
  ["xfutebol", 12],
  ["gridiron", 32],
];
const GAMES = OPENINGS.map(([game]) => game);

const at = serverAndBrowser();

for (const [game, opening] of OPENINGS) {
  test(`the ${game} board shows the pieces of a known position`, async () => {
    const seated = await seatedMatch(at.matches, game, 20261129n);
    for (let i = 0; i < opening; i++) assert.ok(await playFirst(at.matches, seated), `action ${i} played`);
    const { view, lastSeq } = await viewOf(at.matches, seated.matchId);
    const expected = expectedPieces(view);
    assert.ok(expected.length > 0, "the opening put pieces on the board");

    const { page, errors } = await openPage(at.browser);
    await page.goto(`${at.server.url}/#/match/${seated.matchId}`);
    await boardAtVersion(page, view.version);
    assert.deepEqual(await drawnPieces(page), expected);
    const svg = page.locator("svg.board");
    assert.equal(await svg.getAttribute("data-files"), String(view.board!.files));
    assert.equal(await svg.getAttribute("data-ranks"), String(view.board!.ranks));
    const ball = view.board!.ball;
    if (ball?.square) {
      assert.equal(await page.locator("svg.board circle.ball").count(), 1, "the ball is drawn");
    }
    for (const score of view.scores) {
      const cell = page.locator(`tr[data-seat="${score.seat}"] td.score`);
      assert.equal(await cell.getAttribute("data-score"), String(score.score));
    }
    const toAct = view.turn?.toAct ?? [];
    for (const seat of toAct) {
      assert.equal(await page.locator(`tr.to-act[data-seat="${seat}"]`).count(), 1, `${seat} is shown to act`);
    }
    // The log has every event a spectator may see, up to the newest.
    await page.waitForSelector(`.match-page[data-last-seq="${lastSeq}"]`);
    assert.ok((await page.locator("ol.log li").count()) > 0, "the event log lists the opening");
    await screenshot(page, `match-${game}`);
    assert.deepEqual(errors, []);
    await page.close();

    // On a phone: the same pieces, the board in one column above the panel.
    const phone = await openPage(at.browser, true);
    await phone.page.goto(`${at.server.url}/#/match/${seated.matchId}`);
    await boardAtVersion(phone.page, view.version);
    assert.deepEqual(await drawnPieces(phone.page), expected);
    await screenshot(phone.page, `match-${game}-phone`);
    assert.deepEqual(phone.errors, []);
    await phone.page.close();
  });
}

test("the matches list shows the live matches and filters by game", async () => {
  const { page, errors } = await openPage(at.browser, true);
  await page.goto(`${at.server.url}/#/matches?status=active`);
  await page.waitForSelector("table.matches tbody tr");
  const variants = await page.$$eval("table.matches tbody tr", (rows) => rows.map((r) => r.getAttribute("data-variant")));
  assert.deepEqual([...variants].sort(), [...GAMES].sort());
  await screenshot(page, "matches-phone");
  await page.selectOption("select[name=variant]", "gridiron");
  await page.waitForFunction(() => document.querySelectorAll("table.matches tbody tr").length === 1);
  assert.equal(await page.locator("table.matches tbody tr").getAttribute("data-variant"), "gridiron");
  assert.deepEqual(errors, []);
  await page.close();
});
