//! Match flow: phases, who acts, and the dispatch of every action.

use super::field::{self, AWAY, HOME, Location, Spot};
use super::refusals::{Refusals, Verdict, Words};
use super::roster::{DEFAULT_CAPTAIN, DEFAULT_STANDARD, Kind, RosterDraft};
use super::rules;
use super::{Action, Event, Events, Gridiron, Phase, Piece, Settings};
use crate::game::{Emitted, RuleError, Seat, Turn};
use crate::geometry::Square;
use crate::rng::Rng;

impl Gridiron {
    pub(crate) fn fresh(settings: Settings, seed: &crate::rng::Seed) -> Self {
        Self {
            settings,
            rng: Rng::from_seed(seed),
            phase: Phase::Roster,
            drafts: [RosterDraft::default(), RosterDraft::default()],
            pieces: Vec::new(),
            scores: [0, 0],
            coin_winner: HOME,
            period: 0,
            possessions: [0, 0],
            offense: HOME,
            down: 0,
            los: 0,
            line: 0,
            round: 0,
            clock: 0,
            holder: 0,
            fake: None,
            pass_thrown: false,
            pending_pass: None,
            placed: Vec::new(),
            plans: [Vec::new(), Vec::new()],
            committed: [false, false],
            outcome: None,
        }
    }

    pub(crate) fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Roster => "roster",
            Phase::FourthDown => "fourth-down",
            Phase::Formation(_) => "formation",
            Phase::Snap => "snap",
            Phase::Reaction(_) => "reaction",
            Phase::Over => "over",
        }
    }

    pub(crate) fn to_act(&self) -> Vec<Seat> {
        [HOME, AWAY]
            .into_iter()
            .filter(|seat| self.is_to_act(*seat))
            .collect()
    }

    /// Whether `seat` is among [`Gridiron::to_act`], without building the list: every check
    /// asks it, and listing the legal actions checks hundreds of candidates.
    pub(crate) fn is_to_act(&self, seat: Seat) -> bool {
        match self.phase {
            Phase::Roster | Phase::Snap => seat.index() < 2 && !self.committed[seat.index()],
            Phase::FourthDown => seat == self.offense,
            Phase::Formation(to_act) | Phase::Reaction(to_act) => seat == to_act,
            Phase::Over => false,
        }
    }

    pub(crate) fn current_turn(&self) -> Turn {
        let to_act = self.to_act();
        let number = match self.phase {
            Phase::Snap | Phase::Reaction(_) => self.round,
            Phase::FourthDown | Phase::Formation(_) => u32::from(self.down),
            Phase::Roster | Phase::Over => 0,
        };
        let may_end_turn = match self.phase {
            // The turn is the same for every viewer: telling whether a hidden roster is complete
            // would leak the other team's progress, so the roster phase never claims it.
            Phase::Roster => false,
            Phase::Formation(_) | Phase::Snap | Phase::Reaction(_) => true,
            Phase::FourthDown | Phase::Over => false,
        };
        let actions_left = match self.phase {
            Phase::Formation(seat) => Some(
                self.pieces.iter().filter(|p| p.owner == seat).count() as u32
                    - self.placed.len() as u32
                    + 1,
            ),
            _ => None,
        };
        Turn {
            phase: self.phase_name().to_owned(),
            to_act,
            number,
            actions_left,
            may_end_turn,
        }
    }

    /// Every candidate action of a seat, filtered by [`Gridiron::check`].
    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        if !self.is_to_act(seat) {
            return Vec::new();
        }
        let candidates: Vec<Action> = match self.phase {
            Phase::Roster => {
                let mut all: Vec<Action> = Kind::CAPTAINS.map(Action::Captain).to_vec();
                all.extend(Kind::STANDARD.map(Action::Recruit));
                all.extend([Action::DefaultRoster, Action::CommitRoster]);
                all
            }
            Phase::FourthDown => vec![Action::GoForIt, Action::Punt],
            Phase::Formation(_) => {
                let mut all = Vec::new();
                for piece in self.pieces.iter().filter(|p| p.owner == seat) {
                    if self.placed.contains(&piece.id) {
                        continue;
                    }
                    for square in self.formation_squares(seat) {
                        for spot in Spot::ALL {
                            all.push(Action::Place {
                                piece: piece.id,
                                to: Location::new(square, spot),
                            });
                        }
                    }
                }
                all.push(Action::Ready);
                all
            }
            Phase::Snap | Phase::Reaction(_) => {
                // Orders come already checked: each piece's plan is simulated once.
                let mut all = self.legal_orders(seat);
                all.extend(self.allows(seat, &Action::Commit).then_some(Action::Commit));
                return all;
            }
            Phase::Over => Vec::new(),
        };
        candidates
            .into_iter()
            .filter(|a| self.allows(seat, a))
            .collect()
    }

    /// Whether `seat` may take `action` now; the error says why not and what would be legal.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        self.check_as::<Words>(seat, action)
    }

    /// Whether `seat` may take `action` now, without putting a refusal into words.
    pub(crate) fn allows(&self, seat: Seat, action: &Action) -> bool {
        self.check_as::<Verdict>(seat, action).is_ok()
    }

    fn check_as<R: Refusals>(&self, seat: Seat, action: &Action) -> Result<(), R::Refusal> {
        if self.phase == Phase::Over {
            return Err(R::game_over());
        }
        if !self.is_to_act(seat) {
            return Err(R::not_your_turn(format_args!(
                "{} is not to act in the {} phase; waiting for {}",
                field::seat_name(seat),
                self.phase_name(),
                self.to_act()
                    .iter()
                    .map(|s| field::seat_name(*s))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )));
        }
        let wrong_phase = || {
            R::refuse(
                rules::PHASE_ACTIONS,
                format_args!(
                    "{} is not an action of the {} phase; {}",
                    super::notation::format_action(action),
                    self.phase_name(),
                    self.phase_hint()
                ),
            )
        };
        match (self.phase, action) {
            (Phase::Roster, Action::Captain(kind)) => {
                self.drafts[seat.index()].check_captain::<R>(*kind)
            }
            (Phase::Roster, Action::Recruit(kind)) => {
                self.drafts[seat.index()].check_recruit::<R>(*kind)
            }
            (Phase::Roster, Action::DefaultRoster) => {
                if self.drafts[seat.index()].is_empty() {
                    Ok(())
                } else {
                    Err(R::refuse(
                        rules::DEFAULT_ROSTER_WHEN_EMPTY,
                        format_args!("yours has picks already; finish it with captain and recruit"),
                    ))
                }
            }
            (Phase::Roster, Action::CommitRoster) => {
                let draft = &self.drafts[seat.index()];
                if draft.is_complete() {
                    Ok(())
                } else {
                    Err(R::refuse(
                        rules::ROSTER_COMPLETE,
                        format_args!(
                            "yours has {} captain and {} of six standard pieces",
                            if draft.captain.is_some() { "a" } else { "no" },
                            draft.standard.len()
                        ),
                    ))
                }
            }
            (Phase::FourthDown, Action::GoForIt | Action::Punt) => Ok(()),
            (Phase::Formation(_), Action::Place { piece, to }) => {
                self.check_place::<R>(seat, *piece, *to)
            }
            (Phase::Formation(_), Action::Ready) => Ok(()),
            (Phase::Snap | Phase::Reaction(_), Action::Commit) => Ok(()),
            (Phase::Snap | Phase::Reaction(_), order) if order.is_order() => {
                self.check_order::<R>(seat, order)
            }
            _ => Err(wrong_phase()),
        }
    }

    fn phase_hint(&self) -> &'static str {
        match self.phase {
            Phase::Roster => "pick a captain, recruit standard pieces or take the default roster",
            Phase::FourthDown => "choose go or punt",
            Phase::Formation(_) => "place pieces or declare ready",
            Phase::Snap | Phase::Reaction(_) => "write orders for your pieces or commit",
            Phase::Over => "the game is over",
        }
    }

    /// Applies an action already checked.
    pub(crate) fn perform(&mut self, seat: Seat, action: &Action, events: &mut Events) {
        match action {
            Action::Captain(_) | Action::Recruit(_) | Action::DefaultRoster => {
                let draft = &mut self.drafts[seat.index()];
                match action {
                    Action::Captain(kind) => draft.captain = Some(*kind),
                    Action::Recruit(kind) => draft.standard.push(*kind),
                    _ => {
                        draft.captain = Some(DEFAULT_CAPTAIN);
                        draft.standard = DEFAULT_STANDARD.to_vec();
                    }
                }
                events.push(Emitted::private(
                    seat,
                    Event::RosterUpdated {
                        seat,
                        action: action.clone(),
                    },
                ));
            }
            Action::CommitRoster => {
                self.drafts[seat.index()].committed = true;
                self.committed[seat.index()] = true;
                events.push(Emitted::public(Event::RosterCommitted { seat }));
                if self.committed == [true, true] {
                    self.reveal_rosters(events);
                }
            }
            Action::GoForIt | Action::Punt => {
                let punt = *action == Action::Punt;
                events.push(Emitted::public(Event::FourthDownDecided { seat, punt }));
                if punt {
                    self.change_possession(super::DriveStart::Punt, None, events);
                } else {
                    self.phase = Phase::Formation(self.offense);
                }
            }
            Action::Place { piece, to } => {
                self.placed.push(*piece);
                self.piece_mut(*piece).loc = *to;
                events.push(Emitted::public(Event::PiecePlaced {
                    piece: *piece,
                    to: *to,
                }));
            }
            Action::Ready => {
                events.push(Emitted::public(Event::FormationReady { seat }));
                self.placed.clear();
                if seat == self.offense {
                    self.phase = Phase::Formation(self.defense());
                } else {
                    self.snap();
                }
            }
            Action::Commit => self.commit_orders(seat, events),
            order => {
                self.plans[seat.index()].push(order.clone());
                events.push(Emitted::private(
                    seat,
                    Event::OrderWritten {
                        seat,
                        action: order.clone(),
                    },
                ));
            }
        }
    }

    fn reveal_rosters(&mut self, events: &mut Events) {
        self.committed = [false, false];
        for seat in [HOME, AWAY] {
            let kinds = self.drafts[seat.index()].pieces();
            self.add_team(seat, &kinds);
            let pieces = self
                .pieces
                .iter()
                .filter(|p| p.owner == seat)
                .map(|p| (p.id, p.kind))
                .collect();
            events.push(Emitted::public(Event::RosterRevealed { seat, pieces }));
        }
        self.coin_winner = if self.rng.below(2) == 0 { HOME } else { AWAY };
        events.push(Emitted::public(Event::CoinTossed {
            winner: self.coin_winner,
        }));
        self.start_period(1, events);
    }

    /// Adds a team's pieces, captain first; they get their places at the first formation.
    pub(crate) fn add_team(&mut self, seat: Seat, kinds: &[Kind]) {
        for kind in kinds {
            let id = self.pieces.len() as u32;
            let parking = Location::new(Square::new(1, 1), Spot::C);
            self.pieces.push(Piece {
                id,
                owner: seat,
                kind: *kind,
                loc: parking,
                start: parking,
                origin: parking,
                snap_rank: 1,
                used: Vec::new(),
                change_now: 0,
                frozen_now: false,
                change_next: 0,
                frozen_next: false,
                moved: false,
                jammed_until: None,
                anchored_until: None,
                sealing_until: None,
            });
        }
    }

    /// The lowest and highest rank of `seat`'s formation area at the current line of
    /// scrimmage: the offense lines up on the line and up to four ranks behind it, the defence
    /// on the five ranks beyond. Clipped to the field.
    fn formation_ranks(&self, seat: Seat) -> (i8, i8) {
        let f = field::forward(self.offense);
        let (near, far) = if seat == self.offense {
            (self.los, self.los - 4 * f)
        } else {
            (self.los + f, self.los + 5 * f)
        };
        (near.min(far).max(1), near.max(far).min(field::RANKS))
    }

    /// Every square of `seat`'s formation area.
    pub(crate) fn formation_squares(&self, seat: Seat) -> Vec<Square> {
        let (low, high) = self.formation_ranks(seat);
        (low..=high)
            .flat_map(|rank| (1..=field::FILES).map(move |file| Square::new(file, rank)))
            .collect()
    }

    fn check_place<R: Refusals>(
        &self,
        seat: Seat,
        piece: u32,
        to: Location,
    ) -> Result<(), R::Refusal> {
        let Some(p) = self.piece_opt(piece).filter(|p| p.owner == seat) else {
            return Err(R::refuse(
                rules::OWN_PIECES,
                format_args!("#{piece} is not one of your pieces"),
            ));
        };
        if self.placed.contains(&p.id) {
            return Err(R::refuse(
                rules::ONE_PLACEMENT,
                format_args!("#{piece} was placed already; place another piece or declare ready"),
            ));
        }
        let (low, high) = self.formation_ranks(seat);
        if !field::on_field(to.square) || !(low..=high).contains(&to.square.rank) {
            return Err(R::refuse(
                rules::FORMATION_AREA,
                format_args!("{} is outside yours, ranks {low} to {high}", to.square),
            ));
        }
        if let Some(other) = self.piece_at(to, piece) {
            return Err(R::refuse(
                rules::FREE_SPOT,
                format_args!("{to} is taken by #{other}; choose a free spot"),
            ));
        }
        Ok(())
    }

    /// Puts both teams in the default formation for the coming down.
    pub(crate) fn set_formation(&mut self, events: &mut Events) {
        self.clear_down_effects();
        let f = field::forward(self.offense);
        let passer = self.snap_passer(self.offense);
        let mut taken: Vec<Location> = Vec::new();
        let mut placements = Vec::new();
        for seat in [self.offense, self.defense()] {
            let offense = seat == self.offense;
            let ids: Vec<u32> = self
                .pieces
                .iter()
                .filter(|p| p.owner == seat)
                .map(|p| p.id)
                .collect();
            for id in ids {
                let kind = self.piece(id).kind;
                let (depth, files): (i8, &[i8]) = default_slots(kind, offense, id == passer);
                let rank = if offense {
                    self.los - f * depth
                } else {
                    self.los + f * depth
                };
                let loc = files
                    .iter()
                    .map(|file| Location::new(Square::new(*file, rank), Spot::C))
                    .find(|loc| !taken.contains(loc))
                    .expect("default slots outnumber pieces of a kind");
                taken.push(loc);
                self.piece_mut(id).loc = loc;
                placements.push((id, loc));
            }
        }
        self.holder = passer;
        self.placed.clear();
        self.phase = Phase::Formation(self.offense);
        events.push(Emitted::public(Event::FormationSet { pieces: placements }));
    }
}

/// Default formation slots: depth behind the line (offense) or beyond it (defence), and the
/// files to try in order, all on the centre spot.
fn default_slots(kind: Kind, offense: bool, snap_passer: bool) -> (i8, &'static [i8]) {
    const MIDDLE: &[i8] = &[8, 9, 7, 10, 6, 11, 5, 12];
    const FLANKS: &[i8] = &[6, 11, 5, 12, 4, 13, 7, 10];
    const WIDE: &[i8] = &[2, 15, 3, 14, 4, 13, 1, 16];
    const DEEP: &[i8] = &[4, 13, 3, 14, 5, 12, 8, 9];
    use super::roster::Base;
    match (offense, kind.base()) {
        (true, Base::Qb) if snap_passer => (2, &[8]),
        (true, Base::Qb) => (2, &[9, 7, 10, 6]),
        (true, Base::Heavy) => (0, MIDDLE),
        (true, Base::Strong) => (1, FLANKS),
        (true, Base::Fast) => (0, WIDE),
        (false, Base::Heavy) => (1, MIDDLE),
        (false, Base::Strong) => (2, FLANKS),
        (false, Base::Fast) => (4, DEEP),
        (false, Base::Qb) => (3, MIDDLE),
    }
}
