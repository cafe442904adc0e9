// The web board's entry: shows the page the URL's hash names, and the next one when it changes.
import { ConnectError } from "@connectrpc/connect";
import { h, replace } from "./dom.js";
import { showLeaderboard } from "./leaderboard.js";
import { showLive } from "./live.js";
import { showMatches } from "./matches.js";
import { showReplay } from "./replay.js";
import { parseRoute } from "./route.js";
import { showTournament, showTournaments } from "./tournaments.js";

const root = document.getElementById("app")!;
let current: AbortController | undefined;

async function route(): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const at = parseRoute(location.hash);
  document.body.dataset.page = at.page;
  try {
    switch (at.page) {
      case "matches": return await showMatches(root, at.params);
      case "match": return await showLive(root, at.matchId, controller.signal);
      case "replay": return await showReplay(root, at.matchId, at.seq, at.params, controller.signal);
      case "leaderboard": return await showLeaderboard(root, at.params);
      case "tournaments": return await showTournaments(root);
      case "tournament": return await showTournament(root, at.tournamentId, controller.signal);
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    const message = error instanceof ConnectError ? error.rawMessage : String(error);
    replace(root, h("p", { class: "error", role: "alert" }, message));
  }
}

addEventListener("hashchange", () => void route());
void route();
