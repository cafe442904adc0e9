//! Chessyball: two teams of queen-moving team-members push one ball around an 18x11 grid.
//!
//! A member that ends a move next to the ball kicks it straight away from itself; the ball
//! rolls until a member or the edge of the inner rectangle stops it, and scores if it rolls
//! into a goal. `docs/rules/chessyball.md` explains every rule, decision and option.

mod notation;
mod pitch;
mod position;
#[cfg(test)]
mod position_tests;
#[cfg(test)]
mod refusal_tests;
pub mod rules;
mod settings;
#[cfg(test)]
mod tests;

use crate::board::{BallView, BoardView, PieceView, Zone, ZoneKind};
use crate::game::{
    Emitted, Game, Outcome, Rule, RuleError, Seat, SetupSpec, Turn, TurnStructure, VariantInfo,
    Viewer,
};
use crate::geometry::{KING_DIRECTIONS, Square};
use crate::rng::Rng;

use pitch::Pitch;
use rules::{
    BALL_BLOCKS, BOX_FOR_KEEPER, CLEAR_PATH, EMPTY_TARGET, END_AFTER_AN_ACTION,
    EXTENSION_MOVES_BALL, KEEPER_IN_BOX, NOT_IN_OWN_GOAL, ON_THE_BOARD, OWN_PIECE,
    PLACE_BALL_FIRST, PLACEMENT_AFTER_GOAL, PLACEMENT_IN_OWN_BOX, PLACEMENT_ON_EMPTY_SQUARE,
    SHOOT_IN_SHOOTOUT, SHOOTOUT_ONLY_SHOOT, STRAIGHT_LINE, USE_EVERY_ACTION,
};
pub use settings::{AfterGoal, BallStart, PassThrough, StartingSeat};
use settings::{Settings, option_specs};

/// Defends the goal on the first file.
pub const HOME: Seat = Seat(0);
/// Defends the goal on the last file.
pub const AWAY: Seat = Seat(1);

/// A d6 roll of at least this scores a penalty: two saves in six.
const PENALTY_SCORES_FROM: u8 = 3;
/// Kicks per side before sudden death.
const SHOOTOUT_REGULAR_ROUNDS: usize = 5;
/// Sudden-death rounds before a seeded coin settles the shoot-out, so it always ends.
const SHOOTOUT_SUDDEN_DEATH_ROUNDS: usize = 20;

/// One atomic Chessyball action.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A team-member moves in a straight line (queen-like); notation `e9-g9`.
    Move { from: Square, to: Square },
    /// After a conceded goal under `after_goal = defender_places`: the ball goes on an empty
    /// square of the own keeper box; notation `ball@c6`.
    PlaceBall { square: Square },
    /// Ends the turn early (where the options allow) or ends an extension; notation `end`.
    EndTurn,
    /// Takes a penalty in the shoot-out; notation `shoot`.
    Shoot,
}

/// How the ball came to rest on a square without being kicked.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BallPlacement {
    /// On a centre square at a kick-off.
    Centre,
    /// On a seeded random square (`ball_start = anywhere`).
    Random,
    /// Placed by the conceding side in its keeper box.
    ByDefender,
    /// On the nearest free square, because the square the rules name is taken.
    NearestFree,
}

/// Why a turn ended.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnEndReason {
    /// Every action of the turn was used.
    ActionsUsed,
    /// The side ended it with `end`.
    EndedEarly,
    /// A goal was scored.
    Goal,
    /// The side had no legal action left.
    NoLegalAction,
    /// An extension used its last extra action.
    ExtensionLimit,
}

/// Why the match ended.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEndReason {
    /// A side reached `first_to` goals.
    GoalTarget,
    /// The sides together reached `total_goals`.
    TotalGoals,
    /// `max_turns` turns were played.
    TurnLimit,
    /// The penalty shoot-out was decided by kicks.
    Shootout,
    /// The penalty shoot-out stayed level through sudden death and a coin decided it.
    ShootoutCoin,
}

/// Something that happened in a Chessyball match.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Who takes the first turn; `by_coin` when a seeded coin flip chose it.
    StartingSeatChosen {
        seat: Seat,
        by_coin: bool,
    },
    BallPlaced {
        square: Square,
        placement: BallPlacement,
    },
    TurnStarted {
        seat: Seat,
        number: u32,
        /// Actions this turn allows before any extension.
        actions: u32,
    },
    PieceMoved {
        piece: u32,
        from: Square,
        to: Square,
    },
    /// The ball was kicked by `piece`; `to == from` when the very first square was blocked.
    /// A goal follows when `to` is a goal cell.
    BallKicked {
        piece: u32,
        from: Square,
        to: Square,
    },
    GoalScored {
        /// The side credited with the goal.
        seat: Seat,
        /// The ball went into the mover's own goal.
        own_goal: bool,
        square: Square,
        score: [u32; 2],
    },
    /// Every piece went back to its start square.
    PiecesReset,
    /// The side moved the ball with each of its three actions and may go on.
    ExtensionStarted {
        seat: Seat,
        limit: u32,
    },
    TurnEnded {
        seat: Seat,
        actions: u32,
        reason: TurnEndReason,
    },
    ShootoutStarted {
        first: Seat,
    },
    PenaltyTaken {
        seat: Seat,
        /// The kick's round, from 1.
        round: u32,
        roll: u8,
        scored: bool,
        tally: [u32; 2],
    },
    /// The shoot-out was still level after sudden death; a seeded coin chose the winner.
    ShootoutCoinFlipped {
        winner: Seat,
    },
    MatchEnded {
        winner: Option<Seat>,
        score: [u32; 2],
        reason: MatchEndReason,
    },
}

/// The penalties taken so far, per seat, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShootoutDetails {
    pub first: Option<Seat>,
    pub kicks: [Vec<bool>; 2],
}

/// Chessyball state beside the board view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Details {
    pub score: [u32; 2],
    /// The turn being played, from 1, both sides' turns counted.
    pub turn_number: u32,
    pub max_turns: u32,
    /// 0 when off.
    pub first_to: u32,
    /// 0 when off.
    pub total_goals: u32,
    pub starting_seat: Seat,
    /// Actions the current turn allows before any extension.
    pub actions_allowed: u32,
    pub actions_taken: u32,
    /// Whether every action of this turn so far moved the ball (what an extension needs).
    pub ball_moved_every_action: bool,
    /// Extra actions taken in the running extension, when one runs.
    pub extension_actions: Option<u32>,
    pub extension_limit: u32,
    /// Set once the shoot-out has begun.
    pub shootout: Option<ShootoutDetails>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    owner: Seat,
    keeper: bool,
    square: Square,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Play,
    PlaceBall,
    Shootout,
    Over,
}

/// Where a kick sends the ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kick {
    from: Square,
    to: Square,
    /// The seat whose goal the ball entered.
    goal_of: Option<Seat>,
}

impl Kick {
    fn moves_ball(self) -> bool {
        self.to != self.from
    }
}

const EMPTY: u8 = u8::MAX;

/// A Chessyball match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chessyball {
    settings: Settings,
    pitch: Pitch,
    rng: Rng,
    /// Indexed by piece id.
    pieces: Vec<Piece>,
    start_squares: Vec<Square>,
    /// Piece id per cell, `EMPTY` where none.
    grid: Vec<u8>,
    ball: Square,
    phase: Phase,
    to_move: Seat,
    starting_seat: Seat,
    turn_number: u32,
    actions_allowed: u32,
    actions_taken: u32,
    ball_moved_every_action: bool,
    extension_actions: Option<u32>,
    opening_lifted: bool,
    score: [u32; 2],
    shootout: ShootoutDetails,
    outcome: Option<Outcome>,
    /// What happened before the first action: the coin flip, the ball's square, the first turn.
    opening: Vec<Event>,
}

impl Game for Chessyball {
    type Action = Action;
    type Event = Event;
    type Details = Details;

    fn info() -> VariantInfo {
        VariantInfo {
            id: "chessyball",
            name: "Chessyball",
            summary: "Queen-moving team-members kick one ball by stopping next to it; three \
                      actions a turn, first to three goals",
            files: 18,
            ranks: 11,
            seats: vec!["home", "away"],
            turn_structure: TurnStructure::MultiAction,
            // Under the default options; extensions add up to `extension_limit` more.
            max_actions_per_turn: 3,
            setup_phase: false,
            chance: true,
            hidden_information: false,
            draws_possible: true,
            options: option_specs(),
            rules_version: "2",
            position_notation: "ranks from the top separated by '/', M/K home member/keeper, \
                                m/k away member/keeper, o the ball, digits count empty cells; \
                                then optionally h or a for the side to move; a whole state \
                                goes on with actions left, score home-away, turn number and \
                                name:value parts (phase, first, moved, last, kicks, pieces, \
                                starts) where they differ from a start",
        }
    }

    fn rules() -> &'static [Rule] {
        rules::RULES
    }

    fn new(setup: &SetupSpec) -> Result<Self, RuleError> {
        let settings = Settings::read(&setup.options)?;
        let pitch = Pitch {
            files: settings.files,
            ranks: settings.ranks,
        };
        let rng = Rng::from_seed(&setup.seed);
        let (pieces, ball, fixed_seat) = match &setup.position {
            Some(text) => {
                let read = notation::parse_position(pitch, text)?;
                if read.state.is_some() {
                    return position::resume(settings, pitch, rng, read);
                }
                if !pitch.is_inner(read.ball) {
                    return Err(RuleError::invalid_position(format!(
                        "the ball on {} is outside the inner rectangle b2-{}; it must start \
                         inside it",
                        read.ball,
                        Square::new(pitch.files - 1, pitch.ranks - 1)
                    )));
                }
                validate_start(pitch, &settings, &read.pieces)?;
                (read.pieces, Some(read.ball), read.to_move)
            }
            None => (default_pieces(pitch, settings.team_size), None, None),
        };
        let start_squares = pieces.iter().map(|p| p.square).collect();
        let mut game = Self::blank(settings, pitch, rng, pieces, start_squares);
        // The opening draws from the generator before anything else, in a fixed order, so
        // replays and the recorded events agree.
        let (starting_seat, by_coin) = match (fixed_seat, settings.starting_seat) {
            (Some(seat), _) => (seat, false),
            (None, StartingSeat::Home) => (HOME, false),
            (None, StartingSeat::Away) => (AWAY, false),
            (None, StartingSeat::Coin) => (Seat(game.rng.below(2) as u8), true),
        };
        game.starting_seat = starting_seat;
        let mut opening = vec![Event::StartingSeatChosen {
            seat: starting_seat,
            by_coin,
        }];
        match ball {
            Some(square) => game.ball = square,
            None => {
                let (square, placement) = game.kick_off_square(starting_seat);
                game.ball = square;
                opening.push(Event::BallPlaced { square, placement });
            }
        }
        game.start_turn(starting_seat, &mut opening);
        game.opening = opening;
        Ok(game)
    }

    fn turn(&self) -> Turn {
        let (phase, actions_left) = match self.phase {
            Phase::Play => match self.extension_actions {
                Some(taken) => ("extension", self.settings.extension_limit - taken),
                None => ("play", self.actions_allowed - self.actions_taken),
            },
            Phase::PlaceBall => ("place_ball", self.actions_allowed),
            Phase::Shootout => ("shootout", 1),
            Phase::Over => {
                return Turn {
                    phase: "over".to_owned(),
                    to_act: Vec::new(),
                    number: self.turn_number,
                    actions_left: None,
                    may_end_turn: false,
                };
            }
        };
        Turn {
            phase: phase.to_owned(),
            to_act: vec![self.to_move],
            number: match self.phase {
                Phase::Shootout => self.shootout_round(),
                _ => self.turn_number,
            },
            actions_left: Some(actions_left),
            may_end_turn: self.may_end_turn(),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.phase == Phase::Over || seat != self.to_move {
            return Vec::new();
        }
        self.actions_of_mover()
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Emitted<Event>>, RuleError> {
        self.check_action(seat, action)?;
        let mut events = Vec::new();
        match *action {
            Action::Move { from, to } => self.play_move(from, to, &mut events),
            Action::PlaceBall { square } => {
                self.ball = square;
                events.push(Event::BallPlaced {
                    square,
                    placement: BallPlacement::ByDefender,
                });
                self.phase = Phase::Play;
                self.settle_turn(&mut events);
            }
            Action::EndTurn => self.end_turn(TurnEndReason::EndedEarly, &mut events),
            Action::Shoot => self.take_penalty(&mut events),
        }
        Ok(events.into_iter().map(Emitted::public).collect())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn scores(&self) -> Vec<u32> {
        self.score.to_vec()
    }

    fn board(&self, _viewer: Viewer) -> BoardView {
        let pitch = self.pitch;
        let zone = |kind, owner, keep: &dyn Fn(Square) -> bool| Zone {
            kind,
            owner,
            squares: pitch.squares().filter(|&sq| keep(sq)).collect(),
        };
        let mut zones = Vec::new();
        for seat in [HOME, AWAY] {
            zones.push(zone(ZoneKind::Goal, Some(seat), &|sq| {
                pitch.goal_owner(sq) == Some(seat)
            }));
            zones.push(zone(ZoneKind::KeeperBox, Some(seat), &|sq| {
                pitch.box_owner(sq) == Some(seat)
            }));
        }
        zones.push(zone(ZoneKind::InnerArea, None, &|sq| pitch.is_inner(sq)));
        BoardView {
            files: pitch.files as u8,
            ranks: pitch.ranks as u8,
            zones,
            pieces: self
                .pieces
                .iter()
                .enumerate()
                .map(|(id, piece)| PieceView {
                    id: id as u32,
                    owner: piece.owner,
                    kind: if piece.keeper { "keeper" } else { "member" }.to_owned(),
                    symbol: notation::piece_symbol(piece).to_string(),
                    square: piece.square,
                    spot: String::new(),
                })
                .collect(),
            ball: Some(BallView::loose(self.ball)),
        }
    }

    fn details(&self, _viewer: Viewer) -> Details {
        Details {
            score: self.score,
            turn_number: self.turn_number,
            max_turns: self.settings.max_turns,
            first_to: self.settings.first_to,
            total_goals: self.settings.total_goals,
            starting_seat: self.starting_seat,
            actions_allowed: self.actions_allowed,
            actions_taken: self.actions_taken,
            ball_moved_every_action: self.ball_moved_every_action,
            extension_actions: self.extension_actions,
            extension_limit: self.settings.extension_limit,
            shootout: self.shootout.first.map(|_| self.shootout.clone()),
        }
    }

    fn format_action(&self, _seat: Seat, action: &Action) -> String {
        notation::format_action(action)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, RuleError> {
        let action = notation::parse_action(text)?;
        self.check_action(seat, &action)?;
        Ok(action)
    }

    fn reseed_chance(&mut self, rng: &mut Rng) {
        self.rng = Rng::new(rng.next_u64());
    }

    fn position(&self) -> String {
        position::format_position(self)
    }

    /// The starting seat and how it was chosen, the ball's kick-off square, the first turn.
    fn opening_events(&self) -> Vec<Emitted<Event>> {
        self.opening.iter().cloned().map(Emitted::public).collect()
    }
}

impl Chessyball {
    /// A match before its first turn: nothing played, the ball on a centre square.
    fn blank(
        settings: Settings,
        pitch: Pitch,
        rng: Rng,
        pieces: Vec<Piece>,
        start_squares: Vec<Square>,
    ) -> Self {
        let mut game = Self {
            settings,
            pitch,
            rng,
            start_squares,
            grid: vec![EMPTY; pitch.cell_count()],
            pieces,
            ball: pitch.centre_of(HOME),
            phase: Phase::Play,
            to_move: HOME,
            starting_seat: HOME,
            turn_number: 0,
            actions_allowed: 0,
            actions_taken: 0,
            ball_moved_every_action: true,
            extension_actions: None,
            opening_lifted: settings.ball_start == BallStart::Anywhere,
            score: [0, 0],
            shootout: ShootoutDetails::default(),
            outcome: None,
            opening: Vec::new(),
        };
        game.rebuild_grid();
        game
    }

    fn rebuild_grid(&mut self) {
        self.grid.fill(EMPTY);
        for (id, piece) in self.pieces.iter().enumerate() {
            self.grid[self.pitch.index(piece.square)] = id as u8;
        }
    }

    fn occupant(&self, sq: Square) -> Option<usize> {
        if !self.pitch.contains(sq) {
            return None;
        }
        match self.grid[self.pitch.index(sq)] {
            EMPTY => None,
            id => Some(usize::from(id)),
        }
    }

    fn may_pass(&self, mover: Seat, other: Seat) -> bool {
        match self.settings.pass_through {
            PassThrough::Nobody => false,
            PassThrough::OwnTeam => mover == other,
            PassThrough::Anyone => true,
        }
    }

    /// The rule that forbids `piece` to finish a move on the empty square `sq`, if one does.
    fn rule_against_ending(&self, piece: &Piece, sq: Square) -> Option<Rule> {
        if self.pitch.goal_owner(sq) == Some(piece.owner) {
            return Some(NOT_IN_OWN_GOAL);
        }
        let own_box = self.pitch.box_owner(sq) == Some(piece.owner);
        if piece.keeper && !own_box && !self.settings.keeper_leaves_box {
            Some(KEEPER_IN_BOX)
        } else if !piece.keeper && own_box {
            Some(BOX_FOR_KEEPER)
        } else {
            None
        }
    }

    /// Every square piece `id` may move to, direction by direction, nearest first.
    fn destinations(&self, id: usize) -> Vec<Square> {
        let piece = &self.pieces[id];
        let mut out = Vec::new();
        for (df, dr) in KING_DIRECTIONS {
            let mut at = piece.square;
            loop {
                at = at.offset(df, dr);
                if !self.pitch.contains(at) || at == self.ball {
                    break;
                }
                if let Some(other) = self.occupant(at) {
                    if self.may_pass(piece.owner, self.pieces[other].owner) {
                        continue;
                    }
                    break;
                }
                if self.rule_against_ending(piece, at).is_none() {
                    out.push(at);
                }
            }
        }
        out
    }

    /// The kick a member standing on `kicker` gives the ball, if it stands next to it.
    ///
    /// It may be asked before the move is made: the mover's old square never lies on the
    /// ball's path (old square, ball and new square would be in line with the ball between
    /// them, and no move passes the ball), and the new square lies behind the ball.
    fn kick_from(&self, kicker: Square) -> Option<Kick> {
        if kicker.king_distance(self.ball) != 1 {
            return None;
        }
        let (df, dr) = (self.ball.file - kicker.file, self.ball.rank - kicker.rank);
        let mut at = self.ball;
        loop {
            let next = at.offset(df, dr);
            if self.occupant(next).is_some() {
                break;
            }
            if let Some(owner) = self.pitch.goal_owner(next) {
                return Some(Kick {
                    from: self.ball,
                    to: next,
                    goal_of: Some(owner),
                });
            }
            if !self.pitch.is_inner(next) {
                break;
            }
            at = next;
        }
        Some(Kick {
            from: self.ball,
            to: at,
            goal_of: None,
        })
    }

    fn moves_ball(&self, to: Square) -> bool {
        self.kick_from(to).is_some_and(Kick::moves_ball)
    }

    /// The moves of the side to act, filtered to ball-moving ones during an extension.
    fn moves_of_mover(&self) -> Vec<Action> {
        let mut out = Vec::new();
        for (id, piece) in self.pieces.iter().enumerate() {
            if piece.owner != self.to_move {
                continue;
            }
            for to in self.destinations(id) {
                if self.extension_actions.is_none() || self.moves_ball(to) {
                    out.push(Action::Move {
                        from: piece.square,
                        to,
                    });
                }
            }
        }
        out
    }

    fn actions_of_mover(&self) -> Vec<Action> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Shootout => vec![Action::Shoot],
            Phase::PlaceBall => self
                .free_box_squares(self.to_move)
                .into_iter()
                .map(|square| Action::PlaceBall { square })
                .collect(),
            Phase::Play => {
                let mut actions = self.moves_of_mover();
                if self.may_end_turn() {
                    actions.push(Action::EndTurn);
                }
                actions
            }
        }
    }

    fn may_end_turn(&self) -> bool {
        self.phase == Phase::Play
            && (self.extension_actions.is_some()
                || (self.settings.end_turn_early && self.actions_taken >= 1))
    }

    fn free_box_squares(&self, seat: Seat) -> Vec<Square> {
        self.pitch
            .squares()
            .filter(|&sq| self.pitch.box_owner(sq) == Some(seat) && self.occupant(sq).is_none())
            .collect()
    }

    fn shootout_round(&self) -> u32 {
        self.shootout.kicks[self.to_move.index()].len() as u32 + 1
    }

    fn seat_name(seat: Seat) -> &'static str {
        if seat == HOME { "home" } else { "away" }
    }

    /// Accepts exactly the listed legal actions; otherwise names the rule the action breaks and
    /// what would be legal.
    fn check_action(&self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::game_over());
        }
        if seat != self.to_move {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn, not {}'s",
                Self::seat_name(self.to_move),
                Self::seat_name(seat)
            )));
        }
        let legal = self.actions_of_mover();
        if legal.contains(action) {
            return Ok(());
        }
        let listed = |actions: &[Action]| {
            actions
                .iter()
                .map(notation::format_action)
                .collect::<Vec<_>>()
                .join(", ")
        };
        Err(match (self.phase, action) {
            (Phase::Shootout, _) => {
                RuleError::breaks(SHOOTOUT_ONLY_SHOOT, "send `shoot` to take your kick")
            }
            (Phase::PlaceBall, &Action::PlaceBall { square }) => {
                let (rule, why) = if self.pitch.box_owner(square) != Some(self.to_move) {
                    (PLACEMENT_IN_OWN_BOX, "is outside your keeper box")
                } else {
                    (PLACEMENT_ON_EMPTY_SQUARE, "holds a piece")
                };
                RuleError::breaks(
                    rule,
                    format!(
                        "{} {why}; the free squares of your box: {}",
                        square_name(square),
                        listed(&legal)
                    ),
                )
            }
            (Phase::PlaceBall, _) => RuleError::breaks(
                PLACE_BALL_FIRST,
                format!(
                    "your side conceded; place the ball on an empty square of your keeper box: {}",
                    listed(&legal)
                ),
            ),
            (Phase::Play, &Action::Move { from, to }) => self.refuse_move(from, to),
            (Phase::Play, Action::EndTurn) if self.settings.end_turn_early => RuleError::breaks(
                END_AFTER_AN_ACTION,
                "no action taken yet this turn; play a move first",
            ),
            (Phase::Play, Action::EndTurn) => RuleError::breaks(
                USE_EVERY_ACTION,
                format!(
                    "{} of {} actions taken, and `end` needs the `end_turn_early` option, which \
                     this match has off; play a move",
                    self.actions_taken, self.actions_allowed
                ),
            ),
            (Phase::Play, Action::PlaceBall { .. }) => RuleError::breaks(
                PLACEMENT_AFTER_GOAL,
                format!("the ball is in play on {}; play a move", self.ball),
            ),
            (Phase::Play, Action::Shoot) => RuleError::breaks(
                SHOOT_IN_SHOOTOUT,
                "the match is in regular play; play a move",
            ),
            (Phase::Over, _) => unreachable!("checked above"),
        })
    }

    /// Why the move `from`-`to`, which is not legal now, is refused, with the piece's legal
    /// moves.
    fn refuse_move(&self, from: Square, to: Square) -> RuleError {
        let Some(id) = self
            .occupant(from)
            .filter(|&id| self.pieces[id].owner == self.to_move)
        else {
            let own: Vec<String> = self
                .pieces
                .iter()
                .filter(|p| p.owner == self.to_move)
                .map(|p| p.square.to_string())
                .collect();
            let whose = if !self.pitch.contains(from) {
                "it is off the board"
            } else if self.occupant(from).is_some() {
                "an opponent stands there"
            } else {
                "the square is empty"
            };
            return RuleError::breaks(
                OWN_PIECE,
                format!(
                    "no team-member of yours on {} ({whose}); yours stand on {}",
                    square_name(from),
                    own.join(" ")
                ),
            );
        };
        let piece = &self.pieces[id];
        let legal: Vec<String> = self
            .destinations(id)
            .into_iter()
            .filter(|&sq| self.extension_actions.is_none() || self.moves_ball(sq))
            .map(|sq| format!("{from}-{sq}"))
            .collect();
        let options = if legal.is_empty() {
            "this member has no legal move".to_owned()
        } else {
            format!("legal moves of this member: {}", legal.join(" "))
        };
        let refuse = |rule, reason: String| RuleError::breaks(rule, format!("{reason}; {options}"));
        if !self.pitch.contains(to) {
            return refuse(
                ON_THE_BOARD,
                format!("{} is off the board", square_name(to)),
            );
        }
        let (df, dr) = (to.file - from.file, to.rank - from.rank);
        if (df, dr) == (0, 0) {
            return refuse(STRAIGHT_LINE, format!("{from}-{to} does not move"));
        }
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return refuse(
                STRAIGHT_LINE,
                format!("{from}-{to} is not a straight orthogonal or diagonal line"),
            );
        }
        if let Some((rule, blocker)) = self.first_blocker(piece, from, to) {
            return refuse(rule, blocker);
        }
        if let Some(rule) = self.rule_against_ending(piece, to) {
            return refuse(rule, format!("{from}-{to} ends on {to}"));
        }
        // Every other rule of a move holds, so only an extension can refuse it.
        let why = match self.kick_from(to) {
            Some(_) => format!("the kick from {to} cannot move the ball off {}", self.ball),
            None => format!("{to} is not next to the ball on {}", self.ball),
        };
        refuse(
            EXTENSION_MOVES_BALL,
            format!("{why}; `end` ends the extension"),
        )
    }

    /// What stops the straight move `from`-`to`, on the way or on the target, and the rule it
    /// enforces.
    fn first_blocker(&self, piece: &Piece, from: Square, to: Square) -> Option<(Rule, String)> {
        let (df, dr) = (
            (to.file - from.file).signum(),
            (to.rank - from.rank).signum(),
        );
        let mut at = from;
        while at != to {
            at = at.offset(df, dr);
            let place = if at == to {
                "stands on"
            } else {
                "blocks the way on"
            };
            if at == self.ball {
                return Some((BALL_BLOCKS, format!("the ball {place} {at}")));
            }
            let Some(other) = self.occupant(at) else {
                continue;
            };
            let other_owner = self.pieces[other].owner;
            let who = if other_owner == piece.owner {
                "a team-mate"
            } else {
                "an opponent"
            };
            if at == to {
                return Some((EMPTY_TARGET, format!("{who} {place} {at}")));
            }
            if !self.may_pass(piece.owner, other_owner) {
                let allowed = if self.settings.pass_through == PassThrough::OwnTeam {
                    "team-mates only"
                } else {
                    "nobody"
                };
                return Some((
                    CLEAR_PATH,
                    format!("{who} {place} {at}; this match lets a move pass over {allowed}"),
                ));
            }
        }
        None
    }

    fn play_move(&mut self, from: Square, to: Square, events: &mut Vec<Event>) {
        let id = self
            .occupant(from)
            .expect("a checked move starts on a piece");
        self.grid[self.pitch.index(from)] = EMPTY;
        self.grid[self.pitch.index(to)] = id as u8;
        self.pieces[id].square = to;
        events.push(Event::PieceMoved {
            piece: id as u32,
            from,
            to,
        });
        let kick = self.kick_from(to);
        if let Some(kick) = kick {
            events.push(Event::BallKicked {
                piece: id as u32,
                from: kick.from,
                to: kick.to,
            });
            self.ball = kick.to;
        }
        match self.extension_actions.as_mut() {
            Some(extra) => *extra += 1,
            None => self.actions_taken += 1,
        }
        if let Some(conceding) = kick.and_then(|k| k.goal_of) {
            self.goal(conceding, events);
            return;
        }
        self.ball_moved_every_action &= kick.is_some_and(Kick::moves_ball);
        match self.extension_actions {
            Some(extra) => {
                if extra >= self.settings.extension_limit {
                    self.end_turn(TurnEndReason::ExtensionLimit, events);
                    return;
                }
            }
            None => {
                if self.actions_taken >= self.actions_allowed {
                    if self.settings.extensions
                        && self.actions_allowed == FULL_TURN
                        && self.ball_moved_every_action
                    {
                        self.extension_actions = Some(0);
                        events.push(Event::ExtensionStarted {
                            seat: self.to_move,
                            limit: self.settings.extension_limit,
                        });
                    } else {
                        self.end_turn(TurnEndReason::ActionsUsed, events);
                        return;
                    }
                }
            }
        }
        self.settle_turn(events);
    }

    /// Ends the turn when the side to act has no move left (an extension with no ball-moving
    /// move left ends this way too).
    fn settle_turn(&mut self, events: &mut Vec<Event>) {
        if self.phase == Phase::Play && self.moves_of_mover().is_empty() {
            self.end_turn(TurnEndReason::NoLegalAction, events);
        }
    }

    fn actions_this_turn(&self) -> u32 {
        self.actions_taken + self.extension_actions.unwrap_or(0)
    }

    /// Records the end of the turn; false when that ended the match (or began the shoot-out).
    fn close_turn(&mut self, reason: TurnEndReason, events: &mut Vec<Event>) -> bool {
        events.push(Event::TurnEnded {
            seat: self.to_move,
            actions: self.actions_this_turn(),
            reason,
        });
        match self.end_reason() {
            Some(end) => {
                self.finish(end, events);
                false
            }
            None => true,
        }
    }

    fn end_turn(&mut self, reason: TurnEndReason, events: &mut Vec<Event>) {
        if self.close_turn(reason, events) {
            self.start_turn(self.to_move.opponent(), events);
        }
    }

    fn end_reason(&self) -> Option<MatchEndReason> {
        let s = &self.settings;
        if s.first_to > 0 && self.score.iter().any(|&g| g >= s.first_to) {
            Some(MatchEndReason::GoalTarget)
        } else if s.total_goals > 0 && self.score.iter().sum::<u32>() >= s.total_goals {
            Some(MatchEndReason::TotalGoals)
        } else if self.turn_number >= s.max_turns {
            Some(MatchEndReason::TurnLimit)
        } else {
            None
        }
    }

    fn start_turn(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.turn_number += 1;
        self.to_move = seat;
        self.actions_taken = 0;
        self.ball_moved_every_action = true;
        self.extension_actions = None;
        self.actions_allowed = self.actions_allowed_in(self.turn_number);
        events.push(Event::TurnStarted {
            seat,
            number: self.turn_number,
            actions: self.actions_allowed,
        });
        self.settle_turn(events);
    }

    /// The actions turn `number` allows before any extension.
    fn actions_allowed_in(&self, number: u32) -> u32 {
        // The 1-2-3 opening offsets the first mover's advantage at the match's start only.
        if self.opening_lifted {
            FULL_TURN
        } else {
            number.min(FULL_TURN)
        }
    }

    fn goal(&mut self, conceding: Seat, events: &mut Vec<Event>) {
        let scorer = conceding.opponent();
        self.score[scorer.index()] += 1;
        events.push(Event::GoalScored {
            seat: scorer,
            own_goal: conceding == self.to_move,
            square: self.ball,
            score: self.score,
        });
        if !self.close_turn(TurnEndReason::Goal, events) {
            return;
        }
        match self.settings.after_goal {
            AfterGoal::Reset => {
                for (piece, &square) in self.pieces.iter_mut().zip(&self.start_squares) {
                    piece.square = square;
                }
                self.rebuild_grid();
                events.push(Event::PiecesReset);
                let (square, placement) = self.kick_off_square(conceding);
                self.place_ball(square, placement, events);
            }
            AfterGoal::BallToCentre => {
                self.place_ball(
                    self.pitch.centre_of(conceding),
                    BallPlacement::Centre,
                    events,
                );
            }
            // The box always has a free square here: every cell next to a goal that the ball
            // may cross lies in that goal's box, so the ball just rolled through a box square.
            AfterGoal::DefenderPlaces => self.phase = Phase::PlaceBall,
        }
        self.start_turn(conceding, events);
    }

    /// Puts the ball on `square`. When a piece stands there and `square` is a centre square,
    /// the other centre square takes the ball (the text puts it on "one of the two centre
    /// squares"); failing that, the nearest free inner square does.
    fn place_ball(&mut self, square: Square, placement: BallPlacement, events: &mut Vec<Event>) {
        let centre = self.pitch.centre_squares();
        let other_centre = centre
            .iter()
            .copied()
            .find(|&other| other != square && centre.contains(&square));
        let (square, placement) = if self.occupant(square).is_none() {
            (square, placement)
        } else if let Some(other) = other_centre.filter(|&sq| self.occupant(sq).is_none()) {
            (other, placement)
        } else {
            (self.nearest_free(square), BallPlacement::NearestFree)
        };
        self.ball = square;
        events.push(Event::BallPlaced { square, placement });
    }

    fn nearest_free(&self, target: Square) -> Square {
        self.pitch
            .squares()
            .filter(|&sq| self.pitch.is_inner(sq) && self.occupant(sq).is_none())
            .min_by_key(|&sq| (sq.king_distance(target), sq))
            .expect("at most 22 pieces never fill the inner rectangle")
    }

    /// The square the ball goes to at a kick-off, before checking it is free. `seat` is the
    /// side about to move (the conceding side after a goal).
    fn kick_off_square(&mut self, seat: Seat) -> (Square, BallPlacement) {
        match self.settings.ball_start {
            BallStart::Coin if self.turn_number == 0 => (
                *self.rng.pick(&self.pitch.centre_squares()),
                BallPlacement::Centre,
            ),
            BallStart::Coin => (self.pitch.centre_of(seat), BallPlacement::Centre),
            BallStart::HomeSide => (self.pitch.centre_of(HOME), BallPlacement::Centre),
            BallStart::AwaySide => (self.pitch.centre_of(AWAY), BallPlacement::Centre),
            BallStart::Anywhere => {
                let candidates: Vec<Square> = self
                    .pitch
                    .squares()
                    .filter(|&sq| {
                        self.pitch.is_inner(sq)
                            && self.pitch.box_owner(sq).is_none()
                            && self.occupant(sq).is_none()
                    })
                    .collect();
                (*self.rng.pick(&candidates), BallPlacement::Random)
            }
        }
    }

    /// Ends the match, or begins the shoot-out when it ends level and the option asks for one.
    fn finish(&mut self, reason: MatchEndReason, events: &mut Vec<Event>) {
        if self.settings.shootout && self.score[0] == self.score[1] {
            let first = self.starting_seat.opponent();
            self.phase = Phase::Shootout;
            self.to_move = first;
            self.shootout.first = Some(first);
            events.push(Event::ShootoutStarted { first });
            return;
        }
        let winner = match self.score[0].cmp(&self.score[1]) {
            std::cmp::Ordering::Greater => Some(HOME),
            std::cmp::Ordering::Less => Some(AWAY),
            std::cmp::Ordering::Equal => None,
        };
        let detail = match reason {
            MatchEndReason::GoalTarget => format!("first to {} goals", self.settings.first_to),
            MatchEndReason::TotalGoals => {
                format!("{} goals in total were scored", self.settings.total_goals)
            }
            MatchEndReason::TurnLimit => {
                format!("the limit of {} turns was reached", self.settings.max_turns)
            }
            MatchEndReason::Shootout | MatchEndReason::ShootoutCoin => {
                unreachable!("shoot-outs end in end_shootout")
            }
        };
        self.conclude(winner, reason, detail, events);
    }

    fn conclude(
        &mut self,
        winner: Option<Seat>,
        reason: MatchEndReason,
        detail: String,
        events: &mut Vec<Event>,
    ) {
        self.phase = Phase::Over;
        self.outcome = Some(Outcome {
            winner,
            scores: self.score.to_vec(),
            reason: match winner {
                Some(_) => detail,
                None => format!("draw: {detail}"),
            },
        });
        events.push(Event::MatchEnded {
            winner,
            score: self.score,
            reason,
        });
    }

    fn take_penalty(&mut self, events: &mut Vec<Event>) {
        let seat = self.to_move;
        let round = self.shootout_round();
        let roll = self.rng.roll(6);
        let scored = roll >= PENALTY_SCORES_FROM;
        self.shootout.kicks[seat.index()].push(scored);
        let tally = self.shootout_tally();
        events.push(Event::PenaltyTaken {
            seat,
            round,
            roll,
            scored,
            tally,
        });
        let first = self.shootout.first.expect("a shoot-out has a first kicker");
        let second = first.opponent();
        let taken = |s: Seat| self.shootout.kicks[s.index()].len();
        let mut winner = self.shootout_winner();
        let last_round = SHOOTOUT_REGULAR_ROUNDS + SHOOTOUT_SUDDEN_DEATH_ROUNDS;
        let reason = if winner.is_some() {
            MatchEndReason::Shootout
        } else if taken(first) == last_round && taken(second) == last_round {
            let coin = Seat(self.rng.below(2) as u8);
            events.push(Event::ShootoutCoinFlipped { winner: coin });
            winner = Some(coin);
            MatchEndReason::ShootoutCoin
        } else {
            self.to_move = if taken(first) > taken(second) {
                second
            } else {
                first
            };
            return;
        };
        let detail = format!(
            "penalty shoot-out {}-{}{}",
            tally[0],
            tally[1],
            if reason == MatchEndReason::ShootoutCoin {
                ", then a coin flip"
            } else {
                ""
            }
        );
        self.conclude(winner, reason, detail, events);
    }

    /// The side that has won the shoot-out by its kicks, if one has.
    fn shootout_winner(&self) -> Option<Seat> {
        let first = self.shootout.first?;
        let second = first.opponent();
        let tally = self.shootout_tally();
        let taken = |s: Seat| self.shootout.kicks[s.index()].len();
        let goals = |s: Seat| tally[s.index()] as usize;
        let mut winner = None;
        if taken(first) <= SHOOTOUT_REGULAR_ROUNDS && taken(second) <= SHOOTOUT_REGULAR_ROUNDS {
            // Decided as soon as one side cannot catch up with its remaining kicks.
            for (side, other) in [(first, second), (second, first)] {
                if goals(side) > goals(other) + SHOOTOUT_REGULAR_ROUNDS - taken(other) {
                    winner = Some(side);
                }
            }
        } else if taken(first) == taken(second) && goals(first) != goals(second) {
            winner = Some(if goals(first) > goals(second) {
                first
            } else {
                second
            });
        }
        winner
    }

    fn shootout_tally(&self) -> [u32; 2] {
        self.shootout
            .kicks
            .clone()
            .map(|kicks| kicks.iter().filter(|&&scored| scored).count() as u32)
    }
}

/// The name of a square a refused action gives. A typed action may name a square far off any
/// board, whose file has no letter.
fn square_name(square: Square) -> String {
    if (1..=26).contains(&square.file) {
        square.to_string()
    } else {
        format!("file {} rank {}", square.file, square.rank)
    }
}

/// A turn's full number of actions.
const FULL_TURN: u32 = 3;

fn default_pieces(pitch: Pitch, team_size: usize) -> Vec<Piece> {
    let home = pitch.home_formation(team_size);
    let mut pieces = Vec::with_capacity(2 * home.len());
    for owner in [HOME, AWAY] {
        for (slot, &square) in home.iter().enumerate() {
            pieces.push(Piece {
                owner,
                keeper: slot == 0,
                square: if owner == HOME {
                    square
                } else {
                    pitch.mirror(square)
                },
            });
        }
    }
    pieces
}

/// The most team-members one side may field in a custom position.
const MAX_TEAM: usize = 11;

fn validate_start(pitch: Pitch, settings: &Settings, pieces: &[Piece]) -> Result<(), RuleError> {
    for seat in [HOME, AWAY] {
        let name = Chessyball::seat_name(seat);
        let team: Vec<&Piece> = pieces.iter().filter(|p| p.owner == seat).collect();
        if team.is_empty() || team.len() > MAX_TEAM {
            return Err(RuleError::invalid_position(format!(
                "{name} has {} team-members; each side needs 1 to {MAX_TEAM}",
                team.len()
            )));
        }
        if team.iter().filter(|p| p.keeper).count() > 1 {
            return Err(RuleError::invalid_position(format!(
                "{name} has more than one keeper; a side has at most one"
            )));
        }
        for piece in team {
            let sq = piece.square;
            let own_box = pitch.box_owner(sq) == Some(seat);
            let problem = if pitch.goal_owner(sq) == Some(seat) {
                Some("stands in its own goal")
            } else if piece.keeper && !own_box && !settings.keeper_leaves_box {
                Some("is a keeper outside its keeper box")
            } else if !piece.keeper && own_box {
                Some("is a member (not the keeper) inside its own keeper box")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(RuleError::invalid_position(format!(
                    "the {name} piece on {sq} {problem}"
                )));
            }
        }
    }
    Ok(())
}
