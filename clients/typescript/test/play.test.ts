// Starter bots play matches against each other on the real server: every variant to its end,
// a match through a connection that is cut, and the command line's --create and --join.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { create } from "@bufbuild/protobuf";

import { connect, type Api } from "../src/client.js";
import { MatchStatus } from "../src/gen/pitchmate/v1/match_service_pb.js";
import { OptionValueSchema, ResultReason, type OptionValue } from "../src/gen/pitchmate/v1/common_pb.js";
import { playMatch, type PlayReport, type SentAction, type Seat } from "../src/play.js";
import { CuttingProxy } from "./proxy.js";
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

/** Options that make a match short, so the test plays each variant to its very end. */
const SHORT_MATCHES: Record<string, Record<string, bigint>> = {
  "soccer-chess": { sets_per_game: 2n, golden_goal_max_sets: 1n },
  chessyball: { max_turns: 10n },
  "kings-goal": { moves_per_half: 5n },
  xfutebol: { movements_per_half: 10n },
  gridiron: { possessions_per_half: 1n, turns_per_down: 2n, overtime_periods: 0n },
};

function options(values: Record<string, bigint>): Record<string, OptionValue> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, create(OptionValueSchema, { kind: { case: "intValue", value } })]),
  );
}

/** A new match of `variant` with both seats taken by seat token. */
async function newMatch(variant: string): Promise<[Seat, Seat]> {
  const created = await api.matches.createMatch({ variantId: variant, options: options(SHORT_MATCHES[variant]!) });
  const matchId = created.match!.matchId;
  const seats: Seat[] = [];
  for (const name of ["first-bot", "second-bot"]) {
    const joined = await api.matches.joinMatch({ matchId, playerName: name });
    seats.push({ matchId, seat: joined.seat, token: joined.seatToken });
  }
  return [seats[0]!, seats[1]!];
}

/**
 * The match is over with the result both bots saw, and its whole history holds each seat's
 * accepted actions exactly once: none lost, none applied twice.
 */
async function checkPlayedOnce(seats: Seat[], reports: PlayReport[]): Promise<void> {
  const matchId = seats[0]!.matchId;
  const { match } = await api.matches.getMatch({ matchId });
  assert.equal(match?.status, MatchStatus.FINISHED);
  for (const report of reports) {
    assert.deepEqual(report.result, match?.result);
  }
  assert.notEqual(match?.result?.reason, ResultReason.UNSPECIFIED);
  const replay = await api.matches.getReplay({ matchId });
  seats.forEach((seat, i) => {
    const taken = replay.events.filter((e) => e.kind.case === "actionTaken" && e.kind.value.seat === seat.seat);
    assert.ok(taken.length > 0, `seat ${seat.seat} never acted`);
    assert.equal(taken.length, reports[i]!.accepted.size, `seat ${seat.seat}: actions applied vs. accepted`);
  });
}

for (const variant of Object.keys(SHORT_MATCHES)) {
  test(`two starter bots play ${variant} to its end`, async () => {
    const seats = await newMatch(variant);
    // Each bot on its own connection, as two processes would be.
    const reports = await Promise.all(seats.map((seat) => playMatch(connect(server.url), seat)));
    await checkPlayedOnce(seats, reports);
  });
}

test("a bot survives its connection being cut mid-match and nothing is applied twice", async () => {
  const proxy = await CuttingProxy.start(server.port);
  try {
    const seats = await newMatch("chessyball");
    // On the first bot's fifth action the proxy lets the action through to the server but
    // swallows the answer, then drops every connection: the bot must resend that action with
    // the same id and be told it was applied already.
    let sent = 0;
    const onSend = (action: SentAction): void => {
      if (!action.resend && ++sent === 5) {
        void proxy.cut(1000);
      }
    };
    const quiet = (): void => {};
    const reports = await Promise.all([
      playMatch(connect(proxy.url), seats[0], { onSend, log: quiet }),
      playMatch(connect(proxy.url), seats[1], { log: quiet }),
    ]);
    assert.equal(proxy.cuts, 1);
    assert.ok(reports[0]!.reconnects >= 1, "the first bot never reconnected");
    assert.ok(reports[0]!.duplicates >= 1, "the action whose answer was lost was not resent");
    await checkPlayedOnce(seats, reports);
  } finally {
    await proxy.close();
  }
});

test("the command line: --create and --join play a match and print its result", async () => {
  const main = fileURLToPath(new URL("../src/main.js", import.meta.url));
  const run = promisify(execFile);
  const first = run(process.execPath, [main, "--server", server.url, "--create", "chessyball", "--option", "max_turns=6"]);
  // The created match's id, from the first bot's listing of matches waiting for a player.
  let matchId: string | undefined;
  for (let tries = 0; matchId === undefined && tries < 100; tries++) {
    const waiting = await api.matches.listMatches({ status: MatchStatus.WAITING, variantId: "chessyball" });
    matchId = waiting.matches.find((m) => m.seats.some((s) => s.playerName === "ts-starter-bot"))?.matchId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(matchId !== undefined, "the first bot created no match");
  const second = await run(process.execPath, [main, "--server", server.url, "--join", matchId]);
  const output = (await first).stdout;
  assert.match(output, new RegExp(`match ${matchId} \\(chessyball\\) created`));
  for (const out of [output, second.stdout]) {
    assert.match(out, new RegExp(`match ${matchId}: (home wins|away wins|no winner)`));
  }
});
