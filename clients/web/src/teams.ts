// The colour each seat's pieces are drawn in, by the seat's place in the match.

const TEAM_CLASSES = ["team-0", "team-1", "team-2", "team-3"];

/** The class of the seat `seat` among `seats` (the match's seats in order). */
export function teamClass(seats: string[], seat: string): string {
  const index = seats.indexOf(seat);
  return index < 0 ? "team-none" : TEAM_CLASSES[index % TEAM_CLASSES.length];
}
