//! The rules King's Goal's refusals cite. A refused action names exactly one of them; its id is
//! what a bot sees as the `rule` of an `ILLEGAL_ACTION` error, and the *Refusals* section of
//! `docs/rules/kings-goal.md` explains each.

use crate::game::Rule;

const fn rule(id: &'static str, text: &'static str) -> Rule {
    Rule { id, text }
}

pub const PHASE: Rule = rule("phase", "each phase takes only its own actions");

pub const PICK_FROM_BOX: Rule = rule(
    "pick-from-box",
    "the three picks come from the pieces left in the box: 1 queen, 2 rooks, 2 bishops, \
     2 knights, 6 pawns",
);
pub const KICK_OFF_PICK: Rule = rule(
    "kick-off-pick",
    "the side kicking off picks a queen, rook, bishop or knight among its three",
);

pub const IN_HAND: Rule = rule("in-hand", "only a piece still in hand can be placed");
pub const OWN_HALF: Rule = rule("own-half", "pieces are placed in their own half");
pub const EMPTY_SQUARE: Rule = rule(
    "empty-square",
    "pieces are placed and moved only onto empty squares",
);
pub const KICK_OFF_PIECE: Rule = rule(
    "kick-off-piece",
    "the kicking side first places a queen, rook, bishop or knight on its kick-off square",
);
pub const KING_IN_GOAL: Rule = rule(
    "king-in-goal",
    "the king is placed on one of its own goal squares",
);
pub const PAWN_OFF_GOAL: Rule = rule(
    "pawn-off-goal",
    "pawns are not placed on their own goal squares",
);
pub const BISHOP_COLOURS: Rule = rule(
    "bishop-colours",
    "a side's two bishops are placed on squares of different colours",
);
pub const KICK_OFF_RECEIVER: Rule = rule(
    "kick-off-receiver",
    "the kick-off piece must be left a team-mate to pass to",
);

pub const OWN_PIECE: Rule = rule("own-piece", "a side plays only its own pieces");
pub const KICK_OFF_PASS: Rule = rule(
    "kick-off-pass",
    "the kick-off is a pass by the kick-off piece",
);
pub const MOVEMENT: Rule = rule(
    "movement",
    "a piece moves, captures and passes only as its chess movement allows",
);
pub const CLEAR_PATH: Rule = rule(
    "clear-path",
    "queens, rooks and bishops cannot go past another piece",
);
pub const CAPTURE_CARRIER: Rule = rule(
    "capture-carrier",
    "only the opposing ball carrier can be captured",
);
pub const CARRIER_PASSES: Rule = rule("carrier-passes", "only the ball carrier passes");
pub const PASS_TO_TEAM_MATE: Rule = rule("pass-to-team-mate", "a pass goes to a team-mate");
pub const PROMOTION: Rule = rule(
    "promotion",
    "a pawn reaching the last rank promotes to a queen, rook, bishop or knight, unless the move \
     scores",
);
pub const WAIT_WHEN_STUCK: Rule = rule(
    "wait-when-stuck",
    "a side lets its move go by only when it has no move, pass or capture",
);

pub const NAME_THE_ORIGIN: Rule = rule(
    "name-the-origin",
    "when several pieces of a kind could play it, the notation names the mover's origin",
);

/// Every rule a refusal may cite, in the order of the rules page.
pub const RULES: &[Rule] = &[
    PHASE,
    PICK_FROM_BOX,
    KICK_OFF_PICK,
    IN_HAND,
    OWN_HALF,
    EMPTY_SQUARE,
    KICK_OFF_PIECE,
    KING_IN_GOAL,
    PAWN_OFF_GOAL,
    BISHOP_COLOURS,
    KICK_OFF_RECEIVER,
    OWN_PIECE,
    KICK_OFF_PASS,
    MOVEMENT,
    CLEAR_PATH,
    CAPTURE_CARRIER,
    CARRIER_PASSES,
    PASS_TO_TEAM_MATE,
    PROMOTION,
    WAIT_WHEN_STUCK,
    NAME_THE_ORIGIN,
];
