//! Executing orders: turns, the reveal, movement through the field, occupancy and tackles.

use std::ops::ControlFlow;

use super::field::{self, Location};
use super::orders::{direction, step_cost};
use super::roster::{Ability, Kind, ability_cost};
use super::{Action, Event, Events, Gridiron, Phase};
use crate::game::{Emitted, Seat};
use crate::geometry::Square;

/// How a down ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DownEnd {
    Tackle { tackler: u32 },
    Touchdown,
    Incomplete,
    Interception,
    TurnLimit,
}

pub(crate) type Flow = ControlFlow<DownEnd>;

impl Gridiron {
    /// Both formations are set: the down's first turn, the snap, begins.
    pub(crate) fn snap(&mut self) {
        for piece in &mut self.pieces {
            piece.snap_rank = piece.loc.square.rank;
        }
        self.round = 0;
        self.start_round();
    }

    pub(crate) fn start_round(&mut self) {
        self.round += 1;
        self.clock += 1;
        self.plans = [Vec::new(), Vec::new()];
        self.committed = [false, false];
        for piece in &mut self.pieces {
            piece.start = piece.loc;
            piece.moved = false;
            piece.change_now = piece.change_next;
            piece.frozen_now = piece.frozen_next;
            piece.change_next = 0;
            piece.frozen_next = false;
        }
        self.phase = if self.round == 1 {
            Phase::Snap
        } else {
            Phase::Reaction(self.offense)
        };
    }

    /// Everything temporary ends with the down.
    pub(crate) fn clear_down_effects(&mut self) {
        for piece in &mut self.pieces {
            piece.change_now = 0;
            piece.change_next = 0;
            piece.frozen_now = false;
            piece.frozen_next = false;
            piece.moved = false;
            piece.jammed_until = None;
            piece.anchored_until = None;
            piece.sealing_until = None;
        }
        self.fake = None;
        self.pending_pass = None;
        self.pass_thrown = false;
        self.round = 0;
        self.plans = [Vec::new(), Vec::new()];
        self.committed = [false, false];
    }

    pub(crate) fn commit_orders(&mut self, seat: Seat, events: &mut Events) {
        self.committed[seat.index()] = true;
        for piece in self.pieces.iter_mut().filter(|p| p.owner == seat) {
            piece.origin = piece.loc;
        }
        events.push(Emitted::public(Event::OrdersCommitted { seat }));
        let flow = match self.phase {
            Phase::Snap if self.committed == [true, true] => self.run_snap(events),
            Phase::Reaction(s) if s == self.offense => {
                self.reveal(s, events);
                let flow = self.execute_team(s, events);
                if flow.is_continue() {
                    self.phase = Phase::Reaction(self.defense());
                }
                flow
            }
            Phase::Reaction(s) => {
                self.reveal(s, events);
                self.run_defense(events)
            }
            _ => ControlFlow::Continue(()),
        };
        if let ControlFlow::Break(end) = flow {
            self.end_down(end, events);
        }
    }

    /// Both teams committed at the snap: reveal both, the offence executes, then the defence.
    fn run_snap(&mut self, events: &mut Events) -> Flow {
        let offense = self.offense;
        self.reveal(offense, events);
        self.reveal(self.defense(), events);
        self.execute_team(offense, events)?;
        self.run_defense(events)
    }

    fn run_defense(&mut self, events: &mut Events) -> Flow {
        self.execute_team(self.defense(), events)?;
        self.settle_hidden_tackles(events)?;
        self.ball_step(events)
    }

    fn reveal(&self, seat: Seat, events: &mut Events) {
        let orders = self.plans[seat.index()]
            .iter()
            .filter(|a| !matches!(a, Action::Fake { .. }))
            .cloned()
            .collect();
        events.push(Emitted::public(Event::OrdersRevealed { seat, orders }));
    }

    /// Runs a team's orders: Captain, Heavy, Strong, Fast, QB; the written order breaks ties.
    fn execute_team(&mut self, seat: Seat, events: &mut Events) -> Flow {
        let plan = &self.plans[seat.index()];
        let mut order: Vec<(u8, usize, u32)> = Vec::new();
        for (index, item) in plan.iter().enumerate() {
            let id = item.order_piece().expect("plans hold orders only");
            if !order.iter().any(|(_, _, p)| *p == id) {
                order.push((self.piece(id).kind.execution_rank(), index, id));
            }
        }
        order.sort();
        // Pieces without orders make no move this turn: what hits them counts for the next one.
        for piece in self.pieces.iter_mut().filter(|p| p.owner == seat) {
            piece.moved = !order.iter().any(|(_, _, id)| *id == piece.id);
        }
        for (_, _, id) in order {
            let flow = self.run_order(id, events);
            self.piece_mut(id).moved = true;
            flow?;
        }
        for piece in self.pieces.iter_mut().filter(|p| p.owner == seat) {
            piece.moved = true;
        }
        ControlFlow::Continue(())
    }

    /// Whether an effect lasting through turn `until` is in force now.
    fn lasts(&self, until: Option<u32>) -> bool {
        until.is_some_and(|last| self.clock <= last)
    }

    pub(crate) fn jammed(&self, id: u32) -> bool {
        self.lasts(self.piece(id).jammed_until)
    }

    pub(crate) fn anchored(&self, id: u32) -> bool {
        self.lasts(self.piece(id).anchored_until)
    }

    pub(crate) fn sealing(&self, id: u32) -> bool {
        self.lasts(self.piece(id).sealing_until)
    }

    /// Seal: entering a square next to a sealing nickelback costs its opponents 1 more.
    fn seal_cost(&self, id: u32, square: Square) -> i8 {
        let owner = self.piece(id).owner;
        let sealed = self.pieces.iter().any(|n| {
            n.owner != owner
                && n.kind == Kind::Nickelback
                && self.sealing(n.id)
                && field::adjacent(n.loc.square, square)
        });
        i8::from(sealed)
    }

    pub(crate) fn touchdown(&self) -> bool {
        field::scoring_end_zone(self.offense, self.piece(self.holder).loc.square.rank)
    }

    fn run_order(&mut self, id: u32, events: &mut Events) -> Flow {
        let owner = self.piece(id).owner;
        let items: Vec<Action> = self.plans[owner.index()]
            .iter()
            .filter(|a| a.order_piece() == Some(id))
            .cloned()
            .collect();
        if self.piece(id).frozen_now {
            events.push(Emitted::public(Event::MoveStopped {
                piece: id,
                reason: "lost all movement this turn".into(),
            }));
            return ControlFlow::Continue(());
        }
        let kind = self.piece(id).kind;
        let on_offense = owner == self.offense;
        let last_move = items.iter().rposition(|a| matches!(a, Action::Move { .. }));
        let mut left = self.base_budget(id);
        let mut planned_at = self.piece(id).origin;
        let mut last_dir = None;
        let mut route = false;
        let mut rush = false;
        for (index, item) in items.iter().enumerate() {
            match item {
                Action::Move { to, .. } => {
                    let dir = direction(planned_at, *to);
                    planned_at = *to;
                    let current = self.piece(id).loc;
                    let dest = Location::new(current.square.offset(dir.0, dir.1), to.spot);
                    if !field::on_field(dest.square) {
                        self.stop(id, format!("{} is off the field", dest.square), events);
                        break;
                    }
                    let mut cost = step_cost(kind, last_dir, dir, route);
                    if dir != (0, 0) {
                        cost += self.seal_cost(id, dest.square);
                    }
                    if cost > left {
                        self.stop(id, format!("no movement left to reach {dest}"), events);
                        break;
                    }
                    if dir != (0, 0) && Some(index) != last_move {
                        let mut there = self.pieces_on(dest.square).filter(|p| p.id != id);
                        let blocked = if rush {
                            there.any(|p| p.kind.is_heavy())
                        } else {
                            there.next().is_some()
                        };
                        if blocked {
                            self.stop(id, format!("{} is occupied", dest.square), events);
                            break;
                        }
                    }
                    left -= cost;
                    self.piece_mut(id).loc = dest;
                    if dir != (0, 0) {
                        last_dir = Some(dir);
                    }
                    events.push(Emitted::public(Event::PieceMoved {
                        piece: id,
                        from: current,
                        to: dest,
                    }));
                    if self.touchdown() {
                        return ControlFlow::Break(DownEnd::Touchdown);
                    }
                }
                Action::Use {
                    ability, target, ..
                } => {
                    if self.jammed(id) {
                        self.fail(id, ability.name(), "jammed by a nickelback", events);
                        continue;
                    }
                    let cost = ability_cost(kind, *ability, on_offense).unwrap_or(0);
                    if cost > left {
                        self.stop(
                            id,
                            format!("no movement left for {}", ability.name()),
                            events,
                        );
                        break;
                    }
                    match self.use_ability(id, *ability, *target, events) {
                        Ok(()) => {
                            left += ability.self_boost() - cost;
                            route |= *ability == Ability::RouteRunning;
                            rush |= *ability == Ability::SpeedRush;
                            if ability.limited() {
                                self.piece_mut(id).used.push(*ability);
                            }
                            events.push(Emitted::public(Event::AbilityUsed {
                                piece: id,
                                ability: *ability,
                                target: *target,
                            }));
                        }
                        Err(reason) => self.fail(id, ability.name(), &reason, events),
                    }
                    if self.touchdown() {
                        return ControlFlow::Break(DownEnd::Touchdown);
                    }
                    if ability.ends_order() {
                        break;
                    }
                }
                Action::Pass { receiver, .. } => {
                    if self.jammed(id) {
                        self.fail(id, "pass", "jammed by a nickelback", events);
                    } else {
                        self.pending_pass = Some((id, *receiver));
                    }
                    break;
                }
                Action::Fake {
                    partner, keeper, ..
                } => {
                    self.fake_handoff(id, *partner, *keeper, events);
                    // The keeper may already stand in the end zone: the choice counts at once.
                    if self.touchdown() {
                        return ControlFlow::Break(DownEnd::Touchdown);
                    }
                }
                _ => {}
            }
        }
        self.settle_spot(id, events)
    }

    fn stop(&self, id: u32, reason: String, events: &mut Events) {
        events.push(Emitted::public(Event::MoveStopped { piece: id, reason }));
    }

    pub(crate) fn fail(&self, id: u32, what: &str, reason: &str, events: &mut Events) {
        events.push(Emitted::public(Event::OrderFailed {
            piece: id,
            what: what.to_owned(),
            reason: reason.to_owned(),
        }));
    }

    fn fake_handoff(&mut self, id: u32, partner: u32, keeper: u32, events: &mut Events) {
        let renews = self
            .fake
            .is_some_and(|f| f.passer == id && f.partner == partner);
        if self.jammed(id) {
            return self.fail(id, "fake", "jammed by a nickelback", events);
        }
        if self.holder != id && !renews {
            return self.fail(id, "fake", "it does not hold the ball", events);
        }
        if !field::adjacent(self.piece(id).loc.square, self.piece(partner).loc.square) {
            return self.fail(id, "fake", "the partner is not adjacent", events);
        }
        self.fake = Some(super::Fake {
            passer: id,
            partner,
        });
        self.holder = keeper;
        events.push(Emitted::public(Event::BallHidden {
            passer: id,
            partner,
        }));
        events.push(Emitted::private(
            self.offense,
            Event::KeeperChosen { keeper },
        ));
    }

    /// A piece's move is over: sort out who shares its spot (tackle, tackle attempt, collision).
    fn settle_spot(&mut self, id: u32, events: &mut Events) -> Flow {
        for _ in 0..4 {
            let loc = self.piece(id).loc;
            let others: Vec<u32> = self
                .pieces
                .iter()
                .filter(|p| p.loc == loc && p.id != id)
                .map(|p| p.id)
                .collect();
            let Some(&first) = others.first() else {
                break;
            };
            let defender = self.piece(id).owner != self.offense;
            if defender && others.len() == 1 {
                match self.fake {
                    None if first == self.holder => {
                        events.push(Emitted::public(Event::Tackled {
                            tackler: id,
                            carrier: first,
                            at: loc,
                        }));
                        return ControlFlow::Break(DownEnd::Tackle { tackler: id });
                    }
                    Some(f) if first == f.passer || first == f.partner => break,
                    _ => {}
                }
            }
            let occupant = others
                .iter()
                .copied()
                .find(|o| self.piece(*o).owner != self.offense)
                .unwrap_or(first);
            if !self.collide(id, occupant, events) {
                break;
            }
        }
        ControlFlow::Continue(())
    }

    /// After the defence moved with the ball hidden: a tackle of the keeper stands; tackling
    /// both fake partners gives the ball to the passer; a tackle of the other one misses.
    fn settle_hidden_tackles(&mut self, events: &mut Events) -> Flow {
        let Some(fake) = self.fake else {
            return ControlFlow::Continue(());
        };
        let tacklers = |game: &Self, member: u32| -> Vec<u32> {
            let loc = game.piece(member).loc;
            game.pieces
                .iter()
                .filter(|p| p.loc == loc && p.owner != game.offense)
                .map(|p| p.id)
                .collect()
        };
        let on_passer = tacklers(self, fake.passer);
        let on_partner = tacklers(self, fake.partner);
        let (carrier, tackler) = match (on_passer.first(), on_partner.first()) {
            (Some(t), Some(_)) => (fake.passer, Some(*t)),
            (Some(t), None) if self.holder == fake.passer => (fake.passer, Some(*t)),
            (None, Some(t)) if self.holder == fake.partner => (fake.partner, Some(*t)),
            _ => (self.holder, None),
        };
        if let Some(tackler) = tackler {
            self.holder = carrier;
            self.fake = None;
            events.push(Emitted::public(Event::BallRevealed { holder: carrier }));
            events.push(Emitted::public(Event::Tackled {
                tackler,
                carrier,
                at: self.piece(carrier).loc,
            }));
            return ControlFlow::Break(DownEnd::Tackle { tackler });
        }
        for missed in [fake.passer, fake.partner] {
            for tackler in tacklers(self, missed) {
                events.push(Emitted::public(Event::TackleMissed {
                    tackler,
                    piece: missed,
                }));
                self.send_back(tackler, events);
            }
        }
        ControlFlow::Continue(())
    }

    /// The ball's part of the turn: a declared pass resolves, a finished fake is revealed,
    /// and the turn limit of the down is checked.
    fn ball_step(&mut self, events: &mut Events) -> Flow {
        if let Some((passer, receiver)) = self.pending_pass.take() {
            self.resolve_pass(passer, receiver, events)?;
        }
        if let Some(fake) = self.fake
            && !field::adjacent(
                self.piece(fake.passer).loc.square,
                self.piece(fake.partner).loc.square,
            )
        {
            self.fake = None;
            events.push(Emitted::public(Event::BallRevealed {
                holder: self.holder,
            }));
        }
        if self.round >= self.settings.turns_per_down {
            return ControlFlow::Break(DownEnd::TurnLimit);
        }
        self.start_round();
        ControlFlow::Continue(())
    }

    /// Sends a piece back to where it started the turn, or the nearest free spot to it.
    pub(crate) fn send_back(&mut self, id: u32, events: &mut Events) {
        let start = self.piece(id).start;
        let to = self.nearest_free(start, id);
        self.piece_mut(id).loc = to;
        events.push(Emitted::public(Event::PieceReturned { piece: id, to }));
    }

    /// The first free location searching the start spot, its square, then rings around it.
    fn nearest_free(&self, start: Location, except: u32) -> Location {
        let free = |loc: Location| self.piece_at(loc, except).is_none();
        if free(start) {
            return start;
        }
        for radius in 0..field::RANKS {
            for df in -radius..=radius {
                for dr in -radius..=radius {
                    if df.abs().max(dr.abs()) != radius {
                        continue;
                    }
                    let square = start.square.offset(df, dr);
                    if !field::on_field(square) {
                        continue;
                    }
                    if let Some(loc) = super::Spot::ALL
                        .into_iter()
                        .map(|spot| Location::new(square, spot))
                        .find(|loc| free(*loc))
                    {
                        return loc;
                    }
                }
            }
        }
        unreachable!("fourteen pieces cannot fill the field")
    }
}
