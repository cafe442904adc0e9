//! The heuristic evaluation the search stops its playouts with and the greedy bot ranks by.
//!
//! Every game shows its board the same way ([`BoardView`]): goal zones owned by the seat that
//! defends them, pieces with owners, and a ball. The evaluation reads only that and the score,
//! as `seat` sees it, so it never uses what `seat` cannot know. Terms, most important first:
//! the score difference, the ball's progress from `seat`'s goal toward the other one, who is
//! nearer the ball, and material (only King's Goal captures). Their weights differ per game
//! ([`Weights::for_variant`]).

use pitchmate_rules::{BoardView, Game, Seat, Square, Viewer, ZoneKind};

/// How much each term counts, in goals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Points one goal is worth (a Gridiron touchdown is 7).
    pub goal_points: f64,
    /// The ball on the other goal line, against the ball on one's own.
    pub ball_progress: f64,
    /// One's nearest piece at the ball and the other side's far from it.
    pub ball_nearness: f64,
    /// Every piece one's own, against every piece the other side's.
    pub material: f64,
    /// How steeply a lead in goals turns into a chance of winning.
    pub steepness: f64,
}

impl Weights {
    pub fn for_variant(id: &str) -> Self {
        let base = Weights {
            goal_points: 1.0,
            ball_progress: 0.4,
            ball_nearness: 0.15,
            material: 0.0,
            steepness: 1.5,
        };
        match id {
            "gridiron" => Weights {
                goal_points: 7.0,
                ball_progress: 0.5,
                ball_nearness: 0.0,
                ..base
            },
            "kings-goal" => Weights {
                material: 0.5,
                ..base
            },
            _ => base,
        }
    }
}

/// `seat`'s prospects in `game`, in `0..=1`: 1 a win, 0 a loss, 0.5 a draw or an even game.
pub fn evaluate<G: Game>(game: &G, seat: Seat, weights: &Weights) -> f64 {
    if let Some(outcome) = game.outcome() {
        return match outcome.winner {
            Some(winner) if winner == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let scores = game.scores();
    let own = f64::from(scores.get(seat.index()).copied().unwrap_or(0));
    let other = f64::from(scores.get(seat.opponent().index()).copied().unwrap_or(0));
    let board = game.board(Viewer::Seat(seat));
    // Found once: every leaf of the search comes here.
    let ball = ball_square(&board);
    let lead = (own - other) / weights.goal_points
        + weights.ball_progress * ball.map_or(0.0, |ball| ball_progress(&board, ball, seat))
        + weights.ball_nearness * ball.map_or(0.0, |ball| ball_nearness(&board, ball, seat))
        + weights.material * material(&board, seat);
    1.0 / (1.0 + (-weights.steepness * lead).exp())
}

/// Where the ball stands, as far as `seat` sees: its square, or its holder's, or the middle of
/// the pieces that may hold it.
fn ball_square(board: &BoardView) -> Option<(f64, f64)> {
    let ball = board.ball.as_ref()?;
    let square_of = |id: u32| board.pieces.iter().find(|p| p.id == id).map(|p| p.square);
    let at = |square: Square| (f64::from(square.file), f64::from(square.rank));
    if let Some(square) = ball.square {
        return Some(at(square));
    }
    if let Some(square) = ball.holder.and_then(square_of) {
        return Some(at(square));
    }
    let candidates: Vec<(f64, f64)> = ball
        .possible_holders
        .iter()
        .filter_map(|id| square_of(*id))
        .map(at)
        .collect();
    (!candidates.is_empty()).then(|| {
        let n = candidates.len() as f64;
        let sum = candidates
            .iter()
            .fold((0.0, 0.0), |acc, c| (acc.0 + c.0, acc.1 + c.1));
        (sum.0 / n, sum.1 / n)
    })
}

/// In `-1..=1`: 1 with the ball (at `ball`) on the goal `seat` attacks, -1 on the one it defends.
fn ball_progress(board: &BoardView, ball: (f64, f64), seat: Seat) -> f64 {
    let distance_to_goal_of = |owner: Seat| {
        board
            .zones
            .iter()
            .filter(|z| matches!(z.kind, ZoneKind::Goal | ZoneKind::EndZone))
            .filter(|z| z.owner == Some(owner))
            .flat_map(|z| z.squares.iter())
            .map(|s| distance(ball, (f64::from(s.file), f64::from(s.rank))))
            .fold(f64::INFINITY, f64::min)
    };
    let to_attacked = distance_to_goal_of(seat.opponent());
    let to_defended = distance_to_goal_of(seat);
    if !to_attacked.is_finite() || !to_defended.is_finite() || to_attacked + to_defended == 0.0 {
        return 0.0;
    }
    (to_defended - to_attacked) / (to_defended + to_attacked)
}

/// In `-1..=1`: positive when `seat`'s nearest piece is nearer the ball than the other side's.
fn ball_nearness(board: &BoardView, ball: (f64, f64), seat: Seat) -> f64 {
    let nearest = |owner: Seat| {
        board
            .pieces
            .iter()
            .filter(|p| p.owner == owner)
            .map(|p| distance(ball, (f64::from(p.square.file), f64::from(p.square.rank))))
            .fold(f64::INFINITY, f64::min)
    };
    let own = nearest(seat);
    let other = nearest(seat.opponent());
    if !own.is_finite() || !other.is_finite() {
        return 0.0;
    }
    let span = f64::from(board.files.max(board.ranks));
    ((other - own) / span).clamp(-1.0, 1.0)
}

/// In `-1..=1`: the share of the pieces on the board that are `seat`'s, centred.
fn material(board: &BoardView, seat: Seat) -> f64 {
    let own = board.pieces.iter().filter(|p| p.owner == seat).count() as f64;
    let total = board.pieces.len() as f64;
    if total == 0.0 {
        return 0.0;
    }
    2.0 * own / total - 1.0
}

/// Moves a queen or king would need: the larger of the file and rank gaps.
fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}
