//! The rules Gridiron's refusals cite. Every refused illegal action names one of these; the
//! `## Refusals` section of `docs/rules/gridiron.md` explains each under its id.

use crate::game::Rule;

const fn rule(id: &'static str, text: &'static str) -> Rule {
    Rule { id, text }
}

// The roster phase.
pub const CAPTAIN_KIND: Rule = rule(
    "captain-kind",
    "a captain is one of the seven captain kinds",
);
pub const ONE_CAPTAIN: Rule = rule("one-captain", "a team has one captain");
pub const STANDARD_KIND: Rule = rule(
    "standard-kind",
    "recruits are standard pieces (heavy, strong, fast or qb)",
);
pub const SIX_STANDARD: Rule = rule("six-standard", "a team has six standard pieces");
pub const STANDARD_KIND_LIMIT: Rule = rule(
    "standard-kind-limit",
    "a roster holds at most one qb and three of each other standard kind",
);
pub const PASSER_REQUIRED: Rule = rule(
    "passer-required",
    "a team needs a passer (a qb or the scrambler captain)",
);
pub const DEFAULT_ROSTER_WHEN_EMPTY: Rule = rule(
    "default-roster-when-empty",
    "the default roster replaces an empty roster only",
);
pub const ROSTER_COMPLETE: Rule = rule(
    "roster-complete",
    "a roster is final only with a captain and six standard pieces",
);

// Every phase.
pub const PHASE_ACTIONS: Rule = rule("phase-actions", "each phase allows only its own actions");
pub const OWN_PIECES: Rule = rule("own-pieces", "a team places and orders only its own pieces");

// The formation.
pub const ONE_PLACEMENT: Rule = rule(
    "one-placement",
    "each piece is placed at most once per formation",
);
pub const FORMATION_AREA: Rule = rule(
    "formation-area",
    "pieces line up in their team's formation area",
);
pub const FREE_SPOT: Rule = rule("free-spot", "a spot holds one piece");

// Orders.
pub const CHOPPED: Rule = rule("chopped", "a chop-blocked piece has no move this turn");
pub const ORDER_ENDED: Rule = rule(
    "order-ended",
    "a pass, push, retreat, chop block or anchor ends a piece's order",
);
pub const ITEMS_PER_PIECE: Rule = rule(
    "items-per-piece",
    "a piece writes at most 8 order items per turn",
);
pub const KING_STEP: Rule = rule(
    "king-step",
    "a step goes to a neighbouring square or to another spot of the same square",
);
pub const ON_FIELD: Rule = rule("on-field", "pieces stay on the field");
pub const MOVEMENT_POINTS: Rule = rule(
    "movement-points",
    "steps and abilities cost movement the piece has left",
);
pub const OWN_ABILITIES: Rule = rule(
    "own-abilities",
    "a piece uses only its kind's abilities, a captain its own only on its side of the ball",
);
pub const ONCE_PER_ORDER: Rule = rule(
    "once-per-order",
    "each ability, and the play action, at most once in a piece's order",
);
pub const ONCE_PER_SERIES: Rule = rule(
    "once-per-series",
    "a once-per-series ability comes back only at a first down or a new drive",
);
pub const ABILITY_TARGET: Rule = rule(
    "ability-target",
    "an ability aims at the kind of piece it acts on, or at none",
);

// Passing and play action.
pub const PASSERS: Rule = rule(
    "passers",
    "only the offence's qb or scrambler passes or fakes a hand-off",
);
pub const ONE_PASS_PER_DOWN: Rule = rule("one-pass-per-down", "one pass is thrown per down");
pub const BALL_HOLDER: Rule = rule(
    "ball-holder",
    "only the ball holder passes or fakes a hand-off",
);
pub const QB_PASSES_STANDING: Rule = rule(
    "qb-passes-standing",
    "a qb passes instead of moving; only the scrambler moves, then passes",
);
pub const ELIGIBLE_RECEIVER: Rule = rule(
    "eligible-receiver",
    "receivers are the passer's fast, qb, safety, deep-threat or scrambler team-mates",
);
pub const FAKE_PARTNER: Rule = rule(
    "fake-partner",
    "the play-action partner is another own piece that is not a heavy type",
);
pub const FAKE_KEEPER: Rule = rule(
    "fake-keeper",
    "the ball is kept by the faking passer or its partner",
);

pub const RULES: &[Rule] = &[
    CAPTAIN_KIND,
    ONE_CAPTAIN,
    STANDARD_KIND,
    SIX_STANDARD,
    STANDARD_KIND_LIMIT,
    PASSER_REQUIRED,
    DEFAULT_ROSTER_WHEN_EMPTY,
    ROSTER_COMPLETE,
    PHASE_ACTIONS,
    OWN_PIECES,
    ONE_PLACEMENT,
    FORMATION_AREA,
    FREE_SPOT,
    CHOPPED,
    ORDER_ENDED,
    ITEMS_PER_PIECE,
    KING_STEP,
    ON_FIELD,
    MOVEMENT_POINTS,
    OWN_ABILITIES,
    ONCE_PER_ORDER,
    ONCE_PER_SERIES,
    ABILITY_TARGET,
    PASSERS,
    ONE_PASS_PER_DOWN,
    BALL_HOLDER,
    QB_PASSES_STANDING,
    ELIGIBLE_RECEIVER,
    FAKE_PARTNER,
    FAKE_KEEPER,
];
