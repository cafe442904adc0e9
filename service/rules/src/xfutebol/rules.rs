//! The rules XFutebol's refusals cite. Ids are stable: bots may match on them, and the rules
//! page (`docs/rules/xfutebol.md`, section Refusals) explains each.

use crate::game::Rule;

const fn rule(id: &'static str, text: &'static str) -> Rule {
    Rule { id, text }
}

pub const PHASE_ACTIONS: Rule = rule("phase-actions", "each phase takes only its own actions");
pub const OWN_PIECE: Rule = rule(
    "own-piece",
    "a side acts only with its own pieces on the pitch",
);

pub const FORMATION_FIRST: Rule = rule(
    "formation-first",
    "a lineup starts with a formation or the default lineup",
);
pub const FORMATION_ONCE: Rule = rule("formation-once", "a side picks its formation once");
pub const SPECIAL_PLAIN_OUTFIELDER: Rule = rule(
    "special-plain-outfielder",
    "only an outfield piece without a special role can be named a special",
);
pub const TWO_OF_EACH_SPECIAL: Rule = rule(
    "two-of-each-special",
    "a side names exactly two Dribblers, two Goalers and two Long Experts",
);
pub const PLACE_ONCE: Rule = rule(
    "place-once",
    "each piece is re-placed at most once in the lineup",
);
pub const LINEUP_SQUARE: Rule = rule(
    "lineup-square",
    "pieces line up on free squares of their own half, the keeper in its goal area and no one \
     else on its goal squares",
);

pub const TURN_NEEDS_A_MOVE: Rule = rule(
    "turn-needs-a-move",
    "a turn's two movements include a MOVE or SPRINT",
);
pub const END_AFTER_MOVE: Rule = rule(
    "end-after-move",
    "a turn ends early only after its MOVE or SPRINT",
);

pub const MOVE_PATTERN: Rule = rule(
    "move-pattern",
    "a MOVE goes straight within the piece's move pattern",
);
pub const MOVE_BLOCKED: Rule = rule(
    "move-blocked",
    "a MOVE is blocked by any piece on the way and by a team-mate on the target",
);
pub const SPRINT_PATTERN: Rule = rule(
    "sprint-pattern",
    "a SPRINT goes straight within twice the move pattern",
);
pub const SPRINT_FREE: Rule = rule(
    "sprint-free",
    "a SPRINT needs its way and its target free of pieces",
);
pub const GOALS_BY_KICKS: Rule = rule(
    "goals-by-kicks",
    "only a shot, free kick or penalty puts the ball on the opponent's goal squares",
);

pub const BALL_HOLDER: Rule = rule(
    "ball-holder",
    "only the piece holding the ball passes, dribbles or shoots",
);
pub const PASS_RANGE: Rule = rule(
    "pass-range",
    "a PASS goes straight within twice the move pattern",
);
pub const PASS_TARGET: Rule = rule(
    "pass-target",
    "a pass ends on a team-mate or an empty square",
);
pub const LINE_OF_SIGHT: Rule = rule(
    "line-of-sight",
    "a team-mate in the ball's path blocks a pass or a shot",
);
pub const LONG_EXPERTS_ONLY: Rule = rule(
    "long-experts-only",
    "only Long Experts play long passes and curved long shots",
);
pub const LONG_PASS_RANGE: Rule = rule(
    "long-pass-range",
    "a long pass travels at most three times the Long Expert's move",
);
pub const LONG_PATH_CLEAR: Rule = rule(
    "long-path-clear",
    "a long pass, and a curve up to its corner, needs every square free of pieces",
);
pub const CURVE_MUST_BEND: Rule =
    rule("curve-must-bend", "a curve changes direction at its corner");

pub const DRIBBLE_NEEDS_OPPONENT: Rule = rule(
    "dribble-needs-opponent",
    "a dribble needs an opponent next to the ball holder",
);
pub const DRIBBLE_STEP: Rule = rule("dribble-step", "a dribble steps to a free adjacent square");
pub const CHALLENGE_TARGET: Rule = rule(
    "challenge-target",
    "a challenge targets the adjacent opponent holding the ball",
);

pub const SHOOT_AT_GOAL: Rule = rule(
    "shoot-at-goal",
    "a shot aims at one of the opponent's two goal squares",
);
pub const SHOT_RANGE: Rule = rule(
    "shot-range",
    "a SHOOT or free kick is taken within the piece's shooting range of the goal",
);
pub const LONG_SHOT_RANGE: Rule = rule(
    "long-shot-range",
    "a long shot travels at most three times the piece's move",
);
pub const LONG_SHOOT_BY: Rule = rule(
    "long-shoot-by",
    "only Long Experts long shoot in this match (option long_shoot_by)",
);
pub const FREE_KICK_TAKER: Rule = rule(
    "free-kick-taker",
    "only the fouled piece takes the free kick, as the first movement after the foul",
);

/// Every rule above, each once, in the order of the rules page.
pub const RULES: &[Rule] = &[
    PHASE_ACTIONS,
    OWN_PIECE,
    FORMATION_FIRST,
    FORMATION_ONCE,
    SPECIAL_PLAIN_OUTFIELDER,
    TWO_OF_EACH_SPECIAL,
    PLACE_ONCE,
    LINEUP_SQUARE,
    TURN_NEEDS_A_MOVE,
    END_AFTER_MOVE,
    MOVE_PATTERN,
    MOVE_BLOCKED,
    SPRINT_PATTERN,
    SPRINT_FREE,
    GOALS_BY_KICKS,
    BALL_HOLDER,
    PASS_RANGE,
    PASS_TARGET,
    LINE_OF_SIGHT,
    LONG_EXPERTS_ONLY,
    LONG_PASS_RANGE,
    LONG_PATH_CLEAR,
    CURVE_MUST_BEND,
    DRIBBLE_NEEDS_OPPONENT,
    DRIBBLE_STEP,
    CHALLENGE_TARGET,
    SHOOT_AT_GOAL,
    SHOT_RANGE,
    LONG_SHOT_RANGE,
    LONG_SHOOT_BY,
    FREE_KICK_TAKER,
];
