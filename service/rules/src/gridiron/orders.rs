//! Planning: the orders a team writes for its pieces, their movement budgets and costs.

use std::fmt;

use super::field::{self, Location, Spot};
use super::refusals::{Refusals, Verdict};
use super::roster::{Ability, Kind, Target, ability_cost};
use super::rules;
use super::{Action, Gridiron, MAX_ORDER_ITEMS};
use crate::game::Seat;
use crate::geometry::KING_DIRECTIONS;

/// A piece's order as written so far, simulated on the current board.
#[derive(Clone, Debug)]
pub(crate) struct Planned {
    pub loc: Location,
    pub spent: i8,
    pub budget: i8,
    pub last_dir: Option<(i8, i8)>,
    pub route: bool,
    pub ended: bool,
    pub items: usize,
    pub moved: bool,
    pub abilities: Vec<Ability>,
    pub faked: bool,
}

/// What a piece named as a pass receiver or play-action partner is to the passer's team.
enum NamedPiece {
    Absent,
    Opponent,
    Passer,
    /// Another piece of the team, of this kind.
    TeamMate(Kind),
}

impl fmt::Display for NamedPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NamedPiece::Absent => f.write_str("no piece"),
            NamedPiece::Opponent => f.write_str("an opponent"),
            NamedPiece::Passer => f.write_str("the passer itself"),
            NamedPiece::TeamMate(kind) => write!(f, "a {}", kind.name()),
        }
    }
}

/// The step direction between two squares (zero for a spot change).
pub(crate) fn direction(from: Location, to: Location) -> (i8, i8) {
    (
        to.square.file - from.square.file,
        to.square.rank - from.square.rank,
    )
}

/// Cost of one step: 1, plus 1 for a restricted mover changing direction (unless route running).
pub(crate) fn step_cost(kind: Kind, last_dir: Option<(i8, i8)>, dir: (i8, i8), route: bool) -> i8 {
    let turns = dir != (0, 0) && last_dir.is_some_and(|d| d != dir);
    1 + i8::from(kind.restricted() && !route && turns)
}

impl Gridiron {
    /// Movement a piece has for its coming move before anything it writes or receives this turn.
    pub(crate) fn base_budget(&self, id: u32) -> i8 {
        let p = self.piece(id);
        if p.frozen_now {
            return 0;
        }
        let burst = i8::from(self.round == 1 && p.kind.snap_burst());
        (p.kind.movement() + burst + p.change_now + self.escort_bonus(id)).max(0)
    }

    /// Escort: the lead blocker on offence gets +1 when it starts the turn next to the carrier.
    /// While a play action hides the ball, either fake partner counts as the carrier: the
    /// escort's visible reach must not tell the defence which of the two keeps the ball.
    pub(crate) fn escort_bonus(&self, id: u32) -> i8 {
        let p = self.piece(id);
        if p.kind != Kind::LeadBlocker || p.owner != self.offense {
            return 0;
        }
        let carriers = match self.fake {
            Some(fake) => vec![fake.passer, fake.partner],
            None => vec![self.holder],
        };
        let applies = carriers.into_iter().any(|carrier| {
            carrier != id && field::adjacent(p.start.square, self.piece(carrier).start.square)
        });
        i8::from(applies)
    }

    /// The ball holder as the offence plans it (its own play-action choices included).
    pub(crate) fn planned_holder(&self, seat: Seat) -> u32 {
        self.plans[seat.index()]
            .iter()
            .fold(self.holder, |holder, item| match item {
                Action::Fake { keeper, .. } => *keeper,
                _ => holder,
            })
    }

    pub(crate) fn planned(&self, seat: Seat, id: u32) -> Planned {
        let plan = &self.plans[seat.index()];
        let piece = self.piece(id);
        let allied_boosts = plan
            .iter()
            .filter(|a| {
                matches!(a, Action::Use { ability: Ability::ChipBlock | Ability::Anchor, target: Some(t), .. } if *t == id)
            })
            .count() as i8;
        let mut state = Planned {
            loc: piece.loc,
            spent: 0,
            budget: self.base_budget(id) + allied_boosts,
            last_dir: None,
            route: false,
            ended: false,
            items: 0,
            moved: false,
            abilities: Vec::new(),
            faked: false,
        };
        let on_offense = seat == self.offense;
        for item in plan.iter().filter(|a| a.order_piece() == Some(id)) {
            state.items += 1;
            match item {
                Action::Move { to, .. } => {
                    let dir = direction(state.loc, *to);
                    state.spent += step_cost(piece.kind, state.last_dir, dir, state.route);
                    if dir != (0, 0) {
                        state.last_dir = Some(dir);
                    }
                    state.loc = *to;
                    state.moved = true;
                }
                Action::Use { ability, .. } => {
                    state.spent += ability_cost(piece.kind, *ability, on_offense).unwrap_or(0);
                    state.budget += ability.self_boost();
                    state.route |= *ability == Ability::RouteRunning;
                    state.ended |= ability.ends_order();
                    state.abilities.push(*ability);
                }
                Action::Pass { .. } => state.ended = true,
                Action::Fake { .. } => state.faked = true,
                _ => {}
            }
        }
        state
    }

    /// Every order a seat may write now.
    pub(crate) fn legal_orders(&self, seat: Seat) -> Vec<Action> {
        let mut all = Vec::new();
        let own: Vec<u32> = self
            .pieces
            .iter()
            .filter(|p| p.owner == seat)
            .map(|p| p.id)
            .collect();
        let enemies: Vec<u32> = self
            .pieces
            .iter()
            .filter(|p| p.owner != seat)
            .map(|p| p.id)
            .collect();
        for &id in &own {
            if self.check_order_piece::<Verdict>(seat, id).is_err() {
                continue;
            }
            // The piece's plan is simulated once and every candidate is checked against it.
            let planned = self.planned(seat, id);
            let mut candidates = Vec::new();
            for (df, dr) in KING_DIRECTIONS.into_iter().chain([(0, 0)]) {
                let square = planned.loc.square.offset(df, dr);
                for spot in Spot::ALL {
                    candidates.push(Action::Move {
                        piece: id,
                        to: Location::new(square, spot),
                    });
                }
            }
            for ability in Ability::ALL {
                match ability.target() {
                    Target::None => candidates.push(Action::Use {
                        piece: id,
                        ability,
                        target: None,
                    }),
                    Target::Enemy => candidates.extend(enemies.iter().map(|t| Action::Use {
                        piece: id,
                        ability,
                        target: Some(*t),
                    })),
                    Target::AlliedHeavy => candidates.extend(own.iter().map(|t| Action::Use {
                        piece: id,
                        ability,
                        target: Some(*t),
                    })),
                }
            }
            if self.piece(id).kind.is_passer() && seat == self.offense {
                for &other in own.iter().filter(|o| **o != id) {
                    candidates.push(Action::Pass {
                        piece: id,
                        receiver: other,
                    });
                    for keeper in [id, other] {
                        candidates.push(Action::Fake {
                            piece: id,
                            partner: other,
                            keeper,
                        });
                    }
                }
            }
            all.extend(
                candidates
                    .into_iter()
                    .filter(|a| self.check_order_item::<Verdict>(seat, a, &planned).is_ok()),
            );
        }
        all
    }

    /// Checks one order against the seat's own plan and the public board only, so that its
    /// answer never depends on what the other team wrote.
    pub(crate) fn check_order<R: Refusals>(
        &self,
        seat: Seat,
        action: &Action,
    ) -> Result<(), R::Refusal> {
        let id = action.order_piece().expect("only orders are checked here");
        self.check_order_piece::<R>(seat, id)?;
        self.check_order_item::<R>(seat, action, &self.planned(seat, id))
    }

    /// Whether `seat` may write orders for piece `id` at all.
    fn check_order_piece<R: Refusals>(&self, seat: Seat, id: u32) -> Result<(), R::Refusal> {
        if self.committed[seat.index()] {
            return Err(R::not_your_turn(format_args!(
                "your orders are committed; wait for the reveal"
            )));
        }
        let Some(piece) = self.piece_opt(id).filter(|p| p.owner == seat) else {
            return Err(R::refuse(
                rules::OWN_PIECES,
                format_args!("#{id} is not one of your pieces"),
            ));
        };
        if piece.frozen_now {
            return Err(R::refuse(
                rules::CHOPPED,
                format_args!(
                    "#{id} lost all its movement this turn; order another piece or commit"
                ),
            ));
        }
        Ok(())
    }

    /// Checks one order item of a piece whose plan so far is `planned`.
    fn check_order_item<R: Refusals>(
        &self,
        seat: Seat,
        action: &Action,
        planned: &Planned,
    ) -> Result<(), R::Refusal> {
        let id = action.order_piece().expect("only orders are checked here");
        let piece = self.piece(id);
        if planned.ended {
            return Err(R::refuse(
                rules::ORDER_ENDED,
                format_args!("the order of #{id} is finished; order another piece or commit"),
            ));
        }
        if planned.items >= MAX_ORDER_ITEMS {
            return Err(R::refuse(
                rules::ITEMS_PER_PIECE,
                format_args!("#{id} has {MAX_ORDER_ITEMS} already; order another piece or commit"),
            ));
        }
        let left = planned.budget - planned.spent;
        let on_offense = seat == self.offense;
        match action {
            Action::Move { to, .. } => {
                let dir = direction(planned.loc, *to);
                if dir.0.abs() > 1 || dir.1.abs() > 1 {
                    return Err(R::refuse(
                        rules::KING_STEP,
                        format_args!(
                            "{to} is not one king step from {}, where #{id}'s order stands",
                            planned.loc
                        ),
                    ));
                }
                if *to == planned.loc {
                    return Err(R::refuse(
                        rules::KING_STEP,
                        format_args!("#{id}'s order already stands on {to}"),
                    ));
                }
                if !field::on_field(to.square) {
                    return Err(R::refuse(
                        rules::ON_FIELD,
                        format_args!("#{id} would step off it from {}", planned.loc),
                    ));
                }
                let cost = step_cost(piece.kind, planned.last_dir, dir, planned.route);
                if cost > left {
                    return Err(R::refuse(
                        rules::MOVEMENT_POINTS,
                        format_args!("the step to {to} costs {cost} but #{id} has {left} left"),
                    ));
                }
                Ok(())
            }
            Action::Use {
                ability, target, ..
            } => {
                let Some(cost) = ability_cost(piece.kind, *ability, on_offense) else {
                    return Err(R::refuse(
                        rules::OWN_ABILITIES,
                        format_args!(
                            "#{id} ({}) cannot use {} on {}",
                            piece.kind.name(),
                            ability.name(),
                            if on_offense { "offence" } else { "defence" }
                        ),
                    ));
                };
                if planned.abilities.contains(ability) {
                    return Err(R::refuse(
                        rules::ONCE_PER_ORDER,
                        format_args!("#{id} already uses {} in this order", ability.name()),
                    ));
                }
                if ability.limited() && piece.used.contains(ability) {
                    return Err(R::refuse(
                        rules::ONCE_PER_SERIES,
                        format_args!("#{id} used {} in this series of downs", ability.name()),
                    ));
                }
                self.check_target::<R>(seat, id, *ability, *target)?;
                if cost > left {
                    return Err(R::refuse(
                        rules::MOVEMENT_POINTS,
                        format_args!("{} costs {cost} but #{id} has {left} left", ability.name()),
                    ));
                }
                Ok(())
            }
            Action::Pass { receiver, .. } => {
                self.check_passer::<R>(seat, id)?;
                if self.pass_thrown
                    || self.plans[seat.index()]
                        .iter()
                        .any(|a| matches!(a, Action::Pass { .. }))
                {
                    return Err(R::refuse(
                        rules::ONE_PASS_PER_DOWN,
                        format_args!("this down's pass is thrown or written already"),
                    ));
                }
                if self.planned_holder(seat) != id {
                    return Err(R::refuse(
                        rules::BALL_HOLDER,
                        format_args!("#{id} will not hold the ball when its order runs"),
                    ));
                }
                if piece.kind == Kind::Qb && planned.moved {
                    return Err(R::refuse(
                        rules::QB_PASSES_STANDING,
                        format_args!("#{id} has a step in its order already"),
                    ));
                }
                match self.named_piece(seat, id, *receiver) {
                    NamedPiece::TeamMate(kind) if kind.eligible_receiver() => Ok(()),
                    named => Err(R::refuse(
                        rules::ELIGIBLE_RECEIVER,
                        format_args!("#{receiver} is {named}"),
                    )),
                }
            }
            Action::Fake {
                partner, keeper, ..
            } => {
                self.check_passer::<R>(seat, id)?;
                if planned.faked {
                    return Err(R::refuse(
                        rules::ONCE_PER_ORDER,
                        format_args!("#{id} already has a play action in this order"),
                    ));
                }
                let renews = self
                    .fake
                    .is_some_and(|f| f.passer == id && f.partner == *partner);
                if self.planned_holder(seat) != id && !renews {
                    return Err(R::refuse(
                        rules::BALL_HOLDER,
                        format_args!("#{id} will not hold the ball when its order runs"),
                    ));
                }
                match self.named_piece(seat, id, *partner) {
                    NamedPiece::TeamMate(kind) if !kind.is_heavy() => {}
                    named => {
                        return Err(R::refuse(
                            rules::FAKE_PARTNER,
                            format_args!("#{partner} is {named}"),
                        ));
                    }
                }
                if *keeper != id && keeper != partner {
                    return Err(R::refuse(
                        rules::FAKE_KEEPER,
                        format_args!("the keeper must be #{id} or #{partner}, not #{keeper}"),
                    ));
                }
                Ok(())
            }
            _ => unreachable!("check_order takes orders only"),
        }
    }

    /// What `other`, named as receiver or partner of `passer`, is to `seat`'s team.
    fn named_piece(&self, seat: Seat, passer: u32, other: u32) -> NamedPiece {
        match self.piece_opt(other) {
            None => NamedPiece::Absent,
            Some(p) if p.owner != seat => NamedPiece::Opponent,
            Some(p) if p.id == passer => NamedPiece::Passer,
            Some(p) => NamedPiece::TeamMate(p.kind),
        }
    }

    fn check_passer<R: Refusals>(&self, seat: Seat, id: u32) -> Result<(), R::Refusal> {
        if seat != self.offense {
            return Err(R::refuse(
                rules::PASSERS,
                format_args!("your team is on defence"),
            ));
        }
        if !self.piece(id).kind.is_passer() {
            return Err(R::refuse(
                rules::PASSERS,
                format_args!("#{id} is a {}", self.piece(id).kind.name()),
            ));
        }
        Ok(())
    }

    fn check_target<R: Refusals>(
        &self,
        seat: Seat,
        id: u32,
        ability: Ability,
        target: Option<u32>,
    ) -> Result<(), R::Refusal> {
        let found = target.and_then(|t| self.piece_opt(t));
        let fine = match ability.target() {
            Target::None => target.is_none(),
            Target::Enemy => found.is_some_and(|t| t.owner != seat),
            Target::AlliedHeavy => {
                found.is_some_and(|t| t.owner == seat && t.id != id && t.kind.is_heavy())
            }
        };
        if fine {
            return Ok(());
        }
        Err(match ability.target() {
            Target::None => R::refuse(
                rules::ABILITY_TARGET,
                format_args!("{} takes no target", ability.name()),
            ),
            Target::Enemy => R::refuse(
                rules::ABILITY_TARGET,
                format_args!("{} needs an opposing piece as its target", ability.name()),
            ),
            Target::AlliedHeavy => R::refuse(
                rules::ABILITY_TARGET,
                format_args!(
                    "{} needs another of your heavy pieces (heavy, rusher, lineman) as its target",
                    ability.name()
                ),
            ),
        })
    }
}
