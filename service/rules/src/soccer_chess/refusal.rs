//! Why an action is refused: the rule it breaks, read from the state, and what would be legal
//! instead.
//!
//! The lists decide what is legal (`legal_actions`, `piece_actions`); this module explains a
//! refusal by going through the same checks one at a time, in the order a player meets them: the
//! piece's pattern, where it may stand, its way there, then what stands at the end.

use super::pitch::{Half, Pattern, goal_defended_by, on_board};
use super::rules::{
    BISHOP_COLOURS, CLEAR_PATH, DEFAULT_FORMATION_FIRST, END_AFTER_A_MOVE, KEEPER_SMALL_AREA,
    KICK_LANDING, KICK_PATTERN, MOVE_PATTERN, MUST_KICK, NO_OWN_GOAL, ON_THE_BOARD, ONCE_PER_SET,
    ONE_PIECE_PER_SQUARE, OWN_PIECE, PLAY_PHASE, SETUP_PHASE, SMALL_AREA_KEEPERS_ONLY, TEAM_AREA,
    TEAM_OF_ELEVEN,
};
use super::{Action, Misplacement, Phase, PieceKind, SoccerChess, TEAM_SIZE};
use crate::game::{Game, Rule, RuleError, Seat};
use crate::geometry::{DIAGONAL, KNIGHT_JUMPS, ORTHOGONAL, Square};

/// A broken rule and what in the action breaks it.
pub(super) type Breach = (Rule, String);

/// How a piece gets from one square to another under its pattern.
#[derive(Clone, Copy)]
enum Route {
    /// A single step or jump: nothing in between matters.
    Step,
    /// A slide along this unit direction.
    Slide((i8, i8)),
}

impl SoccerChess {
    /// The refusal of `action` by `seat`, the seat to move, or `None` when it is legal now:
    /// exactly the actions `legal_actions` leaves out.
    pub(super) fn refusal(&self, seat: Seat, action: &Action) -> Option<RuleError> {
        match (self.phase, action) {
            (Phase::Over, _) => Some(RuleError::game_over()),
            (Phase::Setup, &Action::Place { kind, square }) => {
                let (rule, detail) = self.misplacement_breach(seat, kind, square)?;
                Some(RuleError::breaks(rule, detail))
            }
            (Phase::Setup, Action::DefaultFormation) => {
                let unplaced = self.unplaced(seat);
                (unplaced.len() != TEAM_SIZE).then(|| {
                    RuleError::breaks(
                        DEFAULT_FORMATION_FIRST,
                        format!(
                            "you have already placed {} of your {TEAM_SIZE} pieces; place the \
                             rest one by one: {}",
                            TEAM_SIZE - unplaced.len(),
                            kind_list(&unplaced)
                        ),
                    )
                })
            }
            (Phase::Setup, Action::Move { .. } | Action::Kick { .. } | Action::EndSet) => {
                Some(self.setup_phase_refusal(seat))
            }
            (Phase::Play, Action::Place { .. } | Action::DefaultFormation) => {
                Some(RuleError::breaks(
                    PLAY_PHASE,
                    "the pieces are already placed; move or kick with a piece, or end the set",
                ))
            }
            (Phase::Play, Action::EndSet) => (!self.may_end_set(seat)).then(|| {
                RuleError::breaks(
                    END_AFTER_A_MOVE,
                    "no piece has moved in this set yet; move or kick with a piece first",
                )
            }),
            (Phase::Play, &Action::Move { from, .. } | &Action::Kick { from, .. }) => {
                self.piece_action_refusal(seat, action, from)
            }
        }
    }

    /// The refusal of anything but a placement while the pieces are being placed.
    pub(super) fn setup_phase_refusal(&self, seat: Seat) -> RuleError {
        let example = self
            .setup_actions(seat)
            .into_iter()
            .find(|action| matches!(action, Action::Place { .. }))
            .map(|action| self.format_action(seat, &action))
            .unwrap_or_default();
        RuleError::breaks(
            SETUP_PHASE,
            format!(
                "the pieces are still being placed; place one piece (e.g. `{example}`) or use \
                 the default formation (`default`)"
            ),
        )
    }

    /// The rule placing a `kind` on `square` breaks, if any.
    fn misplacement_breach(&self, seat: Seat, kind: PieceKind, square: Square) -> Option<Breach> {
        let unplaced = self.unplaced(seat);
        let half = self.half_of(seat);
        Some(match self.misplacement(seat, kind, square, &unplaced)? {
            Misplacement::NoneLeft => (
                TEAM_OF_ELEVEN,
                format!(
                    "you have no {} left to place; still to place: {}",
                    kind.name(),
                    kind_list(&unplaced)
                ),
            ),
            Misplacement::OutsideTeamArea => (
                TEAM_AREA,
                format!(
                    "{square} is outside your team area ({})",
                    team_area_name(half)
                ),
            ),
            Misplacement::Occupied(other) => (
                ONE_PIECE_PER_SQUARE,
                format!("{square} already holds a {}", other.name()),
            ),
            Misplacement::KeeperOutsideSmallArea => (
                KEEPER_SMALL_AREA,
                format!(
                    "the keeper must start in your small area ({}), and {square} is not in it",
                    small_area_name(half)
                ),
            ),
            Misplacement::InSmallArea => (
                SMALL_AREA_KEEPERS_ONLY,
                format!("{square} is in a small area, where only the keeper may stand"),
            ),
            Misplacement::BishopsOnOneColour(other) => (
                BISHOP_COLOURS,
                format!(
                    "your other bishop stands on {other}, a square of the same colour as {square}"
                ),
            ),
        })
    }

    /// The refusal of a move or kick from `from`, or `None` when it is legal.
    fn piece_action_refusal(&self, seat: Seat, action: &Action, from: Square) -> Option<RuleError> {
        let Some(id) = self
            .piece_at(from)
            .filter(|id| self.pieces[*id as usize].owner == seat)
        else {
            let what = match self.piece_at(from) {
                Some(other) => format!("the {} on {from} is your opponent's", self.name_of(other)),
                None => format!("there is no piece on {from}"),
            };
            return Some(RuleError::breaks(
                OWN_PIECE,
                format!(
                    "{what}; your legal moves and kicks: {}",
                    self.listed(seat, self.movable_pieces(seat))
                ),
            ));
        };
        if self.moved.contains(&id) {
            return Some(RuleError::breaks(
                ONCE_PER_SET,
                format!(
                    "the {} on {from} already moved in this set; still possible: {}",
                    self.name_of(id),
                    self.listed(seat, self.movable_pieces(seat))
                ),
            ));
        }
        if self.piece_actions(id).contains(action) {
            return None;
        }
        let (rule, why) = self.breach(id, action);
        Some(RuleError::breaks(
            rule,
            format!(
                "{why}; the {}'s legal moves and kicks: {}",
                self.name_of(id),
                self.listed(seat, [id].into_iter())
            ),
        ))
    }

    /// The rule a move or kick of piece `id` breaks, for an action its list leaves out.
    pub(super) fn breach(&self, id: u32, action: &Action) -> Breach {
        // `diagnose` repeats the listing's checks; should the two ever disagree, the list has
        // decided the refusal and the piece's pattern is the nearest rule to name.
        self.diagnose(id, action).unwrap_or_else(|| {
            (
                MOVE_PATTERN,
                format!("the {} cannot do that", self.name_of(id)),
            )
        })
    }

    /// The first rule a move or kick of piece `id` breaks, or `None` when it breaks none.
    pub(super) fn diagnose(&self, id: u32, action: &Action) -> Option<Breach> {
        let from = self.pieces[id as usize].square?;
        match *action {
            Action::Move { to, .. } => {
                if !on_board(to) {
                    return Some((ON_THE_BOARD, format!("{to} is off the board")));
                }
                self.approach_breach(id, from, to).or_else(|| {
                    if to == self.ball {
                        Some((
                            MUST_KICK,
                            format!("the ball is on {to}; kick it somewhere instead"),
                        ))
                    } else {
                        self.piece_at(to).map(|other| {
                            (
                                ONE_PIECE_PER_SQUARE,
                                format!("the {} on {to} stands there", self.name_of(other)),
                            )
                        })
                    }
                })
            }
            Action::Kick { target, .. } => self
                .approach_breach(id, from, self.ball)
                .map(|(rule, why)| {
                    let ball = self.ball;
                    (
                        rule,
                        format!("to kick, it must first go onto the ball on {ball}: {why}"),
                    )
                })
                .or_else(|| self.kick_breach(id, from, target)),
            Action::Place { .. } | Action::DefaultFormation | Action::EndSet => None,
        }
    }

    /// The rule piece `id` breaks going from `from` to the board square `to` (whatever stands
    /// there), if any.
    fn approach_breach(&self, id: u32, from: Square, to: Square) -> Option<Breach> {
        let piece = self.pieces[id as usize];
        let pattern = piece.kind.move_pattern();
        let Some(route) = route(pattern, from, to) else {
            return Some((
                MOVE_PATTERN,
                format!("{from} to {to} is not {}", shape(pattern)),
            ));
        };
        if !self.may_stand(id, to) {
            return Some(if piece.kind == PieceKind::Keeper {
                (
                    KEEPER_SMALL_AREA,
                    format!(
                        "{to} is outside your small area ({})",
                        small_area_name(self.half_of(piece.owner))
                    ),
                )
            } else {
                (SMALL_AREA_KEEPERS_ONLY, format!("{to} is in a small area"))
            });
        }
        between(from, to, route).find_map(|square| {
            if let Some(other) = self.piece_at(square) {
                Some((
                    CLEAR_PATH,
                    format!("the {} on {square} is in the way", self.name_of(other)),
                ))
            } else if square == self.ball {
                Some((CLEAR_PATH, format!("the ball on {square} is in the way")))
            } else if !self.may_pass(id, square) {
                Some((
                    SMALL_AREA_KEEPERS_ONLY,
                    format!(
                        "the way crosses the small area at {square} (the \
                         slide_through_small_areas option would allow passing)"
                    ),
                ))
            } else {
                None
            }
        })
    }

    /// The rule piece `id`, having stepped from `from` onto the ball, breaks kicking it to
    /// `target`, if any.
    fn kick_breach(&self, id: u32, from: Square, target: Square) -> Option<Breach> {
        let piece = self.pieces[id as usize];
        let ball = self.ball;
        let pattern = piece.kind.kick_pattern();
        let Some(route) = route(pattern, ball, target) else {
            return Some((
                KICK_PATTERN,
                format!(
                    "the ball on {ball} cannot go to {target} by {}",
                    shape(pattern)
                ),
            ));
        };
        let goal = goal_defended_by(target);
        if !on_board(target) && goal.is_none() {
            return Some((
                KICK_LANDING,
                format!("{target} is off the board and not a goal cell (e0-g0, e18-g18)"),
            ));
        }
        // The kicker has left `from`, so it stops nothing there.
        let stopper = |square: Square| self.piece_at(square).filter(|_| square != from);
        if let Some((square, other)) =
            between(ball, target, route).find_map(|square| Some((square, stopper(square)?)))
        {
            return Some((
                CLEAR_PATH,
                format!("the {} on {square} stops the ball", self.name_of(other)),
            ));
        }
        if let Some(half) = goal {
            let own_goal = half == self.half_of(piece.owner) && !self.rules.own_goals;
            return own_goal.then(|| (NO_OWN_GOAL, format!("{target} is your own goal")));
        }
        stopper(target).map(|other| {
            (
                KICK_LANDING,
                format!("the {} on {target} stands there", self.name_of(other)),
            )
        })
    }

    fn name_of(&self, id: u32) -> &'static str {
        self.pieces[id as usize].kind.name()
    }

    /// The notations of the moves and kicks of pieces `ids`, for a refusal to offer.
    pub(super) fn listed(&self, seat: Seat, ids: impl Iterator<Item = u32>) -> String {
        let listed: Vec<String> = ids
            .flat_map(|id| self.piece_actions(id))
            .map(|action| self.format_action(seat, &action))
            .collect();
        if listed.is_empty() {
            "none".to_owned()
        } else {
            listed.join(", ")
        }
    }
}

/// How `pattern` takes a piece (or the ball) from `from` to `to`, or `None` when it cannot.
fn route(pattern: Pattern, from: Square, to: Square) -> Option<Route> {
    let offset = (to.file - from.file, to.rank - from.rank);
    match pattern {
        Pattern::Steps(steps) => steps.contains(&offset).then_some(Route::Step),
        Pattern::Slides(directions) => {
            let (df, dr) = offset;
            let in_line = (df == 0) != (dr == 0) || (df != 0 && df.abs() == dr.abs());
            let direction = (df.signum(), dr.signum());
            (in_line && directions.contains(&direction)).then_some(Route::Slide(direction))
        }
    }
}

/// The squares a route passes over between `from` and `to`, both left out.
fn between(from: Square, to: Square, route: Route) -> impl Iterator<Item = Square> {
    let direction = match route {
        Route::Step => None,
        Route::Slide(direction) => Some(direction),
    };
    direction.into_iter().flat_map(move |(df, dr)| {
        std::iter::successors(Some(from.offset(df, dr)), move |sq| Some(sq.offset(df, dr)))
            .take_while(move |sq| *sq != to)
    })
}

/// A pattern in words, for a refusal.
fn shape(pattern: Pattern) -> &'static str {
    match pattern {
        Pattern::Steps(steps) if steps == &KNIGHT_JUMPS[..] => "a knight's jump",
        Pattern::Steps(_) => "a king's step",
        Pattern::Slides(directions) if directions == &ORTHOGONAL[..] => {
            "a rook's line (along a file or a rank)"
        }
        Pattern::Slides(directions) if directions == &DIAGONAL[..] => {
            "a bishop's line (a diagonal)"
        }
        Pattern::Slides(_) => "a queen's line (along a file, rank or diagonal)",
    }
}

fn team_area_name(half: Half) -> &'static str {
    match half {
        Half::Bottom => "ranks 1-8",
        Half::Top => "ranks 10-17",
    }
}

fn small_area_name(half: Half) -> &'static str {
    match half {
        Half::Bottom => "files d-h of ranks 1-2",
        Half::Top => "files d-h of ranks 16-17",
    }
}

fn kind_list(kinds: &[PieceKind]) -> String {
    let names: Vec<&str> = kinds.iter().map(|kind| kind.name()).collect();
    names.join(", ")
}
