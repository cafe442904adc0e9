//! Why a play action is refused: the one rule it breaks, read from the state.
//!
//! An action is legal exactly when every condition of its kind holds (see `piece_actions`), so
//! the checks below go through those conditions in turn and cite the first that fails; when all
//! earlier ones hold, the last is the one broken.

use super::rules::{
    CAPTURE_CARRIER, CARRIER_PASSES, CLEAR_PATH, EMPTY_SQUARE, KICK_OFF_PASS, MOVEMENT, OWN_PIECE,
    PASS_TO_TEAM_MATE, PROMOTION, WAIT_WHEN_STUCK,
};
use super::{
    Action, KingsGoal, Piece, PieceKind, forward, goal_rank, on_board, seat_name, square_text,
};
use crate::game::{Rule, RuleError, Seat};
use crate::geometry::Square;

/// What a play action does with the mover's pattern: a pawn steps straight ahead but captures
/// and passes diagonally.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stroke {
    Move,
    Capture,
    Pass,
}

impl Stroke {
    const fn verb(self) -> &'static str {
        match self {
            Stroke::Move => "move to",
            Stroke::Capture => "capture on",
            Stroke::Pass => "pass to",
        }
    }
}

impl KingsGoal {
    /// The refusal of `--` when it is not legal.
    pub(super) fn wait_refusal(&self, seat: Seat) -> RuleError {
        if self.kickoff_pending {
            return self.kickoff_refusal(seat);
        }
        RuleError::breaks(
            WAIT_WHEN_STUCK,
            format!(
                "{} has {} legal moves, passes or captures",
                seat_name(seat),
                self.play_actions(seat).len()
            ),
        )
    }

    /// The refusal of a move, capture or pass from `from` that is not legal, with what the
    /// piece there may play instead.
    pub(super) fn play_refusal(&self, seat: Seat, from: Square, action: &Action) -> RuleError {
        let holder = self.holder().expect("the ball is held during play");
        let Some(piece) = self.piece_at(from).filter(|p| p.owner == seat) else {
            return RuleError::breaks(
                OWN_PIECE,
                format!("{} has no piece on {}", seat_name(seat), square_text(from)),
            );
        };
        let kicks_off = matches!(action, Action::Pass { .. }) && piece.id == holder.id;
        if self.kickoff_pending && !kicks_off {
            return self.kickoff_refusal(seat);
        }
        let (rule, why) = self.play_problem(piece, holder, action);
        let own: Vec<Action> = self
            .play_actions(seat)
            .into_iter()
            .filter(|a| match a {
                Action::Move { from: f, .. }
                | Action::Capture { from: f, .. }
                | Action::Pass { from: f, .. } => *f == from,
                _ => false,
            })
            .collect();
        let instead = if own.is_empty() {
            format!(
                "the {} on {from} has no legal action now",
                piece.kind.name()
            )
        } else {
            format!(
                "the {} on {from} may play: {}",
                piece.kind.name(),
                self.listing(seat, &own)
            )
        };
        RuleError::breaks(rule, format!("{why}; {instead}"))
    }

    fn kickoff_refusal(&self, seat: Seat) -> RuleError {
        let kicker = self.holder().expect("the ball is held during play");
        RuleError::breaks(
            KICK_OFF_PASS,
            format!(
                "the {} on {} passes first; legal: {}",
                kicker.kind.name(),
                kicker.square,
                self.listing(seat, &self.play_actions(seat))
            ),
        )
    }

    /// The rule a move, capture or pass by the side's own `piece` breaks.
    fn play_problem(&self, piece: &Piece, holder: &Piece, action: &Action) -> (Rule, String) {
        match *action {
            Action::Move { to, promotion, .. } => {
                if let Some(problem) = self.reach_problem(piece, to, Stroke::Move) {
                    return problem;
                }
                if let Some(other) = self.piece_at(to) {
                    return (
                        EMPTY_SQUARE,
                        format!(
                            "{to} is taken by {}'s {}",
                            seat_name(other.owner),
                            other.kind.name()
                        ),
                    );
                }
                (PROMOTION, promotion_problem(piece, to, promotion))
            }
            Action::Capture { to, promotion, .. } => {
                let ball = if holder.owner == piece.owner {
                    "your side holds the ball".to_owned()
                } else {
                    format!("the ball carrier is on {}", holder.square)
                };
                match self.piece_at(to) {
                    Some(target) if target.id == holder.id && target.owner != piece.owner => {}
                    Some(target) if target.owner == piece.owner => {
                        return (
                            CAPTURE_CARRIER,
                            format!("{to} holds your own {}; {ball}", target.kind.name()),
                        );
                    }
                    Some(target) => {
                        return (
                            CAPTURE_CARRIER,
                            format!(
                                "the {} on {to} does not hold the ball; {ball}",
                                target.kind.name()
                            ),
                        );
                    }
                    None => {
                        return (
                            CAPTURE_CARRIER,
                            format!("nobody stands on {}; {ball}", square_text(to)),
                        );
                    }
                }
                if let Some(problem) = self.reach_problem(piece, to, Stroke::Capture) {
                    return problem;
                }
                (PROMOTION, promotion_problem(piece, to, promotion))
            }
            Action::Pass { to, .. } => {
                if piece.id != holder.id {
                    return (
                        CARRIER_PASSES,
                        format!(
                            "the {} on {} does not hold the ball; it is on {}",
                            piece.kind.name(),
                            piece.square,
                            holder.square
                        ),
                    );
                }
                if let Some(problem) = self.reach_problem(piece, to, Stroke::Pass) {
                    return problem;
                }
                // The passer reaches `to`, and never its own square, so no team-mate is there.
                let why = match self.piece_at(to) {
                    Some(other) if other.owner != piece.owner => format!(
                        "{to} holds {}'s {}",
                        seat_name(other.owner),
                        other.kind.name()
                    ),
                    _ => format!("nobody stands on {to} to receive the ball"),
                };
                (PASS_TO_TEAM_MATE, why)
            }
            _ => unreachable!("only moves, captures and passes start from a square"),
        }
    }

    /// Whether `piece` cannot reach `to` for `stroke`: off the board, outside its pattern, or
    /// with a piece in the way.
    fn reach_problem(&self, piece: &Piece, to: Square, stroke: Stroke) -> Option<(Rule, String)> {
        let from = piece.square;
        if !on_board(to) || !pattern_reaches(piece, to, stroke) {
            return Some((
                MOVEMENT,
                format!(
                    "the {} on {from} cannot {} {}: {}",
                    piece.kind.name(),
                    stroke.verb(),
                    square_text(to),
                    pattern_text(piece.kind, stroke)
                ),
            ));
        }
        let blocker = between(from, to).find(|s| self.piece_at(*s).is_some())?;
        Some((
            CLEAR_PATH,
            format!("{blocker} stands between {from} and {to}"),
        ))
    }
}

/// Whether the chess pattern of `piece` takes it to `to` (on the board), ignoring other pieces.
fn pattern_reaches(piece: &Piece, to: Square, stroke: Stroke) -> bool {
    let (df, dr) = (to.file - piece.square.file, to.rank - piece.square.rank);
    let straight = (df == 0) != (dr == 0);
    let diagonal = df != 0 && df.abs() == dr.abs();
    match piece.kind {
        PieceKind::King => df.abs().max(dr.abs()) == 1,
        PieceKind::Queen => straight || diagonal,
        PieceKind::Rook => straight,
        PieceKind::Bishop => diagonal,
        PieceKind::Knight => df.abs() * dr.abs() == 2,
        PieceKind::Pawn => {
            let sideways = if stroke == Stroke::Move { 0 } else { 1 };
            dr == forward(piece.owner) && df.abs() == sideways
        }
    }
}

fn pattern_text(kind: PieceKind, stroke: Stroke) -> &'static str {
    match kind {
        PieceKind::King => "a king goes one square in any direction",
        PieceKind::Queen => "a queen goes along ranks, files and diagonals",
        PieceKind::Rook => "a rook goes along ranks and files",
        PieceKind::Bishop => "a bishop goes along diagonals",
        PieceKind::Knight => "a knight jumps two squares one way and one the other",
        PieceKind::Pawn if stroke == Stroke::Move => "a pawn moves one square straight forward",
        PieceKind::Pawn => "a pawn captures and passes one square diagonally forward",
    }
}

/// The squares strictly between two squares on one rank, file or diagonal; none otherwise
/// (a knight's jump has nothing in between).
fn between(from: Square, to: Square) -> impl Iterator<Item = Square> {
    let (df, dr) = (to.file - from.file, to.rank - from.rank);
    let in_line = df == 0 || dr == 0 || df.abs() == dr.abs();
    let steps = if in_line { df.abs().max(dr.abs()) } else { 0 };
    (1..steps).map(move |i| from.offset(i * df.signum(), i * dr.signum()))
}

/// What is wrong with the promotion of a move or capture by `piece` to `to` that breaks no
/// other rule.
fn promotion_problem(piece: &Piece, to: Square, promotion: Option<PieceKind>) -> String {
    let last_rank = to.rank == goal_rank(piece.owner.opponent());
    match promotion {
        None => format!(
            "the pawn reaching {to} must become a queen, rook, bishop or knight: add =Q, =R, =B \
             or =N"
        ),
        Some(kind) if !PieceKind::PROMOTIONS.contains(&kind) => {
            format!("a pawn cannot become a {}", kind.name())
        }
        // A pawn reaching the last rank may choose any of the four unless its move scores.
        Some(_) if piece.kind == PieceKind::Pawn && last_rank => {
            format!("the move to {to} scores, so the pawn does not promote: leave out the `=`")
        }
        Some(_) => "only a pawn reaching the last rank promotes: leave out the `=`".to_owned(),
    }
}
