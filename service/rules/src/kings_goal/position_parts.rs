//! The two optional parts of the position notation, after its eight fields.
//!
//! - picks, `<white>/<black>`: the extra pieces each side picked in this restart, in the order
//!   picked, `-` for none. In the choice phase they repeat the hands; in placement they are the
//!   side's pieces beyond K, P, P, on the board and in hand; in play a side's picks may be `-`
//!   (not known, as for a custom start that did not give them).
//! - piece ids, `<id>,<id>,...:<next id>`: the id of every piece in the order the ranks list
//!   them (`-` for an empty board), then the id the next piece placed will get.
//!
//! Without them a position reads as a start: the picks are derived from the pieces (none in
//! play, where captures and promotions hide them) and ids 1, 2, ... are handed out as the reader
//! puts the pieces down. The writer adds them only when the eight fields alone would read back
//! as another state, so starts keep their short form, and leaves them off once the match is over.

use std::cmp::Reverse;

use super::position::{hand_text, invalid, parse_count, parse_hand};
use super::setup::{COMPULSORY, complete_picks};
use super::{BLACK, KingsGoal, Phase, Piece, PieceKind, WHITE, seat_name};
use crate::game::{RuleError, Seat};

impl KingsGoal {
    pub(super) fn to_position(&self) -> String {
        let eight = self.eight_fields();
        // A finished match is nothing to play from (and no start to read): its eight fields say
        // all that is left to show.
        if self.phase == Phase::Over {
            return eight;
        }
        let picks = self.picks_text();
        // The shortest form that reads back as this very state.
        if let Ok(mut read) = Self::from_position(&eight, self.moves_per_half) {
            if read == *self {
                return eight;
            }
            read.chosen = self.chosen.clone();
            if read == *self {
                return format!("{eight} {picks}");
            }
        }
        format!("{eight} {picks} {}", self.ids_text())
    }

    fn picks_text(&self) -> String {
        format!(
            "{}/{}",
            hand_text(&self.chosen[0]),
            hand_text(&self.chosen[1])
        )
    }

    fn ids_text(&self) -> String {
        let ids: Vec<String> = self
            .in_rank_order()
            .iter()
            .map(|p| p.id.to_string())
            .collect();
        let list = if ids.is_empty() {
            "-".to_owned()
        } else {
            ids.join(",")
        };
        format!("{list}:{}", self.next_id)
    }

    /// The pieces in the order the ranks of the notation list them: rank 8 first, file a first.
    pub(super) fn in_rank_order(&self) -> Vec<&Piece> {
        let mut pieces: Vec<&Piece> = self.pieces.iter().collect();
        pieces.sort_by_key(|p| (Reverse(p.square.rank), p.square.file));
        pieces
    }

    /// Reads the picks over what the eight fields gave, which they must agree with.
    pub(super) fn read_picks(&mut self, text: &str) -> Result<(), RuleError> {
        let (white, black) = text
            .split_once('/')
            .ok_or_else(|| invalid(format!("the picks are `<white>/<black>`, got `{text}`")))?;
        let in_picks = |e: RuleError| invalid(format!("the picks `{text}`: {}", e.message));
        let picks = [
            parse_hand(white).map_err(in_picks)?,
            parse_hand(black).map_err(in_picks)?,
        ];
        for seat in [WHITE, BLACK] {
            let given = &picks[seat.index()];
            let derived = &self.chosen[seat.index()];
            match self.phase {
                Phase::Choice if given != derived => {
                    return Err(invalid(format!(
                        "in the choice phase the picks repeat the hands: {} has picked `{}`, \
                         the picks say `{}`",
                        seat_name(seat),
                        hand_text(derived),
                        hand_text(given)
                    )));
                }
                Phase::Placement if !same_kinds(given, derived) => {
                    return Err(invalid(format!(
                        "{}'s picks are its pieces beyond K, P, P on the board and in hand, \
                         `{}` in the order picked, not `{}`",
                        seat_name(seat),
                        hand_text(derived),
                        hand_text(given)
                    )));
                }
                Phase::Play if !given.is_empty() => self.check_play_picks(seat, given)?,
                _ => {}
            }
        }
        self.chosen = picks;
        Ok(())
    }

    fn check_play_picks(&self, seat: Seat, picks: &[PieceKind]) -> Result<(), RuleError> {
        let kicks_off = seat == self.kicking;
        if !complete_picks(picks, kicks_off) {
            return Err(invalid(format!(
                "{}'s picks `{}` are not three picks from Q, 2R, 2B, 2N, 6P{}",
                seat_name(seat),
                hand_text(picks),
                if kicks_off {
                    " including a queen, rook, bishop or knight (it kicked off)"
                } else {
                    ""
                }
            )));
        }
        if !self.pieces_fit_picks(seat, picks) {
            return Err(invalid(format!(
                "{}'s pieces on the board cannot be what is left of K, P, P and its picks `{}`, \
                 even with pawns promoted",
                seat_name(seat),
                hand_text(picks)
            )));
        }
        Ok(())
    }

    /// Whether the pieces `seat` has on the board can be what is left of its set of K, P, P and
    /// `picks` after captures, a pawn of the set standing in for a piece it promoted to.
    fn pieces_fit_picks(&self, seat: Seat, picks: &[PieceKind]) -> bool {
        let mut set: Vec<PieceKind> = COMPULSORY.iter().chain(picks).copied().collect();
        let mut on_board: Vec<PieceKind> = self
            .pieces
            .iter()
            .filter(|p| p.owner == seat)
            .map(|p| p.kind)
            .collect();
        // Pawns on the board can only be pawns of the set; they take theirs first.
        on_board.sort_by_key(|k| *k != PieceKind::Pawn);
        on_board.into_iter().all(|kind| {
            let same = set.iter().position(|k| *k == kind);
            let promoted = || {
                (kind != PieceKind::King)
                    .then(|| set.iter().position(|k| *k == PieceKind::Pawn))
                    .flatten()
            };
            match same.or_else(promoted) {
                Some(at) => {
                    set.remove(at);
                    true
                }
                None => false,
            }
        })
    }

    /// Reads the piece ids over the ones the reader handed out.
    pub(super) fn read_ids(&mut self, text: &str) -> Result<(), RuleError> {
        let (list, next) = text.split_once(':').ok_or_else(|| {
            invalid(format!(
                "the piece ids are `<id>,<id>,...:<next id>` (`-:<next id>` for an empty \
                 board), got `{text}`"
            ))
        })?;
        let ids: Vec<u32> = if list == "-" {
            Vec::new()
        } else {
            list.split(',')
                .map(|id| parse_count(id, "a piece id"))
                .collect::<Result<_, _>>()?
        };
        let next = parse_count(next, "the next piece id")?;
        if ids.len() != self.pieces.len() {
            return Err(invalid(format!(
                "the piece ids `{list}` name {} pieces but the board has {}",
                ids.len(),
                self.pieces.len()
            )));
        }
        if ids.contains(&0) {
            return Err(invalid(format!("the piece ids `{list}`: ids start at 1")));
        }
        let mut distinct = ids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() != ids.len() {
            return Err(invalid(format!(
                "the piece ids `{list}` give two pieces one id"
            )));
        }
        let highest = distinct.last().copied().unwrap_or(0);
        if next <= highest {
            return Err(invalid(format!(
                "the next piece id is {next} but must be above {highest}: ids are never reused"
            )));
        }
        let ball_square = self.holder().map(|h| h.square);
        let squares: Vec<_> = self.in_rank_order().iter().map(|p| p.square).collect();
        for (square, id) in squares.into_iter().zip(ids) {
            if let Some(piece) = self.pieces.iter_mut().find(|p| p.square == square) {
                piece.id = id;
            }
        }
        // The engine keeps its pieces in the order their ids were handed out.
        self.pieces.sort_by_key(|p| p.id);
        self.ball = ball_square.and_then(|s| self.piece_at(s)).map(|p| p.id);
        self.next_id = next;
        Ok(())
    }
}

/// Whether two lists hold the same kinds, in any order.
fn same_kinds(a: &[PieceKind], b: &[PieceKind]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a == b
}
