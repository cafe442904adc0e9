// Plays matches for the browser tests over the same grpc-web contract the page uses: creates a
// match with a known seed, takes both seats, plays the first legal action for whoever is to act.
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { MatchService, type MatchView } from "../src/gen/pitchmate/v1/match_service_pb.js";

export type Matches = Client<typeof MatchService>;

export function matchesAt(url: string): Matches {
  return createClient(MatchService, createGrpcWebTransport({ baseUrl: url }));
}

export interface Seated {
  matchId: string;
  /** Seat tokens by seat name. */
  tokens: Map<string, string>;
}

export async function seatedMatch(matches: Matches, variantId: string, seed: bigint): Promise<Seated> {
  const created = await matches.createMatch({ variantId, seed });
  const matchId = created.match!.matchId;
  const tokens = new Map<string, string>();
  for (const name of ["north-bot", "south-bot"]) {
    const joined = await matches.joinMatch({ matchId, playerName: name });
    tokens.set(joined.seat, joined.seatToken);
  }
  return { matchId, tokens };
}

/** Plays the first legal action of the first seat to act; false when nobody is to act. */
export async function playFirst(matches: Matches, seated: Seated): Promise<boolean> {
  const got = await matches.getMatch({ matchId: seated.matchId });
  const seat = got.match?.turn?.toAct[0];
  if (!seat) return false;
  const headers = { authorization: `Bearer ${seated.tokens.get(seat)}` };
  const legal = await matches.getLegalActions({ matchId: seated.matchId }, { headers });
  if (legal.actions.length === 0) return false;
  await matches.submitAction(
    { matchId: seated.matchId, expectedVersion: legal.version, choice: { case: "index", value: 0 } },
    { headers },
  );
  return true;
}

export async function viewOf(matches: Matches, matchId: string): Promise<{ view: MatchView; lastSeq: bigint }> {
  const got = await matches.getMatch({ matchId });
  return { view: got.view!, lastSeq: got.match!.lastSeq };
}

/** A piece as the page's SVG names it: what a test compares. */
export interface DrawnPiece {
  id: string;
  seat: string;
  kind: string;
  square: string;
  spot: string;
}

/** The pieces `view` should show, in the page's terms, sorted by id. */
export function expectedPieces(view: MatchView): DrawnPiece[] {
  return (view.board?.pieces ?? [])
    .filter((p) => p.square)
    .map((p) => ({
      id: String(p.id),
      seat: p.seat,
      kind: p.kind,
      square: p.square!.name || `${String.fromCharCode(96 + p.square!.file)}${p.square!.rank}`,
      spot: p.spot,
    }))
    .sort((a, b) => Number(a.id) - Number(b.id));
}
