// A match event in a few words, for the event log.
import type { MatchEvent } from "./gen/pitchmate/v1/event_pb.js";
import type { MatchResult } from "./gen/pitchmate/v1/common_pb.js";
import { ResultReason } from "./gen/pitchmate/v1/common_pb.js";

/** "pieceMoved" -> "piece moved". */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

export function describeResult(result: MatchResult | undefined): string {
  if (!result) return "";
  const scores = result.scores.map((s) => `${s.seat} ${s.score}`).join(", ");
  const reason = words(ResultReason[result.reason] ?? "").replace(/_/g, " ");
  const who = result.winner ? `${result.winner} won` : "no winner";
  return [who, scores, reason, result.detail].filter((part) => part).join("; ");
}

/** One line for `event`, or an empty string for what a reader need not see. */
export function describeEvent(event: MatchEvent): string {
  const kind = event.kind;
  switch (kind.case) {
    case "matchCreated":
      return `created: ${kind.value.variantId} (rules ${kind.value.rulesVersion})`;
    case "seatJoined":
      return `${kind.value.seat} taken by ${kind.value.playerName || "a player"}`;
    case "matchStarted":
      return "started";
    case "turnStarted": {
      const turn = kind.value.turn;
      if (!turn) return "";
      return `turn ${turn.number} (${turn.phase}): ${turn.toAct.join(" and ") || "nobody"} to act`;
    }
    case "actionTaken":
      // A seat's hidden choice reaches everyone else without its notation.
      return `${kind.value.seat}: ${kind.value.notation || "(hidden)"}`;
    case "gameEvent": {
      const game = kind.value.game;
      if (game.case === "diceRolled") {
        const roll = game.value;
        return `dice (${roll.purpose}, d${roll.sides}): ${roll.values.join(" ")}`;
      }
      const inner = game.value as { kind?: { case?: string } } | undefined;
      return inner?.kind?.case ? words(inner.kind.case) : "";
    }
    case "matchEnded":
      return `ended: ${describeResult(kind.value.result)}`;
    case "resigned":
      return `${kind.value.seat} resigned`;
    case "drawOffered":
      return `${kind.value.seat} offers a draw`;
    case "drawAccepted":
      return `${kind.value.seat} accepts the draw`;
    case "matchAborted":
      return `aborted by ${kind.value.seat || "the server"}`;
    case "victoryClaimed":
      return `${kind.value.seat} claims the win (${kind.value.opponent} gone)`;
    case "timedOut":
      return `${kind.value.seat} timed out${kind.value.forfeited ? " and forfeits" : ""}`;
    default:
      return "";
  }
}
