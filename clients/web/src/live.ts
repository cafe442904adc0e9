// The live match page: the board redrawn as the match's events arrive, the score, whose turn
// it is, the clocks and the event log. After a dropped connection it resumes from the last
// event it has, saying meanwhile that it is behind.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { MatchEvent, SeatClock } from "./gen/pitchmate/v1/event_pb.js";
import type { Match, MatchView } from "./gen/pitchmate/v1/match_service_pb.js";
import { MatchStatus } from "./gen/pitchmate/v1/match_service_pb.js";
import { matches } from "./client.js";
import { drawBoard, showBall } from "./board.js";
import { describeEvent } from "./describe.js";
import { h, replace } from "./dom.js";
import { drawPanel } from "./panel.js";
import { replayLink } from "./route.js";

/** The log keeps this many lines on the page; older ones are dropped from the top. */
const LOG_LINES = 400;
/** The wait before the first reconnection attempt, doubled after each failure up to the max. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5000;

type Connection = "connecting" | "live" | "reconnecting" | "over";

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

function isOver(match: Match): boolean {
  return match.status === MatchStatus.FINISHED || match.status === MatchStatus.ABORTED;
}

export async function showLive(root: HTMLElement, matchId: string, signal: AbortSignal): Promise<void> {
  let match: Match | undefined;
  let view: MatchView | undefined;
  let lastSeq = 0n;
  let clocks: SeatClock[] = [];
  let connection: Connection = "connecting";
  let attempt = 0;
  let behindSince: Date | undefined;

  const indicator = h("p", { class: "connection", role: "status", "aria-live": "polite" });
  const boardBox = h("div", { class: "board-box" });
  const panelBox = h("div", { class: "panel-box" });
  const log = h("ol", { class: "log", "aria-label": "events" });
  const replayAnchor = h("a", { class: "replay-link", href: replayLink(matchId, 0), hidden: true }, "step through the replay");
  const page = h("div", { class: "match-page", "data-match-id": matchId, "data-last-seq": "0" },
    h("h1", {}, "Match ", h("code", {}, matchId.slice(0, 8))),
    indicator,
    h("div", { class: "match-layout" },
      boardBox,
      h("div", { class: "side" }, panelBox, replayAnchor, h("h2", {}, "Events"), log)));
  replace(root, page);

  const showConnection = () => {
    page.dataset.connection = connection;
    indicator.className = `connection ${connection}`;
    const at = `event ${lastSeq}`;
    switch (connection) {
      case "connecting": indicator.textContent = `connecting… (${at})`; break;
      case "live": indicator.textContent = `● live · ${at}`; break;
      case "over": indicator.textContent = `match over · ${at}`; break;
      case "reconnecting":
        indicator.textContent = `connection lost: reconnecting (attempt ${attempt}); ` +
          `behind since ${behindSince?.toLocaleTimeString() ?? "?"}, showing ${at}`;
        break;
    }
  };
  const showState = () => {
    if (!match) return;
    replace(panelBox, drawPanel(match, view, clocks, Date.now()));
    if (view?.board) {
      boardBox.dataset.version = String(view.version);
      replace(boardBox, drawBoard(view.board, match.seats.map((s) => s.seat)));
      showBall(boardBox);
    }
    replayAnchor.hidden = !isOver(match);
  };

  // One GetMatch at a time; events that arrive meanwhile ask for one more after it.
  let refreshing: Promise<void> | undefined;
  let stale = false;
  const refresh = async (): Promise<void> => {
    if (refreshing) { stale = true; return refreshing; }
    refreshing = (async () => {
      do {
        stale = false;
        const got = await matches.getMatch({ matchId }, { signal });
        match = got.match;
        view = got.view;
        showState();
      } while (stale && !signal.aborted);
    })().finally(() => { refreshing = undefined; });
    return refreshing;
  };

  const addEvent = (event: MatchEvent) => {
    lastSeq = event.seq;
    page.dataset.lastSeq = String(lastSeq);
    if (event.kind.case === "turnStarted") clocks = event.kind.value.clocks;
    const text = describeEvent(event);
    if (!text) return;
    const time = event.time ? timestampDate(event.time).toLocaleTimeString() : "";
    log.append(h("li", { "data-seq": String(event.seq), title: time, class: event.kind.case ?? "" },
      h("span", { class: "seq" }, String(event.seq)), " ", text));
    while (log.childElementCount > LOG_LINES) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  };

  const ticking = setInterval(() => { if (clocks.length > 0 && match && !isOver(match)) showState(); }, 1000);
  signal.addEventListener("abort", () => clearInterval(ticking), { once: true });

  showConnection();
  while (!signal.aborted) {
    try {
      // The server answers: the connection is back. The view is fetched afresh in any case.
      await refresh();
      connection = "live";
      attempt = 0;
      behindSince = undefined;
      showConnection();
      const stream = matches.streamMatchEvents({ matchId, afterSeq: lastSeq }, { signal });
      for await (const item of stream) {
        if (item.item.case !== "event") continue;
        const event = item.item.value;
        if (event.seq <= lastSeq) continue;
        addEvent(event);
        showConnection();
        void refresh().catch(() => undefined);
      }
      // The server ends the stream when the match is over (or when it shuts down).
      await refresh();
      if (match && isOver(match)) {
        connection = "over";
        showConnection();
        return;
      }
    } catch {
      if (signal.aborted) return;
    }
    attempt += 1;
    behindSince ??= new Date();
    connection = "reconnecting";
    showConnection();
    await sleep(Math.min(RETRY_FIRST_MS * 2 ** (attempt - 1), RETRY_MAX_MS), signal);
  }
}
