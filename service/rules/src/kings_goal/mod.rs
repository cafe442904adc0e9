//! King's Goal: chess pieces play football on an 8x8 board.
//!
//! Each side fields a king, two pawns and three pieces of its choice, places them in its own
//! half, and tries to bring the ball onto one of the four goal squares the opposing king defends.
//! Pieces move as in chess; the ball always belongs to a piece; only the ball carrier may be
//! captured. `docs/rules/kings-goal.md` describes every rule and decision.
//!
//! A match is a sequence of restarts (kick-off, after a goal, after king against king, at half
//! time). Each restart has three phases: `choice` (each side picks its three extra pieces),
//! `placement` (the sides alternate putting one piece on the board) and `play`.

mod moves;
mod notation;
mod play_refusal;
mod position;
mod position_parts;
#[cfg(test)]
mod refusal_tests;
pub mod rules;
mod setup;
#[cfg(test)]
mod tests;

use crate::board::{BallView, BoardView, PieceView, Zone, ZoneKind};
use crate::game::{
    Emitted, Game, Outcome, Rule, RuleError, Seat, SetupSpec, Turn, TurnStructure, VariantInfo,
    Viewer,
};
use crate::geometry::Square;
use crate::options::OptionSpec;

pub const WHITE: Seat = Seat(0);
pub const BLACK: Seat = Seat(1);

const OPTION_MOVES_PER_HALF: &str = "moves_per_half";

/// The kinds of chess piece a side may field.
#[derive(
    serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub enum PieceKind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl PieceKind {
    pub const ALL: [PieceKind; 6] = [
        PieceKind::King,
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Pawn,
    ];

    /// The kinds a pawn may promote to, in the order legal actions list them.
    pub const PROMOTIONS: [PieceKind; 4] = [
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
    ];

    /// The upper-case letter used in every notation of this game.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Queen => 'Q',
            PieceKind::Rook => 'R',
            PieceKind::Bishop => 'B',
            PieceKind::Knight => 'N',
            PieceKind::Pawn => 'P',
        }
    }

    pub fn from_letter(letter: char) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|k| k.letter() == letter.to_ascii_uppercase())
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Queen => "queen",
            PieceKind::Rook => "rook",
            PieceKind::Bishop => "bishop",
            PieceKind::Knight => "knight",
            PieceKind::Pawn => "pawn",
        }
    }

    /// How many of this kind are left in the box to choose from once the king and the two
    /// compulsory pawns are taken.
    const fn pool(self) -> usize {
        match self {
            PieceKind::King => 0,
            PieceKind::Queen => 1,
            PieceKind::Rook | PieceKind::Bishop | PieceKind::Knight => 2,
            PieceKind::Pawn => 6,
        }
    }

    /// Whether a piece of this kind, standing on the kick-off square, can pass to a team-mate:
    /// a pawn's passes go into the opponent's half, and the king must stand in goal.
    const fn can_kick_off(self) -> bool {
        matches!(
            self,
            PieceKind::Queen | PieceKind::Rook | PieceKind::Bishop | PieceKind::Knight
        )
    }
}

/// The phase of the current restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Each side picks its three extra pieces.
    Choice,
    /// The sides alternate placing one piece each in their own half.
    Placement,
    /// Moves, passes and captures.
    Play,
    /// The match has ended.
    Over,
}

impl Phase {
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Choice => "choice",
            Phase::Placement => "placement",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// One atomic action.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Choice phase: take one more piece of this kind.
    Choose(PieceKind),
    /// Choice phase: complete the remaining picks with the default (queen, rook, knight first).
    DefaultChoice,
    /// Placement phase: put a piece still in hand on a square.
    Place { kind: PieceKind, square: Square },
    /// Placement phase: place every piece still in hand in the default formation.
    DefaultPlacement,
    /// A piece moves to an empty square, taking the ball along when it carries it.
    Move {
        from: Square,
        to: Square,
        promotion: Option<PieceKind>,
    },
    /// A piece captures the opposing ball carrier and takes the ball and its square.
    Capture {
        from: Square,
        to: Square,
        promotion: Option<PieceKind>,
    },
    /// The ball carrier passes to the team-mate on `to`.
    Pass { from: Square, to: Square },
    /// Only when nothing else is legal: the side lets its move go by.
    Wait,
}

/// How a goal came about.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoalKind {
    /// The carrier moved onto an opponent goal square.
    Carried,
    /// The ball was passed to a team-mate standing on an opponent goal square.
    Passed,
    /// The opposing king was captured while carrying the ball.
    KingCaptured,
    /// An opposing carrier was captured on its own goal squares.
    CapturedOnGoalLine,
}

/// Why the pieces left the board and both sides choose and place again.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RestartReason {
    Goal,
    KingVersusKing,
    HalfTime,
}

/// Something that happened.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Chosen {
        seat: Seat,
        kinds: Vec<PieceKind>,
    },
    Placed {
        seat: Seat,
        piece: u32,
        kind: PieceKind,
        square: Square,
    },
    /// Placement is complete; the kick-off piece holds the ball.
    KickOff {
        seat: Seat,
        piece: u32,
        square: Square,
    },
    Moved {
        piece: u32,
        from: Square,
        to: Square,
        with_ball: bool,
    },
    Passed {
        from_piece: u32,
        to_piece: u32,
        from: Square,
        to: Square,
    },
    Captured {
        captor: u32,
        captured: u32,
        captured_kind: PieceKind,
        from: Square,
        square: Square,
    },
    Promoted {
        piece: u32,
        square: Square,
        kind: PieceKind,
    },
    Waited {
        seat: Seat,
    },
    GoalScored {
        seat: Seat,
        how: GoalKind,
        scores: [u32; 2],
    },
    HalfEnded {
        half: u8,
        scores: [u32; 2],
    },
    /// The board was cleared; `kicking` chooses and places first and kicks off.
    Restarted {
        reason: RestartReason,
        kicking: Seat,
        half: u8,
    },
    GameEnded {
        winner: Option<Seat>,
        scores: [u32; 2],
    },
}

/// Typed state beside the board view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Details {
    pub phase: Phase,
    /// 1 or 2.
    pub half: u8,
    /// Moves played in this half, both sides together, across restarts.
    pub plies_played: u32,
    pub plies_per_half: u32,
    /// The side that kicks off this restart (it also chose and placed first).
    pub kicking: Seat,
    /// Whether the kick-off pass is still to be played.
    pub kickoff_pending: bool,
    pub scores: [u32; 2],
    /// The extra pieces each side picked in this restart.
    pub chosen: [Vec<PieceKind>; 2],
    /// The pieces each side still has to place.
    pub unplaced: [Vec<PieceKind>; 2],
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    id: u32,
    owner: Seat,
    kind: PieceKind,
    square: Square,
}

/// The King's Goal engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingsGoal {
    moves_per_half: u32,
    phase: Phase,
    to_act: Seat,
    half: u8,
    /// Moves played in the current half; runs on across restarts so every half ends.
    plies: u32,
    scores: [u32; 2],
    kicking: Seat,
    kickoff_pending: bool,
    chosen: [Vec<PieceKind>; 2],
    unplaced: [Vec<PieceKind>; 2],
    pieces: Vec<Piece>,
    /// The id of the piece holding the ball, during play.
    ball: Option<u32>,
    next_id: u32,
}

fn seat_name(seat: Seat) -> &'static str {
    if seat == WHITE { "white" } else { "black" }
}

/// The rank direction a side's pawns advance in.
fn forward(seat: Seat) -> i8 {
    if seat == WHITE { 1 } else { -1 }
}

fn on_board(square: Square) -> bool {
    (1..=8).contains(&square.file) && (1..=8).contains(&square.rank)
}

fn in_half(seat: Seat, square: Square) -> bool {
    on_board(square)
        && if seat == WHITE {
            square.rank <= 4
        } else {
            square.rank >= 5
        }
}

/// The rank of the goal `seat` defends.
fn goal_rank(seat: Seat) -> i8 {
    if seat == WHITE { 1 } else { 8 }
}

/// Whether `square` is one of the four goal squares `seat` defends.
fn is_goal_of(seat: Seat, square: Square) -> bool {
    square.rank == goal_rank(seat) && (3..=6).contains(&square.file)
}

fn goal_squares(seat: Seat) -> Vec<Square> {
    (3..=6).map(|f| Square::new(f, goal_rank(seat))).collect()
}

fn kickoff_square(seat: Seat) -> Square {
    if seat == WHITE {
        Square::new(5, 4)
    } else {
        Square::new(5, 5)
    }
}

/// The squares of a side's half, rank by rank from its goal line, file a first.
fn half_squares(seat: Seat) -> Vec<Square> {
    let ranks: Vec<i8> = if seat == WHITE {
        (1..=4).collect()
    } else {
        (5..=8).rev().collect()
    };
    ranks
        .into_iter()
        .flat_map(|r| (1..=8).map(move |f| Square::new(f, r)))
        .collect()
}

/// A square's name in a message. The squares of a typed action may lie off the board, where
/// they have no name.
fn square_text(square: Square) -> String {
    if on_board(square) {
        square.name()
    } else {
        format!("file {} rank {} (off the board)", square.file, square.rank)
    }
}

fn kinds_text(kinds: &[PieceKind]) -> String {
    if kinds.is_empty() {
        return "none".to_owned();
    }
    kinds.iter().map(|k| k.letter()).collect()
}

impl KingsGoal {
    /// A match about to start: white chooses first and kicks off from e4.
    fn fresh(moves_per_half: u32) -> Self {
        Self {
            moves_per_half,
            phase: Phase::Choice,
            to_act: WHITE,
            half: 1,
            plies: 0,
            scores: [0, 0],
            kicking: WHITE,
            kickoff_pending: false,
            chosen: [Vec::new(), Vec::new()],
            unplaced: [Vec::new(), Vec::new()],
            pieces: Vec::new(),
            ball: None,
            next_id: 1,
        }
    }

    fn plies_per_half(&self) -> u32 {
        2 * self.moves_per_half
    }

    fn piece_at(&self, square: Square) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.square == square)
    }

    fn holder(&self) -> Option<&Piece> {
        let id = self.ball?;
        self.pieces.iter().find(|p| p.id == id)
    }

    fn put_piece(&mut self, owner: Seat, kind: PieceKind, square: Square) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.pieces.push(Piece {
            id,
            owner,
            kind,
            square,
        });
        id
    }

    /// Clears the board for a new choice and placement, `kicking` to start.
    fn restart(&mut self, kicking: Seat, reason: RestartReason, events: &mut Vec<Emitted<Event>>) {
        self.pieces.clear();
        self.ball = None;
        self.chosen = [Vec::new(), Vec::new()];
        self.unplaced = [Vec::new(), Vec::new()];
        self.phase = Phase::Choice;
        self.kicking = kicking;
        self.to_act = kicking;
        self.kickoff_pending = false;
        events.push(Emitted::public(Event::Restarted {
            reason,
            kicking,
            half: self.half,
        }));
    }

    fn end_half(&mut self, events: &mut Vec<Emitted<Event>>) {
        events.push(Emitted::public(Event::HalfEnded {
            half: self.half,
            scores: self.scores,
        }));
        if self.half == 1 {
            self.half = 2;
            self.plies = 0;
            self.restart(BLACK, RestartReason::HalfTime, events);
        } else {
            self.phase = Phase::Over;
            self.ball = None;
            events.push(Emitted::public(Event::GameEnded {
                winner: self.winner(),
                scores: self.scores,
            }));
        }
    }

    fn winner(&self) -> Option<Seat> {
        match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => Some(WHITE),
            std::cmp::Ordering::Less => Some(BLACK),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Refuses a seat that may not act now, before anything is read of its action.
    fn check_turn(&self, seat: Seat) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::game_over());
        }
        if seat.index() > 1 {
            return Err(RuleError::not_your_turn(format!(
                "seat {} does not exist; King's Goal seats are 0 (white) and 1 (black)",
                seat.0
            )));
        }
        if seat != self.to_act {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn in the {} phase, not {}'s",
                seat_name(self.to_act),
                self.phase.name(),
                seat_name(seat)
            )));
        }
        Ok(())
    }

    /// Why `action` is refused, for a seat whose turn it is: the rule it breaks.
    fn refusal(&self, seat: Seat, action: &Action) -> RuleError {
        match (self.phase, action) {
            (Phase::Choice, Action::Choose(kind)) => self.choice_refusal(seat, *kind),
            (Phase::Placement, Action::Place { kind, square }) => {
                self.placement_refusal(seat, *kind, *square)
            }
            (Phase::Play, Action::Wait) => self.wait_refusal(seat),
            (
                Phase::Play,
                Action::Move { from, .. }
                | Action::Capture { from, .. }
                | Action::Pass { from, .. },
            ) => self.play_refusal(seat, *from, action),
            _ => self.phase_refusal(seat),
        }
    }

    /// The refusal of an action that belongs to another phase than the current one.
    fn phase_refusal(&self, seat: Seat) -> RuleError {
        let detail = match self.phase {
            Phase::Choice => format!(
                "this is the choice phase: choose a piece (+Q, +R, +B, +N, +P) or +default; \
                 chosen so far: {}",
                kinds_text(&self.chosen[seat.index()])
            ),
            Phase::Placement => format!(
                "this is the placement phase: place a piece (e.g. K@{}) or @default; still to \
                 place: {}",
                goal_squares(seat)[1],
                kinds_text(&self.unplaced[seat.index()])
            ),
            Phase::Play | Phase::Over => format!(
                "this is the {} phase: move, capture or pass with a piece (`--` only when none \
                 can)",
                self.phase.name()
            ),
        };
        RuleError::breaks(rules::PHASE, detail)
    }
}

impl Game for KingsGoal {
    type Action = Action;
    type Event = Event;
    type Details = Details;

    fn info() -> VariantInfo {
        VariantInfo {
            id: "kings-goal",
            name: "King's Goal",
            summary: "Chess pieces play football on an 8x8 board: six pieces a side, passes \
                      along chess moves, only the ball carrier can be captured, two halves.",
            files: 8,
            ranks: 8,
            seats: vec!["white", "black"],
            turn_structure: TurnStructure::Alternating,
            max_actions_per_turn: 1,
            setup_phase: true,
            chance: false,
            hidden_information: false,
            draws_possible: true,
            options: vec![OptionSpec::int(
                OPTION_MOVES_PER_HALF,
                "moves each side plays per half; the count runs on across goals and restarts",
                1,
                200,
                45,
            )],
            rules_version: "2",
            position_notation: "FEN-like: ranks 8..1 (upper case white, lower case black), \
                                phase, side to act, ball square, half:plies, score, kicking side \
                                (* = kick-off pass pending), white/black pieces in hand; \
                                optionally white/black picks of this restart and the piece \
                                ids in board order:next id",
        }
    }

    fn rules() -> &'static [Rule] {
        rules::RULES
    }

    fn new(setup: &SetupSpec) -> Result<Self, RuleError> {
        let moves_per_half = u32::try_from(setup.options.int(OPTION_MOVES_PER_HALF))
            .map_err(|_| RuleError::invalid_option("moves_per_half must be positive"))?;
        match &setup.position {
            None => Ok(Self::fresh(moves_per_half)),
            Some(text) => Self::from_position(text, moves_per_half),
        }
    }

    fn turn(&self) -> Turn {
        Turn {
            phase: self.phase.name().to_owned(),
            to_act: if self.phase == Phase::Over {
                Vec::new()
            } else {
                vec![self.to_act]
            },
            number: if self.phase == Phase::Over {
                self.plies
            } else {
                self.plies + 1
            },
            actions_left: None,
            may_end_turn: false,
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.phase == Phase::Over || seat != self.to_act {
            return Vec::new();
        }
        match self.phase {
            Phase::Choice => self.choice_actions(seat),
            Phase::Placement => self.placement_actions(seat),
            Phase::Play => self.play_actions(seat),
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Emitted<Event>>, RuleError> {
        self.check_turn(seat)?;
        if !self.legal_actions(seat).contains(action) {
            return Err(self.refusal(seat, action));
        }
        let mut events = Vec::new();
        match action {
            Action::Choose(kind) => self.apply_choice(seat, vec![*kind], &mut events),
            Action::DefaultChoice => {
                let kinds = self.default_choices(seat);
                self.apply_choice(seat, kinds, &mut events);
            }
            Action::Place { kind, square } => {
                self.apply_placement(seat, &[(*kind, *square)], &mut events);
            }
            Action::DefaultPlacement => {
                let placements = self.default_placements(seat);
                self.apply_placement(seat, &placements, &mut events);
            }
            Action::Move { .. } | Action::Capture { .. } | Action::Pass { .. } | Action::Wait => {
                self.apply_play(seat, action, &mut events);
            }
        }
        Ok(events)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let winner = self.winner();
        let reason = match winner {
            Some(seat) => format!("{} scored more goals", seat_name(seat)),
            None => "level on goals after two halves: a draw".to_owned(),
        };
        Some(Outcome {
            winner,
            scores: self.scores.to_vec(),
            reason,
        })
    }

    fn scores(&self) -> Vec<u32> {
        self.scores.to_vec()
    }

    fn board(&self, _viewer: Viewer) -> BoardView {
        let mut zones = Vec::new();
        for seat in [WHITE, BLACK] {
            zones.push(Zone {
                kind: ZoneKind::Goal,
                owner: Some(seat),
                squares: goal_squares(seat),
            });
            zones.push(Zone {
                kind: ZoneKind::TeamArea,
                owner: Some(seat),
                squares: half_squares(seat),
            });
        }
        let pieces = self
            .pieces
            .iter()
            .map(|p| PieceView {
                id: p.id,
                owner: p.owner,
                kind: p.kind.name().to_owned(),
                symbol: p.kind.letter().to_string(),
                square: p.square,
                spot: String::new(),
            })
            .collect();
        let ball = self.holder().map(|h| BallView::held(Some(h.square), h.id));
        BoardView {
            files: 8,
            ranks: 8,
            zones,
            pieces,
            ball,
        }
    }

    fn details(&self, _viewer: Viewer) -> Details {
        Details {
            phase: self.phase,
            half: self.half,
            plies_played: self.plies,
            plies_per_half: self.plies_per_half(),
            kicking: self.kicking,
            kickoff_pending: self.kickoff_pending,
            scores: self.scores,
            chosen: self.chosen.clone(),
            unplaced: self.unplaced.clone(),
        }
    }

    fn format_action(&self, seat: Seat, action: &Action) -> String {
        self.notation(seat, action)
    }

    fn format_actions(&self, seat: Seat, actions: &[Action]) -> Vec<String> {
        self.notations(seat, actions)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, RuleError> {
        self.read_notation(seat, text)
    }

    fn position(&self) -> String {
        self.to_position()
    }

    /// The whole default choice or placement when available, so a seat out of time finishes
    /// its choosing or placing in one action; otherwise the first listed.
    fn default_action(&self, seat: Seat) -> Option<Action> {
        let legal = self.legal_actions(seat);
        legal
            .iter()
            .find(|a| matches!(a, Action::DefaultChoice | Action::DefaultPlacement))
            .or(legal.first())
            .cloned()
    }
}
