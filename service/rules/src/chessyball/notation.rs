//! Action and position notation.
//!
//! Actions: `e9-g9` (a move), `ball@c6` (placing the ball), `end`, `shoot`.
//! Positions: ranks from the top down separated by `/`, files from `a` on; `M`/`K` a home
//! member/keeper, `m`/`k` an away member/keeper, `o` the ball, a number counts empty cells.
//! A second field `h` or `a` names the side to move; a start position ends there. A whole state
//! goes on with the fields [`position`](super::position) reads and writes.

use crate::game::{RuleError, Seat};
use crate::geometry::Square;

use super::pitch::Pitch;
use super::position::{self, WholeState};
use super::{AWAY, Action, HOME, Piece};

/// The notation of an action, its parts pushed into one buffer: a listing writes hundreds.
pub(super) fn format_action(action: &Action) -> String {
    let mut text = String::with_capacity(8);
    match action {
        Action::Move { from, to } => {
            from.push_name(&mut text);
            text.push('-');
            to.push_name(&mut text);
        }
        Action::PlaceBall { square } => {
            text.push_str("ball@");
            square.push_name(&mut text);
        }
        Action::EndTurn => text.push_str("end"),
        Action::Shoot => text.push_str("shoot"),
    }
    text
}

fn square(text: &str, whole: &str) -> Result<Square, RuleError> {
    Square::parse(text).ok_or_else(|| {
        RuleError::malformed(format!(
            "`{text}` in `{whole}` is not a square name such as `e9` (a file letter, then a rank)"
        ))
    })
}

/// Reads the text of an action; whether it is legal is checked by the caller.
pub(super) fn parse_action(text: &str) -> Result<Action, RuleError> {
    let trimmed = text.trim().to_ascii_lowercase();
    match trimmed.as_str() {
        "end" => return Ok(Action::EndTurn),
        "shoot" => return Ok(Action::Shoot),
        _ => {}
    }
    if let Some(target) = trimmed.strip_prefix("ball@") {
        return Ok(Action::PlaceBall {
            square: square(target, text)?,
        });
    }
    if let Some((from, to)) = trimmed.split_once('-') {
        return Ok(Action::Move {
            from: square(from, text)?,
            to: square(to, text)?,
        });
    }
    Err(RuleError::malformed(format!(
        "`{text}` is not Chessyball notation; write a move as `e9-g9`, a ball placement as \
         `ball@c6`, or `end` / `shoot`"
    )))
}

pub(super) fn piece_symbol(piece: &Piece) -> char {
    match (piece.owner == HOME, piece.keeper) {
        (true, true) => 'K',
        (true, false) => 'M',
        (false, true) => 'k',
        (false, false) => 'm',
    }
}

/// A position read from notation: a start, or a whole state when `state` is given.
pub(super) struct ReadPosition {
    /// In reading order (top rank first, then file by file).
    pub pieces: Vec<Piece>,
    /// Anywhere on the board; where the ball may lie depends on the phase, checked by the caller.
    pub ball: Square,
    pub to_move: Option<Seat>,
    /// The fields after the side to move, which make the position a whole state.
    pub state: Option<WholeState>,
}

pub(super) fn parse_position(pitch: Pitch, text: &str) -> Result<ReadPosition, RuleError> {
    let bad = |why: String| {
        RuleError::invalid_position(format!(
            "{why}; a position is {} ranks from the top separated by '/', each {} cells of \
             M/K (home member/keeper), m/k (away), o (the ball) or a count of empty cells, \
             then optionally `h` or `a` for the side to move",
            pitch.ranks, pitch.files
        ))
    };
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, to_move, state) = match fields.as_slice() {
        [board] => (*board, None, None),
        [board, side] => (*board, Some(side_to_move(side).map_err(bad)?), None),
        [board, side, rest @ ..] if rest.len() >= position::STATE_FIELDS => {
            let side = side_to_move(side).map_err(|why| position::refusal(&why))?;
            (*board, Some(side), Some(position::parse_state(rest)?))
        }
        _ => {
            return Err(bad(format!(
                "expected 1 or 2 fields for a start, or {} and more for a whole state, got {}",
                2 + position::STATE_FIELDS,
                fields.len()
            )));
        }
    };
    let (pieces, ball) = parse_board(pitch, board, bad)?;
    Ok(ReadPosition {
        pieces,
        ball,
        to_move,
        state,
    })
}

fn side_to_move(side: &str) -> Result<Seat, String> {
    match side {
        "h" => Ok(HOME),
        "a" => Ok(AWAY),
        "-" => Err(
            "the side to move `-` marks a finished match, which is no position to play \
                    from"
                .to_owned(),
        ),
        _ => Err(format!("the side to move `{side}` is not `h` or `a`")),
    }
}

/// The pieces in reading order and the ball of the board field.
fn parse_board(
    pitch: Pitch,
    board: &str,
    bad: impl Fn(String) -> RuleError,
) -> Result<(Vec<Piece>, Square), RuleError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != pitch.ranks as usize {
        return Err(bad(format!("found {} ranks", rows.len())));
    }
    let mut pieces = Vec::new();
    let mut ball = None;
    for (row_index, row) in rows.iter().enumerate() {
        let rank = pitch.ranks - row_index as i8;
        let mut file: i32 = 1;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                let mut run = digit as i32;
                while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run * 10 + next as i32;
                    chars.next();
                    // Checked per digit so that a long run of digits is refused before it can
                    // overflow.
                    if run > i32::from(pitch.files) {
                        return Err(bad(format!(
                            "rank {rank} has an empty run of more than {} cells",
                            pitch.files
                        )));
                    }
                }
                if run == 0 {
                    return Err(bad(format!("rank {rank} has an empty run of 0 cells")));
                }
                file += run;
                continue;
            }
            if file > i32::from(pitch.files) {
                return Err(bad(format!(
                    "rank {rank} has more than {} cells",
                    pitch.files
                )));
            }
            let square = Square::new(file as i8, rank);
            match c {
                'o' if ball.is_some() => {
                    return Err(bad(format!("a second ball on {square}")));
                }
                'o' => ball = Some(square),
                'M' | 'K' | 'm' | 'k' => pieces.push(Piece {
                    owner: if c.is_ascii_uppercase() { HOME } else { AWAY },
                    keeper: c.eq_ignore_ascii_case(&'k'),
                    square,
                }),
                other => return Err(bad(format!("unknown symbol `{other}` on rank {rank}"))),
            }
            file += 1;
        }
        if file != i32::from(pitch.files) + 1 {
            return Err(bad(format!(
                "rank {rank} describes {} cells instead of {}",
                file - 1,
                pitch.files
            )));
        }
    }
    let ball = ball.ok_or_else(|| bad("there is no ball (`o`)".to_owned()))?;
    Ok((pieces, ball))
}

pub(super) fn format_board(pitch: Pitch, symbol_at: impl Fn(Square) -> Option<char>) -> String {
    let mut rows = Vec::with_capacity(pitch.ranks as usize);
    for rank in (1..=pitch.ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 1..=pitch.files {
            match symbol_at(Square::new(file, rank)) {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}
