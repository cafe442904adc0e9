//! What a viewer cannot see, and drawing it afresh: determinizations for a seat (see
//! [`Game::sampled_for`]) and positions read with unknown parts.
//!
//! A seat does not see the other team's roster draft while rosters are hidden, the other team's
//! orders until they are revealed, nor who holds the ball after the offence's play action; a
//! spectator sees none of these for either team. Drawing forgets them and draws them again: a
//! draft and orders are written afresh by uniformly random legal actions (only when the team
//! had committed them, so that whether it committed, which everybody sees, stays as it was;
//! uncommitted ones are simply dropped and the team plans again), and the hidden holder is one
//! of the two pieces that may hold it.

use super::roster::RosterDraft;
use super::{Action, Gridiron, Phase};
use crate::game::{Game, Seat, Viewer};
use crate::rng::Rng;

/// Most random actions a redrawn roster or plan may take before it is committed outright.
const MAX_REDRAWN_ACTIONS: usize = 64;

/// The hidden parts of a state that one viewer cannot see (or a position leaves unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hidden {
    /// Each team's roster draft, by seat index.
    pub drafts: [bool; 2],
    /// Each team's orders of the current turn, by seat index.
    pub plans: [bool; 2],
    /// Who keeps the ball after a play action.
    pub holder: bool,
}

impl Hidden {
    pub(crate) fn any(self) -> bool {
        self.drafts.contains(&true) || self.plans.contains(&true) || self.holder
    }
}

impl Gridiron {
    /// What `viewer` cannot see now.
    pub(crate) fn hidden_from(&self, viewer: Viewer) -> Hidden {
        let unseen = |seat: Seat| !viewer.sees_private_of(seat);
        let seats = [Seat(0), Seat(1)];
        let drafting = self.phase == Phase::Roster;
        // Orders exist for both teams at the snap, for the team writing in a reaction turn, and
        // for the offence that ran them while the defence reacts (its play action unrevealed).
        let has_plan = |seat: Seat| match self.phase {
            Phase::Snap => true,
            Phase::Reaction(acting) => acting == seat || seat == self.offense,
            _ => false,
        };
        Hidden {
            drafts: seats.map(|seat| drafting && unseen(seat)),
            plans: seats.map(|seat| has_plan(seat) && unseen(seat)),
            holder: self.fake.is_some() && unseen(self.offense),
        }
    }

    pub(crate) fn sample_for(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut sample = self.clone();
        sample.reseed_chance(rng);
        sample.draw_hidden(self.hidden_from(Viewer::Seat(seat)), rng);
        sample
    }

    /// Forgets the `hidden` parts and draws them again from `rng`.
    pub(crate) fn draw_hidden(&mut self, hidden: Hidden, rng: &mut Rng) {
        for seat in [Seat(0), Seat(1)] {
            let had_committed = self.committed[seat.index()];
            if hidden.drafts[seat.index()] {
                self.drafts[seat.index()] = RosterDraft::default();
                self.committed[seat.index()] = false;
                if had_committed {
                    self.redraw(seat, Action::CommitRoster, rng);
                }
            }
            if hidden.plans[seat.index()] {
                self.plans[seat.index()].clear();
                if had_committed && self.phase == Phase::Snap {
                    self.committed[seat.index()] = false;
                    self.redraw(seat, Action::Commit, rng);
                }
            }
        }
        if let Some(fake) = self.fake
            && hidden.holder
        {
            self.holder = *rng.pick(&[fake.passer, fake.partner]);
        }
    }

    /// Plays random legal actions for `seat` until it has played `commit`; past the cap it
    /// commits whatever it has (a default roster when its draft is incomplete).
    fn redraw(&mut self, seat: Seat, commit: Action, rng: &mut Rng) {
        for _ in 0..MAX_REDRAWN_ACTIONS {
            let legal = self.legal_actions(seat);
            if legal.is_empty() {
                return;
            }
            let action = rng.pick(&legal).clone();
            self.apply(seat, &action)
                .expect("a listed legal action must apply");
            if action == commit {
                return;
            }
        }
        if commit == Action::CommitRoster && !self.drafts[seat.index()].is_complete() {
            self.apply(seat, &Action::DefaultRoster)
                .expect("a default roster is always legal while drafting");
        }
        self.apply(seat, &commit)
            .expect("committing is legal once the draft or plan is written");
    }
}
