// YOUR BOT'S STRATEGY. This is the one file to change: everything else (connecting, the play
// loop, reconnecting, leagues) stays as it is.

import type { LegalAction } from "./gen/pitchmate/v1/action_pb.js";
import type { MatchView } from "./gen/pitchmate/v1/match_service_pb.js";

/**
 * Picks the action to play, whenever the bot's seat is to act, in every variant.
 *
 * - `view` is the match as the bot's seat sees it: `viewerSeat` (the bot's own seat), `board`,
 *   `turn` (who acts, the phase, actions left), `scores`, and the game's own details in
 *   `details` (`details.case` is "soccerChess", "chessyball", "kingsGoal", "xfutebol" or
 *   "gridiron"; `details.value` holds them).
 * - `legalActions` is never empty; each comes as `notation` (e.g. "e9-g9", "shoot", "end") and
 *   as a typed `action` (`action.game.case` names the variant, `action.game.value` its kind).
 *
 * Return one of `legalActions`, unchanged. The default plays uniformly at random.
 */
export function chooseAction(view: MatchView, legalActions: LegalAction[]): LegalAction {
  void view;
  return legalActions[Math.floor(Math.random() * legalActions.length)]!;
}
