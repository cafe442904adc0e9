// The leaderboard page names the pool it shows, follows the game and speed chosen, and ranks the
// bots whose ratings have settled: two bots play rated challenges until both leave the
// provisional range, one winning two games in three.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { BotService } from "../src/gen/pitchmate/v1/bot_service_pb.js";
import { ChallengeService } from "../src/gen/pitchmate/v1/challenge_service_pb.js";
import { RatingService } from "../src/gen/pitchmate/v1/rating_service_pb.js";
import { openPage, screenshot } from "./browser.js";
import { matchesAt, type Matches } from "./players.js";
import { serverAndBrowser } from "./fixture.js";

const at = serverAndBrowser();

const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
/** Twice the rated games (16 here) it takes two newcomers' deviations (350) to fall below 110. */
const MAX_GAMES = 40;

test("the leaderboard shows the pool chosen", async () => {
  const { page, errors } = await openPage(at.browser, true);
  await page.goto(`${at.server.url}/#/leaderboard?variant=xfutebol&speed=blitz`);
  await page.waitForSelector("h1 code");
  assert.equal(await page.locator("h1 code").textContent(), "xfutebol/blitz/rated");
  // No rated results on a fresh server: nobody is on it.
  assert.equal(await page.locator("p.empty").count(), 1);
  await page.selectOption("select[name=variant]", "gridiron");
  await page.waitForSelector("h1 code >> text=gridiron/blitz/rated");
  await screenshot(page, "leaderboard-empty-phone");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the leaderboard ranks bots with settled ratings", async () => {
  const transport = createGrpcWebTransport({ baseUrl: at.server.url });
  const bots = createClient(BotService, transport);
  const challenges = createClient(ChallengeService, transport);
  const ratings = createClient(RatingService, transport);
  const matches = matchesAt(at.server.url);
  const made = async (name: string) => {
    const created = await bots.createBot({ name, owner: "the web board's tests" });
    return { id: created.bot!.botId, name, key: created.secret };
  };
  const winner = await made("lead-web");
  const loser = await made("trail-web");
  const pool = "kings-goal/untimed/rated";

  let total = 0;
  for (let game = 0; game < MAX_GAMES && total < 2; game++) {
    const asked = await challenges.createChallenge(
      { target: loser.name, terms: { variantId: "kings-goal", rated: true } },
      auth(winner.key),
    );
    const accepted = await challenges.acceptChallenge({ challengeId: asked.challenge!.challengeId }, auth(loser.key));
    const matchId = accepted.challenge!.matchId;
    assert.ok(matchId, "an accepted challenge assigns a match");
    await joinOnceCreated(matches, matchId, winner.key);
    await matches.joinMatch({ matchId }, auth(loser.key));
    // Two wins in three: results a rating learns from, unlike one bot winning every game.
    await matches.resign({ matchId }, auth(game % 3 === 2 ? winner.key : loser.key));
    await ratedGames(ratings, winner.id, pool, game + 1);
    total = (await ratings.getLeaderboard({ pool })).totalSize;
  }
  assert.equal(total, 2, `both bots leave the provisional range within ${MAX_GAMES} games`);

  const { page, errors } = await openPage(at.browser, true);
  await page.goto(`${at.server.url}/#/leaderboard?variant=kings-goal&speed=untimed`);
  await page.waitForSelector("table.leaderboard tbody tr");
  const rows = await page.$$eval("table.leaderboard tbody tr", (trs) =>
    trs.map((tr) => ({ id: tr.getAttribute("data-bot-id"), cells: [...tr.querySelectorAll("td")].map((td) => td.textContent) })),
  );
  assert.deepEqual(rows.map((r) => r.id), [winner.id, loser.id], "the bot winning two in three ranks first");
  assert.deepEqual(rows.map((r) => r.cells[0]), ["1", "2"]);
  assert.deepEqual(rows.map((r) => r.cells[1]), [winner.name, loser.name]);
  const [lead, trail] = rows.map((r) => Number(r.cells[2]));
  assert.ok(lead > 1500 && trail < 1500, `ratings ${lead} and ${trail} moved apart from 1500`);
  const shown = await ratings.getLeaderboard({ pool });
  assert.deepEqual(rows.map((r) => r.cells[4]), shown.entries.map((e) => String(e.rating?.games)));
  await screenshot(page, "leaderboard-phone");
  assert.deepEqual(errors, []);
  await page.close();
});

/** Waits until `botId` has `games` rated games in `pool` (ratings follow results, not at once). */
async function ratedGames(ratings: Client<typeof RatingService>, botId: string, pool: string, games: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const got = await ratings.getRatings({ botId });
    const rating = got.ratings.find((r) => r.pool === pool)?.rating;
    if ((rating?.games ?? 0) >= games) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${botId} was not rated for game ${games} of ${pool}`);
}

/** Takes the bot's seat; an accepted challenge names its match a moment before the match exists
 * (the bots' inboxes say when it does). */
async function joinOnceCreated(matches: Matches, matchId: string, key: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await matches.joinMatch({ matchId }, auth(key));
      return;
    } catch (error) {
      if (!(error instanceof ConnectError && error.code === Code.NotFound)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  assert.fail(`match ${matchId} was never created`);
}
