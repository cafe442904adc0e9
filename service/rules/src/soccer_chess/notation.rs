//! Action notation: the page's own (`Qexi9`, `Bi7`), plus `K@f1`, `default` and `end`.

use super::pitch::{self, goal_defended_by, on_board};
use super::refusal::Breach;
use super::rules::{MOVE_PATTERN, NAME_ONE_PIECE, ONCE_PER_SET, OWN_PIECE};
use super::{Action, Phase, PieceKind, SoccerChess};
use crate::game::{RuleError, Seat};
use crate::geometry::Square;
use crate::rivals::{Rivals, push_origin_hint};

const END_SET: &str = "end";
const DEFAULT_FORMATION: &str = "default";

/// The canonical notation of an action of `seat` in the current state.
pub(super) fn format(game: &SoccerChess, seat: Seat, action: &Action) -> String {
    write(game, action, &|text, action, id, kind, from| {
        let rivals = game
            .movable_pieces(seat)
            .filter(|other| *other != id && game.pieces[*other as usize].kind == kind)
            .filter_map(|other| {
                let square = game.pieces[other as usize].square?;
                game.piece_actions(other)
                    .contains(&relocated(action, square))
                    .then_some(square)
            });
        push_origin_hint(text, rivals, from);
    })
}

/// The canonical notations of many actions of `seat`, as [`format`] gives them one by one.
/// Disambiguation asks which other pieces of the mover's kind could make the same move or kick;
/// every movable piece's moves and kicks are generated once here for the whole list, chained by
/// destination, instead of the rivals' moves again for every action.
pub(super) fn format_all(game: &SoccerChess, seat: Seat, actions: &[Action]) -> Vec<String> {
    let pieces_act = actions
        .iter()
        .any(|a| matches!(a, Action::Move { .. } | Action::Kick { .. }));
    let rivals = pieces_act.then(|| {
        // Kicks may end on the crossbar cells just off the board, ranks 0 and 18.
        let mut rivals = Rivals::new(pitch::FILES, 0, pitch::RANKS + 1, 2);
        for id in game.movable_pieces(seat) {
            let kind = game.pieces[id as usize].kind;
            for action in game.piece_actions(id) {
                match action {
                    Action::Move { from, to } => rivals.add(MOVE, to, kind, from),
                    Action::Kick { from, target } => rivals.add(KICK, target, kind, from),
                    _ => {}
                }
            }
        }
        rivals
    });
    actions
        .iter()
        .map(|action| {
            write(game, action, &|text, action, _id, kind, from| {
                let Some(rivals) = &rivals else { return };
                let (class, destination) = match *action {
                    Action::Move { to, .. } => (MOVE, to),
                    Action::Kick { target, .. } => (KICK, target),
                    _ => return,
                };
                push_origin_hint(text, rivals.of(class, destination, kind, from), from);
            })
        })
        .collect()
}

/// The classes of piece action in a [`Rivals`] table.
const MOVE: usize = 0;
const KICK: usize = 1;

/// Appends the origin hint of a move or kick (`action`) of piece `id`, of `kind`, from `from`.
type OriginHint<'a> = dyn Fn(&mut String, &Action, u32, PieceKind, Square) + 'a;

/// Writes `action`; `hint` names the mover's file, rank or both when another piece of the same
/// kind could make the same move or kick now (as chess SAN does).
fn write(game: &SoccerChess, action: &Action, hint: &OriginHint<'_>) -> String {
    let mut text = String::with_capacity(8);
    match *action {
        Action::Place { kind, square } => {
            text.push(kind.symbol());
            text.push('@');
            square.push_name(&mut text);
        }
        Action::DefaultFormation => text.push_str(DEFAULT_FORMATION),
        Action::EndSet => text.push_str(END_SET),
        Action::Move { from, to } | Action::Kick { from, target: to } => {
            let separator = if matches!(action, Action::Kick { .. }) {
                "x"
            } else {
                ""
            };
            match game.piece_at(from) {
                None => from.push_name(&mut text),
                Some(id) => {
                    let kind = game.pieces[id as usize].kind;
                    text.push(kind.symbol());
                    hint(&mut text, action, id, kind, from);
                }
            }
            text.push_str(separator);
            to.push_name(&mut text);
        }
    }
    text
}

/// The same move or kick made by a piece standing on `from` instead.
fn relocated(action: &Action, from: Square) -> Action {
    match *action {
        Action::Move { to, .. } => Action::Move { from, to },
        Action::Kick { target, .. } => Action::Kick { from, target },
        ref other => other.clone(),
    }
}

/// Which of a kind's pieces a notation names: by file, rank, square, or any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Any,
    File(i8),
    Rank(i8),
    Square(Square),
}

/// Where the named piece stands, as a refusal says it: "on file e".
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Origin::Any => write!(f, "on the board"),
            Origin::File(file) => write!(f, "on file {}", (b'a' + file as u8 - 1) as char),
            Origin::Rank(rank) => write!(f, "on rank {rank}"),
            Origin::Square(square) => write!(f, "on {square}"),
        }
    }
}

impl Origin {
    fn matches(self, square: Square) -> bool {
        match self {
            Origin::Any => true,
            Origin::File(file) => square.file == file,
            Origin::Rank(rank) => square.rank == rank,
            Origin::Square(origin) => square == origin,
        }
    }
}

/// Reads one action of `seat`; only legal actions come back.
pub(super) fn parse(game: &SoccerChess, seat: Seat, text: &str) -> Result<Action, RuleError> {
    if game.phase == Phase::Over {
        return Err(RuleError::game_over());
    }
    if seat != game.to_move {
        return Err(RuleError::not_your_turn(format!(
            "it is {}'s turn",
            super::seat_name(game.to_move)
        )));
    }
    let text = text.trim();
    let chosen = |action: Action| match game.refusal(seat, &action) {
        Some(refusal) => Err(refusal),
        None => Ok(action),
    };
    if text.eq_ignore_ascii_case(END_SET) {
        return chosen(Action::EndSet);
    }
    if text.eq_ignore_ascii_case(DEFAULT_FORMATION) {
        return chosen(Action::DefaultFormation);
    }
    let mut chars = text.chars();
    let kind = chars
        .next()
        .and_then(PieceKind::from_symbol)
        .ok_or_else(|| {
            RuleError::malformed(format!(
                "`{text}` is not an action: write a piece letter (K, N, R, B, Q) with a square \
                 (`Bi7`, `Qexi9`, `K@f1`), `{DEFAULT_FORMATION}` or `{END_SET}`"
            ))
        })?;
    let rest = chars.as_str();
    if let Some(square_text) = rest.strip_prefix('@') {
        let square = board_square(square_text, text)?;
        return chosen(Action::Place { kind, square });
    }
    let (origin_text, kick, destination_text) = split_piece_action(rest, text)?;
    let origin = parse_origin(origin_text, text)?;
    let destination = Square::parse(destination_text)
        .filter(|sq| on_board(*sq) || (kick && goal_defended_by(*sq).is_some()))
        .ok_or_else(|| {
            RuleError::malformed(format!(
                "`{destination_text}` in `{text}` is not a square of the board (a1-k17{})",
                if kick {
                    ", or a crossbar cell e0-g0, e18-g18"
                } else {
                    ""
                }
            ))
        })?;
    if game.phase == Phase::Setup {
        return Err(game.setup_phase_refusal(seat));
    }
    let candidates: Vec<u32> = game
        .movable_pieces(seat)
        .filter(|id| game.pieces[*id as usize].kind == kind)
        .collect();
    let matching: Vec<Action> = candidates
        .iter()
        .filter(|id| {
            game.pieces[**id as usize]
                .square
                .is_some_and(|sq| origin.matches(sq))
        })
        .flat_map(|id| game.piece_actions(*id))
        .filter(|action| match *action {
            Action::Move { to, .. } => !kick && to == destination,
            Action::Kick { target, .. } => kick && target == destination,
            _ => false,
        })
        .collect();
    match matching.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(unmatched(game, seat, kind, origin, kick, destination, text)),
        several => {
            let options: Vec<String> = several
                .iter()
                .map(|action| format(game, seat, action))
                .collect();
            Err(RuleError::breaks(
                NAME_ONE_PIECE,
                format!("`{text}` could be {}", options.join(" or ")),
            ))
        }
    }
}

/// The refusal of a move or kick that no piece of `kind` named by `origin` may make: the rule
/// the likeliest meant piece breaks, and what pieces of the kind may do instead.
fn unmatched(
    game: &SoccerChess,
    seat: Seat,
    kind: PieceKind,
    origin: Origin,
    kick: bool,
    destination: Square,
    text: &str,
) -> RuleError {
    let named: Vec<(u32, Square)> = SoccerChess::team_ids(seat)
        .filter(|id| game.pieces[*id as usize].kind == kind)
        .filter_map(|id| Some((id, game.pieces[id as usize].square?)))
        .filter(|(_, square)| origin.matches(*square))
        .collect();
    let unmoved: Vec<(u32, Square)> = named
        .iter()
        .copied()
        .filter(|(id, _)| !game.moved.contains(id))
        .collect();
    let (rule, why) = if named.is_empty() {
        (OWN_PIECE, format!("you have no {} {origin}", kind.name()))
    } else if unmoved.is_empty() {
        let squares: Vec<String> = named.iter().map(|(_, sq)| sq.to_string()).collect();
        (
            ONCE_PER_SET,
            format!(
                "your {} on {} already moved in this set",
                kind.name(),
                squares.join(" and ")
            ),
        )
    } else {
        let breaches: Vec<(Square, Breach)> = unmoved
            .iter()
            .map(|&(id, from)| {
                let action = if kick {
                    Action::Kick {
                        from,
                        target: destination,
                    }
                } else {
                    Action::Move {
                        from,
                        to: destination,
                    }
                };
                (from, game.breach(id, &action))
            })
            .collect();
        // A piece whose pattern fits the move is the likelier one meant, so its reason is the
        // rule to name.
        let (_, (rule, _)) = breaches
            .iter()
            .find(|(_, (rule, _))| *rule != MOVE_PATTERN)
            .unwrap_or(&breaches[0]);
        let reasons: Vec<String> = breaches
            .iter()
            .map(|(from, (_, why))| format!("the {} on {from}: {why}", kind.name()))
            .collect();
        (*rule, reasons.join("; "))
    };
    let legal = game.listed(
        seat,
        game.movable_pieces(seat)
            .filter(|id| game.pieces[*id as usize].kind == kind),
    );
    RuleError::breaks(
        rule,
        format!("`{text}`: {why}; legal for your {}s: {legal}", kind.name()),
    )
}

fn board_square(square_text: &str, text: &str) -> Result<Square, RuleError> {
    Square::parse(square_text)
        .filter(|sq| on_board(*sq))
        .ok_or_else(|| {
            RuleError::malformed(format!(
                "`{square_text}` in `{text}` is not a square of the board (a1-k17)"
            ))
        })
}

/// Splits what follows the piece letter into origin, whether it kicks, and the destination.
fn split_piece_action<'a>(
    rest: &'a str,
    text: &str,
) -> Result<(&'a str, bool, &'a str), RuleError> {
    if let Some((origin, destination)) = rest.split_once('x') {
        return Ok((origin, true, destination));
    }
    let start = rest
        .char_indices()
        .filter(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .next_back()
        .ok_or_else(|| RuleError::malformed(format!("`{text}` names no destination square")))?;
    let origin = &rest[..start];
    // `Qe8-i7` is a common long form of `Qi7`.
    let origin = origin.strip_suffix('-').unwrap_or(origin);
    Ok((origin, false, &rest[start..]))
}

fn parse_origin(origin: &str, text: &str) -> Result<Origin, RuleError> {
    let malformed = || {
        RuleError::malformed(format!(
            "`{origin}` in `{text}` does not name a piece: use its file (`e`), rank (`8`) or \
             square (`e8`)"
        ))
    };
    if origin.is_empty() {
        return Ok(Origin::Any);
    }
    let first = origin.chars().next().ok_or_else(malformed)?;
    if first.is_ascii_digit() {
        let rank: i8 = origin
            .parse()
            .ok()
            .filter(|r| (1..=super::pitch::RANKS).contains(r) && !origin.starts_with('0'))
            .ok_or_else(malformed)?;
        return Ok(Origin::Rank(rank));
    }
    if origin.len() == 1 {
        let file = Square::parse(&format!("{origin}1"))
            .filter(|sq| on_board(*sq))
            .ok_or_else(malformed)?
            .file;
        return Ok(Origin::File(file));
    }
    Square::parse(origin)
        .filter(|sq| on_board(*sq))
        .map(Origin::Square)
        .ok_or_else(malformed)
}
