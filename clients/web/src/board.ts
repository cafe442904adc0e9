// Draws any game's board from the generic BoardView as SVG: its zones, its pieces by team and
// kind (with the letter the game's notation uses), and the ball, as far as the viewer may know.
import type { BoardView, Piece } from "./gen/pitchmate/v1/board_pb.js";
import type { Square } from "./gen/pitchmate/v1/common_pb.js";
import { ZoneKind } from "./gen/pitchmate/v1/board_pb.js";
import { s } from "./dom.js";
import { teamClass } from "./teams.js";

/** The side of one cell, in SVG units. */
const CELL = 40;

/** Where a Gridiron spot sits inside its square, as a fraction of the cell from its centre. */
const SPOT_OFFSETS: Record<string, [number, number]> = {
  nw: [-0.25, -0.25],
  ne: [0.25, -0.25],
  c: [0, 0],
  sw: [-0.25, 0.25],
  se: [0.25, 0.25],
};

const ZONE_CLASSES: Record<number, string> = {
  [ZoneKind.GOAL]: "zone-goal",
  [ZoneKind.SMALL_AREA]: "zone-small-area",
  [ZoneKind.TEAM_AREA]: "zone-team-area",
  [ZoneKind.KEEPER_BOX]: "zone-keeper-box",
  [ZoneKind.INNER_AREA]: "zone-inner-area",
  [ZoneKind.GOAL_AREA]: "zone-goal-area",
  [ZoneKind.PENALTY_AREA]: "zone-penalty-area",
  [ZoneKind.END_ZONE]: "zone-end-zone",
};

/** The algebraic name of a square: file 1 is "a", rank 1 is "1". */
export function squareName(square: Square): string {
  if (square.name) return square.name;
  return `${String.fromCharCode(96 + square.file)}${square.rank}`;
}

interface Bounds {
  minFile: number;
  maxFile: number;
  minRank: number;
  maxRank: number;
}

/** The board's cells plus any cell just off it that a zone, piece or ball uses. */
function bounds(board: BoardView): Bounds {
  const b = { minFile: 1, maxFile: board.files, minRank: 1, maxRank: board.ranks };
  const squares: Square[] = [];
  for (const zone of board.zones) squares.push(...zone.squares);
  for (const piece of board.pieces) if (piece.square) squares.push(piece.square);
  if (board.ball?.square) squares.push(board.ball.square);
  for (const sq of squares) {
    b.minFile = Math.min(b.minFile, sq.file);
    b.maxFile = Math.max(b.maxFile, sq.file);
    b.minRank = Math.min(b.minRank, sq.rank);
    b.maxRank = Math.max(b.maxRank, sq.rank);
  }
  return b;
}

/** Draws `board`; `seats` are the match's seats in order (they pick the team colours). */
export function drawBoard(board: BoardView, seats: string[]): SVGElement {
  const b = bounds(board);
  const x = (file: number) => (file - b.minFile) * CELL;
  const y = (rank: number) => (b.maxRank - rank) * CELL;
  const width = (b.maxFile - b.minFile + 1) * CELL;
  const height = (b.maxRank - b.minRank + 1) * CELL;
  // A board much taller than wide (Gridiron's 16 x 48) is drawn as wide as its column and
  // scrolled, rather than shrunk to the window's height.
  const tall = b.maxRank - b.minRank + 1 > 2 * (b.maxFile - b.minFile + 1);
  const svg = s("svg", {
    class: tall ? "board tall" : "board",
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": `board of ${board.files} files and ${board.ranks} ranks`,
    "data-files": board.files,
    "data-ranks": board.ranks,
  });

  const cells = s("g", { class: "cells" });
  for (let file = 1; file <= board.files; file++) {
    for (let rank = 1; rank <= board.ranks; rank++) {
      const dark = (file + rank) % 2 === 0;
      cells.append(
        s("rect", {
          x: x(file),
          y: y(rank),
          width: CELL,
          height: CELL,
          class: dark ? "cell dark" : "cell light",
        }),
      );
    }
  }
  svg.append(cells);

  const zones = s("g", { class: "zones" });
  for (const zone of board.zones) {
    const kind = ZONE_CLASSES[zone.kind] ?? "zone-other";
    const team = zone.seat ? teamClass(seats, zone.seat) : "team-none";
    for (const sq of zone.squares) {
      zones.append(
        s("rect", {
          x: x(sq.file),
          y: y(sq.rank),
          width: CELL,
          height: CELL,
          class: `zone ${kind} ${team}`,
          "data-zone": kind,
          "data-square": squareName(sq),
        }),
      );
    }
  }
  svg.append(zones);

  const ball = board.ball;
  const holders = new Set(ball?.possibleHolderIds ?? []);
  const centre = (piece: Piece): [number, number] => {
    const sq = piece.square!;
    const [dx, dy] = SPOT_OFFSETS[piece.spot] ?? [0, 0];
    return [x(sq.file) + CELL * (0.5 + dx), y(sq.rank) + CELL * (0.5 + dy)];
  };
  const pieces = s("g", { class: "pieces" });
  const byId = new Map<number, Piece>();
  for (const piece of board.pieces) {
    if (!piece.square) continue;
    byId.set(piece.id, piece);
    const [cx, cy] = centre(piece);
    const radius = piece.spot ? CELL * 0.2 : CELL * 0.4;
    const classes = ["piece", teamClass(seats, piece.seat), `kind-${piece.kind}`];
    if (ball?.holderId === piece.id) classes.push("holder");
    if (holders.has(piece.id)) classes.push("maybe-holder");
    pieces.append(
      s(
        "g",
        {
          class: classes.join(" "),
          "data-piece-id": piece.id,
          "data-seat": piece.seat,
          "data-kind": piece.kind,
          "data-symbol": piece.symbol,
          "data-square": squareName(piece.square),
          "data-spot": piece.spot || undefined,
        },
        s("title", {}, `${piece.seat} ${piece.kind} on ${squareName(piece.square)}`),
        s("circle", { cx, cy, r: radius }),
        s(
          "text",
          { x: cx, y: cy, "font-size": radius * 1.1, "dominant-baseline": "central" },
          piece.symbol || piece.kind.charAt(0).toUpperCase(),
        ),
      ),
    );
  }
  svg.append(pieces);

  if (ball) {
    let at: [number, number] | undefined;
    const holder = ball.holderId !== undefined ? byId.get(ball.holderId) : undefined;
    if (holder) {
      const [cx, cy] = centre(holder);
      const r = holder.spot ? CELL * 0.2 : CELL * 0.4;
      at = [cx + r * 0.75, cy + r * 0.75];
    } else if (ball.square) {
      at = [x(ball.square.file) + CELL / 2, y(ball.square.rank) + CELL / 2];
    }
    if (at) {
      svg.append(
        s("circle", {
          class: "ball",
          cx: at[0],
          cy: at[1],
          r: CELL * 0.14,
          "data-square": ball.square ? squareName(ball.square) : undefined,
          "data-holder-id": holder ? holder.id : undefined,
        }),
      );
    }
  }
  return svg;
}

/** Scrolls a tall board's box so the ball (or else the first piece) is in view. */
export function showBall(box: HTMLElement): void {
  if (!box.querySelector("svg.board.tall")) return;
  const target = box.querySelector("circle.ball") ?? box.querySelector("g.piece");
  if (!target) return;
  const boxTop = box.getBoundingClientRect().top;
  const targetTop = target.getBoundingClientRect().top;
  box.scrollTop += targetTop - boxTop - box.clientHeight / 2;
}
