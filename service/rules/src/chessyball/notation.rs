//! Action and position notation.
//!
//! Actions: `e9-g9` (a move), `ball@c6` (placing the ball), `end`, `shoot`.
//! Positions: ranks from the top down separated by `/`, files from `a` on; `M`/`K` a home
//! member/keeper, `m`/`k` an away member/keeper, `o` the ball, a number counts empty cells.
//! A second field `h` or `a` names the side to move. [`format_position`] adds the actions left
//! in the turn, the score and the turn number, which a start position does not take.

use crate::game::{Game, RuleError, Seat};
use crate::geometry::Square;

use super::pitch::Pitch;
use super::{AWAY, Action, Chessyball, HOME, Phase, Piece};

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

/// A start position read from notation.
pub(super) struct StartPosition {
    /// In reading order (top rank first, then file by file): the pieces' ids.
    pub pieces: Vec<Piece>,
    pub ball: Square,
    pub to_move: Option<Seat>,
}

pub(super) fn parse_position(pitch: Pitch, text: &str) -> Result<StartPosition, RuleError> {
    let bad = |why: String| {
        RuleError::invalid_position(format!(
            "{why}; a position is {} ranks from the top separated by '/', each {} cells of \
             M/K (home member/keeper), m/k (away), o (the ball) or a count of empty cells, \
             then optionally `h` or `a` for the side to move",
            pitch.ranks, pitch.files
        ))
    };
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, to_move) = match fields.as_slice() {
        [board] => (*board, None),
        [board, "h"] => (*board, Some(HOME)),
        [board, "a"] => (*board, Some(AWAY)),
        [_, side] => return Err(bad(format!("the side to move `{side}` is not `h` or `a`"))),
        _ => return Err(bad(format!("expected 1 or 2 fields, got {}", fields.len()))),
    };
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
    if !pitch.is_inner(ball) {
        return Err(RuleError::invalid_position(format!(
            "the ball on {ball} is outside the inner rectangle b2-{}; it must start inside it",
            Square::new(pitch.files - 1, pitch.ranks - 1)
        )));
    }
    Ok(StartPosition {
        pieces,
        ball,
        to_move,
    })
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

pub(super) fn format_position(game: &Chessyball) -> String {
    let board = format_board(game.pitch, |sq| {
        if sq == game.ball {
            Some('o')
        } else {
            game.occupant(sq).map(|id| piece_symbol(&game.pieces[id]))
        }
    });
    let side = match (game.phase, game.to_move) {
        (Phase::Over, _) => "-",
        (_, HOME) => "h",
        _ => "a",
    };
    let actions_left = game
        .turn()
        .actions_left
        .map_or("-".to_owned(), |n| n.to_string());
    format!(
        "{board} {side} {actions_left} {}-{} {}",
        game.score[0], game.score[1], game.turn_number
    )
}
