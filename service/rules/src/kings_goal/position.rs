//! Position notation, for custom starts and for showing a whole state in one line.
//!
//! Eight space-separated fields:
//! `<ranks> <phase> <to act> <ball> <half>:<plies> <white goals>-<black goals> <kicking> <hands>`
//!
//! - ranks: rank 8 down to rank 1, separated by `/`, as in chess FEN (upper case white, lower
//!   case black, digits count empty squares);
//! - phase: `choice`, `placement`, `play` or `over`; to act: `w`, `b` (`-` when over);
//! - ball: the square of the piece holding it, `-` outside play;
//! - half and the moves already played in it, both sides together;
//! - kicking: the side kicking off this restart, `w` or `b`, with `*` while the kick-off pass
//!   is still to come;
//! - hands: `<white>/<black>`, in the choice phase the picks made so far, in placement the
//!   pieces still to place, `-` for none.
//!
//! Two optional parts may follow (see `position_parts`): the picks of this restart and the piece
//! ids. Without them a position reads as a start: picks derived from the pieces, ids handed out
//! afresh. The writer adds them only when the eight fields alone would read as another state.
//!
//! The start of a match is `8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w -/-`.

use super::setup::{PICKS, choosable, complete_picks};
use super::{
    BLACK, KingsGoal, Phase, PieceKind, WHITE, in_half, is_goal_of, kickoff_square, seat_name,
};
use crate::game::{RuleError, Seat};
use crate::geometry::Square;

fn side_letter(seat: Seat) -> char {
    if seat == WHITE { 'w' } else { 'b' }
}

pub(super) fn hand_text(kinds: &[PieceKind]) -> String {
    if kinds.is_empty() {
        "-".to_owned()
    } else {
        kinds.iter().map(|k| k.letter()).collect()
    }
}

pub(super) fn invalid(message: impl Into<String>) -> RuleError {
    RuleError::invalid_position(message)
}

fn parse_side(text: &str, field: &str) -> Result<Seat, RuleError> {
    match text {
        "w" => Ok(WHITE),
        "b" => Ok(BLACK),
        _ => Err(invalid(format!("{field} must be `w` or `b`, got `{text}`"))),
    }
}

pub(super) fn parse_hand(text: &str) -> Result<Vec<PieceKind>, RuleError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.chars()
        .map(|c| {
            PieceKind::from_letter(c)
                .filter(|_| c.is_ascii_uppercase())
                .ok_or_else(|| invalid(format!("`{c}` in a hand is not a piece letter (KQRBNP)")))
        })
        .collect()
}

pub(super) fn parse_count(text: &str, what: &str) -> Result<u32, RuleError> {
    text.parse()
        .map_err(|_| invalid(format!("{what} must be a number, got `{text}`")))
}

impl KingsGoal {
    /// The eight fields, without the optional picks and piece ids.
    pub(super) fn eight_fields(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (1..=8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 1..=8 {
                match self.piece_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let letter = piece.kind.letter();
                        row.push(if piece.owner == WHITE {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            ranks.push(row);
        }
        let to_act = if self.phase == Phase::Over {
            "-".to_owned()
        } else {
            side_letter(self.to_act).to_string()
        };
        let ball = self
            .holder()
            .map_or_else(|| "-".to_owned(), |h| h.square.to_string());
        let hands = match self.phase {
            Phase::Choice => &self.chosen,
            _ => &self.unplaced,
        };
        format!(
            "{} {} {to_act} {ball} {}:{} {}-{} {}{} {}/{}",
            ranks.join("/"),
            self.phase.name(),
            self.half,
            self.plies,
            self.scores[0],
            self.scores[1],
            side_letter(self.kicking),
            if self.kickoff_pending { "*" } else { "" },
            hand_text(&hands[0]),
            hand_text(&hands[1]),
        )
    }

    pub(super) fn from_position(text: &str, moves_per_half: u32) -> Result<Self, RuleError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (eight, optional) = fields.split_at(fields.len().min(8));
        let [ranks, phase, to_act, ball, clock, score, kicking, hands] = eight[..] else {
            return Err(Self::field_count_error(fields.len()));
        };
        if optional.len() > 2 {
            return Err(Self::field_count_error(fields.len()));
        }
        let mut game = Self::fresh(moves_per_half);
        game.read_ranks(ranks)?;
        game.phase = match phase {
            "choice" => Phase::Choice,
            "placement" => Phase::Placement,
            "play" => Phase::Play,
            _ => {
                return Err(invalid(format!(
                    "phase must be choice, placement or play (a custom start is a position \
                     still to be played), got `{phase}`"
                )));
            }
        };
        game.to_act = parse_side(to_act, "the side to act")?;
        let (half, plies) = clock
            .split_once(':')
            .ok_or_else(|| invalid(format!("the clock is `<half>:<plies>`, got `{clock}`")))?;
        game.half = match half {
            "1" => 1,
            "2" => 2,
            _ => return Err(invalid(format!("the half must be 1 or 2, got `{half}`"))),
        };
        game.plies = parse_count(plies, "the plies played")?;
        if game.plies >= game.plies_per_half() {
            return Err(invalid(format!(
                "{} moves were played but a half has only {} (both sides together)",
                game.plies,
                game.plies_per_half()
            )));
        }
        let (white, black) = score
            .split_once('-')
            .ok_or_else(|| invalid(format!("the score is `<white>-<black>`, got `{score}`")))?;
        game.scores = [
            parse_count(white, "white's goals")?,
            parse_count(black, "black's goals")?,
        ];
        let (kicker, pending) = match kicking.strip_suffix('*') {
            Some(side) => (side, true),
            None => (kicking, false),
        };
        game.kicking = parse_side(kicker, "the kicking side")?;
        game.kickoff_pending = pending;
        let (white, black) = hands
            .split_once('/')
            .ok_or_else(|| invalid(format!("hands are `<white>/<black>`, got `{hands}`")))?;
        let hands = [parse_hand(white)?, parse_hand(black)?];
        match game.phase {
            Phase::Choice => game.check_choice(hands, ball)?,
            Phase::Placement => game.check_placement(hands, ball)?,
            _ => game.check_play(hands, ball)?,
        }
        if let Some(picks) = optional.first() {
            game.read_picks(picks)?;
        }
        if let Some(ids) = optional.get(1) {
            game.read_ids(ids)?;
        }
        Ok(game)
    }

    fn field_count_error(count: usize) -> RuleError {
        invalid(format!(
            "a position has 8 fields (ranks phase to-act ball half:plies score kicking hands), \
             optionally followed by the picks and the piece ids, got {count}; the start is \
             `8/8/8/8/8/8/8/8 choice w - 1:0 0-0 w -/-`"
        ))
    }

    fn read_ranks(&mut self, ranks: &str) -> Result<(), RuleError> {
        let rows: Vec<&str> = ranks.split('/').collect();
        if rows.len() != 8 {
            return Err(invalid(format!(
                "the board needs 8 ranks separated by `/`, got {}",
                rows.len()
            )));
        }
        for (row, text) in rows.iter().enumerate() {
            let rank = 8 - row as i8;
            let mut file = 1;
            for c in text.chars() {
                if let Some(run) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += run as i8;
                } else {
                    let kind = PieceKind::from_letter(c)
                        .ok_or_else(|| invalid(format!("`{c}` on rank {rank} is not a piece")))?;
                    if file > 8 {
                        return Err(invalid(format!("rank {rank} has more than 8 squares")));
                    }
                    let owner = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                    self.put_piece(owner, kind, Square::new(file, rank));
                    file += 1;
                }
            }
            if file != 9 {
                return Err(invalid(format!(
                    "rank {rank} (`{text}`) covers {} squares, not 8",
                    file - 1
                )));
            }
        }
        Ok(())
    }

    fn check_choice(&mut self, hands: [Vec<PieceKind>; 2], ball: &str) -> Result<(), RuleError> {
        if !self.pieces.is_empty() || ball != "-" || self.kickoff_pending {
            return Err(invalid(
                "in the choice phase the board is empty, the ball `-` and no kick-off pending",
            ));
        }
        for (seat, hand) in [WHITE, BLACK].into_iter().zip(&hands) {
            let mut picked = Vec::new();
            for &kind in hand {
                if !choosable(&picked, kind, seat == self.kicking) {
                    return Err(invalid(format!(
                        "{} cannot have picked {}: at most 3 picks among Q, 2R, 2B, 2N, 6P, \
                         the kicking side's including a piece able to kick off",
                        seat_name(seat),
                        hand_text(hand)
                    )));
                }
                picked.push(kind);
            }
        }
        let kicking_done = hands[self.kicking.index()].len() == PICKS;
        let expected = if kicking_done {
            self.kicking.opponent()
        } else {
            self.kicking
        };
        let other = self.kicking.opponent();
        if (kicking_done && hands[other.index()].len() == PICKS) || self.to_act != expected {
            return Err(invalid(format!(
                "the kicking side picks all three first, then the other side; with these picks \
                 {} would be to act",
                if kicking_done && hands[other.index()].len() == PICKS {
                    "nobody (placement)".to_owned()
                } else {
                    seat_name(expected).to_owned()
                }
            )));
        }
        if !hands[other.index()].is_empty() && !kicking_done {
            return Err(invalid(
                "the side not kicking off picks only after the kicking side's three picks",
            ));
        }
        self.chosen = hands;
        Ok(())
    }

    fn check_placement(&mut self, hands: [Vec<PieceKind>; 2], ball: &str) -> Result<(), RuleError> {
        if ball != "-" || self.kickoff_pending {
            return Err(invalid(
                "in the placement phase the ball is `-` and no kick-off is pending",
            ));
        }
        let on_board = |seat: Seat| -> Vec<(PieceKind, Square)> {
            self.pieces
                .iter()
                .filter(|p| p.owner == seat)
                .map(|p| (p.kind, p.square))
                .collect()
        };
        let placed = [on_board(WHITE), on_board(BLACK)];
        for seat in [WHITE, BLACK] {
            let mut all: Vec<PieceKind> = placed[seat.index()].iter().map(|(k, _)| *k).collect();
            all.extend(hands[seat.index()].iter().copied());
            let mut picks = Vec::new();
            let mut compulsory = vec![PieceKind::King, PieceKind::Pawn, PieceKind::Pawn];
            for kind in all {
                if let Some(at) = compulsory.iter().position(|k| *k == kind) {
                    compulsory.remove(at);
                } else {
                    picks.push(kind);
                }
            }
            if !compulsory.is_empty() || !complete_picks(&picks, seat == self.kicking) {
                return Err(invalid(format!(
                    "{}'s pieces on the board and in hand must be K, P, P and three picks{}",
                    seat_name(seat),
                    if seat == self.kicking {
                        " including a queen, rook, bishop or knight"
                    } else {
                        ""
                    }
                )));
            }
            // The picks are what is left after the compulsory pieces; the choice order is lost.
            self.chosen[seat.index()] = picks;
        }
        self.unplaced = [Vec::new(), Vec::new()];
        self.pieces.clear();
        let mut order: Vec<Vec<(PieceKind, Square)>> = placed.to_vec();
        for (seat, list) in [WHITE, BLACK].into_iter().zip(order.iter_mut()) {
            // The kicking side's kick-off piece was necessarily its first placement.
            if seat == self.kicking {
                list.sort_by_key(|(_, s)| *s != kickoff_square(seat));
            }
            self.unplaced[seat.index()] = list.iter().map(|(k, _)| *k).collect();
            self.unplaced[seat.index()].extend(hands[seat.index()].iter().copied());
        }
        self.next_id = 1;
        // Pieces are put back in an order their placement could have taken, so ids follow it.
        for (seat, list) in [WHITE, BLACK].into_iter().zip(&order) {
            for &(kind, square) in list {
                if let Err(refusal) = self.placement_check(seat, kind, square) {
                    return Err(invalid(format!(
                        "{} {}@{square} is not a legal placement: {}",
                        seat_name(seat),
                        kind.letter(),
                        refusal.message
                    )));
                }
                self.place_unchecked(seat, kind, square);
            }
        }
        for seat in [WHITE, BLACK] {
            if !self.completion_feasible(seat) {
                return Err(invalid(format!(
                    "{} cannot complete its placement legally from here",
                    seat_name(seat)
                )));
            }
        }
        let counts = [placed[0].len(), placed[1].len()];
        let k = self.kicking.index();
        let both_placing = !self.unplaced[0].is_empty() && !self.unplaced[1].is_empty();
        if both_placing && !(counts[k] == counts[1 - k] || counts[k] == counts[1 - k] + 1) {
            return Err(invalid(format!(
                "the sides place alternately, the kicking side first: {} placed {} pieces and \
                 {} {}",
                seat_name(self.kicking),
                counts[k],
                seat_name(self.kicking.opponent()),
                counts[1 - k]
            )));
        }
        let expected = if self.unplaced[0].is_empty() && self.unplaced[1].is_empty() {
            return Err(invalid(
                "every piece is placed: write the position in the play phase",
            ));
        } else if self.unplaced[1 - k].is_empty() {
            self.kicking
        } else if self.unplaced[k].is_empty() || counts[k] > counts[1 - k] {
            self.kicking.opponent()
        } else {
            self.kicking
        };
        if self.to_act != expected {
            return Err(invalid(format!(
                "the sides place alternately, the kicking side first; {} is to act here",
                seat_name(expected)
            )));
        }
        Ok(())
    }

    fn check_play(&mut self, hands: [Vec<PieceKind>; 2], ball: &str) -> Result<(), RuleError> {
        if hands.iter().any(|h| !h.is_empty()) {
            return Err(invalid("in the play phase both hands are `-`"));
        }
        for seat in [WHITE, BLACK] {
            let kings = self
                .pieces
                .iter()
                .filter(|p| p.owner == seat && p.kind == PieceKind::King)
                .count();
            if kings != 1 {
                return Err(invalid(format!(
                    "{} must have exactly one king, has {kings}",
                    seat_name(seat)
                )));
            }
            // Pieces only ever leave the board, and a side starts a restart with six.
            let count = self.pieces.iter().filter(|p| p.owner == seat).count();
            if count > 6 {
                return Err(invalid(format!(
                    "{} has {count} pieces; a side fields at most 6",
                    seat_name(seat)
                )));
            }
            // Pawns are never placed there and never step back to it.
            if self
                .pieces
                .iter()
                .any(|p| p.owner == seat && p.kind == PieceKind::Pawn && is_goal_of(seat, p.square))
            {
                return Err(invalid(format!(
                    "a {} pawn cannot stand on its own goal squares",
                    seat_name(seat)
                )));
            }
            let last_rank = if seat == WHITE { 8 } else { 1 };
            if self
                .pieces
                .iter()
                .any(|p| p.owner == seat && p.kind == PieceKind::Pawn && p.square.rank == last_rank)
            {
                return Err(invalid(format!(
                    "a {} pawn on its last rank would have promoted",
                    seat_name(seat)
                )));
            }
        }
        if self.kings_only() {
            return Err(invalid(
                "king against king restarts at once: write the choice phase instead",
            ));
        }
        let square = Square::parse(ball).ok_or_else(|| {
            invalid(format!(
                "in play the ball field is the square of its holder, got `{ball}`"
            ))
        })?;
        let holder = self
            .piece_at(square)
            .ok_or_else(|| invalid(format!("the ball is on {square} but no piece stands there")))?;
        let holder_owner = holder.owner;
        self.ball = Some(holder.id);
        if is_goal_of(holder_owner.opponent(), square) {
            return Err(invalid(format!(
                "the ball on {square} is already in {}'s goal",
                seat_name(holder_owner.opponent())
            )));
        }
        if self.kickoff_pending {
            let ko = kickoff_square(self.kicking);
            let ready = square == ko
                && holder_owner == self.kicking
                && self.to_act == self.kicking
                && self.pieces.iter().all(|p| in_half(p.owner, p.square));
            if !ready {
                return Err(invalid(format!(
                    "with the kick-off pending the kicking side is to act, its piece on {ko} \
                     holds the ball and every piece stands in its own half"
                )));
            }
            if !self
                .play_actions(self.kicking)
                .iter()
                .any(|a| matches!(a, super::Action::Pass { .. }))
            {
                return Err(invalid(format!(
                    "the kick-off piece on {ko} has no team-mate to pass to"
                )));
            }
        }
        Ok(())
    }
}
