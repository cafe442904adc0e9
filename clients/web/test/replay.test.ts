// The replay page of a finished match: the link to a moment opens the board as it stood then,
// stepping forward and back shows the next and previous moments, and the URL follows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { boardAtVersion, drawnPieces, openPage, screenshot } from "./browser.js";
import { expectedPieces, playFirst, seatedMatch, viewOf } from "./players.js";
import type { MatchView } from "../src/gen/pitchmate/v1/match_service_pb.js";
import { serverAndBrowser } from "./fixture.js";

const at = serverAndBrowser();

test("replay stepping shows the right moments", async () => {
  const seated = await seatedMatch(at.matches, "soccer-chess", 99n);
  // The view after each action, as the match showed it live, by the action's event number.
  const moments: { seq: bigint; view: MatchView }[] = [];
  for (let i = 0; i < 14; i++) {
    const before = await viewOf(at.matches, seated.matchId);
    assert.ok(await playFirst(at.matches, seated));
    // The action's own event is the first after what was there before it.
    const afterIt = await viewOf(at.matches, seated.matchId);
    moments.push({ seq: before.lastSeq + 1n, view: afterIt.view });
  }
  const [seat, token] = [...seated.tokens][0];
  await at.matches.resign({ matchId: seated.matchId }, { headers: { authorization: `Bearer ${token}` } });
  assert.ok(seat);

  const { page, errors } = await openPage(at.browser);
  const pick = 9;
  await page.goto(`${at.server.url}/#/replay/${seated.matchId}/${moments[pick].seq}`);
  await boardAtVersion(page, moments[pick].view.version);
  assert.deepEqual(await drawnPieces(page), expectedPieces(moments[pick].view), "the linked moment");
  await screenshot(page, "replay-moment");

  await page.click("button[data-control=next]");
  await boardAtVersion(page, moments[pick + 1].view.version);
  assert.deepEqual(await drawnPieces(page), expectedPieces(moments[pick + 1].view), "one step on");
  assert.ok(page.url().endsWith(`/${moments[pick + 1].seq}`), `the URL names the moment: ${page.url()}`);

  await page.click("button[data-control=previous]");
  await page.click("button[data-control=previous]");
  await boardAtVersion(page, moments[pick - 1].view.version);
  assert.deepEqual(await drawnPieces(page), expectedPieces(moments[pick - 1].view), "two steps back");

  // The first moment is the start; the replay's start is what the match showed before its
  // first action.
  await page.click("button[data-control=first]");
  await page.waitForSelector(".board-box[data-seq='0']");
  assert.equal(await page.locator(".replay-page").getAttribute("data-shown-seq"), "0");

  // The scrubber goes to any moment; playing from there runs to the end and stops.
  await page.locator("input.scrubber").fill(String(moments.length - 2));
  await boardAtVersion(page, moments[moments.length - 3].view.version);
  assert.deepEqual(await drawnPieces(page), expectedPieces(moments[moments.length - 3].view), "scrubbed");
  await page.click("button[data-control=play]");
  const end = await viewOf(at.matches, seated.matchId);
  await boardAtVersion(page, end.view.version);
  assert.deepEqual(await drawnPieces(page), expectedPieces(end.view), "played to the end");
  await screenshot(page, "replay-end");
  assert.deepEqual(errors, []);
  await page.close();
});
