// Starter bots in a league: registered bots meet through the matchmaking queue (the command
// line) and through a challenge (runLeague), and each plays its match to the end.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { create } from "@bufbuild/protobuf";

import { bearer, connect, type Api } from "../src/client.js";
import { MatchTermsSchema } from "../src/gen/pitchmate/v1/challenge_service_pb.js";
import { MatchOutcome, OptionValueSchema } from "../src/gen/pitchmate/v1/common_pb.js";
import { MatchStatus } from "../src/gen/pitchmate/v1/match_service_pb.js";
import { runLeague } from "../src/league.js";
import { startServer, type RunningServer } from "./server.js";

let server: RunningServer;
let api: Api;

before(async () => {
  server = await startServer();
  api = connect(server.url);
});

after(async () => {
  await server?.stop();
});

interface Registered {
  id: string;
  name: string;
  key: string;
}

async function registerBot(prefix: string): Promise<Registered> {
  const name = `${prefix}-${randomBytes(4).toString("hex")}`;
  const created = await api.bots.createBot({ name, owner: "the starter bot's tests" });
  return { id: created.bot!.botId, name, key: created.secret };
}

/** The match is over and the two bots held its seats. */
async function checkPlayedBy(matchId: string, bots: Registered[]): Promise<void> {
  const { match } = await api.matches.getMatch({ matchId });
  assert.equal(match?.status, MatchStatus.FINISHED);
  assert.deepEqual(match?.seats.map((seat) => seat.botId).sort(), bots.map((bot) => bot.id).sort());
}

const SHORT_CHESSYBALL = {
  max_turns: create(OptionValueSchema, { kind: { case: "intValue", value: 6n } }),
};

test("two league bots meet in the queue and each plays its match to the end", async () => {
  const bots = [await registerBot("queued-a"), await registerBot("queued-b")];
  const main = fileURLToPath(new URL("../src/main.js", import.meta.url));
  const run = promisify(execFile);
  const outputs = await Promise.all(
    bots.map((bot) =>
      run(process.execPath, [
        main, "--server", server.url, "--api-key", bot.key,
        "--queue", "chessyball", "--casual", "--option", "max_turns=6", "--matches", "1",
      ], { timeout: 60_000 }),
    ),
  );
  const matchIds = outputs.map(({ stdout }) => {
    assert.match(stdout, /waiting in the casual queue for chessyball/);
    const finished = /match (\S+) \(chessyball, seat (home|away)\) (WON|LOST|DRAWN): /.exec(stdout);
    assert.ok(finished !== null, `no finished match in:\n${stdout}`);
    return finished[1]!;
  });
  assert.equal(matchIds[0], matchIds[1], "the two bots played different matches");
  await checkPlayedBy(matchIds[0]!, bots);
});

test("a league bot accepts a challenge and both bots play the match it assigned", async () => {
  const [challenged, challenger] = [await registerBot("challenged"), await registerBot("challenger")];
  let following!: () => void;
  const ready = new Promise<void>((resolve) => (following = resolve));
  const quiet = (): void => {};
  const challengedRun = runLeague(connect(server.url), challenged.key, {
    matches: 1,
    log: (line) => line.startsWith("following the inbox") && following(),
    play: { log: quiet },
  });
  // Only a challenge sent after the bot read where its inbox stands reaches it as an item.
  await ready;
  const terms = create(MatchTermsSchema, { variantId: "chessyball", options: SHORT_CHESSYBALL });
  const sent = await api.challenges.createChallenge({ target: challenged.name, terms }, bearer(challenger.key));
  const challengerRun = runLeague(connect(server.url), challenger.key, { matches: 1, log: quiet });
  const reports = await Promise.all([challengedRun, challengerRun]);
  for (const report of reports) {
    assert.equal(report.finished.length, 1);
    assert.deepEqual(report.failed, []);
    assert.notEqual(report.finished[0]!.outcome, MatchOutcome.ABORTED);
  }
  const matchId = reports[0]!.finished[0]!.matchId;
  assert.equal(reports[1]!.finished[0]!.matchId, matchId);
  const { challenge } = await api.challenges.getChallenge({ challengeId: sent.challenge!.challengeId }, bearer(challenger.key));
  assert.equal(challenge?.matchId, matchId);
  await checkPlayedBy(matchId, [challenged, challenger]);
});
