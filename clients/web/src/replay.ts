// The replay of a finished match: a scrubber over its moments (the start, then each action),
// step and play controls, the board as it stood at each moment (as a spectator or one seat saw
// it), and a link to the moment shown.
import type { MatchEvent } from "./gen/pitchmate/v1/event_pb.js";
import type { MatchView } from "./gen/pitchmate/v1/match_service_pb.js";
import { matches } from "./client.js";
import { drawBoard, showBall } from "./board.js";
import { describeEvent } from "./describe.js";
import { h, replace } from "./dom.js";
import { drawPanel } from "./panel.js";
import { matchLink, replayLink } from "./route.js";

/** The time each moment is shown while playing. */
const PLAY_STEP_MS = 700;

export async function showReplay(
  root: HTMLElement,
  matchId: string,
  askedSeq: number | undefined,
  params: URLSearchParams,
  signal: AbortSignal,
): Promise<void> {
  const seat = params.get("seat") ?? "";
  const [replay, got] = await Promise.all([
    matches.getReplay({ matchId }, { signal }),
    matches.getMatch({ matchId }, { signal }),
  ]);
  const match = got.match!;
  const seats = match.seats.map((s) => s.seat);
  const events = replay.events;
  // A moment is the start (0) or an action's event; the board changes only at actions.
  const moments = [0, ...events.filter((e) => e.kind.case === "actionTaken").map((e) => Number(e.seq))];
  const lastSeq = events.length > 0 ? Number(events[events.length - 1].seq) : 0;
  if (lastSeq > moments[moments.length - 1]) moments.push(lastSeq);
  const momentAt = (seq: number) => {
    let index = 0;
    for (let i = 0; i < moments.length; i++) if (moments[i] <= seq) index = i;
    return index;
  };
  let at = momentAt(askedSeq ?? 0);
  let playing: ReturnType<typeof setInterval> | undefined;
  const views = new Map<number, Promise<MatchView | undefined>>();
  const viewAt = (seq: number) => {
    let view = views.get(seq);
    if (!view) {
      view = matches.getReplayView({ matchId, seq: BigInt(seq), seat }, { signal }).then((r) => r.view);
      views.set(seq, view);
    }
    return view;
  };

  const boardBox = h("div", { class: "board-box" });
  const panelBox = h("div", { class: "panel-box" });
  const log = h("ol", { class: "log", "aria-label": "events" });
  const scrubber = h("input", { type: "range", min: 0, max: moments.length - 1, value: at, class: "scrubber", "aria-label": "moment" });
  const position = h("span", { class: "position" });
  const link = h("a", { class: "moment-link" }, "link to this moment");
  const button = (label: string, name: string, action: () => void) => {
    const b = h("button", { type: "button", "data-control": name, "aria-label": name }, label);
    b.addEventListener("click", action);
    return b;
  };
  const playButton = button("▶", "play", () => (playing ? stop() : play()));
  const seatSelect = h("select", { "aria-label": "seen by" },
    h("option", { value: "" }, "as a spectator"),
    ...seats.map((name) => h("option", { value: name, selected: name === seat }, `as ${name}`)));
  seatSelect.addEventListener("change", () => {
    location.hash = replayLink(matchId, moments[at], seatSelect.value);
  });
  const page = h("div", { class: "replay-page", "data-match-id": matchId },
    h("h1", {}, "Replay ", h("code", {}, matchId.slice(0, 8))),
    h("div", { class: "controls" },
      button("«", "first", () => go(0)),
      button("‹", "previous", () => go(at - 1)),
      playButton,
      button("›", "next", () => go(at + 1)),
      button("»", "last", () => go(moments.length - 1)),
      scrubber, position, seatSelect, link,
      h("a", { href: matchLink(matchId) }, "match page")),
    h("div", { class: "match-layout" }, boardBox,
      h("div", { class: "side" }, panelBox, h("h2", {}, "Events"), log)));
  replace(root, page);

  for (const event of events) log.append(logLine(event));

  // Drawn in order: a slow answer for an earlier moment never covers a later one.
  let shown = 0;
  const show = async () => {
    const seq = moments[at];
    const ticket = ++shown;
    scrubber.value = String(at);
    position.textContent = `moment ${at} of ${moments.length - 1} · event ${seq} of ${lastSeq}`;
    link.href = replayLink(matchId, seq, seat);
    history.replaceState(null, "", replayLink(matchId, seq, seat));
    page.dataset.seq = String(seq);
    for (const line of log.children) {
      const lineSeq = Number((line as HTMLElement).dataset.seq);
      line.classList.toggle("future", lineSeq > seq);
      line.classList.toggle("current", lineSeq === seq);
    }
    log.querySelector(".current")?.scrollIntoView({ block: "nearest" });
    const view = await viewAt(seq);
    if (ticket !== shown || signal.aborted) return;
    replace(panelBox, drawPanel(match, view, [], Date.now()));
    if (view?.board) {
      boardBox.dataset.version = String(view.version);
      boardBox.dataset.seq = String(seq);
      replace(boardBox, drawBoard(view.board, seats));
      showBall(boardBox);
    }
    page.dataset.shownSeq = String(seq);
  };
  const go = (moment: number) => {
    at = Math.max(0, Math.min(moments.length - 1, moment));
    void show();
  };
  const stop = () => {
    clearInterval(playing);
    playing = undefined;
    playButton.textContent = "▶";
  };
  const play = () => {
    if (at === moments.length - 1) go(0);
    playButton.textContent = "❚❚";
    playing = setInterval(() => (at >= moments.length - 1 ? stop() : go(at + 1)), PLAY_STEP_MS);
  };
  scrubber.addEventListener("input", () => go(Number(scrubber.value)));
  signal.addEventListener("abort", stop, { once: true });
  await show();
}

function logLine(event: MatchEvent): HTMLElement {
  const text = describeEvent(event) || event.kind.case || "";
  return h("li", { "data-seq": String(event.seq), class: event.kind.case ?? "" },
    h("span", { class: "seq" }, String(event.seq)), " ", text);
}
