//! Everything decided by a d6: collisions and passes. Every roll is a public event.

use super::field;
use super::movement::{DownEnd, Flow};
use super::roster::{Kind, captain_active};
use super::{DicePurpose, Event, Events, Gridiron};
use crate::game::Emitted;
use std::ops::ControlFlow;

/// A pass total at or above this completes.
pub(crate) const COMPLETE_FROM: i8 = 3;
/// A failed pass at or below this total is intercepted by an adjacent Safety (Intercept).
pub(crate) const SAFETY_INTERCEPTS_UP_TO: i8 = 2;
/// A pass at or below this total is intercepted by any adjacent defender.
pub(crate) const INTERCEPTED_UP_TO: i8 = 0;

impl Gridiron {
    fn roll(&mut self, purpose: DicePurpose, piece: u32, events: &mut Events) -> u8 {
        let value = self.rng.roll(6);
        events.push(Emitted::public(Event::DiceRolled {
            purpose,
            seat: self.piece(piece).owner,
            piece,
            value,
        }));
        value
    }

    /// Two pieces on one spot: each rolls a d6, the loser goes back to where it started the
    /// turn, a tie sends both back. An anchored piece never gives way. Returns whether the
    /// mover kept the spot.
    pub(crate) fn collide(&mut self, mover: u32, occupant: u32, events: &mut Events) -> bool {
        let winner = if self.anchored(occupant) && !self.anchored(mover) {
            Some(occupant)
        } else if self.anchored(mover) && !self.anchored(occupant) {
            Some(mover)
        } else {
            let a = self.roll(DicePurpose::Collision, mover, events);
            let b = self.roll(DicePurpose::Collision, occupant, events);
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => Some(mover),
                std::cmp::Ordering::Less => Some(occupant),
                std::cmp::Ordering::Equal => None,
            }
        };
        events.push(Emitted::public(Event::Collision {
            mover,
            occupant,
            winner,
        }));
        match winner {
            Some(w) if w == mover => {
                self.send_back(occupant, events);
                true
            }
            Some(_) => {
                self.send_back(mover, events);
                false
            }
            None => {
                self.send_back(mover, events);
                self.send_back(occupant, events);
                false
            }
        }
    }

    /// The pass modifier as the field stands now.
    pub(crate) fn pass_modifier(&self, passer: u32, receiver: u32) -> i8 {
        let defense = self.defense();
        let near =
            |a: u32, b: u32| field::adjacent(self.piece(a).loc.square, self.piece(b).loc.square);
        let active = |kind: Kind, on_offense: bool| captain_active(kind, on_offense);
        let mut modifier = 0;
        for d in self.pieces.iter().filter(|p| p.owner == defense) {
            if near(d.id, receiver) {
                modifier -= 1;
                if d.kind == Kind::Safety && active(Kind::Safety, false) {
                    modifier -= 2;
                }
            }
            if near(d.id, passer) && d.kind == Kind::Rusher && active(Kind::Rusher, false) {
                modifier -= 1;
            }
        }
        if self.piece(receiver).kind == Kind::DeepThreat {
            modifier += 1;
        }
        let lead_blocker_near = self.pieces.iter().any(|p| {
            p.owner == self.offense
                && p.kind == Kind::LeadBlocker
                && p.loc.square.king_distance(self.piece(passer).loc.square) <= 2
        });
        modifier + i8::from(lead_blocker_near)
    }

    /// Resolves the down's pass after the defence moved: 1d6 + modifier.
    pub(crate) fn resolve_pass(&mut self, passer: u32, receiver: u32, events: &mut Events) -> Flow {
        if self.holder != passer {
            events.push(Emitted::public(Event::PassCancelled {
                passer,
                reason: "the passer no longer holds the ball".into(),
            }));
            return ControlFlow::Continue(());
        }
        let offense = self.offense;
        if let Some(lineman) = self.pieces.iter().find(|p| {
            p.owner == offense
                && !p.kind.eligible_receiver()
                && field::gain(offense, p.snap_rank, p.loc.square.rank) > 1
        }) {
            events.push(Emitted::public(Event::PassCancelled {
                passer,
                reason: format!(
                    "ineligible #{} is more than one rank downfield of where it stood at the snap",
                    lineman.id
                ),
            }));
            return ControlFlow::Continue(());
        }
        self.pass_thrown = true;
        if self.fake.take().is_some() {
            events.push(Emitted::public(Event::BallRevealed { holder: passer }));
        }
        let modifier = self.pass_modifier(passer, receiver);
        events.push(Emitted::public(Event::PassThrown {
            passer,
            receiver,
            modifier,
        }));
        let total = self.roll(DicePurpose::Pass, passer, events) as i8 + modifier;
        if total >= COMPLETE_FROM {
            self.holder = receiver;
            events.push(Emitted::public(Event::PassCompleted { receiver, total }));
            if self.touchdown() {
                return ControlFlow::Break(DownEnd::Touchdown);
            }
            return ControlFlow::Continue(());
        }
        let adjacent: Vec<u32> = self
            .pieces
            .iter()
            .filter(|p| {
                p.owner != offense && field::adjacent(p.loc.square, self.piece(receiver).loc.square)
            })
            .map(|p| p.id)
            .collect();
        let safety = adjacent
            .iter()
            .copied()
            .find(|d| self.piece(*d).kind == Kind::Safety);
        let interceptor = if total <= INTERCEPTED_UP_TO {
            safety.or(adjacent.first().copied())
        } else if total <= SAFETY_INTERCEPTS_UP_TO {
            safety
        } else {
            None
        };
        match interceptor {
            Some(by) => {
                events.push(Emitted::public(Event::PassIntercepted { by, total }));
                ControlFlow::Break(DownEnd::Interception)
            }
            None => {
                events.push(Emitted::public(Event::PassIncomplete { total }));
                ControlFlow::Break(DownEnd::Incomplete)
            }
        }
    }
}
