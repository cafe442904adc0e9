//! What the arena and the network bots ask a strategy: an action for a seat in a game.

use pitchmate_rules::{Game, Rng, Seat};

/// A strategy for any seat of `G`. It is handed the true state but must only use what `seat`
/// sees: its legal actions, and for anything more a determinization
/// ([`Game::sampled_for`]).
pub trait Player<G: Game> {
    /// One of `game.legal_actions(seat)`, which is never empty when asked.
    fn choose(&mut self, game: &G, seat: Seat) -> G::Action;

    /// Search iterations spent on the last choice (0 for players that do not search).
    fn last_iterations(&self) -> u64 {
        0
    }
}

/// Plays uniformly random legal actions.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn seeded(seed: u64) -> Self {
        Self {
            rng: Rng::new(seed),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn choose(&mut self, game: &G, seat: Seat) -> G::Action {
        let legal = game.legal_actions(seat);
        self.rng.pick(&legal).clone()
    }
}
