// Where the page is, in its URL's hash: `#/matches?...`, `#/match/ID`, `#/replay/ID/SEQ?seat=S`,
// `#/leaderboard?variant=V&speed=S`, `#/tournaments`, `#/tournament/ID`.
// A hash keeps every page one file the server serves at `/`, and every moment a link.

export type Route =
  | { page: "matches"; params: URLSearchParams }
  | { page: "match"; matchId: string }
  | { page: "replay"; matchId: string; seq: number | undefined; params: URLSearchParams }
  | { page: "leaderboard"; params: URLSearchParams }
  | { page: "tournaments" }
  | { page: "tournament"; tournamentId: string };

export function parseRoute(hash: string): Route {
  const [path, query = ""] = hash.replace(/^#\/?/, "").split("?", 2);
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter((p) => p).map(decodeURIComponent);
  if (parts[0] === "match" && parts[1]) return { page: "match", matchId: parts[1] };
  if (parts[0] === "replay" && parts[1]) {
    const seq = parts[2] !== undefined && /^\d+$/.test(parts[2]) ? Number(parts[2]) : undefined;
    return { page: "replay", matchId: parts[1], seq, params };
  }
  if (parts[0] === "leaderboard") return { page: "leaderboard", params };
  if (parts[0] === "tournaments") return { page: "tournaments" };
  if (parts[0] === "tournament" && parts[1]) return { page: "tournament", tournamentId: parts[1] };
  return { page: "matches", params };
}

export function leaderboardLink(params: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString();
  return `#/leaderboard${query ? `?${query}` : ""}`;
}

export function tournamentLink(tournamentId: string): string {
  return `#/tournament/${encodeURIComponent(tournamentId)}`;
}

export function matchesLink(params: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString();
  return `#/matches${query ? `?${query}` : ""}`;
}

export function matchLink(matchId: string): string {
  return `#/match/${encodeURIComponent(matchId)}`;
}

export function replayLink(matchId: string, seq?: number, seat?: string): string {
  const at = seq === undefined ? "" : `/${seq}`;
  return `#/replay/${encodeURIComponent(matchId)}${at}${seat ? `?seat=${encodeURIComponent(seat)}` : ""}`;
}
