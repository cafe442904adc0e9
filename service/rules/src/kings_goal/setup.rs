//! The choice and placement phases.

use super::rules::{
    BISHOP_COLOURS, EMPTY_SQUARE, IN_HAND, KICK_OFF_PICK, KICK_OFF_PIECE, KICK_OFF_RECEIVER,
    KING_IN_GOAL, OWN_HALF, PAWN_OFF_GOAL, PICK_FROM_BOX,
};
use super::{
    Action, Emitted, Event, KingsGoal, Phase, PieceKind, WHITE, goal_squares, half_squares,
    in_half, is_goal_of, kickoff_square, kinds_text, seat_name, square_text,
};
use crate::game::{Rule, RuleError, Seat};
use crate::geometry::Square;

/// How many extra pieces each side picks.
pub(super) const PICKS: usize = 3;

/// Every side fields these whatever it picks.
pub(super) const COMPULSORY: [PieceKind; 3] = [PieceKind::King, PieceKind::Pawn, PieceKind::Pawn];

/// The kinds offered in the choice phase, in the order legal actions list them.
const CHOOSABLE: [PieceKind; 5] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Pawn,
];

/// The default choice takes the first kind of this list still available.
const DEFAULT_CHOICE_ORDER: [PieceKind; 5] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Pawn,
];

/// The default kick-off piece is the first kind of this list in hand.
const DEFAULT_KICKER_ORDER: [PieceKind; 4] = [
    PieceKind::Rook,
    PieceKind::Queen,
    PieceKind::Knight,
    PieceKind::Bishop,
];

/// The default formation places the pieces in hand in this order.
const DEFAULT_PLACEMENT_ORDER: [PieceKind; 6] = [
    PieceKind::King,
    PieceKind::Pawn,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// Whether a side that already picked `chosen` may pick `kind` next: the box holds a limited
/// number of each kind, and the side that `kicks_off` must include a piece able to kick off.
/// The other side may take any three: it never has to pass from the kick-off square.
pub(super) fn choosable(chosen: &[PieceKind], kind: PieceKind, kicks_off: bool) -> bool {
    let taken = chosen.iter().filter(|k| **k == kind).count();
    let last_pick = chosen.len() + 1 == PICKS;
    chosen.len() < PICKS
        && taken < kind.pool()
        && (!kicks_off
            || !last_pick
            || kind.can_kick_off()
            || chosen.iter().any(|k| k.can_kick_off()))
}

/// Whether `picks`, taken in this order, are a side's three picks complete.
pub(super) fn complete_picks(picks: &[PieceKind], kicks_off: bool) -> bool {
    picks.len() == PICKS && (0..PICKS).all(|i| choosable(&picks[..i], picks[i], kicks_off))
}

/// Why a single placement is refused, before the words are put together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Misplacement {
    NoneLeft,
    OutsideHalf,
    Occupied,
    NotTheKicker,
    KingOffGoal,
    PawnOnGoal,
    BishopsOnOneColour,
}

impl Misplacement {
    const fn rule(self) -> Rule {
        match self {
            Misplacement::NoneLeft => IN_HAND,
            Misplacement::OutsideHalf => OWN_HALF,
            Misplacement::Occupied => EMPTY_SQUARE,
            Misplacement::NotTheKicker => KICK_OFF_PIECE,
            Misplacement::KingOffGoal => KING_IN_GOAL,
            Misplacement::PawnOnGoal => PAWN_OFF_GOAL,
            Misplacement::BishopsOnOneColour => BISHOP_COLOURS,
        }
    }
}

/// A piece still to place, with the colour a bishop must take (`Some(true)` = dark).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    kind: PieceKind,
    dark: Option<bool>,
}

/// The preferred squares of the default formation, written for white and mirrored for black.
fn default_squares(seat: Seat, kind: PieceKind) -> Vec<Square> {
    let names: &[&str] = match kind {
        PieceKind::King => &["d1", "e1", "c1", "f1"],
        PieceKind::Pawn => &["c3", "f3", "d3", "e3", "b3", "g3"],
        PieceKind::Bishop => &["d2", "e2", "c2", "f2"],
        PieceKind::Knight => &["c2", "f2", "b2", "g2"],
        PieceKind::Rook => &["e4", "b2", "g2", "a1", "h1"],
        PieceKind::Queen => &["e4", "d2", "e2"],
    };
    names
        .iter()
        .filter_map(|n| Square::parse(n))
        .map(|s| {
            if seat == WHITE {
                s
            } else {
                Square::new(s.file, 9 - s.rank)
            }
        })
        .collect()
}

impl KingsGoal {
    pub(super) fn choice_actions(&self, seat: Seat) -> Vec<Action> {
        let chosen = &self.chosen[seat.index()];
        let kicks_off = seat == self.kicking;
        let mut actions: Vec<Action> = CHOOSABLE
            .into_iter()
            .filter(|k| choosable(chosen, *k, kicks_off))
            .map(Action::Choose)
            .collect();
        actions.push(Action::DefaultChoice);
        actions
    }

    pub(super) fn default_choices(&self, seat: Seat) -> Vec<PieceKind> {
        let mut chosen = self.chosen[seat.index()].clone();
        let kicks_off = seat == self.kicking;
        let mut picked = Vec::new();
        while chosen.len() < PICKS {
            // Prefer a kind not yet picked, so the default adds variety. With at most two picks
            // made, three kinds are unpicked, and when the picks so far hold no piece able to kick
            // off they are pawns, so the queen is among the unpicked.
            let kind = DEFAULT_CHOICE_ORDER
                .into_iter()
                .find(|k| !chosen.contains(k) && choosable(&chosen, *k, kicks_off))
                .expect("an unpicked kind is always available to the default choice");
            chosen.push(kind);
            picked.push(kind);
        }
        picked
    }

    /// The rule a pick of `kind` breaks, when it is not among the legal ones.
    pub(super) fn choice_refusal(&self, seat: Seat, kind: PieceKind) -> RuleError {
        let chosen = &self.chosen[seat.index()];
        let offered: Vec<String> = CHOOSABLE
            .into_iter()
            .filter(|k| choosable(chosen, *k, seat == self.kicking))
            .map(|k| format!("+{}", k.letter()))
            .collect();
        let options = format!("you may choose {} or +default", offered.join(", "));
        if kind == PieceKind::King {
            RuleError::breaks(
                PICK_FROM_BOX,
                format!("every side already has its one king; {options}"),
            )
        } else if chosen.iter().filter(|k| **k == kind).count() >= kind.pool() {
            RuleError::breaks(
                PICK_FROM_BOX,
                format!("no {} is left to choose; {options}", kind.name()),
            )
        } else {
            // The box still holds one, so only the kick-off constraint refuses it: the picks so
            // far are two pawns and this would be a third.
            RuleError::breaks(
                KICK_OFF_PICK,
                format!(
                    "a third {} would leave you no piece to kick off with; {options}",
                    kind.name()
                ),
            )
        }
    }

    pub(super) fn apply_choice(
        &mut self,
        seat: Seat,
        kinds: Vec<PieceKind>,
        events: &mut Vec<Emitted<Event>>,
    ) {
        self.chosen[seat.index()].extend(kinds.iter().copied());
        events.push(Emitted::public(Event::Chosen { seat, kinds }));
        if self.chosen[seat.index()].len() < PICKS {
            return;
        }
        let other = seat.opponent();
        if self.chosen[other.index()].len() < PICKS {
            self.to_act = other;
            return;
        }
        for side in [WHITE, WHITE.opponent()] {
            let mut hand = COMPULSORY.to_vec();
            hand.extend(self.chosen[side.index()].iter().copied());
            self.unplaced[side.index()] = hand;
        }
        self.phase = Phase::Placement;
        self.to_act = self.kicking;
    }

    fn kicker_placed(&self) -> bool {
        self.piece_at(kickoff_square(self.kicking))
            .is_some_and(|p| p.owner == self.kicking)
    }

    /// The checks a single placement must pass on its own, as a refusal naming the rule.
    pub(super) fn placement_check(
        &self,
        seat: Seat,
        kind: PieceKind,
        square: Square,
    ) -> Result<(), RuleError> {
        match self.misplacement(seat, kind, square) {
            None => Ok(()),
            Some(problem) => Err(RuleError::breaks(
                problem.rule(),
                self.misplacement_text(seat, kind, square, problem),
            )),
        }
    }

    /// The first check a single placement fails, if any. Cheap: listing the placements asks it
    /// for every square of the half and every kind in hand, so the words of a refusal are only
    /// put together by [`KingsGoal::placement_check`].
    fn misplacement(&self, seat: Seat, kind: PieceKind, square: Square) -> Option<Misplacement> {
        if !self.unplaced[seat.index()].contains(&kind) {
            return Some(Misplacement::NoneLeft);
        }
        if !in_half(seat, square) {
            return Some(Misplacement::OutsideHalf);
        }
        if self.piece_at(square).is_some() {
            return Some(Misplacement::Occupied);
        }
        if seat == self.kicking
            && !self.kicker_placed()
            && (square != kickoff_square(seat) || !kind.can_kick_off())
        {
            return Some(Misplacement::NotTheKicker);
        }
        match kind {
            PieceKind::King if !is_goal_of(seat, square) => Some(Misplacement::KingOffGoal),
            PieceKind::Pawn if is_goal_of(seat, square) => Some(Misplacement::PawnOnGoal),
            PieceKind::Bishop
                if self.pieces.iter().any(|p| {
                    p.owner == seat
                        && p.kind == PieceKind::Bishop
                        && p.square.is_dark() == square.is_dark()
                }) =>
            {
                Some(Misplacement::BishopsOnOneColour)
            }
            _ => None,
        }
    }

    /// What in a placement breaks the rule of `problem`, and what to do instead.
    fn misplacement_text(
        &self,
        seat: Seat,
        kind: PieceKind,
        square: Square,
        problem: Misplacement,
    ) -> String {
        let goal = || {
            goal_squares(seat)
                .iter()
                .map(Square::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let kickoff = kickoff_square(seat);
        match problem {
            Misplacement::NoneLeft => format!(
                "you have no {} left to place; still to place: {}",
                kind.name(),
                kinds_text(&self.unplaced[seat.index()])
            ),
            Misplacement::OutsideHalf => format!(
                "{} is outside your half: {} places on ranks {}",
                square_text(square),
                seat_name(seat),
                if seat == WHITE { "1-4" } else { "5-8" }
            ),
            Misplacement::Occupied => format!("{square} is already occupied"),
            Misplacement::NotTheKicker if square == kickoff => format!(
                "a {} cannot be the kick-off piece: place a queen, rook, bishop or knight on \
                 {kickoff}",
                kind.name()
            ),
            Misplacement::NotTheKicker => format!(
                "your first piece is the kick-off piece: place a queen, rook, bishop or knight \
                 on {kickoff} before the {}",
                kind.name()
            ),
            Misplacement::KingOffGoal => {
                format!("{square} is not one of your goal squares ({})", goal())
            }
            Misplacement::PawnOnGoal => {
                format!("{square} is one of your own goal squares ({})", goal())
            }
            Misplacement::BishopsOnOneColour => {
                format!("{square} has the colour of your other bishop")
            }
        }
    }

    /// Puts a piece from the hand on the board, without any check.
    pub(super) fn place_unchecked(&mut self, seat: Seat, kind: PieceKind, square: Square) -> u32 {
        let hand = &mut self.unplaced[seat.index()];
        let at = hand
            .iter()
            .position(|k| *k == kind)
            .expect("placed kinds come from the hand");
        hand.remove(at);
        self.put_piece(seat, kind, square)
    }

    fn feasible_after(&self, seat: Seat, kind: PieceKind, square: Square) -> bool {
        let mut trial = self.clone();
        trial.place_unchecked(seat, kind, square);
        trial.completion_feasible(seat)
    }

    /// Whether `seat` can still place everything in hand legally and, when it kicks off, leave
    /// its kick-off piece a team-mate to pass to. Halves are disjoint, so the other side's
    /// placements never matter.
    pub(super) fn completion_feasible(&self, seat: Seat) -> bool {
        if seat == self.kicking && !self.kicker_placed() {
            if self.pieces.iter().any(|p| p.owner == seat) {
                return false;
            }
            let ko = kickoff_square(seat);
            let mut kinds = self.unplaced[seat.index()].clone();
            kinds.sort();
            kinds.dedup();
            return kinds
                .into_iter()
                .filter(|k| k.can_kick_off())
                .any(|k| self.feasible_after(seat, k, ko));
        }
        let slots = self.slots(seat);
        let free: Vec<Square> = half_squares(seat)
            .into_iter()
            .filter(|s| self.piece_at(*s).is_none())
            .collect();
        if seat != self.kicking || self.kicker_has_receiver() {
            return matchable(seat, &slots, &free);
        }
        let kicker = self
            .piece_at(kickoff_square(seat))
            .expect("the kicker is placed");
        let receiving: Vec<Square> = self
            .reach(kicker)
            .into_iter()
            .filter(|s| in_half(seat, *s) && self.piece_at(*s).is_none())
            .collect();
        // Pieces of one slot kind are interchangeable, and squares matter only by whether they
        // are goal squares and by colour, so one try per (slot, class) pair decides.
        let mut tried: Vec<(Slot, bool, bool)> = Vec::new();
        for (i, slot) in slots.iter().enumerate() {
            for square in &receiving {
                let class = (*slot, is_goal_of(seat, *square), square.is_dark());
                if tried.contains(&class) || !compatible(seat, *slot, *square) {
                    continue;
                }
                tried.push(class);
                let mut rest = slots.clone();
                rest.remove(i);
                let others: Vec<Square> = free.iter().copied().filter(|s| s != square).collect();
                if matchable(seat, &rest, &others) {
                    return true;
                }
            }
        }
        false
    }

    fn kicker_has_receiver(&self) -> bool {
        let Some(kicker) = self.piece_at(kickoff_square(self.kicking)) else {
            return false;
        };
        self.reach(kicker).into_iter().any(|s| {
            self.piece_at(s)
                .is_some_and(|p| p.owner == kicker.owner && p.id != kicker.id)
        })
    }

    /// The pieces still in hand, bishops labelled with the colour they must take.
    fn slots(&self, seat: Seat) -> Vec<Slot> {
        let hand = &self.unplaced[seat.index()];
        let placed_bishop = self
            .pieces
            .iter()
            .find(|p| p.owner == seat && p.kind == PieceKind::Bishop)
            .map(|p| p.square.is_dark());
        let bishops_in_hand = hand.iter().filter(|k| **k == PieceKind::Bishop).count();
        let mut next_bishop_dark = true;
        hand.iter()
            .map(|&kind| {
                let dark = if kind != PieceKind::Bishop {
                    None
                } else if let Some(placed) = placed_bishop {
                    Some(!placed)
                } else if bishops_in_hand == 2 {
                    next_bishop_dark = !next_bishop_dark;
                    Some(!next_bishop_dark)
                } else {
                    None
                };
                Slot { kind, dark }
            })
            .collect()
    }

    pub(super) fn placement_actions(&self, seat: Seat) -> Vec<Action> {
        let mut kinds = self.unplaced[seat.index()].clone();
        kinds.sort();
        kinds.dedup();
        let receiving: Vec<Square> = match self.piece_at(kickoff_square(self.kicking)) {
            Some(kicker) if seat == self.kicking => self.reach(kicker),
            _ => Vec::new(),
        };
        // Feasibility depends on the square only through whether it is a goal square (kings
        // need one, pawns may not use one), its colour (bishops) and whether it lies on the
        // kick-off piece's passing lines; remember each answer.
        let mut known: Vec<((PieceKind, bool, bool, bool), bool)> = Vec::new();
        let mut actions = Vec::new();
        for kind in kinds {
            for square in half_squares(seat) {
                if self.misplacement(seat, kind, square).is_some() {
                    continue;
                }
                let key = (
                    kind,
                    is_goal_of(seat, square),
                    square.is_dark(),
                    receiving.contains(&square),
                );
                let feasible = match known.iter().find(|(k, _)| *k == key) {
                    Some((_, answer)) => *answer,
                    None => {
                        let answer = self.feasible_after(seat, kind, square);
                        known.push((key, answer));
                        answer
                    }
                };
                if feasible {
                    actions.push(Action::Place { kind, square });
                }
            }
        }
        actions.push(Action::DefaultPlacement);
        actions
    }

    /// The rule a placement breaks, when it is not among the legal ones.
    pub(super) fn placement_refusal(
        &self,
        seat: Seat,
        kind: PieceKind,
        square: Square,
    ) -> RuleError {
        match self.placement_check(seat, kind, square) {
            Err(refusal) => refusal,
            // A half has room for every hand: at most three pieces other than the king can fill
            // goal squares and bishops need two colours out of 32 squares. So a placement that
            // passes its own checks can only leave the kick-off piece without a team-mate.
            Ok(()) => RuleError::breaks(
                KICK_OFF_RECEIVER,
                format!(
                    "after {}@{square} the rest of your pieces ({}) could not leave the \
                     kick-off piece on {} a team-mate to pass to",
                    kind.letter(),
                    kinds_text(&self.unplaced[seat.index()]),
                    kickoff_square(seat)
                ),
            ),
        }
    }

    /// The default formation for the pieces `seat` still holds.
    pub(super) fn default_placements(&self, seat: Seat) -> Vec<(PieceKind, Square)> {
        let mut trial = self.clone();
        let mut placements = Vec::new();
        while !trial.unplaced[seat.index()].is_empty() {
            let hand = &trial.unplaced[seat.index()];
            let kind = if seat == trial.kicking && !trial.kicker_placed() {
                DEFAULT_KICKER_ORDER
                    .into_iter()
                    .find(|k| hand.contains(k))
                    .expect("every hand holds a piece able to kick off")
            } else {
                DEFAULT_PLACEMENT_ORDER
                    .into_iter()
                    .find(|k| hand.contains(k))
                    .expect("the hand is not empty")
            };
            let square = default_squares(seat, kind)
                .into_iter()
                .chain(half_squares(seat))
                .find(|s| {
                    trial.misplacement(seat, kind, *s).is_none()
                        && trial.feasible_after(seat, kind, *s)
                })
                .expect("a feasible hand always has a legal square for its next piece");
            trial.place_unchecked(seat, kind, square);
            placements.push((kind, square));
        }
        placements
    }

    pub(super) fn apply_placement(
        &mut self,
        seat: Seat,
        placements: &[(PieceKind, Square)],
        events: &mut Vec<Emitted<Event>>,
    ) {
        for &(kind, square) in placements {
            let piece = self.place_unchecked(seat, kind, square);
            events.push(Emitted::public(Event::Placed {
                seat,
                piece,
                kind,
                square,
            }));
        }
        let other = seat.opponent();
        if !self.unplaced[other.index()].is_empty() {
            self.to_act = other;
        } else if !self.unplaced[seat.index()].is_empty() {
            self.to_act = seat;
        } else {
            self.start_play(events);
        }
    }

    fn start_play(&mut self, events: &mut Vec<Emitted<Event>>) {
        let square = kickoff_square(self.kicking);
        let kicker = self
            .piece_at(square)
            .expect("placement puts the kick-off piece first")
            .id;
        self.ball = Some(kicker);
        self.phase = Phase::Play;
        self.kickoff_pending = true;
        self.to_act = self.kicking;
        events.push(Emitted::public(Event::KickOff {
            seat: self.kicking,
            piece: kicker,
            square,
        }));
    }
}

fn compatible(seat: Seat, slot: Slot, square: Square) -> bool {
    match slot.kind {
        PieceKind::King => is_goal_of(seat, square),
        PieceKind::Pawn => !is_goal_of(seat, square),
        PieceKind::Bishop => slot.dark.is_none_or(|dark| square.is_dark() == dark),
        _ => true,
    }
}

/// Whether every slot can get its own square (a bipartite matching, by augmenting paths).
fn matchable(seat: Seat, slots: &[Slot], squares: &[Square]) -> bool {
    let mut owner_of: Vec<Option<usize>> = vec![None; squares.len()];
    for slot in 0..slots.len() {
        let mut seen = vec![false; squares.len()];
        if !augment(seat, slot, slots, squares, &mut owner_of, &mut seen) {
            return false;
        }
    }
    true
}

fn augment(
    seat: Seat,
    slot: usize,
    slots: &[Slot],
    squares: &[Square],
    owner_of: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for (i, square) in squares.iter().enumerate() {
        if seen[i] || !compatible(seat, slots[slot], *square) {
            continue;
        }
        seen[i] = true;
        let free = match owner_of[i] {
            None => true,
            Some(other) => augment(seat, other, slots, squares, owner_of, seen),
        };
        if free {
            owner_of[i] = Some(slot);
            return true;
        }
    }
    false
}
