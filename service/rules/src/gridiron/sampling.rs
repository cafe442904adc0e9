//! Determinizations for a seat: what it cannot see, redrawn (see [`Game::sampled_for`]).
//!
//! A seat does not see the other team's roster draft while rosters are hidden, the other team's
//! orders until they are revealed, nor who holds the ball after the offence's play action.
//! A sample forgets all three and draws them again: the other team's draft and orders are
//! written afresh by uniformly random legal actions (only when it had committed them, so that
//! whether it committed, which everybody sees, stays as it was; uncommitted ones are simply
//! dropped and the other team plans again), and the hidden holder is one of the two pieces that
//! may hold it.

use super::roster::RosterDraft;
use super::{Action, Gridiron, Phase};
use crate::game::{Game, Seat};
use crate::rng::Rng;

/// Most random actions a redrawn roster or plan may take before it is committed outright.
const MAX_REDRAWN_ACTIONS: usize = 64;

impl Gridiron {
    pub(crate) fn sample_for(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut sample = self.clone();
        sample.reseed_chance(rng);
        let other = seat.opponent();
        let had_committed = sample.committed[other.index()];
        match sample.phase {
            Phase::Roster => {
                sample.drafts[other.index()] = RosterDraft::default();
                sample.committed[other.index()] = false;
                if had_committed {
                    sample.redraw(other, Action::CommitRoster, rng);
                }
            }
            Phase::Snap | Phase::Reaction(_) => {
                sample.plans[other.index()].clear();
                if had_committed && sample.phase == Phase::Snap {
                    sample.committed[other.index()] = false;
                    sample.redraw(other, Action::Commit, rng);
                }
            }
            Phase::FourthDown | Phase::Formation(_) | Phase::Over => {}
        }
        if let Some(fake) = sample.fake
            && seat != sample.offense
        {
            sample.holder = *rng.pick(&[fake.passer, fake.partner]);
        }
        sample
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
