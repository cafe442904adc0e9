// The tournament page: a round robin of three bots shows its standings and round 1's pairing
// and bye; when the paired game ends (a bot resigns), the standings change on the open page.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { BotService } from "../src/gen/pitchmate/v1/bot_service_pb.js";
import { TournamentKind, TournamentService } from "../src/gen/pitchmate/v1/tournament_service_pb.js";
import { openPage, screenshot } from "./browser.js";
import { matchesAt } from "./players.js";
import { operatorKey } from "./server.js";
import { serverAndBrowser } from "./fixture.js";

const at = serverAndBrowser();

const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

test("a tournament's standings and pairings, updated live", async () => {
  const transport = createGrpcWebTransport({ baseUrl: at.server.url });
  const bots = createClient(BotService, transport);
  const events = createClient(TournamentService, transport);
  const matches = matchesAt(at.server.url);
  const operator = operatorKey(at.server);

  const entrants = [];
  for (const name of ["ada", "bo", "cy"]) {
    const created = await bots.createBot({ name: `${name}-web`, owner: "the web board's tests" });
    entrants.push({ id: created.bot!.botId, name: `${name}-web`, key: created.secret });
  }
  const made = await events.createTournament(
    { spec: { name: "Web board cup", kind: TournamentKind.ROUND_ROBIN, terms: { variantId: "kings-goal" }, seed: 5n } },
    auth(operator),
  );
  const tournamentId = made.tournament!.tournamentId;
  for (const bot of entrants) await events.enterTournament({ tournamentId }, auth(bot.key));
  await events.startTournament({ tournamentId }, auth(operator));

  const { page, errors } = await openPage(at.browser);
  await page.goto(`${at.server.url}/#/tournament/${tournamentId}`);
  await page.waitForSelector(".tournament-page .connection.live");
  await page.waitForSelector("section.round[data-round='1'] ol.pairings li");
  const standingRows = await page.$$eval("table.standings tbody tr", (rows) => rows.map((r) => r.getAttribute("data-bot-id")));
  assert.deepEqual([...standingRows].sort(), entrants.map((b) => b.id).sort());
  const pairing = (await page.locator("section.round[data-round='1'] ol.pairings li").first().textContent()) ?? "";
  assert.match(pairing, /playing/);

  // The paired bots take their seats; the first seat resigns.
  const rounds = await events.listRounds({ tournamentId });
  const game = rounds.rounds[0].pairings[0].game!;
  const first = entrants.find((b) => b.id === game.firstBotId)!;
  const second = entrants.find((b) => b.id === game.secondBotId)!;
  await matches.joinMatch({ matchId: game.matchId }, auth(first.key));
  await matches.joinMatch({ matchId: game.matchId }, auth(second.key));
  await matches.resign({ matchId: game.matchId }, auth(first.key));

  // The winner's row shows a win without the page being reloaded.
  await page.waitForSelector(`section.round[data-round='1'] ol.pairings li >> text=${second.name} won`);
  const winnerRow = page.locator(`table.standings tr[data-bot-id="${second.id}"]`);
  assert.equal(await winnerRow.locator("td").nth(2).textContent(), "1");
  const loserRow = page.locator(`table.standings tr[data-bot-id="${first.id}"]`);
  assert.equal(await loserRow.locator("td").nth(2).textContent(), "0");
  await screenshot(page, "tournament");
  assert.deepEqual(errors, []);
  await page.close();
});
