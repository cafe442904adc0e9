// Tournaments: the list, and one tournament's standings, rounds and pairings, kept live by its
// log (WatchTournament), resumed after a drop from the last entry read.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  GameOutcome,
  TournamentKind,
  TournamentStatus,
  type Tournament,
  type TournamentGame,
} from "./gen/pitchmate/v1/tournament_service_pb.js";
import { tournaments } from "./client.js";
import { h, replace } from "./dom.js";
import { matchLink, tournamentLink } from "./route.js";

function words(name: string | undefined): string {
  return (name ?? "").toLowerCase().replace(/_/g, " ");
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

export async function showTournaments(root: HTMLElement): Promise<void> {
  const listed = await tournaments.listTournaments({ pageSize: 100 });
  replace(
    root,
    h("h1", {}, "Tournaments"),
    listed.tournaments.length === 0
      ? h("p", { class: "empty" }, "No tournaments.")
      : h("div", { class: "scroll" }, h("table", { class: "matches" },
          h("thead", {}, h("tr", {}, ...["name", "kind", "game", "status", "rounds", "entries"].map((t) => h("th", {}, t)))),
          h("tbody", {}, ...listed.tournaments.map((t) => h("tr", { "data-tournament-id": t.tournamentId },
            h("td", {}, h("a", { href: tournamentLink(t.tournamentId) }, t.spec?.name || t.tournamentId.slice(0, 8))),
            h("td", {}, words(TournamentKind[t.spec?.kind ?? 0])),
            h("td", {}, t.spec?.terms?.variantId ?? ""),
            h("td", {}, words(TournamentStatus[t.status])),
            h("td", {}, `${t.roundsPaired}${t.roundsPlanned ? ` of ${t.roundsPlanned}` : ""}`),
            h("td", {}, String(t.entries))))))),
  );
}

function outcomeText(game: TournamentGame | undefined, names: Map<string, string>): string {
  if (!game) return "";
  switch (game.outcome) {
    case GameOutcome.FIRST_WON: return `${names.get(game.firstBotId) ?? game.firstBotId} won`;
    case GameOutcome.SECOND_WON: return `${names.get(game.secondBotId) ?? game.secondBotId} won`;
    case GameOutcome.DRAW: return "draw";
    case GameOutcome.NEITHER_CAME: return "neither came";
    default: return "playing";
  }
}

export async function showTournament(root: HTMLElement, tournamentId: string, signal: AbortSignal): Promise<void> {
  const indicator = h("p", { class: "connection connecting", role: "status" }, "connecting…");
  const body = h("div", {});
  const page = h("div", { class: "tournament-page", "data-tournament-id": tournamentId }, indicator, body);
  replace(root, page);
  let lastSeq = 0n;

  const draw = async () => {
    const [got, standings, rounds] = await Promise.all([
      tournaments.getTournament({ tournamentId }, { signal }),
      tournaments.getStandings({ tournamentId }, { signal }),
      tournaments.listRounds({ tournamentId, pageSize: 200 }, { signal }),
    ]);
    const t: Tournament | undefined = got.tournament;
    const names = new Map(standings.standings.map((s) => [s.botId, s.botName || s.botId]));
    const name = (id: string) => names.get(id) ?? id;
    replace(
      body,
      h("h1", {}, t?.spec?.name || "Tournament"),
      h("p", { class: "meta" }, `${words(TournamentKind[t?.spec?.kind ?? 0])} · ${t?.spec?.terms?.variantId ?? ""} · ` +
        `${words(TournamentStatus[t?.status ?? 0])}${t?.endReason ? ` (${t.endReason})` : ""}`),
      h("h2", {}, "Standings"),
      h("div", { class: "scroll" }, h("table", { class: "matches standings" },
        h("thead", {}, h("tr", {}, ...["#", "bot", "points", "played", "W", "D", "L", "byes"].map((x) => h("th", {}, x)))),
        h("tbody", {}, ...standings.standings.map((s) => h("tr", { "data-bot-id": s.botId },
          h("td", {}, String(s.rank)), h("td", {}, s.botName || s.botId), h("td", {}, String(s.points)),
          h("td", {}, String(s.played)), h("td", {}, String(s.wins)), h("td", {}, String(s.draws)),
          h("td", {}, String(s.losses)), h("td", {}, String(s.byes))))))),
      h("h2", {}, "Rounds"),
      ...rounds.rounds.slice().reverse().map((round) => h("section", { class: "round", "data-round": round.number },
        h("h3", {}, `Round ${round.number}`, round.pairTime ? ` · paired ${timestampDate(round.pairTime).toLocaleString()}` : ""),
        h("ol", { class: "pairings" }, ...round.pairings.map((p) => h("li", {},
          `board ${p.board}: ${name(p.game?.firstBotId ?? "")} vs ${name(p.game?.secondBotId ?? "")} — `,
          p.game ? h("a", { href: matchLink(p.game.matchId) }, outcomeText(p.game, names)) : null,
          p.returnGame ? h("span", {}, " · return: ", h("a", { href: matchLink(p.returnGame.matchId) }, outcomeText(p.returnGame, names))) : null))),
        round.byeBotId ? h("p", {}, `bye: ${name(round.byeBotId)}`) : null)),
    );
  };

  let attempt = 0;
  while (!signal.aborted) {
    try {
      await draw();
      indicator.className = "connection live";
      indicator.textContent = "● live";
      attempt = 0;
      for await (const update of tournaments.watchTournament({ tournamentId, afterSeq: lastSeq }, { signal })) {
        if (update.seq <= lastSeq) continue;
        lastSeq = update.seq;
        page.dataset.lastSeq = String(lastSeq);
        await draw();
      }
    } catch {
      if (signal.aborted) return;
    }
    attempt += 1;
    indicator.className = "connection reconnecting";
    indicator.textContent = `connection lost: reconnecting (attempt ${attempt}); standings as of update ${lastSeq}`;
    await sleep(Math.min(500 * 2 ** (attempt - 1), 5000), signal);
  }
}
