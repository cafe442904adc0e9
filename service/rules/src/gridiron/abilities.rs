//! What each ability does when its order item is carried out.

use super::field::{self, Location};
use super::roster::{Ability, Kind, captain_active};
use super::{Event, Events, Gridiron};
use crate::game::Emitted;

impl Gridiron {
    /// Carries out an ability; `Err` says why it had no effect (it then costs nothing).
    pub(crate) fn use_ability(
        &mut self,
        id: u32,
        ability: Ability,
        target: Option<u32>,
        events: &mut Events,
    ) -> Result<(), String> {
        let me = self.piece(id).clone();
        let adjacent_target = || -> Result<u32, String> {
            let t = target.expect("targeted abilities were checked to have a target");
            if field::adjacent(me.loc.square, self.piece(t).loc.square) {
                Ok(t)
            } else {
                Err(format!("#{t} is not adjacent"))
            }
        };
        match ability {
            Ability::Push => {
                let t = adjacent_target()?;
                self.push(id, t, events)
            }
            Ability::Impact => {
                let t = adjacent_target()?;
                self.change_movement(t, -1, false, events);
                if let Err(reason) = self.shove(id, t, events) {
                    self.fail(id, "impact push", &reason, events);
                }
                Ok(())
            }
            Ability::ChopBlock => {
                let t = adjacent_target()?;
                self.change_movement(t, 0, true, events);
                Ok(())
            }
            Ability::Engage => {
                let t = adjacent_target()?;
                self.change_movement(t, -1, false, events);
                Ok(())
            }
            Ability::ChipBlock => {
                let t = adjacent_target()?;
                self.change_movement(t, 1, false, events);
                Ok(())
            }
            Ability::Anchor => {
                let t = adjacent_target()?;
                self.change_movement(t, 1, false, events);
                self.piece_mut(id).anchored_until = Some(self.clock + 1);
                Ok(())
            }
            Ability::Retreat => self.retreat(id, events),
            Ability::Jam => {
                let until = Some(self.clock + 1);
                let jammed: Vec<u32> = self
                    .pieces
                    .iter()
                    .filter(|p| p.owner != me.owner && field::adjacent(p.loc.square, me.loc.square))
                    .map(|p| p.id)
                    .collect();
                for p in jammed {
                    self.piece_mut(p).jammed_until = until;
                }
                Ok(())
            }
            Ability::Seal => {
                self.piece_mut(id).sealing_until = Some(self.clock + 1);
                Ok(())
            }
            Ability::SpeedRush | Ability::React | Ability::Juke | Ability::RouteRunning => Ok(()),
        }
    }

    /// Changes a piece's movement: its coming move when it has not moved yet this turn,
    /// otherwise its next one. `frozen` takes all of it (chop block).
    pub(crate) fn change_movement(
        &mut self,
        id: u32,
        change: i8,
        frozen: bool,
        events: &mut Events,
    ) {
        let piece = self.piece_mut(id);
        let next_turn = piece.moved;
        if next_turn {
            piece.change_next += change;
            piece.frozen_next |= frozen;
        } else {
            piece.change_now += change;
            piece.frozen_now |= frozen;
        }
        events.push(Emitted::public(Event::MovementChanged {
            piece: id,
            change,
            frozen,
            next_turn,
        }));
    }

    /// Push: the target goes back one square (away from the pusher) and the pusher takes its
    /// place. A Rusher on defence pushed by a heavy piece swims: the two swap places instead.
    fn push(&mut self, id: u32, target: u32, events: &mut Events) -> Result<(), String> {
        let me = self.piece(id).clone();
        let them = self.piece(target).clone();
        if self.anchored(target) {
            return Err(format!("#{target} is anchored"));
        }
        let swims = them.kind == Kind::Rusher
            && captain_active(Kind::Rusher, them.owner == self.offense)
            && me.kind.is_heavy();
        if swims {
            self.piece_mut(id).loc = them.loc;
            self.piece_mut(target).loc = me.loc;
            events.push(Emitted::public(Event::PiecePushed {
                piece: target,
                from: them.loc,
                to: me.loc,
            }));
            events.push(Emitted::public(Event::PieceMoved {
                piece: id,
                from: me.loc,
                to: them.loc,
            }));
            self.change_movement(target, -1, false, events);
            return Ok(());
        }
        self.shove(id, target, events)?;
        self.piece_mut(id).loc = them.loc;
        events.push(Emitted::public(Event::PieceMoved {
            piece: id,
            from: me.loc,
            to: them.loc,
        }));
        Ok(())
    }

    /// Moves `target` one square straight away from `id`, keeping its spot.
    fn shove(&mut self, id: u32, target: u32, events: &mut Events) -> Result<(), String> {
        let from = self.piece(id).loc.square;
        let them = self.piece(target).loc;
        if self.anchored(target) {
            return Err(format!("#{target} is anchored"));
        }
        let df = (them.square.file - from.file).signum();
        let dr = (them.square.rank - from.rank).signum();
        if (df, dr) == (0, 0) {
            return Err(format!(
                "#{target} shares the square; there is no direction to push"
            ));
        }
        let to = Location::new(them.square.offset(df, dr), them.spot);
        if !field::on_field(to.square) {
            return Err(format!("#{target} is at the edge of the field"));
        }
        if let Some(other) = self.piece_at(to, target) {
            return Err(format!("#{other} stands on {to}, behind #{target}"));
        }
        self.piece_mut(target).loc = to;
        events.push(Emitted::public(Event::PiecePushed {
            piece: target,
            from: them,
            to,
        }));
        Ok(())
    }

    /// Retreat: up to two steps straight toward the own passer, through empty squares only.
    fn retreat(&mut self, id: u32, events: &mut Events) -> Result<(), String> {
        let passer = self.snap_passer(self.piece(id).owner);
        let mut steps = 0;
        for _ in 0..2 {
            let here = self.piece(id).loc;
            let goal = self.piece(passer).loc.square;
            let df = (goal.file - here.square.file).signum();
            let dr = (goal.rank - here.square.rank).signum();
            let square = here.square.offset(df, dr);
            if (df, dr) == (0, 0) || self.pieces_on(square).next().is_some() {
                break;
            }
            let to = Location::new(square, here.spot);
            self.piece_mut(id).loc = to;
            events.push(Emitted::public(Event::PieceMoved {
                piece: id,
                from: here,
                to,
            }));
            steps += 1;
        }
        if steps == 0 {
            return Err("no free square toward the own passer".into());
        }
        Ok(())
    }
}
