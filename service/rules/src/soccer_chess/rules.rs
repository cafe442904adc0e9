//! The rules a Soccer Chess refusal names. Ids are stable, since bots may match on them; the
//! *Refusals* section of `docs/rules/soccer-chess.md` explains each one.

use crate::game::Rule;

// Setup.
pub const SETUP_PHASE: Rule = Rule {
    id: "setup-phase",
    text: "during setup a side only places pieces",
};
pub const DEFAULT_FORMATION_FIRST: Rule = Rule {
    id: "default-formation-first",
    text: "the default formation is only for a side that has placed nothing yet",
};
pub const TEAM_OF_ELEVEN: Rule = Rule {
    id: "team-of-eleven",
    text: "a team is 1 keeper, 4 defenders, 2 rooks, 2 bishops and 2 attackers",
};
pub const TEAM_AREA: Rule = Rule {
    id: "team-area",
    text: "pieces start in their own team area",
};
pub const BISHOP_COLOURS: Rule = Rule {
    id: "bishop-colours",
    text: "the two bishops start on squares of different colours",
};

// Setup and play.
pub const KEEPER_SMALL_AREA: Rule = Rule {
    id: "keeper-small-area",
    text: "the keeper stays in its own small area",
};
pub const SMALL_AREA_KEEPERS_ONLY: Rule = Rule {
    id: "small-area-keepers-only",
    text: "only keepers enter the small areas",
};
pub const ONE_PIECE_PER_SQUARE: Rule = Rule {
    id: "one-piece-per-square",
    text: "a square holds one piece",
};

// Play.
pub const PLAY_PHASE: Rule = Rule {
    id: "play-phase",
    text: "after setup pieces are moved, not placed",
};
pub const OWN_PIECE: Rule = Rule {
    id: "own-piece",
    text: "a side moves only its own pieces",
};
pub const ONCE_PER_SET: Rule = Rule {
    id: "once-per-set",
    text: "each piece moves at most once per set",
};
pub const ON_THE_BOARD: Rule = Rule {
    id: "on-the-board",
    text: "pieces move only to squares of the board",
};
pub const MOVE_PATTERN: Rule = Rule {
    id: "move-pattern",
    text: "a piece moves like its chess piece (the keeper like a king)",
};
pub const CLEAR_PATH: Rule = Rule {
    id: "clear-path",
    text: "a slide stops at the first piece (or ball) in its way",
};
pub const MUST_KICK: Rule = Rule {
    id: "must-kick",
    text: "a piece that goes to the ball must kick it",
};
pub const KICK_PATTERN: Rule = Rule {
    id: "kick-pattern",
    text: "a piece kicks like its chess piece (the keeper like a queen)",
};
pub const KICK_LANDING: Rule = Rule {
    id: "kick-landing",
    text: "a kick lands on an empty square or in a goal",
};
pub const NO_OWN_GOAL: Rule = Rule {
    id: "no-own-goal",
    text: "a side may not kick into its own goal (unless the own_goals option is on)",
};
pub const END_AFTER_A_MOVE: Rule = Rule {
    id: "end-after-a-move",
    text: "a set ends early only after a move",
};

// Notation.
pub const NAME_ONE_PIECE: Rule = Rule {
    id: "name-one-piece",
    text: "when several pieces could make a move, its notation names which one",
};

/// Every rule above, each once, as `Game::rules` reports them.
pub const RULES: &[Rule] = &[
    SETUP_PHASE,
    DEFAULT_FORMATION_FIRST,
    TEAM_OF_ELEVEN,
    TEAM_AREA,
    BISHOP_COLOURS,
    KEEPER_SMALL_AREA,
    SMALL_AREA_KEEPERS_ONLY,
    ONE_PIECE_PER_SQUARE,
    PLAY_PHASE,
    OWN_PIECE,
    ONCE_PER_SET,
    ON_THE_BOARD,
    MOVE_PATTERN,
    CLEAR_PATH,
    MUST_KICK,
    KICK_PATTERN,
    KICK_LANDING,
    NO_OWN_GOAL,
    END_AFTER_A_MOVE,
    NAME_ONE_PIECE,
];
