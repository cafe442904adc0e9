//! The rules Chessyball's refusals cite. Each id is explained in `docs/rules/chessyball.md`
//! (section Refusals); bots may match on the ids, so they never change.

use crate::game::Rule;

pub const OWN_PIECE: Rule = Rule {
    id: "own-piece",
    text: "a side moves only its own team-members",
};

pub const ON_THE_BOARD: Rule = Rule {
    id: "on-the-board",
    text: "a move ends on the board",
};

pub const STRAIGHT_LINE: Rule = Rule {
    id: "straight-line",
    text: "a piece moves one or more squares in a straight line, orthogonally or diagonally",
};

pub const BALL_BLOCKS: Rule = Rule {
    id: "ball-blocks",
    text: "no move passes over or ends on the ball",
};

pub const CLEAR_PATH: Rule = Rule {
    id: "clear-path",
    text: "a move passes over no piece the `pass_through` option does not allow",
};

pub const EMPTY_TARGET: Rule = Rule {
    id: "empty-target",
    text: "a move ends on an empty square",
};

pub const NOT_IN_OWN_GOAL: Rule = Rule {
    id: "not-in-own-goal",
    text: "no piece ends a move in its own goal",
};

/// Unless `keeper_leaves_box` frees the keeper.
pub const KEEPER_IN_BOX: Rule = Rule {
    id: "keeper-in-box",
    text: "the keeper ends every move inside its own keeper box",
};

pub const BOX_FOR_KEEPER: Rule = Rule {
    id: "box-for-keeper",
    text: "only the keeper ends a move in its own keeper box",
};

pub const EXTENSION_MOVES_BALL: Rule = Rule {
    id: "extension-moves-ball",
    text: "every action of an extension moves the ball",
};

/// `end` without the `end_turn_early` option, outside an extension.
pub const USE_EVERY_ACTION: Rule = Rule {
    id: "use-every-action",
    text: "a turn uses all its actions",
};

/// `end` with the `end_turn_early` option, before the turn's first action.
pub const END_AFTER_AN_ACTION: Rule = Rule {
    id: "end-after-an-action",
    text: "a turn ends early only after its first action",
};

/// Under `after_goal = defender_places`, the conceding side's turn opens with the placement.
pub const PLACE_BALL_FIRST: Rule = Rule {
    id: "place-ball-first",
    text: "the side that conceded places the ball before it plays",
};

pub const PLACEMENT_IN_OWN_BOX: Rule = Rule {
    id: "placement-in-own-box",
    text: "the ball is placed in the side's own keeper box",
};

pub const PLACEMENT_ON_EMPTY_SQUARE: Rule = Rule {
    id: "placement-on-empty-square",
    text: "the ball is placed on an empty square",
};

pub const PLACEMENT_AFTER_GOAL: Rule = Rule {
    id: "placement-after-goal",
    text: "the ball is placed only by a side that has just conceded under \
           `after_goal = defender_places`",
};

pub const SHOOTOUT_ONLY_SHOOT: Rule = Rule {
    id: "shootout-only-shoot",
    text: "in the penalty shoot-out the only action is `shoot`",
};

pub const SHOOT_IN_SHOOTOUT: Rule = Rule {
    id: "shoot-in-shootout",
    text: "penalties are taken only in the penalty shoot-out",
};

/// Every rule above, each once: what [`crate::Game::rules`] reports for Chessyball.
pub const RULES: &[Rule] = &[
    OWN_PIECE,
    ON_THE_BOARD,
    STRAIGHT_LINE,
    BALL_BLOCKS,
    CLEAR_PATH,
    EMPTY_TARGET,
    NOT_IN_OWN_GOAL,
    KEEPER_IN_BOX,
    BOX_FOR_KEEPER,
    EXTENSION_MOVES_BALL,
    USE_EVERY_ACTION,
    END_AFTER_AN_ACTION,
    PLACE_BALL_FIRST,
    PLACEMENT_IN_OWN_BOX,
    PLACEMENT_ON_EMPTY_SQUARE,
    PLACEMENT_AFTER_GOAL,
    SHOOTOUT_ONLY_SHOOT,
    SHOOT_IN_SHOOTOUT,
];
