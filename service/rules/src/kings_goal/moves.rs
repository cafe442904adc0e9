//! The play phase: moves, passes, captures, goals, restarts and the end of halves.

use super::{
    Action, Emitted, Event, GoalKind, KingsGoal, Piece, PieceKind, RestartReason, forward,
    goal_rank, is_goal_of, on_board,
};
use crate::game::Seat;
use crate::geometry::{DIAGONAL, KING_DIRECTIONS, KNIGHT_JUMPS, ORTHOGONAL, Square};

impl KingsGoal {
    /// The squares a piece other than a pawn could go to by its chess movement: for sliders,
    /// each square along a line up to and including the first occupied one.
    pub(super) fn reach(&self, piece: &Piece) -> Vec<Square> {
        let mut squares = Vec::new();
        reach_on(&self.occupancy(), piece, |square| squares.push(square));
        squares
    }

    /// The pieces by square, built once for a whole move generation or list of notations.
    pub(super) fn occupancy(&self) -> Occupancy<'_> {
        let mut occupancy = Occupancy([None; 64]);
        for piece in &self.pieces {
            if let Some(index) = board_index(piece.square) {
                // The first piece on a square wins, as `piece_at` finds it.
                occupancy.0[index].get_or_insert(piece);
            }
        }
        occupancy
    }

    pub(super) fn play_actions(&self, seat: Seat) -> Vec<Action> {
        let holder = self.holder().expect("the ball is held during play").clone();
        let occupancy = self.occupancy();
        let mut actions = Vec::new();
        // Listed by square, so the order does not depend on how the pieces came to be stored.
        let mut own: Vec<&Piece> = self.pieces.iter().filter(|p| p.owner == seat).collect();
        own.sort_by_key(|p| (p.square.rank, p.square.file));
        for piece in own {
            if self.kickoff_pending && piece.id != holder.id {
                continue;
            }
            self.piece_actions(&occupancy, piece, &holder, &mut actions);
        }
        if self.kickoff_pending {
            actions.retain(|a| matches!(a, Action::Pass { .. }));
        }
        if actions.is_empty() {
            actions.push(Action::Wait);
        }
        actions
    }

    fn piece_actions(
        &self,
        occupancy: &Occupancy<'_>,
        piece: &Piece,
        holder: &Piece,
        actions: &mut Vec<Action>,
    ) {
        let carrying = piece.id == holder.id;
        let mut consider = |to: Square, may_move: bool, may_take: bool| match occupancy.at(to) {
            None if may_move => {
                let scores = carrying && is_goal_of(piece.owner.opponent(), to);
                for promotion in self.promotions(piece, to, scores) {
                    actions.push(Action::Move {
                        from: piece.square,
                        to,
                        promotion,
                    });
                }
            }
            Some(other) if may_take && other.id == holder.id && other.owner != piece.owner => {
                let scores = other.kind == PieceKind::King || is_goal_of(other.owner, to);
                for promotion in self.promotions(piece, to, scores) {
                    actions.push(Action::Capture {
                        from: piece.square,
                        to,
                        promotion,
                    });
                }
            }
            Some(other) if may_take && carrying && other.owner == piece.owner => {
                actions.push(Action::Pass {
                    from: piece.square,
                    to,
                });
            }
            _ => {}
        };
        if piece.kind == PieceKind::Pawn {
            let ahead = piece.square.offset(0, forward(piece.owner));
            if on_board(ahead) {
                consider(ahead, true, false);
            }
            for df in [-1, 1] {
                let diagonal = ahead.offset(df, 0);
                if on_board(diagonal) {
                    consider(diagonal, false, true);
                }
            }
        } else {
            reach_on(occupancy, piece, |to| consider(to, true, true));
        }
    }

    /// The promotion choices of a move to `to`: the four kinds when a pawn reaches the last
    /// rank, none when the move scores (the board is cleared anyway).
    fn promotions(&self, piece: &Piece, to: Square, scores: bool) -> Vec<Option<PieceKind>> {
        let last_rank = goal_rank(piece.owner.opponent());
        if piece.kind == PieceKind::Pawn && to.rank == last_rank && !scores {
            PieceKind::PROMOTIONS.into_iter().map(Some).collect()
        } else {
            vec![None]
        }
    }

    fn index_at(&self, square: Square) -> usize {
        self.pieces
            .iter()
            .position(|p| p.square == square)
            .expect("legal actions start from occupied squares")
    }

    fn promote(
        &mut self,
        index: usize,
        promotion: Option<PieceKind>,
        events: &mut Vec<Emitted<Event>>,
    ) {
        if let Some(kind) = promotion {
            let piece = &mut self.pieces[index];
            piece.kind = kind;
            events.push(Emitted::public(Event::Promoted {
                piece: piece.id,
                square: piece.square,
                kind,
            }));
        }
    }

    pub(super) fn apply_play(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Emitted<Event>>,
    ) {
        let mut goal = None;
        match *action {
            Action::Move {
                from,
                to,
                promotion,
            } => {
                let index = self.index_at(from);
                let piece = &mut self.pieces[index];
                piece.square = to;
                let with_ball = self.ball == Some(piece.id);
                events.push(Emitted::public(Event::Moved {
                    piece: piece.id,
                    from,
                    to,
                    with_ball,
                }));
                self.promote(index, promotion, events);
                if with_ball && is_goal_of(seat.opponent(), to) {
                    goal = Some(GoalKind::Carried);
                }
            }
            Action::Capture {
                from,
                to,
                promotion,
            } => {
                let captured = self.pieces.remove(self.index_at(to));
                let index = self.index_at(from);
                let captor = &mut self.pieces[index];
                captor.square = to;
                self.ball = Some(captor.id);
                events.push(Emitted::public(Event::Captured {
                    captor: captor.id,
                    captured: captured.id,
                    captured_kind: captured.kind,
                    from,
                    square: to,
                }));
                self.promote(index, promotion, events);
                if captured.kind == PieceKind::King {
                    goal = Some(GoalKind::KingCaptured);
                } else if is_goal_of(captured.owner, to) {
                    goal = Some(GoalKind::CapturedOnGoalLine);
                }
            }
            Action::Pass { from, to } => {
                let from_piece = self.pieces[self.index_at(from)].id;
                let to_piece = self.pieces[self.index_at(to)].id;
                self.ball = Some(to_piece);
                events.push(Emitted::public(Event::Passed {
                    from_piece,
                    to_piece,
                    from,
                    to,
                }));
                if is_goal_of(seat.opponent(), to) {
                    goal = Some(GoalKind::Passed);
                }
            }
            Action::Wait => events.push(Emitted::public(Event::Waited { seat })),
            _ => unreachable!("only play actions reach apply_play"),
        }
        self.kickoff_pending = false;
        self.plies += 1;
        if let Some(how) = goal {
            self.scores[seat.index()] += 1;
            events.push(Emitted::public(Event::GoalScored {
                seat,
                how,
                scores: self.scores,
            }));
        }
        if self.plies >= self.plies_per_half() {
            self.end_half(events);
        } else if goal.is_some() {
            self.restart(seat.opponent(), RestartReason::Goal, events);
        } else if self.kings_only() {
            // The side that just lost its last piece other than the king restarts, as a side
            // that conceded would.
            self.restart(seat.opponent(), RestartReason::KingVersusKing, events);
        } else {
            self.to_act = seat.opponent();
        }
    }

    pub(super) fn kings_only(&self) -> bool {
        self.pieces.iter().all(|p| p.kind == PieceKind::King)
    }

    pub(super) fn listing(&self, seat: Seat, actions: &[Action]) -> String {
        actions
            .iter()
            .map(|a| self.notation(seat, a))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The piece on each square of the board, if any, so that move generation looks a square up
/// instead of searching the pieces for every square it considers.
pub(super) struct Occupancy<'a>([Option<&'a Piece>; 64]);

impl Occupancy<'_> {
    fn at(&self, square: Square) -> Option<&Piece> {
        board_index(square).and_then(|index| self.0[index])
    }

    pub(super) fn kind_at(&self, square: Square) -> Option<PieceKind> {
        self.at(square).map(|piece| piece.kind)
    }
}

fn board_index(square: Square) -> Option<usize> {
    on_board(square).then(|| ((square.rank - 1) * 8 + square.file - 1) as usize)
}

/// Calls `visit` with each square a piece other than a pawn could go to by its chess movement:
/// for sliders, each square along a line up to and including the first occupied one.
fn reach_on(occupancy: &Occupancy<'_>, piece: &Piece, mut visit: impl FnMut(Square)) {
    let (directions, slides): (&[(i8, i8)], bool) = match piece.kind {
        PieceKind::King => (&KING_DIRECTIONS, false),
        PieceKind::Knight => (&KNIGHT_JUMPS, false),
        PieceKind::Queen => (&KING_DIRECTIONS, true),
        PieceKind::Rook => (&ORTHOGONAL, true),
        PieceKind::Bishop => (&DIAGONAL, true),
        PieceKind::Pawn => return,
    };
    for &(df, dr) in directions {
        let mut square = piece.square.offset(df, dr);
        while on_board(square) {
            visit(square);
            if !slides || occupancy.at(square).is_some() {
                break;
            }
            square = square.offset(df, dr);
        }
    }
}
