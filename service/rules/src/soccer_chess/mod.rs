//! Soccer Chess: football on an 11x17 board with chess-piece movers and kickers.

use crate::game::Seat;
use crate::geometry::Square;

/// A Soccer Chess match: setup, two games with sides swapped, then golden goal if still tied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoccerChess {
    sets_per_game: u32,
}

/// The five kinds of piece; each moves and kicks like the chess piece named in its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// One atomic action.
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
