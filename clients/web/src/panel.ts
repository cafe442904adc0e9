// What stands beside the board: the players, the score, whose turn it is, the clocks, the result.
import type { Match, MatchView } from "./gen/pitchmate/v1/match_service_pb.js";
import { MatchStatus } from "./gen/pitchmate/v1/match_service_pb.js";
import type { SeatClock } from "./gen/pitchmate/v1/event_pb.js";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { h } from "./dom.js";
import { describeResult } from "./describe.js";
import { teamClass } from "./teams.js";

export function statusName(status: MatchStatus): string {
  return (MatchStatus[status] ?? "unknown").toLowerCase();
}

function clockText(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, "0")}`;
}

/** What a seat's clock shows now: its deadline counted down, or the time it had left. */
function clockNow(clock: SeatClock, now: number): string {
  if (clock.deadline) return clockText(timestampMs(clock.deadline) - now);
  if (clock.remaining) {
    return clockText(Number(clock.remaining.seconds) * 1000 + clock.remaining.nanos / 1e6);
  }
  return "";
}

/** The panel for `match` as `view` shows it; `clocks` from the newest turn's start. */
export function drawPanel(
  match: Match,
  view: MatchView | undefined,
  clocks: SeatClock[],
  now: number,
): HTMLElement {
  const seats = match.seats.map((s) => s.seat);
  const scores = new Map((view?.scores ?? []).map((s) => [s.seat, s.score]));
  const toAct = new Set(view?.turn?.toAct ?? []);
  const rows = match.seats.map((seat) => {
    const clock = clocks.find((c) => c.seat === seat.seat);
    return h(
      "tr",
      {
        class: `${teamClass(seats, seat.seat)}${toAct.has(seat.seat) ? " to-act" : ""}`,
        "data-seat": seat.seat,
      },
      h("td", {}, h("span", { class: "swatch" }), ` ${seat.seat}`),
      h("td", {}, seat.playerName || (seat.occupied ? "?" : "(open)")),
      h("td", { class: "score", "data-score": scores.get(seat.seat) ?? 0 }, String(scores.get(seat.seat) ?? 0)),
      h("td", { class: "clock" }, clock ? clockNow(clock, now) : ""),
    );
  });
  const turn = view?.turn;
  const turnText = turn && turn.toAct.length > 0
    ? `${turn.phase} ${turn.number}: ${turn.toAct.join(" and ")} to act` +
      (turn.actionsLeft !== undefined ? ` (${turn.actionsLeft} left)` : "")
    : "";
  return h(
    "section",
    { class: "panel" },
    h("div", { class: "meta" },
      h("span", { class: "variant" }, match.variantId),
      " · ",
      h("span", { class: "status", "data-status": statusName(match.status) }, statusName(match.status)),
    ),
    h("table", { class: "seats" }, h("tbody", {}, ...rows)),
    h("p", { class: "turn", "data-turn": turnText }, turnText),
    match.result ? h("p", { class: "result" }, describeResult(match.result)) : null,
  );
}
