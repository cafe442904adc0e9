//! Soccer Chess: football on an 11x17 board with chess-piece movers and kickers.
//!
//! A match is two games with the sides swapped; each game opens with a placement phase (the
//! visitor first) and then alternates sets of up to five piece moves, the visited side first.
//! The rules as this engine reads them are written down in the project's
//! `docs/rules/soccer-chess.md`.

mod notation;
mod pitch;
mod position;
#[cfg(test)]
mod position_tests;
mod refusal;
#[cfg(test)]
mod refusal_tests;
pub mod rules;
#[cfg(test)]
mod tests;

use crate::board::{BallView, BoardView, PieceView, Zone, ZoneKind};
use crate::game::{
    Emitted, Game, Outcome, Rule, RuleError, Seat, SetupSpec, Turn, TurnStructure, VariantInfo,
    Viewer,
};
use crate::geometry::Square;
use crate::options::OptionSpec;

use pitch::{
    CELLS, CENTRE, Half, Pattern, ROSTER, cell, goal_defended_by, in_small_area, on_board,
};

/// Moves one side may make in a set.
pub const MOVES_PER_SET: u32 = 5;
const TEAM_SIZE: usize = ROSTER.len();
const PIECE_COUNT: usize = 2 * TEAM_SIZE;

/// A Soccer Chess match: setup, two games with sides swapped, then golden goal if still tied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoccerChess {
    rules: Rules,
    /// Indexed by piece id; a piece off the board (not yet placed) has no square.
    pieces: [Piece; PIECE_COUNT],
    /// The id of the piece on each board square.
    grid: [Option<u8>; CELLS],
    ball: Square,
    game: u8,
    phase: Phase,
    to_move: Seat,
    /// 0 during setup; counted per side, so both sides play set 1, then set 2, ...
    set_number: u32,
    /// Ids of the pieces moved in the current set, in order.
    moved: Vec<u32>,
    /// `[game - 1][seat]`.
    game_scores: [[u32; 2]; 2],
    outcome: Option<Outcome>,
}

/// The match options, read once at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rules {
    sets_per_game: u32,
    own_goals: bool,
    slide_through_small_areas: bool,
    golden_goal_max_sets: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    owner: Seat,
    kind: PieceKind,
    square: Option<Square>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Setup,
    Play,
    Over,
}

/// The five kinds of piece; each moves and kicks like the chess piece named in its letter.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// `K`: moves like a king, kicks like a queen, never leaves its small area.
    Keeper,
    /// `N`: moves and kicks like a knight.
    Defender,
    /// `R`: midfielder moving and kicking like a rook.
    Rook,
    /// `B`: midfielder moving and kicking like a bishop.
    Bishop,
    /// `Q`: moves and kicks like a queen.
    Attacker,
}

/// A rule a setup placement breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Misplacement {
    NoneLeft,
    OutsideTeamArea,
    Occupied(PieceKind),
    KeeperOutsideSmallArea,
    InSmallArea,
    BishopsOnOneColour(Square),
}

/// One atomic action.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Setup: put one piece on a square of the own team area.
    Place { kind: PieceKind, square: Square },
    /// Setup: the whole default formation at once, while nothing is placed yet.
    DefaultFormation,
    /// A piece moves to an empty square.
    Move { from: Square, to: Square },
    /// A piece moves onto the ball's square, then kicks the ball to `target`.
    Kick { from: Square, target: Square },
    /// Ends the set early, after at least one move.
    EndSet,
}

/// Something that happened.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    PiecePlaced {
        piece_id: u32,
        kind: PieceKind,
        square: Square,
    },
    PieceMoved {
        piece_id: u32,
        from: Square,
        to: Square,
    },
    BallKicked {
        piece_id: u32,
        from: Square,
        ball_from: Square,
        ball_to: Square,
    },
    GoalScored {
        seat: Seat,
        game: u8,
        away_goal: bool,
        own_goal: bool,
        game_score: [u32; 2],
    },
    BallReset {
        square: Square,
    },
    SetEnded {
        seat: Seat,
        set_number: u32,
        moves: u32,
    },
    GameEnded {
        game: u8,
        game_score: [u32; 2],
    },
    SecondGameStarted {
        visitor: Seat,
    },
    GoldenGoalStarted {
        aggregate: [u32; 2],
    },
}

/// Soccer Chess state beside the generic board view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Details {
    /// 1 or 2.
    pub game: u8,
    /// The visiting seat of the current game; it plays at the top (ranks 10-17).
    pub visitor: Seat,
    pub set_number: u32,
    pub sets_per_game: u32,
    /// Pieces already moved in the current set.
    pub moved_piece_ids: Vec<u32>,
    /// `[game - 1][seat]`.
    pub game_scores: [[u32; 2]; 2],
    /// Goals scored as visitor, per seat.
    pub away_goals: [u32; 2],
    pub golden_goal: bool,
    /// During setup: the pieces the seat to act still has to place.
    pub unplaced: Vec<PieceKind>,
}

const OPTION_SETS_PER_GAME: &str = "sets_per_game";
const OPTION_OWN_GOALS: &str = "own_goals";
const OPTION_SLIDE_THROUGH: &str = "slide_through_small_areas";
const OPTION_GOLDEN_GOAL_MAX_SETS: &str = "golden_goal_max_sets";

fn seat_name(seat: Seat) -> &'static str {
    if seat == Seat(0) { "first" } else { "second" }
}

/// The seat visiting in a game: `second` in game 1, `first` in game 2.
fn visitor_of_game(game: u8) -> Seat {
    if game == 1 { Seat(1) } else { Seat(0) }
}

impl SoccerChess {
    fn empty(rules: Rules) -> Self {
        let pieces = std::array::from_fn(|id| Piece {
            owner: Seat((id / TEAM_SIZE) as u8),
            kind: ROSTER[id % TEAM_SIZE],
            square: None,
        });
        Self {
            rules,
            pieces,
            grid: [None; CELLS],
            ball: CENTRE,
            game: 1,
            phase: Phase::Setup,
            to_move: visitor_of_game(1),
            set_number: 0,
            moved: Vec::new(),
            game_scores: [[0; 2]; 2],
            outcome: None,
        }
    }

    fn visitor(&self) -> Seat {
        visitor_of_game(self.game)
    }

    fn visited(&self) -> Seat {
        self.visitor().opponent()
    }

    fn half_of(&self, seat: Seat) -> Half {
        if seat == self.visitor() {
            Half::Top
        } else {
            Half::Bottom
        }
    }

    fn seat_of_half(&self, half: Half) -> Seat {
        match half {
            Half::Top => self.visitor(),
            Half::Bottom => self.visited(),
        }
    }

    fn in_golden_goal(&self) -> bool {
        self.game == 2 && self.set_number > self.rules.sets_per_game
    }

    fn aggregate(&self) -> [u32; 2] {
        [0, 1].map(|seat| self.game_scores[0][seat] + self.game_scores[1][seat])
    }

    /// Goals each seat scored as the visitor: game 1 for `second`, game 2 for `first`.
    fn away_goals(&self) -> [u32; 2] {
        [self.game_scores[1][0], self.game_scores[0][1]]
    }

    fn piece_at(&self, square: Square) -> Option<u32> {
        if !on_board(square) {
            return None;
        }
        self.grid[cell(square)].map(u32::from)
    }

    fn team_ids(seat: Seat) -> std::ops::Range<u32> {
        let base = seat.index() * TEAM_SIZE;
        base as u32..(base + TEAM_SIZE) as u32
    }

    fn put(&mut self, id: u32, square: Square) {
        if let Some(old) = self.pieces[id as usize].square {
            self.grid[cell(old)] = None;
        }
        self.pieces[id as usize].square = Some(square);
        self.grid[cell(square)] = Some(id as u8);
    }

    /// Whether the piece may end a move on `square` (ignoring what stands there): keepers stay
    /// in their own small area, everyone else keeps out of both.
    fn may_stand(&self, id: u32, square: Square) -> bool {
        let piece = self.pieces[id as usize];
        if piece.kind == PieceKind::Keeper {
            self.half_of(piece.owner).small_area_contains(square)
        } else {
            !in_small_area(square)
        }
    }

    /// Whether a sliding piece may pass over `square` on its way elsewhere.
    fn may_pass(&self, id: u32, square: Square) -> bool {
        self.may_stand(id, square) || self.rules.slide_through_small_areas
    }

    /// Moves and kicks of one piece on the board, whether or not it may still move this set.
    fn piece_actions(&self, id: u32) -> Vec<Action> {
        let mut actions = Vec::new();
        self.push_piece_actions(id, &mut actions);
        actions
    }

    /// Appends piece `id`'s moves and kicks to `actions`, so a whole list grows in one vector.
    fn push_piece_actions(&self, id: u32, actions: &mut Vec<Action>) {
        let piece = self.pieces[id as usize];
        let Some(from) = piece.square else {
            return;
        };
        let mut reaches_ball = false;
        match piece.kind.move_pattern() {
            Pattern::Steps(steps) => {
                for &(df, dr) in steps {
                    let to = from.offset(df, dr);
                    if !on_board(to) || !self.may_stand(id, to) {
                        continue;
                    }
                    if to == self.ball {
                        reaches_ball = true;
                    } else if self.piece_at(to).is_none() {
                        actions.push(Action::Move { from, to });
                    }
                }
            }
            Pattern::Slides(directions) => {
                for &(df, dr) in directions {
                    let mut to = from.offset(df, dr);
                    while on_board(to) && self.piece_at(to).is_none() {
                        if to == self.ball {
                            reaches_ball |= self.may_stand(id, to);
                            break;
                        }
                        if self.may_stand(id, to) {
                            actions.push(Action::Move { from, to });
                        } else if !self.may_pass(id, to) {
                            break;
                        }
                        to = to.offset(df, dr);
                    }
                }
            }
        }
        if reaches_ball {
            actions.extend(
                self.kick_targets(id, from)
                    .into_iter()
                    .map(|target| Action::Kick { from, target }),
            );
        }
    }

    /// Where piece `id`, standing on `from`, could kick the ball after stepping onto it.
    fn kick_targets(&self, id: u32, from: Square) -> Vec<Square> {
        let piece = self.pieces[id as usize];
        let own_half = self.half_of(piece.owner);
        // The kicker has left `from`, so the ball may land there.
        let open = |square: Square| {
            on_board(square) && (square == from || self.piece_at(square).is_none())
        };
        let goal = |square: Square| match goal_defended_by(square) {
            Some(half) => half != own_half || self.rules.own_goals,
            None => false,
        };
        let mut targets = Vec::new();
        match piece.kind.kick_pattern() {
            Pattern::Steps(steps) => {
                for &(df, dr) in steps {
                    let target = self.ball.offset(df, dr);
                    if open(target) || goal(target) {
                        targets.push(target);
                    }
                }
            }
            Pattern::Slides(directions) => {
                for &(df, dr) in directions {
                    let mut target = self.ball.offset(df, dr);
                    while open(target) {
                        targets.push(target);
                        target = target.offset(df, dr);
                    }
                    if goal(target) {
                        targets.push(target);
                    }
                }
            }
        }
        targets
    }

    /// Pieces of `seat` on the board that have not moved in this set.
    fn movable_pieces(&self, seat: Seat) -> impl Iterator<Item = u32> + '_ {
        Self::team_ids(seat)
            .filter(|id| self.pieces[*id as usize].square.is_some() && !self.moved.contains(id))
    }

    fn play_actions(&self, seat: Seat) -> Vec<Action> {
        // A set's list rarely exceeds this; one allocation instead of a growing vector.
        let mut actions = Vec::with_capacity(128);
        for id in self.movable_pieces(seat) {
            self.push_piece_actions(id, &mut actions);
        }
        if !self.moved.is_empty() || actions.is_empty() {
            actions.push(Action::EndSet);
        }
        actions
    }

    /// Whether `seat` may end its set now: after a move, or when no piece can move at all
    /// (exactly when `play_actions` lists `EndSet`), found without listing every move.
    fn may_end_set(&self, seat: Seat) -> bool {
        !self.moved.is_empty()
            || self
                .movable_pieces(seat)
                .all(|id| self.piece_actions(id).is_empty())
    }

    fn unplaced(&self, seat: Seat) -> Vec<PieceKind> {
        Self::team_ids(seat)
            .map(|id| self.pieces[id as usize])
            .filter(|piece| piece.square.is_none())
            .map(|piece| piece.kind)
            .collect()
    }

    /// The rule a placement breaks, if any; `unplaced` is `self.unplaced(seat)`, which listing
    /// every placement asks once rather than once per square.
    fn misplacement(
        &self,
        seat: Seat,
        kind: PieceKind,
        square: Square,
        unplaced: &[PieceKind],
    ) -> Option<Misplacement> {
        let half = self.half_of(seat);
        if !unplaced.contains(&kind) {
            return Some(Misplacement::NoneLeft);
        }
        if !half.team_area_contains(square) {
            return Some(Misplacement::OutsideTeamArea);
        }
        if let Some(id) = self.piece_at(square) {
            return Some(Misplacement::Occupied(self.pieces[id as usize].kind));
        }
        if kind == PieceKind::Keeper && !half.small_area_contains(square) {
            return Some(Misplacement::KeeperOutsideSmallArea);
        }
        if kind != PieceKind::Keeper && in_small_area(square) {
            return Some(Misplacement::InSmallArea);
        }
        if kind == PieceKind::Bishop {
            let placed_bishop = Self::team_ids(seat)
                .map(|id| self.pieces[id as usize])
                .find(|piece| piece.kind == PieceKind::Bishop && piece.square.is_some());
            if let Some(other) = placed_bishop.and_then(|piece| piece.square)
                && other.is_dark() == square.is_dark()
            {
                return Some(Misplacement::BishopsOnOneColour(other));
            }
        }
        None
    }

    fn setup_actions(&self, seat: Seat) -> Vec<Action> {
        let unplaced = self.unplaced(seat);
        let mut actions = Vec::new();
        if unplaced.len() == TEAM_SIZE {
            actions.push(Action::DefaultFormation);
        }
        let half = self.half_of(seat);
        for kind in PieceKind::ALL {
            if !unplaced.contains(&kind) {
                continue;
            }
            for square in pitch::all_squares().filter(|sq| half.team_area_contains(*sq)) {
                if self.misplacement(seat, kind, square, &unplaced).is_none() {
                    actions.push(Action::Place { kind, square });
                }
            }
        }
        actions
    }

    /// The lowest id of `seat`'s pieces of `kind` not on the board: the one placed next.
    fn first_unplaced(&self, seat: Seat, kind: PieceKind) -> Option<u32> {
        Self::team_ids(seat).find(|id| {
            let piece = self.pieces[*id as usize];
            piece.kind == kind && piece.square.is_none()
        })
    }

    fn place(&mut self, seat: Seat, kind: PieceKind, square: Square) -> Emitted<Event> {
        let id = self
            .first_unplaced(seat, kind)
            .expect("placement was checked");
        self.put(id, square);
        Emitted::public(Event::PiecePlaced {
            piece_id: id,
            kind,
            square,
        })
    }

    /// Carries out a placement that `refusal` let through.
    fn apply_setup(&mut self, seat: Seat, action: &Action) -> Vec<Emitted<Event>> {
        let mut events = Vec::new();
        match *action {
            Action::Place { kind, square } => events.push(self.place(seat, kind, square)),
            Action::DefaultFormation => {
                for (kind, square) in self.half_of(seat).default_formation() {
                    events.push(self.place(seat, kind, square));
                }
            }
            Action::Move { .. } | Action::Kick { .. } | Action::EndSet => {
                unreachable!("refused during setup")
            }
        }
        if self.unplaced(seat).is_empty() {
            if seat == self.visitor() {
                self.to_move = self.visited();
            } else {
                self.phase = Phase::Play;
                self.set_number = 1;
                self.to_move = self.visited();
            }
        }
        events
    }

    /// Carries out a move, kick or end of set that `refusal` let through.
    fn apply_play(&mut self, seat: Seat, action: &Action) -> Vec<Emitted<Event>> {
        let mut events = Vec::new();
        match *action {
            Action::Place { .. } | Action::DefaultFormation => {
                unreachable!("refused during play")
            }
            Action::EndSet => self.end_set(&mut events),
            Action::Move { from, to } => {
                let id = self.piece_at(from).expect("refusal checked the mover");
                self.put(id, to);
                self.moved.push(id);
                events.push(Emitted::public(Event::PieceMoved {
                    piece_id: id,
                    from,
                    to,
                }));
                self.end_full_set(&mut events);
            }
            Action::Kick { from, target } => {
                let id = self.piece_at(from).expect("refusal checked the kicker");
                let ball_from = self.ball;
                self.put(id, ball_from);
                self.moved.push(id);
                self.ball = target;
                events.push(Emitted::public(Event::BallKicked {
                    piece_id: id,
                    from,
                    ball_from,
                    ball_to: target,
                }));
                match goal_defended_by(target) {
                    Some(half) => self.score_goal(seat, half, &mut events),
                    None => self.end_full_set(&mut events),
                }
            }
        }
        events
    }

    /// Ends the set once its last move is made.
    fn end_full_set(&mut self, events: &mut Vec<Emitted<Event>>) {
        if self.moved.len() as u32 == MOVES_PER_SET {
            self.end_set(events);
        }
    }

    fn score_goal(&mut self, kicker: Seat, goal: Half, events: &mut Vec<Emitted<Event>>) {
        let own_goal = goal == self.half_of(kicker);
        let scorer = self.seat_of_half(goal).opponent();
        let game = self.game;
        self.game_scores[usize::from(game - 1)][scorer.index()] += 1;
        events.push(Emitted::public(Event::GoalScored {
            seat: scorer,
            game,
            away_goal: scorer == self.visitor(),
            own_goal,
            game_score: self.game_scores[usize::from(game - 1)],
        }));
        self.ball = self.restart_square();
        events.push(Emitted::public(Event::BallReset { square: self.ball }));
        self.end_set(events);
    }

    /// Where the ball restarts: the centre, or when a piece stands there the nearest free square
    /// of the halfway rank (the lower file first), since pieces are not moved after a goal.
    fn restart_square(&self) -> Square {
        let mut squares: Vec<Square> = pitch::all_squares().collect();
        squares.sort_by_key(|sq| {
            (
                (sq.rank - CENTRE.rank).abs(),
                (sq.file - CENTRE.file).abs(),
                sq.file,
                sq.rank,
            )
        });
        squares
            .into_iter()
            .find(|sq| self.piece_at(*sq).is_none())
            .expect("22 pieces never fill the board")
    }

    /// Closes the current set and hands the move to the other side; closes games and the match.
    fn end_set(&mut self, events: &mut Vec<Emitted<Event>>) {
        events.push(Emitted::public(Event::SetEnded {
            seat: self.to_move,
            set_number: self.set_number,
            moves: self.moved.len() as u32,
        }));
        self.moved.clear();
        let aggregate = self.aggregate();
        if self.in_golden_goal() && aggregate[0] != aggregate[1] {
            let winner = if aggregate[0] > aggregate[1] {
                Seat(0)
            } else {
                Seat(1)
            };
            self.finish_game_two(events, Some(winner), "golden goal");
            return;
        }
        let round_complete = self.to_move == self.visitor();
        self.to_move = self.to_move.opponent();
        if !round_complete {
            return;
        }
        let sets = self.rules.sets_per_game;
        if self.set_number == sets {
            self.end_regulation(events);
        } else if self.set_number == sets + self.rules.golden_goal_max_sets {
            self.finish_game_two(
                events,
                None,
                "draw: no goal within the golden-goal set limit",
            );
        } else {
            self.set_number += 1;
        }
    }

    /// The last set of a game is over: start game 2, or decide the match, or go to golden goal.
    fn end_regulation(&mut self, events: &mut Vec<Emitted<Event>>) {
        if self.game == 1 {
            events.push(Emitted::public(Event::GameEnded {
                game: 1,
                game_score: self.game_scores[0],
            }));
            self.game = 2;
            self.phase = Phase::Setup;
            self.set_number = 0;
            self.to_move = self.visitor();
            for piece in &mut self.pieces {
                piece.square = None;
            }
            self.grid = [None; CELLS];
            self.ball = CENTRE;
            events.push(Emitted::public(Event::SecondGameStarted {
                visitor: self.visitor(),
            }));
            events.push(Emitted::public(Event::BallReset { square: CENTRE }));
            return;
        }
        let aggregate = self.aggregate();
        let away = self.away_goals();
        let weighted = [0, 1].map(|seat| aggregate[seat] + away[seat]);
        if aggregate[0] != aggregate[1] {
            let winner = if aggregate[0] > aggregate[1] {
                Seat(0)
            } else {
                Seat(1)
            };
            self.finish_game_two(events, Some(winner), "more goals on aggregate");
        } else if weighted[0] != weighted[1] {
            let winner = if weighted[0] > weighted[1] {
                Seat(0)
            } else {
                Seat(1)
            };
            self.finish_game_two(events, Some(winner), "away goals count double");
        } else {
            self.set_number += 1;
            events.push(Emitted::public(Event::GoldenGoalStarted { aggregate }));
        }
    }

    fn finish_game_two(
        &mut self,
        events: &mut Vec<Emitted<Event>>,
        winner: Option<Seat>,
        reason: &str,
    ) {
        events.push(Emitted::public(Event::GameEnded {
            game: 2,
            game_score: self.game_scores[1],
        }));
        self.phase = Phase::Over;
        self.outcome = Some(Outcome {
            winner,
            scores: self.aggregate().to_vec(),
            reason: reason.to_owned(),
        });
    }

    fn zones(&self) -> Vec<Zone> {
        let mut zones = Vec::new();
        for half in [Half::Bottom, Half::Top] {
            let owner = Some(self.seat_of_half(half));
            zones.push(Zone {
                kind: ZoneKind::Goal,
                owner,
                squares: half.goal_cells().to_vec(),
            });
            zones.push(Zone {
                kind: ZoneKind::SmallArea,
                owner,
                squares: pitch::all_squares()
                    .filter(|sq| half.small_area_contains(*sq))
                    .collect(),
            });
            zones.push(Zone {
                kind: ZoneKind::TeamArea,
                owner,
                squares: pitch::all_squares()
                    .filter(|sq| half.team_area_contains(*sq))
                    .collect(),
            });
        }
        zones
    }
}

impl Game for SoccerChess {
    type Action = Action;
    type Event = Event;
    type Details = Details;

    fn info() -> VariantInfo {
        VariantInfo {
            id: "soccer-chess",
            name: "Soccer Chess",
            summary: "Football on an 11x17 board: pieces move and kick the ball like chess \
                      pieces, in sets of up to five moves; two games with sides swapped, \
                      aggregate score, away goals, golden goal.",
            files: pitch::FILES as u8,
            ranks: pitch::RANKS as u8,
            seats: vec!["first", "second"],
            turn_structure: TurnStructure::MultiAction,
            // A placement turn: one seat places its whole team before the other starts.
            max_actions_per_turn: TEAM_SIZE as u32,
            setup_phase: true,
            chance: false,
            hidden_information: false,
            draws_possible: true,
            options: vec![
                OptionSpec::int(
                    OPTION_SETS_PER_GAME,
                    "sets each side plays per game",
                    1,
                    1000,
                    30,
                ),
                OptionSpec::boolean(
                    OPTION_OWN_GOALS,
                    "allow kicking into the own goal (the goal counts for the opponent)",
                    false,
                ),
                OptionSpec::boolean(
                    OPTION_SLIDE_THROUGH,
                    "let sliding pieces other than keepers pass over small-area squares",
                    false,
                ),
                OptionSpec::int(
                    OPTION_GOLDEN_GOAL_MAX_SETS,
                    "golden-goal sets per side before a still-tied match ends in a draw",
                    1,
                    1000,
                    30,
                ),
            ],
            rules_version: "1",
            position_notation: position::SUMMARY,
        }
    }

    fn rules() -> &'static [Rule] {
        rules::RULES
    }

    fn new(setup: &SetupSpec) -> Result<Self, RuleError> {
        let options = &setup.options;
        let rules = Rules {
            sets_per_game: options.int(OPTION_SETS_PER_GAME) as u32,
            own_goals: options.bool(OPTION_OWN_GOALS),
            slide_through_small_areas: options.bool(OPTION_SLIDE_THROUGH),
            golden_goal_max_sets: options.int(OPTION_GOLDEN_GOAL_MAX_SETS) as u32,
        };
        match &setup.position {
            Some(text) => position::parse(text, rules),
            None => Ok(Self::empty(rules)),
        }
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Setup => Turn {
                phase: "setup".to_owned(),
                to_act: vec![self.to_move],
                number: 0,
                actions_left: Some(self.unplaced(self.to_move).len() as u32),
                may_end_turn: false,
            },
            Phase::Play => Turn {
                phase: "play".to_owned(),
                to_act: vec![self.to_move],
                number: self.set_number,
                actions_left: Some(MOVES_PER_SET - self.moved.len() as u32),
                may_end_turn: self.may_end_set(self.to_move),
            },
            Phase::Over => Turn {
                phase: "over".to_owned(),
                to_act: Vec::new(),
                number: self.set_number,
                actions_left: None,
                may_end_turn: false,
            },
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if seat != self.to_move {
            return Vec::new();
        }
        match self.phase {
            Phase::Setup => self.setup_actions(seat),
            Phase::Play => self.play_actions(seat),
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Emitted<Event>>, RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::game_over());
        }
        if seat != self.to_move {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn, not {}'s",
                seat_name(self.to_move),
                seat_name(seat)
            )));
        }
        if let Some(refusal) = self.refusal(seat, action) {
            return Err(refusal);
        }
        Ok(match self.phase {
            Phase::Setup => self.apply_setup(seat, action),
            Phase::Play => self.apply_play(seat, action),
            Phase::Over => unreachable!("checked above"),
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn scores(&self) -> Vec<u32> {
        self.aggregate().to_vec()
    }

    fn board(&self, _viewer: Viewer) -> BoardView {
        let pieces = self
            .pieces
            .iter()
            .enumerate()
            .filter_map(|(id, piece)| {
                piece.square.map(|square| PieceView {
                    id: id as u32,
                    owner: piece.owner,
                    kind: piece.kind.name().to_owned(),
                    symbol: piece.kind.symbol().to_string(),
                    square,
                    spot: String::new(),
                })
            })
            .collect();
        BoardView {
            files: pitch::FILES as u8,
            ranks: pitch::RANKS as u8,
            zones: self.zones(),
            pieces,
            ball: Some(BallView::loose(self.ball)),
        }
    }

    fn details(&self, _viewer: Viewer) -> Details {
        Details {
            game: self.game,
            visitor: self.visitor(),
            set_number: self.set_number,
            sets_per_game: self.rules.sets_per_game,
            moved_piece_ids: self.moved.clone(),
            game_scores: self.game_scores,
            away_goals: self.away_goals(),
            golden_goal: self.in_golden_goal(),
            unplaced: if self.phase == Phase::Setup {
                self.unplaced(self.to_move)
            } else {
                Vec::new()
            },
        }
    }

    fn format_action(&self, seat: Seat, action: &Action) -> String {
        notation::format(self, seat, action)
    }

    fn format_actions(&self, seat: Seat, actions: &[Action]) -> Vec<String> {
        notation::format_all(self, seat, actions)
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, RuleError> {
        notation::parse(self, seat, text)
    }

    fn position(&self) -> String {
        position::write(self)
    }

    /// Ending the set or the default formation when available; otherwise the first listed.
    fn default_action(&self, seat: Seat) -> Option<Action> {
        let legal = self.legal_actions(seat);
        legal
            .iter()
            .find(|a| matches!(a, Action::EndSet | Action::DefaultFormation))
            .or(legal.first())
            .cloned()
    }
}
