// The starter bot's command line: which match to play, or the league to play in.

import { parseArgs } from "node:util";

import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";

import { connect, DEFAULT_SERVER, describeError, bearer, type Api } from "./client.js";
import { MatchTermsSchema } from "./gen/pitchmate/v1/challenge_service_pb.js";
import { MatchOutcome, OptionValueSchema, ResultReason, type MatchResult, type OptionValue } from "./gen/pitchmate/v1/common_pb.js";
import type { InboxMatchFinished } from "./gen/pitchmate/v1/inbox_service_pb.js";
import { runLeague } from "./league.js";
import { playMatch, type Seat } from "./play.js";

const USAGE = `Usage: npm start -- [--server URL] MODE

Plays Pitchmate with the strategy in src/strategy.ts (chooseAction).

One match:
  --create VARIANT [--option NAME=VALUE]...  create a match, print its id, play one seat
  --join MATCH [--seat SEAT]                 take a seat of a match and play it
  --match MATCH --seat-token TOKEN           play a seat already taken (JoinMatch gave the token)
  With --api-key KEY instead of a seat token, --create, --join and --match play as that bot.

Registering a bot (BotService.CreateBot):
  --register NAME [--owner OWNER]            prints the new bot's API key, shown only once

League (a registered bot's key):
  --api-key KEY [--queue VARIANT [--casual] [--option NAME=VALUE]...] [--matches N]
      follows the bot's inbox, accepts the challenges it is sent, waits in the matchmaking
      queue for VARIANT (rated unless --casual) if asked, and plays every match assigned to
      it until N of its matches have ended (default 1)

Options:
  --server URL   the server (default ${DEFAULT_SERVER})
  --name NAME    the player name shown to others (default ts-starter-bot; a bot plays
                 under its own name)
  --help         this text`;

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        server: { type: "string", default: DEFAULT_SERVER },
        create: { type: "string" },
        join: { type: "string" },
        match: { type: "string" },
        seat: { type: "string", default: "" },
        "seat-token": { type: "string" },
        "api-key": { type: "string" },
        queue: { type: "string" },
        casual: { type: "boolean", default: false },
        matches: { type: "string", default: "1" },
        option: { type: "string", multiple: true, default: [] },
        name: { type: "string", default: "ts-starter-bot" },
        register: { type: "string" },
        owner: { type: "string", default: "" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
})();

function fail(message: string): never {
  console.error(`starter-bot: ${message}`);
  process.exit(2);
}

async function main(): Promise<void> {
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const api = connect(values.server);
  if (values.register !== undefined) {
    const created = await api.bots.createBot({ name: values.register, owner: values.owner });
    console.log(`bot ${created.bot?.name} (${created.bot?.botId}) registered; its API key, shown only once:`);
    console.log(created.secret);
    return;
  }
  const key = values["api-key"];
  const modes = [values.create, values.join, values.match].filter((mode) => mode !== undefined);
  if (modes.length > 1) {
    fail("say only one of --create, --join and --match");
  }
  if (modes.length === 0) {
    if (key === undefined) {
      fail(`say --create VARIANT, --join MATCH, --match MATCH or --api-key KEY\n\n${USAGE}`);
    }
    await league(api, key);
    return;
  }
  const seat = await takeSeat(api, key);
  console.log(`playing seat ${seat.seat} of match ${seat.matchId}`);
  const report = await playMatch(api, seat);
  console.log(`match ${seat.matchId}: ${describeResult(report.result)}`);
}

/** The seat to play: one taken now (--create, --join) or earlier (--match). */
async function takeSeat(api: Api, key: string | undefined): Promise<Seat> {
  let matchId = values.join ?? values.match;
  if (values.create !== undefined) {
    const created = await api.matches.createMatch({ variantId: values.create, options: matchOptions() });
    matchId = created.match!.matchId;
    console.log(`match ${matchId} (${values.create}) created; a second bot joins with --join ${matchId}`);
  }
  if (matchId === undefined) {
    throw new Error("no match to play");
  }
  if (values.match !== undefined) {
    const token = values["seat-token"] ?? key;
    if (token === undefined) {
      fail("--match needs --seat-token TOKEN (or --api-key KEY for a bot's seat)");
    }
    // The view of a seat token's (or key's) holder names its seat.
    const { view } = await api.matches.getMatch({ matchId }, bearer(token));
    if (view === undefined || view.viewerSeat === "") {
      throw new Error(`the token given holds no seat of match ${matchId}`);
    }
    return { matchId, seat: view.viewerSeat, token };
  }
  // A bot joins with its key and plays under its own name; its key then acts for the seat.
  const joined = key === undefined
    ? await api.matches.joinMatch({ matchId, seat: values.seat, playerName: values.name })
    : await api.matches.joinMatch({ matchId, seat: values.seat }, bearer(key));
  return { matchId, seat: joined.seat, token: key ?? joined.seatToken };
}

async function league(api: Api, key: string): Promise<void> {
  const matches = Number(values.matches);
  if (!Number.isInteger(matches) || matches < 1) {
    fail(`--matches wants a whole number of at least 1, not ${JSON.stringify(values.matches)}`);
  }
  const queue = values.queue === undefined
    ? undefined
    : create(MatchTermsSchema, { variantId: values.queue, options: matchOptions(), rated: !values.casual });
  if (queue !== undefined) {
    console.log(`waiting in the ${queue.rated ? "rated" : "casual"} queue for ${queue.variantId}`);
  }
  const report = await runLeague(api, key, {
    matches,
    ...(queue === undefined ? {} : { queue }),
    onAssigned: (assigned) =>
      console.log(
        `assigned match ${assigned.matchId} (${assigned.variantId}, seat ${assigned.seat}) ` +
          `against ${assigned.opponentName}`,
      ),
    onFinished: (finished) => console.log(describeFinished(finished)),
  });
  if (report.failed.length > 0) {
    throw new Error(`${report.failed.length} match(es) were not played to their end`);
  }
}

/** `--option NAME=VALUE`: a whole number, true or false, or else text. */
function matchOptions(): Record<string, OptionValue> {
  const options: Record<string, OptionValue> = {};
  for (const option of values.option) {
    const at = option.indexOf("=");
    if (at <= 0) {
      fail(`--option ${JSON.stringify(option)} is not NAME=VALUE`);
    }
    const [name, text] = [option.slice(0, at), option.slice(at + 1)];
    const kind = /^-?\d+$/.test(text)
      ? { case: "intValue" as const, value: BigInt(text) }
      : text === "true" || text === "false"
        ? { case: "boolValue" as const, value: text === "true" }
        : { case: "stringValue" as const, value: text };
    options[name] = create(OptionValueSchema, { kind });
  }
  return options;
}

export function describeResult(result: MatchResult): string {
  const winner = result.winner === "" ? "no winner" : `${result.winner} wins`;
  const scores = result.scores.map((score) => `${score.seat} ${score.score}`).join(" - ");
  const reason = ResultReason[result.reason]?.toLowerCase() ?? String(result.reason);
  const detail = result.detail === "" ? "" : `, ${result.detail}`;
  return `${winner}${scores === "" ? "" : `, ${scores}`} (${reason}${detail})`;
}

function describeFinished(finished: InboxMatchFinished): string {
  const outcome = MatchOutcome[finished.outcome] ?? String(finished.outcome);
  const change = finished.ratingChange;
  const rating = change?.before !== undefined && change.after !== undefined
    ? `; rating ${change.before.rating.toFixed(0)} -> ${change.after.rating.toFixed(0)}`
    : "";
  const result = finished.result === undefined ? "" : `: ${describeResult(finished.result)}`;
  return `match ${finished.matchId} (${finished.variantId}, seat ${finished.seat}) ${outcome}${result}${rating}`;
}

main().catch((error: unknown) => {
  const unreachable = error instanceof ConnectError && error.code === Code.Unavailable;
  const hint = unreachable ? ` (is a Pitchmate server running at ${values.server}? --server names another)` : "";
  console.error(`starter-bot: ${describeError(error)}${hint}`);
  process.exit(1);
});
