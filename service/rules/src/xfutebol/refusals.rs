//! Why an action is refused: the rule it breaks, worked out from the state, and what would be
//! legal instead.
//!
//! `legal_actions` decides what is legal; this module only explains a refusal. Each diagnosis
//! walks the conditions the legal-action lists check, in the order a player would look at them,
//! and names the first one the action fails.

use crate::game::{Game, Rule, RuleError, Seat};
use crate::geometry::Square;

use super::actions::Action;
use super::geometry::{
    Reach, bends, distance_to_goal, is_goal_square, line_between, on_board, straight_run,
};
use super::lineup::{PER_SPECIAL, Piece, Role, SPECIALS, special_count};
use super::rules::*;
use super::{Ball, Phase, SetPiece, XFutebol, seat_name};

/// A broken rule and what in the action breaks it.
type Broken = (Rule, String);

/// Actions shown in a refusal's list of legal ones; the rest are counted.
const LEGAL_EXAMPLES: usize = 12;

impl XFutebol {
    /// Why `seat` may not take `action` now, or `None` when it may: the match is over, it is
    /// another seat's turn, or the action breaks a rule of the game.
    pub(super) fn refusal(&self, seat: Seat, action: &Action) -> Option<RuleError> {
        if self.outcome.is_some() {
            return Some(RuleError::game_over());
        }
        if seat != self.to_act {
            return Some(RuleError::not_your_turn(format!(
                "it is {}'s turn ({} phase), not {}'s",
                seat_name(self.to_act),
                self.phase_kind().name(),
                seat_name(seat)
            )));
        }
        let legal = self.legal_actions(seat);
        if legal.contains(action) {
            return None;
        }
        let (rule, why) = self.broken_rule(seat, action);
        Some(RuleError::breaks(
            rule,
            format!("`{action}`: {why}; legal now: {}", legal_list(&legal)),
        ))
    }

    fn broken_rule(&self, seat: Seat, action: &Action) -> Broken {
        match (self.phase, action) {
            (Phase::Lineup, _) => self.lineup_refusal(seat, action),
            (Phase::Play, _) => self.play_refusal(seat, action),
            // Any own piece on the pitch may be sent off or take the kick, so only a square
            // without one is refused.
            (Phase::SendOff { .. }, Action::SendOff { at: square })
            | (Phase::Penalty | Phase::Shootout, Action::Penalty { kicker: square }) => {
                self.not_own_piece(*square)
            }
            _ => self.wrong_phase(),
        }
    }

    fn wrong_phase(&self) -> Broken {
        let takes = match self.phase {
            Phase::Lineup => "`default`, `formation`, specials (`c2=L`), `place` and `confirm`",
            Phase::Play => "movements and `end`",
            Phase::SendOff { .. } => "only `sendoff <square>`: a red card removes a piece first",
            Phase::Penalty | Phase::Shootout => "only `penalty <kicker's square>`",
            Phase::Over => "nothing",
        };
        (
            PHASE_ACTIONS,
            format!("the `{}` phase takes {takes}", self.phase_kind().name()),
        )
    }

    /// The piece of `seat` on `square`, or why there is none to act with.
    fn own_piece(&self, seat: Seat, square: Square) -> Result<&Piece, Broken> {
        match self.piece_at(square) {
            Some(piece) if piece.seat == seat => Ok(piece),
            _ => Err(self.not_own_piece(square)),
        }
    }

    fn not_own_piece(&self, square: Square) -> Broken {
        let why = match self.piece_at(square) {
            Some(piece) => format!("the piece on {square} is {}'s", seat_name(piece.seat)),
            None => format!("no piece stands on {square}"),
        };
        (OWN_PIECE, why)
    }

    fn lineup_refusal(&self, seat: Seat, action: &Action) -> Broken {
        let progress = &self.lineups[seat.index()];
        let Some(formation) = progress.formation else {
            return match action {
                Action::AssignSpecial { .. } | Action::Place { .. } | Action::ConfirmLineup => (
                    FORMATION_FIRST,
                    "pick `default` or `formation 4-3-3|5-3-2` first".to_owned(),
                ),
                _ => self.wrong_phase(),
            };
        };
        match *action {
            Action::DefaultLineup | Action::Formation(_) => (
                FORMATION_ONCE,
                format!("this side already lines up in {}", formation.name()),
            ),
            Action::AssignSpecial { at, special } => match self.own_piece(seat, at) {
                Err(broken) => broken,
                Ok(piece) if piece.slot == Role::Keeper => (
                    SPECIAL_PLAIN_OUTFIELDER,
                    format!("the piece on {at} is the keeper"),
                ),
                Ok(piece) if piece.special.is_some() => (
                    SPECIAL_PLAIN_OUTFIELDER,
                    format!("the piece on {at} is already {}", a_role(piece.role())),
                ),
                Ok(_) => (
                    TWO_OF_EACH_SPECIAL,
                    format!(
                        "this side already has {PER_SPECIAL} {}s",
                        role_words(special.role())
                    ),
                ),
            },
            Action::Place { from, to } => match self.own_piece(seat, from) {
                Err(broken) => broken,
                Ok(piece) if progress.placed.contains(&piece.id) => (
                    PLACE_ONCE,
                    format!("the piece on {from} was re-placed already"),
                ),
                Ok(piece) => (LINEUP_SQUARE, self.lineup_square_refusal(piece, to)),
            },
            Action::ConfirmLineup => (TWO_OF_EACH_SPECIAL, self.specials_named(seat)),
            _ => self.wrong_phase(),
        }
    }

    fn lineup_square_refusal(&self, piece: &Piece, to: Square) -> String {
        if self.piece_at(to).is_some() {
            format!("a piece already stands on {to}")
        } else if piece.slot == Role::Keeper {
            format!("{to} is outside the keeper's goal area")
        } else {
            format!("{to} is outside the own half or on an own goal square")
        }
    }

    fn specials_named(&self, seat: Seat) -> String {
        let counts: Vec<String> = SPECIALS
            .iter()
            .map(|s| {
                let count = special_count(&self.pieces, seat, *s);
                format!("{}s {count}", role_words(s.role()))
            })
            .collect();
        format!("named so far: {}", counts.join(", "))
    }

    fn play_refusal(&self, seat: Seat, action: &Action) -> Broken {
        match *action {
            Action::EndTurn => (
                END_AFTER_MOVE,
                if self.movements_left == 2 {
                    "the turn has had no movement yet".to_owned()
                } else {
                    "the first movement was not a MOVE or SPRINT, so the second must be".to_owned()
                },
            ),
            Action::Move { from, to } => self.with_mover(seat, action, from, |piece| {
                self.move_refusal(piece, from, to)
            }),
            Action::Sprint { from, to } => self.with_mover(seat, action, from, |piece| {
                self.sprint_refusal(piece, from, to)
            }),
            Action::Pass { from, to } => self.with_holder(seat, action, from, |piece| {
                self.pass_refusal(piece, from, to)
            }),
            Action::LongPass { from, via, to } => self.with_holder(seat, action, from, |piece| {
                self.long_pass_refusal(piece, from, via, to)
            }),
            Action::Dribble { from, to } => self.with_holder(seat, action, from, |piece| {
                self.dribble_refusal(piece, from, to)
            }),
            Action::Challenge { from, target } => self.with_mover(seat, action, from, |_| {
                self.challenge_refusal(seat, from, target)
            }),
            Action::Shoot { from, goal } => self.with_holder(seat, action, from, |piece| {
                self.shot_refusal(piece, from, goal)
            }),
            Action::LongShoot { from, via, goal } => {
                self.with_holder(seat, action, from, |piece| {
                    self.long_shot_refusal(piece, from, via, goal)
                })
            }
            Action::FreeKick { from, goal } => {
                self.with_mover(seat, action, from, |piece| match self.free_kick {
                    Some(SetPiece::FreeKick { kicker, .. }) if kicker == piece.id => {
                        self.shot_refusal(piece, from, goal)
                    }
                    Some(SetPiece::FreeKick { square, .. }) => (
                        FREE_KICK_TAKER,
                        format!("the free kick belongs to the piece fouled on {square}"),
                    ),
                    _ => (FREE_KICK_TAKER, "no free kick is due now".to_owned()),
                })
            }
            _ => self.wrong_phase(),
        }
    }

    /// Checks what every movement needs (an own piece, and the turn's MOVE still to come when
    /// only one movement is left), then asks `then` about the movement itself.
    fn with_mover(
        &self,
        seat: Seat,
        action: &Action,
        from: Square,
        then: impl FnOnce(&Piece) -> Broken,
    ) -> Broken {
        let piece = match self.own_piece(seat, from) {
            Ok(piece) => piece,
            Err(broken) => return broken,
        };
        if self.movements_left == 1 && !self.moved && !action.is_move() {
            return (
                TURN_NEEDS_A_MOVE,
                "the first movement was not a MOVE or SPRINT, so this one must be".to_owned(),
            );
        }
        then(piece)
    }

    /// As [`Self::with_mover`], for a movement of the ball holder.
    fn with_holder(
        &self,
        seat: Seat,
        action: &Action,
        from: Square,
        then: impl FnOnce(&Piece) -> Broken,
    ) -> Broken {
        self.with_mover(seat, action, from, |piece| {
            if self.ball == Ball::Held(piece.id) {
                then(piece)
            } else {
                (BALL_HOLDER, self.ball_whereabouts(from))
            }
        })
    }

    fn ball_whereabouts(&self, from: Square) -> String {
        match (self.holder(), self.ball_square()) {
            (Some(holder), Some(square)) if holder.seat == self.to_act => {
                format!("the ball is with the piece on {square}, not on {from}")
            }
            (Some(_), Some(square)) => format!("the opponent on {square} has the ball"),
            (_, Some(square)) => format!("the ball lies loose on {square}"),
            _ => "the ball is not in play".to_owned(),
        }
    }

    fn move_refusal(&self, piece: &Piece, from: Square, to: Square) -> Broken {
        let Some(way) = straight_run(piece.seat, from, to, piece.reach(), 1) else {
            return (
                MOVE_PATTERN,
                out_of_pattern(piece, from, to, piece.reach(), 1),
            );
        };
        if let Some(square) = way.iter().find(|s| self.piece_at(**s).is_some()) {
            return (MOVE_BLOCKED, format!("the piece on {square} is in the way"));
        }
        if self.piece_at(to).is_some_and(|p| p.seat == piece.seat) {
            return (MOVE_BLOCKED, format!("a team-mate stands on {to}"));
        }
        // Nothing else stops a MOVE but carrying the ball onto a goal square.
        (GOALS_BY_KICKS, carried_into_goal(from, to))
    }

    fn sprint_refusal(&self, piece: &Piece, from: Square, to: Square) -> Broken {
        let Some(way) = straight_run(piece.seat, from, to, piece.reach(), 2) else {
            return (
                SPRINT_PATTERN,
                out_of_pattern(piece, from, to, piece.reach(), 2),
            );
        };
        if let Some(square) = way.iter().find(|s| self.piece_at(**s).is_some()) {
            return (SPRINT_FREE, format!("the piece on {square} is in the way"));
        }
        if self.piece_at(to).is_some() {
            return (SPRINT_FREE, format!("a piece stands on {to}"));
        }
        (GOALS_BY_KICKS, carried_into_goal(from, to))
    }

    fn pass_refusal(&self, piece: &Piece, from: Square, to: Square) -> Broken {
        let Some(way) = straight_run(piece.seat, from, to, piece.reach(), 2) else {
            return (
                PASS_RANGE,
                out_of_pattern(piece, from, to, piece.reach(), 2),
            );
        };
        if let Some(square) = self.team_mate_among(piece.seat, &way) {
            return (
                LINE_OF_SIGHT,
                format!("the team-mate on {square} is in the way"),
            );
        }
        self.target_refusal(piece.seat, to)
    }

    /// A pass that reached its target: an opponent there, or an empty goal square.
    fn target_refusal(&self, seat: Seat, to: Square) -> Broken {
        if self.piece_at(to).is_some_and(|p| p.seat != seat) {
            return (PASS_TARGET, format!("an opponent stands on {to}"));
        }
        (
            GOALS_BY_KICKS,
            format!("{to} is a goal square; shoot to score"),
        )
    }

    fn long_pass_refusal(
        &self,
        piece: &Piece,
        from: Square,
        via: Option<Square>,
        to: Square,
    ) -> Broken {
        if piece.role() != Role::LongExpert {
            return (LONG_EXPERTS_ONLY, not_a_long_expert(piece, from));
        }
        let reach = piece.long_reach();
        let Some(corner) = via else {
            let Some(way) = straight_run(piece.seat, from, to, reach, 3) else {
                return (LONG_PASS_RANGE, out_of_pattern(piece, from, to, reach, 3));
            };
            return self.long_pass_path_refusal(piece.seat, &way, to);
        };
        let Some(first) = straight_run(piece.seat, from, corner, reach, 3) else {
            return (
                LONG_PASS_RANGE,
                out_of_pattern(piece, from, corner, reach, 3),
            );
        };
        if !bends(from, corner, to) {
            return (CURVE_MUST_BEND, no_bend(from, corner, to));
        }
        let Some(second) = straight_run(piece.seat, corner, to, reach, 3) else {
            return (LONG_PASS_RANGE, out_of_pattern(piece, corner, to, reach, 3));
        };
        let length = first.len() + second.len() + 2;
        let longest = usize::from(reach.longest()) * 3;
        if length > longest {
            return (
                LONG_PASS_RANGE,
                format!("the curve covers {length} squares, more than {longest}"),
            );
        }
        let path: Vec<Square> = first.into_iter().chain([corner]).chain(second).collect();
        self.long_pass_path_refusal(piece.seat, &path, to)
    }

    /// A long pass within range: a piece on its path, or a target it cannot end on.
    fn long_pass_path_refusal(&self, seat: Seat, path: &[Square], to: Square) -> Broken {
        match path.iter().find(|s| self.piece_at(**s).is_some()) {
            Some(square) => (
                LONG_PATH_CLEAR,
                format!("the piece on {square} is in the way"),
            ),
            None => self.target_refusal(seat, to),
        }
    }

    fn dribble_refusal(&self, piece: &Piece, from: Square, to: Square) -> Broken {
        if self.adjacent_opponents(piece.seat, from).is_empty() {
            return (
                DRIBBLE_NEEDS_OPPONENT,
                format!("no opponent stands next to {from}"),
            );
        }
        if to.king_distance(from) != 1 || !on_board(to) {
            return (DRIBBLE_STEP, format!("{to} is not next to {from}"));
        }
        if self.piece_at(to).is_some() {
            return (DRIBBLE_STEP, format!("a piece stands on {to}"));
        }
        (GOALS_BY_KICKS, carried_into_goal(from, to))
    }

    fn challenge_refusal(&self, seat: Seat, from: Square, target: Square) -> Broken {
        let why = match (self.holder(), self.ball_square()) {
            (Some(holder), _) if holder.seat == seat => "this side has the ball".to_owned(),
            (Some(_), Some(square)) if square != target => {
                format!("the ball is on {square}, not {target}")
            }
            (Some(_), Some(square)) => format!("{square} is not next to {from}"),
            (_, Some(square)) => format!("nobody holds the ball: it lies loose on {square}"),
            _ => "the ball is not in play".to_owned(),
        };
        (CHALLENGE_TARGET, why)
    }

    /// A SHOOT or a free kick, which has the same range and line.
    fn shot_refusal(&self, piece: &Piece, from: Square, goal: Square) -> Broken {
        let defender = piece.seat.opponent();
        if let Some(broken) = self.goal_refusal(piece, from, goal) {
            return broken;
        }
        let range = piece.reach().forward * self.settings.shoot_range;
        let distance = distance_to_goal(defender, from);
        if distance > range as i8 {
            return (
                SHOT_RANGE,
                format!(
                    "the {} on {from} shoots from at most {range} squares out; the goal is \
                     {distance} away",
                    role_words(piece.role())
                ),
            );
        }
        self.line_refusal(piece.seat, &line_between(from, goal), goal)
    }

    fn long_shot_refusal(
        &self,
        piece: &Piece,
        from: Square,
        via: Option<Square>,
        goal: Square,
    ) -> Broken {
        if let Some(broken) = self.goal_refusal(piece, from, goal) {
            return broken;
        }
        let range = (piece.reach().forward * 3) as i8;
        let Some(corner) = via else {
            if !self.settings.long_shoot_for_all && piece.role() != Role::LongExpert {
                return (LONG_SHOOT_BY, not_a_long_expert(piece, from));
            }
            let distance = distance_to_goal(piece.seat.opponent(), from);
            if distance > range {
                return (
                    LONG_SHOT_RANGE,
                    format!("the goal is {distance} squares from {from}, more than {range}"),
                );
            }
            return self.line_refusal(piece.seat, &line_between(from, goal), goal);
        };
        if piece.role() != Role::LongExpert {
            return (LONG_EXPERTS_ONLY, not_a_long_expert(piece, from));
        }
        let reach = piece.long_reach();
        let Some(first) = straight_run(piece.seat, from, corner, reach, 3) else {
            return (
                LONG_SHOT_RANGE,
                out_of_pattern(piece, from, corner, reach, 3),
            );
        };
        if !bends(from, corner, goal) {
            return (CURVE_MUST_BEND, no_bend(from, corner, goal));
        }
        let length = first.len() as i8 + 1 + corner.king_distance(goal);
        if length > range {
            return (
                LONG_SHOT_RANGE,
                format!("the curve covers {length} squares, more than {range}"),
            );
        }
        if let Some(square) = first
            .iter()
            .chain([&corner])
            .find(|s| self.piece_at(**s).is_some())
        {
            return (
                LONG_PATH_CLEAR,
                format!("the piece on {square} is in the way"),
            );
        }
        self.line_refusal(piece.seat, &line_between(corner, goal), goal)
    }

    /// A shot's target that is no goal square of the opponent, or the square the ball is on.
    fn goal_refusal(&self, piece: &Piece, from: Square, goal: Square) -> Option<Broken> {
        if !is_goal_square(piece.seat.opponent(), goal) {
            return Some((
                SHOOT_AT_GOAL,
                format!("{goal} is not a goal square of the opponent"),
            ));
        }
        (goal == from).then(|| {
            (
                SHOOT_AT_GOAL,
                format!("the ball is already on {goal}; aim at the other goal square"),
            )
        })
    }

    /// A shot whose only fault is its line: a team-mate on the path or on the goal square.
    fn line_refusal(&self, seat: Seat, path: &[Square], goal: Square) -> Broken {
        let blocker = self.team_mate_among(seat, path).unwrap_or(goal);
        (
            LINE_OF_SIGHT,
            format!("the team-mate on {blocker} is in the way"),
        )
    }

    fn team_mate_among(&self, seat: Seat, squares: &[Square]) -> Option<Square> {
        squares
            .iter()
            .copied()
            .find(|s| self.piece_at(*s).is_some_and(|p| p.seat == seat))
    }
}

/// The first legal actions and, when there are more, how many in all; "nothing" when none.
fn legal_list(legal: &[Action]) -> String {
    if legal.is_empty() {
        return "nothing".to_owned();
    }
    let mut shown: Vec<String> = legal
        .iter()
        .take(LEGAL_EXAMPLES)
        .map(Action::notation)
        .collect();
    if legal.len() > LEGAL_EXAMPLES {
        shown.push(format!("... {} in all", legal.len()));
    }
    shown.join(", ")
}

fn role_words(role: Role) -> &'static str {
    match role {
        Role::Keeper => "keeper",
        Role::Defender => "defender",
        Role::Midfielder => "midfielder",
        Role::Attacker => "attacker",
        Role::Dribbler => "Dribbler",
        Role::Goaler => "Goaler",
        Role::LongExpert => "Long Expert",
    }
}

/// "an attacker", "a Dribbler".
fn a_role(role: Role) -> String {
    let article = if role == Role::Attacker { "an" } else { "a" };
    format!("{article} {}", role_words(role))
}

/// "e4 is off the attacker's reach from c4: straight lines of 4 forward, 2 back, 2 sideways,
/// none diagonally".
fn out_of_pattern(piece: &Piece, from: Square, to: Square, reach: Reach, times: u8) -> String {
    let count = |n: u8| match n * times {
        0 => "none".to_owned(),
        n => n.to_string(),
    };
    format!(
        "{to} is off the {}'s reach from {from}: straight lines of {} forward, {} back, {} \
         sideways, {} diagonally",
        role_words(piece.role()),
        count(reach.forward),
        count(reach.backward),
        count(reach.sideways),
        count(reach.diagonal)
    )
}

fn carried_into_goal(from: Square, to: Square) -> String {
    format!("{to} is a goal square and the piece on {from} has the ball; shoot to score")
}

fn not_a_long_expert(piece: &Piece, from: Square) -> String {
    format!(
        "the piece on {from} is {}, not a Long Expert",
        a_role(piece.role())
    )
}

fn no_bend(from: Square, corner: Square, to: Square) -> String {
    format!(
        "{from}, {corner} and {to} lie on one straight line; without the corner it is the \
         straight kick"
    )
}
