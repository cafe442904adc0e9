// The live match page: the board redrawn as the match's events arrive, the score, whose turn
// it is, the clocks and the event log. After a dropped connection it resumes from the last
// event it has, saying meanwhile that it is behind. Seen as a spectator, or, given the seat's
// token or its bot's API key, as that seat sees it (its own hidden choices, Gridiron's ball
// behind a fake handoff).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
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
/** Failures that say nothing about the credential. */
const TRANSIENT = [Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.Aborted, Code.Unknown, Code.Internal];

type Connection = "connecting" | "live" | "reconnecting" | "over";

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

/** Where the page keeps a match's credential: for this tab only, never in the URL (a link is
 * shared; a seat token is a secret). */
function credentialKey(matchId: string): string {
  return `pitchmate.credential.${matchId}`;
}

/** Shows the page again from the start, seen with the credential now stored. */
function reopen(): void {
  dispatchEvent(new HashChangeEvent("hashchange"));
}

/** The form that switches between a seat's eyes and a spectator's. */
function viewerForm(matchId: string, seat: string | undefined, refusal: string): HTMLElement {
  if (seat) {
    const leave = h("button", { type: "button", name: "spectate" }, "watch as a spectator");
    leave.addEventListener("click", () => { sessionStorage.removeItem(credentialKey(matchId)); reopen(); });
    return h("div", { class: "viewer", "data-viewer-seat": seat }, `seen as ${seat} `, leave);
  }
  const input = h("input", {
    type: "password", name: "credential", autocomplete: "off",
    placeholder: "seat token or bot API key", "aria-label": "seat token or bot API key",
  });
  const form = h("form", { class: "viewer", "data-viewer-seat": "" },
    "seen as a spectator · ", input, h("button", { type: "submit" }, "see as my seat"),
    refusal ? h("span", { class: "error", role: "alert" }, ` ${refusal}`) : null);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const credential = input.value.trim();
    if (!credential) return;
    sessionStorage.setItem(credentialKey(matchId), credential);
    reopen();
  });
  return form;
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

  let credential = sessionStorage.getItem(credentialKey(matchId)) ?? "";
  const calls = () => credential
    ? { signal, headers: { authorization: `Bearer ${credential}` } }
    : { signal };
  let refusal = "";

  const indicator = h("p", { class: "connection", role: "status", "aria-live": "polite" });
  const viewerBox = h("div", { class: "viewer-box" });
  const boardBox = h("div", { class: "board-box" });
  const panelBox = h("div", { class: "panel-box" });
  const log = h("ol", { class: "log", "aria-label": "events" });
  const replayAnchor = h("a", { class: "replay-link", href: replayLink(matchId, 0), hidden: true }, "step through the replay");
  const page = h("div", { class: "match-page", "data-match-id": matchId, "data-last-seq": "0" },
    h("h1", {}, "Match ", h("code", {}, matchId.slice(0, 8))),
    indicator,
    viewerBox,
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
    const seat = view?.viewerSeat || undefined;
    if (viewerBox.firstElementChild?.getAttribute("data-viewer-seat") !== (seat ?? "")) {
      replace(viewerBox, viewerForm(matchId, seat, refusal));
    }
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
        const got = await matches.getMatch({ matchId }, calls());
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
  if (credential) {
    try {
      await refresh();
    } catch (error) {
      // A credential that holds no seat of this match: say why, and watch as a spectator. A
      // server out of reach is the loop's to wait for.
      if (error instanceof ConnectError && !TRANSIENT.includes(error.code)) {
        sessionStorage.removeItem(credentialKey(matchId));
        credential = "";
        refusal = error.rawMessage;
      }
    }
  }
  if (!credential) replace(viewerBox, viewerForm(matchId, undefined, refusal));
  while (!signal.aborted) {
    try {
      // The server answers: the connection is back. The view is fetched afresh in any case.
      await refresh();
      connection = "live";
      attempt = 0;
      behindSince = undefined;
      showConnection();
      const stream = matches.streamMatchEvents({ matchId, afterSeq: lastSeq }, calls());
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
